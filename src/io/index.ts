export { parseObj, parseObjBytes } from "./obj.js";
export { type ObjPolygons, parseObjPolygons } from "./obj-polygons.js";
export { diagnoseOrientation, type FacingShares, facingShares } from "./orientation.js";
