// Obstacle benchmark: how long one runtime obstacle takes to apply (TileCache: add + flush, and
// remove + flush) and how many tiles it rebuilds, against one full tile build (rasterize from
// the triangles → … → detail) of the same tiles, measured in the same process, interleaved.
// Also a batch of obstacles spread over frames with update(budgetMs), and the same obstacles on
// recast-navigation's TileCache (Detour's dtTileCache in WASM, same config and tile size): add +
// update until up to date, remove + update. Detour's tile cache does less per tile (no erosion
// around obstacles, no detail mesh, layers instead of full columns), so it is a speed reference,
// not the same work.
// Also the cache's own build: createTileCache (one thread, blocking) against createTileCacheNode
// on 1 and 2 worker threads, rotating order, with the longest the calling thread went without
// running a timer during each build (its longest stall) and a byte-identity check.
// Seeded; medians; the machine is shared, so read the ratios, not the milliseconds.
//
// Usage: npm run build && node bench/obstacles.bench.js [--scene large] [--obstacles 200]
//          [--warmup 20] [--tile-size 64] [--radius 0.5,1.5] [--batch 500] [--budget 4] [--no-wasm]
//          [--clock wall|cpu]   (cpu: this process's CPU time; update(budget) itself keeps the wall clock)
//          [--build-runs 2] (0: skip the cache-build comparison)
import { parseArgs } from "node:util";
import {
  binTriangles,
  buildTileCompact,
  buildTileFromCompact,
  createTileCache,
  markWalkableTriangles,
  mulberry32,
  resolveConfig,
  serializeNavMesh,
} from "../dist/index.js";
import { createTileCacheNode, NodeTilePool } from "../dist/node.js";
import { recastGeneratorConfig } from "./generator-config.js";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    scene: { type: "string", default: "large" },
    obstacles: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    "tile-size": { type: "string", default: "64" },
    radius: { type: "string", default: "0.5,1.5" },
    batch: { type: "string", default: "500" },
    budget: { type: "string", default: "4" },
    "no-wasm": { type: "boolean", default: false },
    clock: { type: "string", default: "wall" },
    "build-runs": { type: "string", default: "2" },
  },
});
if (values.clock !== "wall" && values.clock !== "cpu") throw new Error("--clock is wall or cpu");
/** Milliseconds on the chosen clock: wall, or this process's CPU time (all work is on this thread). */
const clock =
  values.clock === "cpu"
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();
const COUNT = Number(values.obstacles);
const WARMUP = Number(values.warmup);
const [R0, R1] = values.radius.split(",").map(Number);
const BATCH = Number(values.batch);
const BUDGET = Number(values.budget);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const mesh = loadScene(values.scene);
const config = { tileSize: Number(values["tile-size"]) };
const cfg = resolveConfig(config);
let t = clock();
const { navMesh, cache } = createTileCache(mesh, config);
const cacheBuildMs = clock() - t;
const grid = cache.grid;

/**
 * Runs `build` while a 0 ms timer re-arms itself on the calling thread; returns the build's
 * duration and the longest gap between timer runs (how long the thread was blocked at most).
 */
async function timeWithStall(build) {
  let last = performance.now();
  let stall = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const t0 = performance.now();
  const r = await build();
  const ms = performance.now() - t0;
  running = false;
  stall = Math.max(stall, performance.now() - last);
  return { ms, stall, r };
}

// The cache build itself: sync vs worker threads (rotating order; the build above warmed up).
const BUILD_RUNS = Number(values["build-runs"]);
const buildRows = [];
if (BUILD_RUNS > 0) {
  const reference = serializeNavMesh(navMesh, cfg);
  // A pool kept across builds (warmed by one): its workers' code is already optimized, where a
  // pool made per build (threads: 2) pays worker start-up and a cold JIT every time.
  const keptPool = new NodeTilePool(2);
  await createTileCacheNode(mesh, config, { pool: keptPool });
  const builders = {
    "createTileCache (sync)": async () => createTileCache(mesh, config),
    "createTileCacheNode, 1 thread": () => createTileCacheNode(mesh, config, { threads: 1 }),
    "createTileCacheNode, 2 threads (new pool)": () =>
      createTileCacheNode(mesh, config, { threads: 2 }),
    "createTileCacheNode, 2 threads (pool kept)": () =>
      createTileCacheNode(mesh, config, { pool: keptPool }),
  };
  const names = Object.keys(builders);
  const ms = Object.fromEntries(names.map((n) => [n, []]));
  const stalls = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < BUILD_RUNS; i++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(i + k) % names.length];
      const m = await timeWithStall(builders[n]);
      if (!Buffer.from(serializeNavMesh(m.r.navMesh, cfg)).equals(Buffer.from(reference))) {
        throw new Error(`${n}: navmesh bytes differ from the first createTileCache's`);
      }
      ms[n].push(m.ms);
      stalls[n].push(m.stall);
    }
  }
  await keptPool.close();
  const sync = median(ms[names[0]]);
  for (const n of names) {
    buildRows.push({
      what: n,
      "median ms": +median(ms[n]).toFixed(0),
      "× sync": +(median(ms[n]) / sync).toFixed(2),
      "longest stall ms": +median(stalls[n]).toFixed(0),
    });
  }
}

// The full-build anchor needs what buildTiledNavMesh computes once per build.
const { areas: triAreas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize);
function fullTileBuild(tx, tz) {
  const chf = buildTileCompact(mesh, triAreas, bins, grid, cfg, tx, tz);
  return chf ? buildTileFromCompact(chf, grid, cfg, tx, tz) : null;
}

/** Seeded upright cylinders standing on the floor anywhere in the scene (tall: any floor height). */
function obstacles(n, seed) {
  const rand = mulberry32(seed);
  const [x0, y0, z0] = grid.bmin;
  const [x1, y1, z1] = grid.bmax;
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      kind: "cylinder",
      center: [x0 + 2 + rand() * (x1 - x0 - 4), y0 - 1, z0 + 2 + rand() * (z1 - z0 - 4)],
      radius: R0 + rand() * (R1 - R0),
      height: y1 - y0 + 2,
    });
  }
  return out;
}

// Detour's tile cache (WASM) on the same scene.
let wasm = null;
if (!values["no-wasm"]) {
  const core = await import("@recast-navigation/core");
  await core.init();
  const { generateTileCache } = await import("@recast-navigation/generators");
  t = clock();
  const r = generateTileCache(mesh.positions, mesh.indices, {
    ...recastGeneratorConfig(cfg),
    tileSize: cfg.tileSize,
    expectedLayersPerTile: 4,
    maxObstacles: 4096,
  });
  if (!r.success) throw new Error(`recast wasm tile cache failed: ${r.error}`);
  wasm = { tileCache: r.tileCache, navMesh: r.navMesh, buildMs: clock() - t };
}
/** Detour: runs update until up to date (each call handles at most 64 requests). */
function wasmSettle() {
  for (let k = 0; k < 1e5; k++) {
    const u = wasm.tileCache.update(wasm.navMesh);
    if (!u.success) throw new Error(`tileCache.update failed: ${u.status}`);
    if (u.upToDate) return;
  }
  throw new Error("tileCache.update never became up to date");
}
const wasmAdd = [];
const wasmRemove = [];

const add = [];
const remove = [];
const full = [];
const rebuiltPerObstacle = [];
const list = obstacles(WARMUP + COUNT, 1);
for (let i = 0; i < list.length; i++) {
  const shape = list[i];
  const [tx, tz] = cache.tilesTouching(
    [shape.center[0] - shape.radius, 0, shape.center[2] - shape.radius],
    [shape.center[0] + shape.radius, 0, shape.center[2] + shape.radius],
  )[0];
  // Alternate which goes first so neither always runs on a warmer cache.
  let tFull = 0;
  const timeFull = () => {
    const t0 = clock();
    fullTileBuild(tx, tz);
    tFull = clock() - t0;
  };
  if (i % 2) timeFull();
  let t0 = clock();
  const id = cache.addObstacle(shape);
  const r = cache.flush();
  const tAdd = clock() - t0;
  t0 = clock();
  cache.removeObstacle(id);
  cache.flush();
  const tRemove = clock() - t0;
  if (!(i % 2)) timeFull();
  let tWasmAdd = 0;
  let tWasmRemove = 0;
  if (wasm) {
    const [x, y, z] = shape.center;
    t0 = clock();
    const added = wasm.tileCache.addCylinderObstacle({ x, y, z }, shape.radius, shape.height);
    if (!added.success) throw new Error(`addCylinderObstacle failed: ${added.status}`);
    wasmSettle();
    tWasmAdd = clock() - t0;
    t0 = clock();
    wasm.tileCache.removeObstacle(added.obstacle);
    wasmSettle();
    tWasmRemove = clock() - t0;
  }
  if (i < WARMUP) continue;
  wasmAdd.push(tWasmAdd);
  wasmRemove.push(tWasmRemove);
  add.push(tAdd);
  remove.push(tRemove);
  full.push(tFull);
  rebuiltPerObstacle.push(r.rebuilt);
}

// A batch added at once, drained over frames of BUDGET ms.
const batch = obstacles(BATCH, 2);
cache.resetStats();
t = clock();
for (const s of batch) cache.addObstacle(s);
const queueMs = clock() - t;
const pendingTiles = cache.pending;
const frames = [];
let frameTiles = 0;
for (let guard = 0; guard < 1e6 && cache.pending > 0; guard++) {
  const t0 = clock();
  const r = cache.update(BUDGET);
  frames.push(clock() - t0);
  frameTiles += r.rebuilt;
}

const medFull = median(full);
// Per-obstacle ratios against the full tile build timed next to it: steadier than a ratio of
// medians when the machine's load drifts during the run.
const pairRatio = (xs) => +median(xs.map((x, i) => x / full[i])).toFixed(2);
const perTile = add.map((x, i) => x / rebuiltPerObstacle[i]);
const rows = [
  {
    what: "add obstacle + flush",
    "median ms": +median(add).toFixed(2),
    "p90 ms": +quantile(add, 0.9).toFixed(2),
    "× full tile build": +(median(add) / medFull).toFixed(2),
    "median of pair ratios": pairRatio(add),
  },
  {
    what: "add + flush, per tile rebuilt",
    "median ms": +median(perTile).toFixed(2),
    "p90 ms": +quantile(perTile, 0.9).toFixed(2),
    "× full tile build": +(median(perTile) / medFull).toFixed(2),
    "median of pair ratios": pairRatio(perTile),
  },
  {
    what: "remove obstacle + flush",
    "median ms": +median(remove).toFixed(2),
    "p90 ms": +quantile(remove, 0.9).toFixed(2),
    "× full tile build": +(median(remove) / medFull).toFixed(2),
    "median of pair ratios": pairRatio(remove),
  },
  {
    what: "one full tile build (anchor)",
    "median ms": +medFull.toFixed(2),
    "p90 ms": +quantile(full, 0.9).toFixed(2),
    "× full tile build": 1,
    "median of pair ratios": 1,
  },
];
if (wasm) {
  rows.push(
    {
      what: "WASM dtTileCache: add cylinder + update",
      "median ms": +median(wasmAdd).toFixed(2),
      "p90 ms": +quantile(wasmAdd, 0.9).toFixed(2),
      "× full tile build": +(median(wasmAdd) / medFull).toFixed(2),
      "median of pair ratios": pairRatio(wasmAdd),
    },
    {
      what: "WASM dtTileCache: remove + update",
      "median ms": +median(wasmRemove).toFixed(2),
      "p90 ms": +quantile(wasmRemove, 0.9).toFixed(2),
      "× full tile build": +(median(wasmRemove) / medFull).toFixed(2),
      "median of pair ratios": pairRatio(wasmRemove),
    },
  );
  // A pair where both took no measurable time (an obstacle over no floor, on a coarse clock)
  // counts as 1.
  const pairOf = (a, b) => (a === b ? 1 : a / b);
  const ratio = median(add.map((x, i) => pairOf(x, wasmAdd[i])));
  const ratioRemove = median(remove.map((x, i) => pairOf(x, wasmRemove[i])));
  const ratioSum = add.reduce((s, x) => s + x, 0) / wasmAdd.reduce((s, x) => s + x, 0);
  const ratioSumRemove = remove.reduce((s, x) => s + x, 0) / wasmRemove.reduce((s, x) => s + x, 0);
  console.log(
    `meshway ÷ WASM per obstacle, median of pairs: add+flush ${ratio.toFixed(2)}, remove+flush ${ratioRemove.toFixed(2)}; total time: add ${ratioSum.toFixed(2)}, remove ${ratioSumRemove.toFixed(2)} (WASM tile cache built in ${(wasm.buildMs / 1000).toFixed(2)} s)`,
  );
}
console.log(
  `scene ${values.scene}: ${mesh.triangleCount} triangles, ${grid.tilesX} × ${grid.tilesZ} tiles of ${cfg.tileSize} cells (${navMesh.tiles.length} with floor); TileCache built in ${(cacheBuildMs / 1000).toFixed(2)} s, caching ${(cache.cachedBytes / 2 ** 20).toFixed(1)} MB of compact heightfields`,
);
console.log(
  `${COUNT} obstacles (cylinders r ${R0}..${R1}), tiles rebuilt per obstacle: median ${median(rebuiltPerObstacle)}, mean ${(rebuiltPerObstacle.reduce((a, b) => a + b, 0) / COUNT).toFixed(2)}, max ${Math.max(...rebuiltPerObstacle)}`,
);
console.log(`times on the ${values.clock} clock`);
console.table(rows);
if (buildRows.length) {
  console.log(
    `cache build, ${BUILD_RUNS} runs each (byte-identical navmeshes; the very first createTileCache, cold, took ${cacheBuildMs.toFixed(0)} ms); stall = longest time the calling thread ran no timer:`,
  );
  console.table(buildRows);
}
console.log(
  `(${cache.stats.tilesUnchanged} of the batch's tiles came out unchanged and were kept)`,
);
console.log(
  `batch of ${BATCH}: queued in ${queueMs.toFixed(1)} ms, ${pendingTiles} tiles to rebuild (${(pendingTiles / BATCH).toFixed(2)} per obstacle; ${cache.stats.tilesTouched} without merging), drained in ${frames.length} update(${BUDGET}) frames (${frameTiles} tiles), frame median ${median(frames).toFixed(2)} ms, max ${Math.max(...frames).toFixed(2)} ms`,
);
