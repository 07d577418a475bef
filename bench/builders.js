// The three builders under comparison, each given the same (RecastDemo default) configuration.
// Libraries are imported lazily, so a peak-RSS child process loads only the one it measures.
import { buildNavMesh, resolveConfig } from "../dist/index.js";
import { navcatGeneratorOptions, recastGeneratorConfig } from "./generator-config.js";

export async function makeBuilders(config = {}, only = ["meshway", "wasm", "navcat"]) {
  let wasmGenerate;
  let navcatGenerate;
  if (only.includes("wasm")) {
    const core = await import("@recast-navigation/core");
    await core.init();
    wasmGenerate = (await import("@recast-navigation/generators")).generateSoloNavMesh;
  }
  if (only.includes("navcat")) {
    navcatGenerate = (await import("navcat/blocks")).generateSoloNavMesh;
  }
  const cfg = resolveConfig(config);
  const wasmConfig = recastGeneratorConfig(cfg);
  const navcatOptions = navcatGeneratorOptions(cfg);
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
