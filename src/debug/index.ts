// meshway/debug: engine-agnostic debug primitives (positions + colours for triangles, lines,
// points) of every build stage and runtime state, in the palette the PNG renderer uses.

export * as palette from "../navmesh/palette.js";
export { type NavMeshColourBy, tilePolygonColours } from "./colour-by.js";
export { drawContours, drawRegionConnections } from "./contours.js";
export { type DrawCrowdOptions, drawCrowd } from "./crowd.js";
export { drawCompactHeightfield, drawHeightfield } from "./heightfield.js";
export {
  type DrawNavMeshOptions,
  drawNavMesh,
  drawNavMeshBVTree,
  drawNavMeshPortals,
  drawOffMeshConnections,
  drawTileBorders,
} from "./navmesh.js";
export {
  type NavMeshGeometry,
  type NavMeshGeometryOptions,
  navMeshGeometry,
} from "./navmesh-geometry.js";
export { drawPolyMesh, drawPolyMeshDetail } from "./polymesh.js";
export { type DebugPrimitive, type DebugPrimitiveKind, PrimitiveBuilder } from "./primitive.js";
export { drawClosedList, drawCorridor, drawNodePool, drawPath } from "./query.js";
export { type DebugObstacleShape, drawAreaVolumes, drawObstacles } from "./volumes.js";
