// Meshway's resolved config (resolveConfig's output) as the options of the other builders it is
// compared with, the way RecastDemo passes them. One mapping for the build and query benches and
// for the differential tests (test/helpers/detour.ts); plain data, no imports, so both the benches
// (running on dist) and the tests (running on src) can load it. Types: generator-config.d.ts.

/**
 * recast-navigation's generator config: agent sizes and edge length in voxels, region sizes as the
 * SIDE in cells (the generator squares them), detail sample distance / max error in cells (the
 * generator multiplies by cs / ch).
 */
export function recastGeneratorConfig(cfg) {
  return {
    cs: cfg.cellSize,
    ch: cfg.cellHeight,
    walkableSlopeAngle: cfg.walkableSlopeDegrees,
    walkableHeight: cfg.walkableHeightVoxels,
    walkableClimb: cfg.walkableClimbVoxels,
    walkableRadius: cfg.walkableRadiusVoxels,
    maxEdgeLen: cfg.edgeMaxLenVoxels,
    maxSimplificationError: cfg.edgeMaxErrorVoxels,
    minRegionArea: cfg.regionMinSize,
    mergeRegionArea: cfg.regionMergeSize,
    maxVertsPerPoly: cfg.vertsPerPoly,
    detailSampleDist: cfg.detailSampleDist,
    detailSampleMaxError: cfg.detailSampleMaxError,
  };
}

/** navcat/blocks generateSoloNavMesh options: voxel and world sizes both, areas in cells. */
export function navcatGeneratorOptions(cfg) {
  return {
    cellSize: cfg.cellSize,
    cellHeight: cfg.cellHeight,
    walkableRadiusVoxels: cfg.walkableRadiusVoxels,
    walkableRadiusWorld: cfg.agentRadius,
    walkableClimbVoxels: cfg.walkableClimbVoxels,
    walkableClimbWorld: cfg.agentMaxClimb,
    walkableHeightVoxels: cfg.walkableHeightVoxels,
    walkableHeightWorld: cfg.agentHeight,
    walkableSlopeAngleDegrees: cfg.walkableSlopeDegrees,
    borderSize: 0,
    minRegionArea: cfg.minRegionAreaCells,
    mergeRegionArea: cfg.mergeRegionAreaCells,
    maxSimplificationError: cfg.edgeMaxErrorVoxels,
    maxEdgeLength: cfg.edgeMaxLenVoxels,
    maxVerticesPerPoly: cfg.vertsPerPoly,
    detailSampleDistance: cfg.detailSampleDistWorld,
    detailSampleMaxError: cfg.detailSampleMaxErrorWorld,
  };
}
