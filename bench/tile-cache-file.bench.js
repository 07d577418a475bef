// Tile cache persistence benchmark: bytes of a saved meshway tile cache (TileCache.serialize)
// against recast-navigation's exportTileCache (Detour's dtTileCache set: FastLZ-compressed
// heightfield layers plus tile headers) of the same scene, config and tile size; and the time
// to load a saved cache (TileCache.deserialize) plus a first query, against building the cache
// from the triangles (createTileCache). Medians; the machine is shared: read the ratios.
//
// Usage: npm run build && node bench/tile-cache-file.bench.js [--scenes nav_test,dungeon]
//          [--tile-size 48] [--runs 5]
import { parseArgs } from "node:util";
import { createTileCache, NavMeshQuery, resolveConfig, TileCache } from "../dist/index.js";
import { recastGeneratorConfig } from "./generator-config.js";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    scenes: { type: "string", default: "nav_test,dungeon" },
    "tile-size": { type: "string", default: "48" },
    runs: { type: "string", default: "5" },
  },
});
const RUNS = Number(values.runs);
const tileSize = Number(values["tile-size"]);

const core = await import("@recast-navigation/core");
await core.init();
const { generateTileCache } = await import("@recast-navigation/generators");

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const rows = [];
for (const name of values.scenes.split(",")) {
  const mesh = loadScene(name);
  const cfg = resolveConfig({ tileSize });
  const builds = [];
  let cache;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    cache = createTileCache(mesh, { tileSize }).cache;
    builds.push(performance.now() - t0);
  }
  const bytes = cache.serialize();
  const probe = [mesh.positions[0], mesh.positions[1], mesh.positions[2]];
  const loads = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    const loaded = TileCache.deserialize(bytes);
    new NavMeshQuery(loaded.navMesh).findNearestPoly(probe, [2, 4, 2]);
    loads.push(performance.now() - t0);
  }
  const dt = generateTileCache(mesh.positions, mesh.indices, {
    ...recastGeneratorConfig(cfg),
    tileSize,
    expectedLayersPerTile: 4,
    maxObstacles: 256,
  });
  if (!dt.success) throw new Error(`recast tile cache failed: ${dt.error}`);
  const detourBytes = core.exportTileCache(dt.navMesh, dt.tileCache).length;
  dt.tileCache.destroy();
  dt.navMesh.destroy();
  rows.push({
    scene: name,
    meshway: kb(bytes.length),
    detour: kb(detourBytes),
    ratio: (bytes.length / detourBytes).toFixed(2),
    buildMs: median(builds).toFixed(1),
    loadQueryMs: median(loads).toFixed(2),
    buildOverLoad: (median(builds) / median(loads)).toFixed(1),
  });
}
console.log(`tile cache files, tile size ${tileSize}, ${RUNS} runs (median)`);
console.table(rows);
