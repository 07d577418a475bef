// Tile cache persistence benchmark: bytes of a saved meshway tile cache (TileCache.serialize)
// against recast-navigation's exportTileCache (Detour's dtTileCache set: FastLZ-compressed
// heightfield layers plus tile headers; Detour rebuilds the navmesh tiles from them on load) of
// the same scene, config and tile size; and the time to load a saved cache
// (TileCache.deserialize) plus a first query, against building the cache from the triangles
// (createTileCache). Builds and loads alternate run by run after a warm-up of each, so both see
// the same machine; medians. The machine is shared: read the ratios.
//
// Usage: npm run build && node bench/tile-cache-file.bench.js
//          [--scenes nav_test,dungeon,undulating] [--tile-size 48] [--runs 5] [--clock cpu|wall]
//          [--sections]   (also print the saved bytes per block kind)
// --clock cpu (default) times by this process's CPU time (all its threads), leaving out the
// time other processes take from it; wall for the wall clock.
import { parseArgs } from "node:util";
import { createTileCache, NavMeshQuery, resolveConfig, TileCache } from "../dist/index.js";
import { recastGeneratorConfig } from "./generator-config.js";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    scenes: { type: "string", default: "nav_test,dungeon,undulating" },
    "tile-size": { type: "string", default: "48" },
    runs: { type: "string", default: "5" },
    clock: { type: "string", default: "cpu" },
    sections: { type: "boolean", default: false },
  },
});
const RUNS = Number(values.runs);
const tileSize = Number(values["tile-size"]);
if (values.clock !== "wall" && values.clock !== "cpu") throw new Error("--clock is wall or cpu");
const clock =
  values.clock === "cpu"
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();

const core = await import("@recast-navigation/core");
await core.init();
const { generateTileCache } = await import("@recast-navigation/generators");

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** Stored bytes per block tag of a tile cache image (block headers and padding included). */
function sections(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = { header: 32 };
  for (let at = 32; at + 16 <= bytes.length; ) {
    const len = dv.getUint32(at, true);
    const tag = String.fromCharCode(...bytes.subarray(at + 4, at + 8)).trim();
    const size = 16 + Math.ceil(len / 8) * 8;
    out[tag] = (out[tag] ?? 0) + size;
    at += size;
  }
  return Object.entries(out)
    .map(([k, v]) => `${k} ${kb(v)}`)
    .join(", ");
}

const rows = [];
const parts = [];
for (const name of values.scenes.split(",")) {
  const mesh = loadScene(name);
  const cfg = resolveConfig({ tileSize });
  const probe = [mesh.positions[0], mesh.positions[1], mesh.positions[2]];
  let cache = createTileCache(mesh, { tileSize }).cache; // warm-up
  const bytes = cache.serialize();
  TileCache.deserialize(bytes);
  const builds = [];
  const loads = [];
  for (let r = 0; r < RUNS; r++) {
    let t0 = clock();
    cache = createTileCache(mesh, { tileSize }).cache;
    builds.push(clock() - t0);
    t0 = clock();
    const loaded = TileCache.deserialize(bytes);
    new NavMeshQuery(loaded.navMesh).findNearestPoly(probe, [2, 4, 2]);
    loads.push(clock() - t0);
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
  if (values.sections) parts.push(`${name}: ${sections(bytes)}`);
}
console.log(
  `tile cache files, tile size ${tileSize}, ${RUNS} alternating runs (median), ${values.clock} clock`,
);
console.table(rows);
for (const p of parts) console.log(p);
