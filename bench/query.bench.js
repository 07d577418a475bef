// Query benchmark: meshway vs Detour compiled to WebAssembly (recast-navigation's NavMeshQuery
// wrapper, and its raw bindings with reused buffers) vs navcat, in one process.
//
// meshway and Detour query the SAME navmesh: Recast/Detour (WASM) builds it, exportNavMesh
// writes it and meshway's importDetourNavMesh loads it. navcat queries its own navmesh, built
// from the same triangles with the same configuration (navcat/blocks generateSoloNavMesh).
// Every library gets the same seeded start/end pairs (points on the mesh, float32), the same
// half extents and node limit; each run executes every library once, in rotating order, after
// a warm-up; the table reports the median queries per second and the median per-run ratios.
//
// A timed run repeats the pass over the pairs until --min-ms have elapsed, on the wall clock or,
// with --clock cpu, on this process's CPU time (every library runs on this one thread), which
// leaves out the time other processes of a shared machine take from it.
//
// --tile-size runs every scene on tiled navmeshes too: "solo,32" builds each scene solo and with
// Recast's tiled pipeline (generateTiledNavMesh, tileSize 32 cells), meshway querying the same
// Detour tiles; the row is labelled "scene@32". navcat keeps its solo navmesh either way.
//
// Usage: npm run build && node bench/query.bench.js [--runs 5] [--warmup 2] [--min-ms 150]
//          [--clock wall|cpu] [--tile-size solo|N|solo,N,...]
//          [--pairs 1000] [--scenes nav_test,dungeon,undulating,large]
//          [--queries computePath,findNearestPoly,raycast] [--libs meshway,wasm raw,...]
import { parseArgs } from "node:util";
import * as core from "@recast-navigation/core";
import {
  generateSoloNavMesh as wasmGenerate,
  generateTiledNavMesh as wasmGenerateTiled,
} from "@recast-navigation/generators";
import * as navcat from "navcat";
import { generateSoloNavMesh as navcatGenerate } from "navcat/blocks";
import * as meshway from "../dist/index.js";
import { navcatGeneratorOptions, recastGeneratorConfig } from "./generator-config.js";
import { polygonPointSampler, searchNodeLimit } from "./sample-points.js";
import { loadScene, SHARED_MESHES } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    "min-ms": { type: "string", default: "150" },
    clock: { type: "string", default: "wall" },
    pairs: { type: "string", default: "1000" },
    scenes: { type: "string", default: [...SHARED_MESHES, "large"].join(",") },
    "tile-size": { type: "string", default: "solo" },
    queries: { type: "string", default: "computePath,findNearestPoly,raycast" },
    libs: { type: "string", default: "meshway,wasm raw,wasm wrapper,navcat" },
  },
});
const RUNS = Number(values.runs);
const WARMUP = Number(values.warmup);
const PAIRS = Number(values.pairs);
/** Shortest timed run: passes over the pairs repeat until this many ms have elapsed. */
const MIN_MS = Number(values["min-ms"]);
/** Tile sizes in cells to run each scene at; 0 = the solo build. */
const TILE_SIZES = values["tile-size"].split(",").map((t) => (t === "solo" ? 0 : Number(t)));
if (TILE_SIZES.some((t) => !Number.isInteger(t) || t < 0)) {
  throw new Error("--tile-size: comma-separated list of 'solo' and positive integers");
}
if (values.clock !== "wall" && values.clock !== "cpu") throw new Error("--clock is wall or cpu");
/** Milliseconds on the chosen clock. */
const clock =
  values.clock === "cpu"
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();
/** Search box half size for snapping points to the mesh (the wrappers' default). */
const EXT = [1, 1, 1];
const MAX_PATH = 4096;
const MAX_STRAIGHT = 1024;

const {
  NavMeshQuery,
  createNearestPolyResult,
  raycast,
  RaycastHit,
  QueryFilter,
  importDetourNavMesh,
  mulberry32,
  resolveConfig,
} = meshway;

await core.init();
const Raw = core.Raw;

// ---------------------------------------------------------------------------------------------
// Builds (not timed)

const cfg = resolveConfig();
const wasmConfig = recastGeneratorConfig(cfg);
const navcatOptions = navcatGeneratorOptions(cfg);

/**
 * Everything one scene's runs need: the three navmeshes, queries, pairs and per-library refs.
 * tileSize > 0: Detour (and so meshway) get Recast's tiled build with that tile size.
 */
function setupScene(sceneName, tileSize) {
  const name = tileSize > 0 ? `${sceneName}@${tileSize}` : sceneName;
  const mesh = loadScene(sceneName);
  const built =
    tileSize > 0
      ? wasmGenerateTiled(mesh.positions, mesh.indices, { ...wasmConfig, tileSize })
      : wasmGenerate(mesh.positions, mesh.indices, wasmConfig);
  if (!built.success) throw new Error(`${name}: WASM build failed: ${built.error}`);
  const dtMesh = built.navMesh;
  const nm = importDetourNavMesh(core.exportNavMesh(dtMesh), name);
  const ncMesh = LIBS.includes("navcat")
    ? navcatGenerate({ positions: mesh.positions, indices: mesh.indices }, navcatOptions).navMesh
    : null;

  let polyCount = 0;
  for (const t of nm.tiles) polyCount += t.polyCount;
  const tileCount = nm.tiles.length;
  // Same node limit everywhere: enough for any search on this mesh.
  const maxNodes = searchNodeLimit(polyCount);

  const mq = new NavMeshQuery(nm, { maxNodes });
  const mFilter = new QueryFilter();
  const dq = new core.NavMeshQuery(dtMesh, { maxNodes });

  // Detour ref of each meshway tile's polygon 0 (tiles matched by grid position).
  const dtBase = new Map();
  for (let it = 0; it < dtMesh.getMaxTiles(); it++) {
    const tile = dtMesh.getTile(it);
    const h = tile.header();
    if (!h || tile.dataSize() === 0) continue;
    dtBase.set(nm.tilesAt(h.x(), h.y())[0], dtMesh.getPolyRefBase(tile));
  }

  const samplePoint = polygonPointSampler(nm, mq, mulberry32(0x9e3779b9 ^ name.length));
  const sample = () => {
    const { p, slot, poly } = samplePoint();
    return { p, ref: nm.polyRef(slot, poly), dtRef: dtBase.get(slot) + poly };
  };
  const pairs = [];
  for (let i = 0; i < PAIRS; i++) pairs.push([sample(), sample()]);

  // navcat's start polygons for its raycasts (its refs are its own).
  const ncNearest = navcat.createFindNearestPolyResult();
  const ncStart = pairs.map(([a]) => {
    if (ncMesh === null) return null;
    navcat.findNearestPoly(ncNearest, ncMesh, a.p, EXT, navcat.DEFAULT_QUERY_FILTER);
    return ncNearest.success ? ncNearest.nodeRef : null;
  });

  return {
    name,
    triangles: mesh.triangleCount,
    polyCount,
    tileCount,
    maxNodes,
    dtMesh,
    nm,
    mq,
    mFilter,
    dq,
    ncMesh,
    pairs,
    ncStart,
  };
}

// ---------------------------------------------------------------------------------------------
// The queries under test. Each returns a checksum-ish number so the work cannot be skipped.

function makeRawWasm(sc) {
  const q = sc.dq.raw;
  const filter = sc.dq.defaultFilter.raw;
  const refA = new Raw.UnsignedIntRef();
  const refB = new Raw.UnsignedIntRef();
  const ptA = new Raw.Vec3();
  const ptB = new Raw.Vec3();
  const overA = new Raw.BoolRef();
  const overB = new Raw.BoolRef();
  const closest = new Raw.Vec3();
  const over = new Raw.BoolRef();
  const path = new Raw.UnsignedIntArray();
  path.resize(MAX_PATH);
  const spPoints = new Raw.FloatArray();
  spPoints.resize(MAX_STRAIGHT * 3);
  const spFlags = new Raw.UnsignedCharArray();
  spFlags.resize(MAX_STRAIGHT);
  const spRefs = new Raw.UnsignedIntArray();
  spRefs.resize(MAX_STRAIGHT);
  const spCount = new Raw.IntRef();
  const hit = new Raw.Module.dtRaycastHit();
  return {
    computePath(s, e) {
      q.findNearestPoly(s, EXT, filter, refA, ptA, overA);
      const a = refA.value;
      if (!a) return 0;
      q.findNearestPoly(e, EXT, filter, refB, ptB, overB);
      const b = refB.value;
      if (!b) return 0;
      const sp = [ptA.x, ptA.y, ptA.z];
      const ep = [ptB.x, ptB.y, ptB.z];
      q.findPath(a, b, sp, ep, filter, path, MAX_PATH);
      const n = path.size;
      if (n === 0) return 0;
      const last = path.get(n - 1);
      let end = ep;
      if (last !== b) {
        q.closestPointOnPoly(last, ep, closest, over);
        end = [closest.x, closest.y, closest.z];
      }
      q.findStraightPath(sp, end, path, spPoints, spFlags, spRefs, spCount, MAX_STRAIGHT, 0);
      return spCount.value;
    },
    findNearestPoly(p) {
      q.findNearestPoly(p, EXT, filter, refA, ptA, overA);
      return refA.value;
    },
    raycast(ref, s, e) {
      q.raycast(ref, s, e, filter, 0, hit, 0);
      return hit.t;
    },
  };
}

function makeWrapper(sc) {
  const q = sc.dq;
  const ext = { x: EXT[0], y: EXT[1], z: EXT[2] };
  const v = (p) => ({ x: p[0], y: p[1], z: p[2] });
  return {
    computePath(s, e) {
      return q.computePath(v(s), v(e), { halfExtents: ext }).path.length;
    },
    findNearestPoly(p) {
      return q.findNearestPoly(v(p), { halfExtents: ext }).nearestRef;
    },
    raycast(ref, s, e) {
      return q.raycast(ref, v(s), v(e)).t;
    },
  };
}

function makeMeshway(sc) {
  const q = sc.mq;
  const filter = sc.mFilter;
  const out = createNearestPolyResult();
  const hit = new RaycastHit(64);
  const options = { filter, halfExtents: EXT };
  return {
    computePath(s, e) {
      return q.computePath(s, e, options).points.length;
    },
    findNearestPoly(p) {
      return q.findNearestPoly(p, EXT, filter, out);
    },
    raycast(ref, s, e) {
      return raycast(q, ref, s, e, filter, undefined, hit).t;
    },
  };
}

function makeNavcat(sc) {
  const m = sc.ncMesh;
  const filter = navcat.DEFAULT_QUERY_FILTER;
  const out = navcat.createFindNearestPolyResult();
  return {
    computePath(s, e) {
      return navcat.findPath(m, s, e, EXT, filter).path.length;
    },
    findNearestPoly(p) {
      return navcat.findNearestPoly(out, m, p, EXT, filter).nodeRef;
    },
    raycast(ref, s, e) {
      return navcat.raycast(m, ref, s, e, filter).t;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Timing

const ALL_LIBS = ["meshway", "wasm raw", "wasm wrapper", "navcat"];
const ALL_QUERIES = ["computePath", "findNearestPoly", "raycast"];
/** Only the libraries and queries asked for (meshway always: every ratio is against it). */
const LIBS = ALL_LIBS.filter((l) => l === "meshway" || values.libs.split(",").includes(l));
const QUERIES = values.queries.split(",");
if (QUERIES.some((q) => !ALL_QUERIES.includes(q))) {
  throw new Error(`--queries: comma-separated list of ${ALL_QUERIES.join(", ")}`);
}

/**
 * Runs one query kind over all pairs for one library, repeating the pass until MIN_MS have
 * elapsed (short passes are all timer noise and JIT state); returns [queries, ms, checksum
 * of the first pass].
 */
function runOnce(sc, lib, impl, kind) {
  let count = 0;
  let first = -1;
  const t0 = clock();
  let ms = 0;
  do {
    const [n, sum] = pass(sc, lib, impl, kind);
    if (first < 0) first = sum;
    count += n;
    ms = clock() - t0;
  } while (ms < MIN_MS);
  return [count, ms, first];
}

function pass(sc, lib, impl, kind) {
  const pairs = sc.pairs;
  let sum = 0;
  let count = 0;
  if (kind === "computePath") {
    for (let i = 0; i < pairs.length; i++) sum += impl.computePath(pairs[i][0].p, pairs[i][1].p);
    count = pairs.length;
  } else if (kind === "findNearestPoly") {
    for (let i = 0; i < pairs.length; i++) {
      sum += impl.findNearestPoly(pairs[i][0].p) > 0 ? 1 : 0;
      sum += impl.findNearestPoly(pairs[i][1].p) > 0 ? 1 : 0;
    }
    count = 2 * pairs.length;
  } else {
    for (let i = 0; i < pairs.length; i++) {
      const [a, b] = pairs[i];
      const ref = lib === "meshway" ? a.ref : lib === "navcat" ? sc.ncStart[i] : a.dtRef;
      if (ref === null) continue;
      const t = impl.raycast(ref, a.p, b.p);
      sum += t < 1e30 ? 1 : 0;
      count++;
    }
  }
  return [count, sum];
}

const tables = Object.fromEntries(QUERIES.map((k) => [k, []]));
const checks = [];
const started = performance.now();
for (const [sceneName, tileSize] of values.scenes
  .split(",")
  .flatMap((n) => TILE_SIZES.map((t) => [n, t]))) {
  const tb = performance.now();
  const sc = setupScene(sceneName, tileSize);
  const name = sc.name;
  const impls = {
    meshway: makeMeshway(sc),
    "wasm raw": makeRawWasm(sc),
    "wasm wrapper": makeWrapper(sc),
    navcat: sc.ncMesh === null ? null : makeNavcat(sc),
  };
  console.error(
    `${name}: ${sc.triangles} triangles, ${sc.tileCount} tiles, ${sc.polyCount} polygons, ` +
      `maxNodes ${sc.maxNodes}, ` +
      `setup ${((performance.now() - tb) / 1000).toFixed(1)} s`,
  );
  for (const kind of QUERIES) {
    const qps = Object.fromEntries(LIBS.map((l) => [l, []]));
    const sums = {};
    for (let r = 0; r < WARMUP + RUNS; r++) {
      // Rotate the order so no library always runs first (or right after the GC-heavy one).
      for (let j = 0; j < LIBS.length; j++) {
        const lib = LIBS[(j + r) % LIBS.length];
        const [count, ms, sum] = runOnce(sc, lib, impls[lib], kind);
        sums[lib] = sum;
        if (r >= WARMUP) qps[lib].push((count / ms) * 1000);
      }
    }
    const row = { scene: name };
    for (const l of LIBS) row[l] = Math.round(median(qps[l]));
    // Ratios: the median over runs of each run's ratio (both libraries timed within the same
    // run, seconds apart), which a shared, noisy machine disturbs far less than a ratio of
    // medians taken from different moments.
    const ratio = (other) =>
      LIBS.includes(other) ? +median(qps.meshway.map((q, k) => q / qps[other][k])).toFixed(2) : "-";
    row["meshway/raw"] = ratio("wasm raw");
    row["meshway/wrapper"] = ratio("wasm wrapper");
    row["meshway/navcat"] = ratio("navcat");
    tables[kind].push(row);
    checks.push({ scene: name, query: kind, ...sums });
  }
  sc.dq.destroy();
  sc.dtMesh.destroy();
}

for (const kind of QUERIES) {
  console.log(
    `\n${kind} — queries per ${values.clock === "cpu" ? "CPU " : ""}second (median of ${RUNS} runs, ${PAIRS} pairs)`,
  );
  console.table(tables[kind]);
}
console.log(
  "\nchecksums (computePath: straight-path points; findNearestPoly: points snapped; raycast: hits)",
);
console.table(checks);
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
