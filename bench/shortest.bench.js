// findShortestPath (exact any-angle search) vs computePath (A* + funnel) in meshway, on the
// shared meshes and the large generated scene: queries per second on the same seeded pairs
// (alternating which runs first, after a warm-up, medians of several runs), and how much
// longer the funnel's paths are than the exact ones (XZ length, the metric findShortestPath
// minimises), mean and worst, over the pairs both complete.
//
// Usage: npm run build && node bench/shortest.bench.js [--runs 5] [--warmup 2] [--min-ms 150]
//          [--pairs 1000] [--scenes nav_test,dungeon,undulating,large] [--clock cpu|wall]
import { parseArgs } from "node:util";
import * as meshway from "../dist/index.js";
import { polygonPointSampler, searchNodeLimit } from "./sample-points.js";
import { loadScene, SHARED_MESHES } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    warmup: { type: "string", default: "2" },
    "min-ms": { type: "string", default: "150" },
    pairs: { type: "string", default: "1000" },
    scenes: { type: "string", default: [...SHARED_MESHES, "large"].join(",") },
    clock: { type: "string", default: "cpu" },
  },
});
/**
 * Milliseconds on the chosen clock: "cpu" (this process's user + system CPU time — steadier on
 * a shared machine, where wall time also counts waiting for a core) or "wall".
 */
const now =
  values.clock === "wall"
    ? () => performance.now()
    : () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      };
const RUNS = Number(values.runs);
const WARMUP = Number(values.warmup);
const PAIRS = Number(values.pairs);
const MIN_MS = Number(values["min-ms"]);
const EXT = [1, 1, 1];
const { buildNavMesh, NavMeshQuery, mulberry32 } = meshway;

function setupScene(name) {
  const mesh = loadScene(name);
  const { navMesh } = buildNavMesh(mesh, {});
  let polyCount = 0;
  for (const t of navMesh.tiles) polyCount += t.polyCount;
  const maxNodes = searchNodeLimit(polyCount);
  const query = new NavMeshQuery(navMesh, { maxNodes });
  // Same sampling as bench/query.bench.js: a polygon uniformly, a point inside it.
  const samplePoint = polygonPointSampler(navMesh, query, mulberry32(0x9e3779b9 ^ name.length));
  const sample = () => samplePoint().p;
  const pairs = [];
  for (let i = 0; i < PAIRS; i++) pairs.push([sample(), sample()]);
  return { name, triangles: mesh.triangleCount, polyCount, maxNodes, query, pairs };
}

const KINDS = ["computePath", "findShortestPath"];

function pass(sc, kind, pairs) {
  const q = sc.query;
  let sum = 0;
  if (kind === "computePath") {
    for (let i = 0; i < pairs.length; i++)
      sum += q.computePath(pairs[i][0], pairs[i][1], { halfExtents: EXT }).points.length;
  } else {
    for (let i = 0; i < pairs.length; i++)
      sum += meshway.findShortestPath(q, pairs[i][0], pairs[i][1], { halfExtents: EXT }).points
        .length;
  }
  return sum;
}

function runOnce(sc, kind, pairs) {
  let count = 0;
  const t0 = now();
  let ms = 0;
  do {
    pass(sc, kind, pairs);
    count += pairs.length;
    ms = now() - t0;
  } while (ms < MIN_MS);
  return (count / ms) * 1000;
}

const lengthXZ = (pts) => {
  let l = 0;
  for (let i = 1; i < pts.length; i++)
    l += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][2] - pts[i - 1][2]);
  return l;
};

const rows = [];
for (const name of values.scenes.split(",")) {
  const tb = performance.now();
  const sc = setupScene(name);
  console.error(
    `${name}: ${sc.triangles} triangles, ${sc.polyCount} polygons, setup ${((performance.now() - tb) / 1000).toFixed(1)} s`,
  );
  // Quality first (one pass, not timed).
  let both = 0;
  let mean = 0;
  let worst = 0;
  let statusDiffers = 0;
  const nodes = 0;
  const completePairs = [];
  for (const [a, b] of sc.pairs) {
    const f = sc.query.computePath(a, b, { halfExtents: EXT });
    const s = meshway.findShortestPath(sc.query, a, b, { halfExtents: EXT });
    if ((f.status === "complete") !== (s.status === "complete")) statusDiffers++;
    if (f.status !== "complete" || s.status !== "complete") continue;
    completePairs.push([a, b]);
    const lf = lengthXZ(f.points);
    const ls = lengthXZ(s.points);
    const extra = ls > 0 ? (lf / ls - 1) * 100 : 0;
    both++;
    mean += extra;
    if (extra > worst) worst = extra;
  }
  mean /= Math.max(1, both);
  const qps = { computePath: [], findShortestPath: [] };
  // Each run times both back to back (order alternating) and keeps their ratio: on a shared
  // machine the load drifts between runs, and a ratio of neighbours cancels most of it.
  // The same on the pairs both complete alone (most pairs of the large scene are unreachable
  // and cheap for both, which hides the cost of long searches).
  const ratios = [];
  const completeRatios = [];
  for (let r = 0; r < WARMUP + RUNS; r++) {
    const v = {};
    const c = {};
    for (let j = 0; j < KINDS.length; j++) {
      const kind = KINDS[(j + r) % KINDS.length];
      v[kind] = runOnce(sc, kind, sc.pairs);
    }
    if (completePairs.length > 0) {
      for (let j = 0; j < KINDS.length; j++) {
        const kind = KINDS[(j + r + 1) % KINDS.length];
        c[kind] = runOnce(sc, kind, completePairs);
      }
    }
    if (r >= WARMUP) {
      qps.computePath.push(v.computePath);
      qps.findShortestPath.push(v.findShortestPath);
      ratios.push(v.computePath / v.findShortestPath);
      if (completePairs.length > 0) completeRatios.push(c.computePath / c.findShortestPath);
    }
  }
  const cp = median(qps.computePath);
  const sp = median(qps.findShortestPath);
  void nodes;
  rows.push({
    scene: name,
    polygons: sc.polyCount,
    "computePath q/s": Math.round(cp),
    "findShortestPath q/s": Math.round(sp),
    "time ratio (shortest/funnel)": median(ratios).toFixed(2),
    "ratio range": `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
    "complete pairs ratio (range)":
      completeRatios.length > 0
        ? `${median(completeRatios).toFixed(2)} (${Math.min(...completeRatios).toFixed(2)}–${Math.max(...completeRatios).toFixed(2)})`
        : "–",
    "funnel longer: mean %": mean.toFixed(2),
    "worst %": worst.toFixed(2),
    "pairs complete": both,
    "status differs": statusDiffers,
  });
}

const cols = Object.keys(rows[0]);
console.log(`| ${cols.join(" | ")} |`);
console.log(`| ${cols.map(() => "---").join(" | ")} |`);
for (const r of rows) console.log(`| ${cols.map((c) => r[c]).join(" | ")} |`);
console.log(
  `\n${PAIRS} seeded pairs per scene, median of ${RUNS} runs after ${WARMUP} warm-up, ${values.clock} time, node ${process.version}. ` +
    "Time ratio = median over runs of computePath q/s ÷ findShortestPath q/s measured back to back " +
    "(= findShortestPath's mean time ÷ computePath's; target ≤ 2); complete pairs ratio: the same " +
    "over the pairs both complete only. Lengths in XZ.",
);
