// The three builders under comparison, each given the same (RecastDemo default) configuration.
import { init } from "@recast-navigation/core";
import { generateSoloNavMesh as wasmGenerate } from "@recast-navigation/generators";
import { generateSoloNavMesh as navcatGenerate } from "navcat/blocks";
import { buildNavMesh, resolveConfig } from "../dist/index.js";

export async function makeBuilders(config = {}) {
  await init();
  const cfg = resolveConfig(config);
  const wasmConfig = {
    cs: cfg.cellSize,
    ch: cfg.cellHeight,
    walkableSlopeAngle: cfg.agentMaxSlope,
    walkableHeight: cfg.walkableHeightVoxels,
    walkableClimb: cfg.walkableClimbVoxels,
    walkableRadius: cfg.walkableRadiusVoxels,
    maxEdgeLen: cfg.edgeMaxLenVoxels,
    maxSimplificationError: cfg.edgeMaxError,
    minRegionArea: cfg.regionMinSize, // the generator squares these
    mergeRegionArea: cfg.regionMergeSize,
    maxVertsPerPoly: cfg.vertsPerPoly,
    detailSampleDist: cfg.detailSampleDist, // the generator multiplies by cs / ch
    detailSampleMaxError: cfg.detailSampleMaxError,
  };
  const navcatOptions = {
    cellSize: cfg.cellSize,
    cellHeight: cfg.cellHeight,
    walkableRadiusVoxels: cfg.walkableRadiusVoxels,
    walkableRadiusWorld: cfg.agentRadius,
    walkableClimbVoxels: cfg.walkableClimbVoxels,
    walkableClimbWorld: cfg.agentMaxClimb,
    walkableHeightVoxels: cfg.walkableHeightVoxels,
    walkableHeightWorld: cfg.agentHeight,
    walkableSlopeAngleDegrees: cfg.agentMaxSlope,
    borderSize: 0,
    minRegionArea: cfg.minRegionAreaCells,
    mergeRegionArea: cfg.mergeRegionAreaCells,
    maxSimplificationError: cfg.edgeMaxErrorVoxels,
    maxEdgeLength: cfg.edgeMaxLenVoxels,
    maxVerticesPerPoly: cfg.vertsPerPoly,
    detailSampleDistance: cfg.detailSampleDistWorld,
    detailSampleMaxError: cfg.detailSampleMaxErrorWorld,
  };
  return {
    meshway: (mesh) => {
      const r = buildNavMesh(mesh, config);
      return r.stats.polygons;
    },
    wasm: (mesh) => {
      const r = wasmGenerate(mesh.positions, mesh.indices, wasmConfig);
      if (!r.success) throw new Error(`recast wasm failed: ${r.error}`);
      const n = r.navMesh.getMaxTiles();
      r.navMesh.destroy();
      return n;
    },
    navcat: (mesh) => {
      const r = navcatGenerate({ positions: mesh.positions, indices: mesh.indices }, navcatOptions);
      return r.intermediates.polyMesh.nPolys;
    },
  };
}
