// meshway/io: input formats, platform-free. The core entry ("meshway") re-exports only the OBJ
// parts (src/index.ts), so the glTF parser is loaded only by those who import meshway/io.
export {
  type BufferResolver,
  DEFAULT_MAX_TRIANGLES,
  type GlbOptions,
  type GltfOptions,
  type GltfParseResult,
  parseGlb,
  parseGltf,
} from "./gltf/index.js";
export { parseObj, parseObjBytes } from "./obj.js";
export { type ObjPolygons, parseObjPolygons } from "./obj-polygons.js";
export { diagnoseOrientation, type FacingShares, facingShares } from "./orientation.js";
