// The builder: buildNavMesh, its two pipeline halves and every stage as a plain function.
export {
  type AreaVolume,
  applyAreaVolumes,
  markBoxArea,
  markConvexPolyArea,
  markCylinderArea,
  medianFilterWalkableArea,
} from "./areas.js";
export type { BuildHooks } from "./build-hooks.js";
export {
  type BuildIntermediates,
  type BuildOptions,
  type BuildResult,
  type BuildStats,
  buildNavMesh,
  buildNavMeshCore,
  type CoreBuildOptions,
} from "./build-nav-mesh.js";
export { buildNavMeshes, type MultiBuildResult } from "./build-nav-meshes.js";
export { buildCompactHeightfield } from "./compact.js";
export { BuildContext } from "./context.js";
export {
  buildContours,
  CONTOUR_TESS_AREA_EDGES,
  CONTOUR_TESS_WALL_EDGES,
} from "./contours.js";
export { buildPolyMeshDetail } from "./detail.js";
export { buildDistanceField } from "./distance-field.js";
export { erodeWalkableArea } from "./erode.js";
export {
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
} from "./filter.js";
export {
  type AuthoredPolygons,
  type FromPolygonsOptions,
  type FromPolygonsReport,
  navMeshFromPolygons,
} from "./from-polygons.js";
export { computeBounds, gridSize } from "./grid.js";
export { addSpan, countSpans, createHeightfield } from "./heightfield.js";
export { createNavMeshTile } from "./nav-mesh-tile.js";
export {
  ALL_PARTITIONS,
  type PartitionRegions,
  type PartitionTable,
  partitionLayers,
  partitionMonotone,
  partitionRegions,
  partitionWatershed,
} from "./partition.js";
export {
  type CompactStageOptions,
  type CompactStageResult,
  countWalkableSpans,
  type MeshStageOptions,
  type MeshStageResult,
  runAreaStage,
  runCompactStage,
  runMeshStage,
  runMeshStageWith,
  type StageBox,
  type StageLap,
} from "./pipeline.js";
export { buildPolyMesh } from "./polymesh.js";
export { markWalkableTriangles, rasterizeTriangles, SKIP_TRIANGLE } from "./rasterize.js";
export { buildRegionsLayers } from "./regions-layers.js";
export { buildRegionsMonotone } from "./regions-monotone.js";
export { buildRegionsWatershed } from "./regions-watershed.js";
export {
  BuildScratch,
  MAX_RETAINED_SCRATCH_BYTES,
  type ScratchSlot,
  sharedBuildScratch,
} from "./scratch.js";
export * from "./types.js";
