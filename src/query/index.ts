// Navmesh queries: the NavMeshQuery object, its search building blocks, and the queries that
// live in their own modules (also reachable as NavMeshQuery methods).
export { DistanceToWallResult, findDistanceToWall } from "./distance-to-wall.js";
export { finalizeSlicedPartial } from "./finalize-partial.js";
export { type FindPathResult, H_SCALE, PathFinder, type SlicedStatus } from "./find-path.js";
export { findLocalNeighbourhood, LocalNeighbourhoodResult } from "./local-neighbourhood.js";
export { MoveAlongSurfaceResult, moveAlongSurface } from "./move-along-surface.js";
export {
  type ComputePathOptions,
  type ComputePathResult,
  createFindPathResult,
  createNearestPolyResult,
  DEFAULT_HALF_EXTENTS,
  NavMeshQuery,
  NavMeshQueryCore,
  type NavMeshQueryOptions,
  type NearestPolyResult,
} from "./nav-mesh-query.js";
export {
  MAX_NODE_STATES,
  NODE_CLOSED,
  NODE_OPEN,
  NODE_PARENT_DETACHED,
  NodePool,
  NodeQueue,
  NULL_NODE,
} from "./node-pool.js";
export { findPolysAroundCircle, PolysAroundCircleResult } from "./polys-around-circle.js";
export { findPolysAroundShape, PolysAroundShapeResult } from "./polys-around-shape.js";
export {
  findRandomPoint,
  findRandomPointAroundCircle,
  mulberry32,
  RandomPointResult,
} from "./random-point.js";
export { RaycastHit, type RaycastOptions, raycast } from "./raycast.js";
export { findShortestPath } from "./shortest-path/find-shortest-path.js";
export type { QueryStatus } from "./status.js";
export {
  findStraightPath,
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  STRAIGHT_PATH_START,
  StraightPath,
  type StraightPathOptions,
} from "./straight-path.js";
export {
  getPolyWallSegments,
  type WallSegmentsOptions,
  WallSegmentsResult,
} from "./wall-segments.js";
