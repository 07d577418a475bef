export { parseObj } from "./obj.js";
export { diagnoseOrientation, type FacingShares, facingShares } from "./orientation.js";
