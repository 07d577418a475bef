// Agents that walk: the crowd and its building blocks (tree-shakable: nothing here runs on
// import). The query results the crowd rests on are re-exported for direct use.

export { LocalNeighbourhoodResult } from "../query/local-neighbourhood.js";
export { PolysAroundShapeResult } from "../query/polys-around-shape.js";
export { type WallSegmentsOptions, WallSegmentsResult } from "../query/wall-segments.js";
export {
  type AgentParams,
  ALL_UPDATE_FLAGS,
  type AvoidanceKind,
  updateFlags,
} from "./agent-params.js";
export {
  type AgentState,
  Crowd,
  type CrowdOptions,
  type OffMeshTraversal,
  type TargetState,
} from "./crowd.js";
export { LocalBoundary, MAX_LOCAL_POLYS, MAX_LOCAL_SEGS } from "./local-boundary.js";
// Local steering blocks, usable on their own (a game's own agents, a server simulation).
export {
  AVOIDANCE_PRESETS,
  DEFAULT_AVOIDANCE_PARAMS,
  type ObstacleAvoidanceParams,
  ObstacleAvoidanceQuery,
} from "./obstacle-avoidance.js";
export { DEFAULT_ORCA_PARAMS, type OrcaParams, OrcaPlanner } from "./orca.js";
export {
  type CornerBuffers,
  mergeCorridorEndMoved,
  mergeCorridorStartMoved,
  mergeCorridorStartShortcut,
  PathCorridor,
} from "./path-corridor.js";
export {
  PATH_QUEUE_INVALID,
  PATH_QUEUE_SIZE,
  PathQueue,
  type PathQueueRef,
  type PathRequestStatus,
} from "./path-queue.js";
export { ProximityGrid } from "./proximity-grid.js";
