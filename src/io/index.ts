export { parseObj, parseObjBytes } from "./obj.js";
export { diagnoseOrientation, type FacingShares, facingShares } from "./orientation.js";
