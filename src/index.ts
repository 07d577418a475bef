// meshway: triangle soup in, convex-polygon navigation mesh out.
// The public API, part by part (README "API" lists it). Anything not exported here is internal:
// reachable through its module path in this repository, but not part of the package's contract.
// The explainer lesson and the PNG/SVG renderer are entry points of their own (meshway/lesson,
// meshway/render): keeping them out of here keeps `import("meshway")` small (issue 17).

// --- Config and errors ---
export {
  type BuildConfig,
  type BuildConfigInput,
  DEFAULT_CONFIG,
  type Partition,
  type ResolvedConfig,
  resolveConfig,
  toBuildConfig,
} from "./config.js";
export * from "./crowd/index.js";
export { MeshwayError, type MeshwayErrorCode } from "./errors.js";
// --- Formats: .navmesh bytes, Detour import, format detection ---
export * from "./format/index.js";
// --- Build: buildNavMesh, the pipeline halves, every stage ---
export * from "./generate/index.js";
// --- Input: triangle meshes, OBJ ---
export {
  type TriangleMesh,
  type TriangleMeshInput,
  type UpAxis,
  validateTriangleMesh,
} from "./input.js";
// The OBJ parts of meshway/io (its glTF parser is left to meshway/io, to keep it out of here).
export { parseObj, parseObjBytes } from "./io/obj.js";
export { type ObjPolygons, parseObjPolygons } from "./io/obj-polygons.js";
export { diagnoseOrientation, type FacingShares, facingShares } from "./io/orientation.js";
// --- The runtime navmesh: tiles, refs, flags and areas, validation ---
export { countConnectedComponents, labelConnectedComponents } from "./navmesh/components.js";
export { type GetCostFn, type PassFilterFn, QueryFilter } from "./navmesh/filter.js";
export {
  type FloodFillResult,
  floodFillNavMesh,
  isReachable,
  pruneUnreachable,
} from "./navmesh/flood-fill.js";
export {
  closestPointOnPoly,
  closestPointOnPolyBoundary,
  distancePtSegSqrXZ,
  pointInPolyXZ,
  polyCenter,
  polyHeight,
  segmentParamXZ,
} from "./navmesh/geometry.js";
export {
  NavMesh,
  type NavMeshParams,
  navMeshArea,
  type OffMeshConnection,
  type OffMeshConnectionInfo,
} from "./navmesh/nav-mesh.js";
export {
  collectNeighbours,
  getPolyArea,
  getPolyFlags,
  getPortalPoints,
} from "./navmesh/neighbours.js";
export {
  // classifyRef: stale refs give queries status "invalidRef", malformed ones throw.
  classifyRef,
  encodePolyRef,
  isLiveRef,
  type PolyRef,
  polyOfRef,
  type RefClass,
  saltOfRef,
  tileOfRef,
} from "./navmesh/poly-ref.js";
export { markTileStateChanged, tileStateVersion } from "./navmesh/poly-state.js";
export {
  EDGE_TILE_BORDER,
  EDGE_WALL,
  type NavMeshTile,
  POLY_FLAG_WALK,
  polygonAreaXZ,
} from "./navmesh/tile.js";
export {
  type NavMeshValidation,
  type ValidateOptions,
  validateNavMesh,
} from "./navmesh/validate.js";
export { type PolyVolume, pointInVolume } from "./navmesh/volume.js";
// --- Queries (the node pool, open list and search constants stay internal) ---
export {
  type ComputePathOptions,
  type ComputePathResult,
  createFindPathResult,
  createNearestPolyResult,
  DEFAULT_HALF_EXTENTS,
  DistanceToWallResult,
  type FindPathResult,
  findDistanceToWall,
  findPolysAroundCircle,
  findRandomPoint,
  findRandomPointAroundCircle,
  findStraightPath,
  MoveAlongSurfaceResult,
  moveAlongSurface,
  mulberry32,
  NavMeshQuery,
  NavMeshQueryCore,
  type NavMeshQueryOptions,
  type NearestPolyResult,
  PathFinder,
  PolysAroundCircleResult,
  type QueryStatus,
  RandomPointResult,
  RaycastHit,
  type RaycastOptions,
  raycast,
  type SlicedStatus,
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  STRAIGHT_PATH_START,
  StraightPath,
  type StraightPathOptions,
} from "./query/index.js";
// Exact shortest paths (any-angle, Polyanya-style): findShortestPath(query, start, end) (a free
// function, so apps that never call it do not ship it) and the allocation-free finder behind it.
export { findShortestPath } from "./query/shortest-path/find-shortest-path.js";
export { ShortestPath } from "./query/shortest-path/reconstruct.js";
export {
  DEFAULT_SHORTEST_MAX_NODES,
  ShortestPathFinder,
} from "./query/shortest-path/search.js";
// --- Tiled builds, worker pools, the tile cache (obstacles, area volumes) ---
export * from "./tiles/index.js";
