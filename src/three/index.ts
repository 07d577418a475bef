// meshway/three: the three.js adapter (three is an optional peer dependency; the core never
// imports it). Scene → triangles for buildNavMesh, and helpers drawing meshway/debug primitives.
export { CrowdHelper, type CrowdHelperOptions, type CrowdLike } from "./crowd-helper.js";
export { DebugDrawer } from "./debug-drawer.js";
export {
  type GetPositionsAndIndicesOptions,
  getPositionsAndIndices,
  type ScenePositionsAndIndices,
} from "./geometry.js";
export { NavMeshHelper, type NavMeshHelperOptions } from "./nav-mesh-helper.js";
export { TileCacheHelper, type TileCacheLike } from "./tile-cache-helper.js";
