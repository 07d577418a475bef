// Crowd benchmark: DetourCrowd (recast-navigation's Crowd, WebAssembly), navcat's crowd
// (navcat/blocks) and, once it exists, meshway's Crowd with sampled (Detour) and ORCA avoidance,
// in one process, on the same seeded scenario.
//
// Scenario: N agents (radius 0.4, height 2, maxSpeed 3.5, maxAcceleration 8) at seeded random
// points of the navmesh (area-weighted), each sent to another seeded random point, stepped at
// dt = 1/60 for S simulated seconds. Every engine builds its own navmesh from the same triangles
// and configuration (Recast's demo defaults, agent radius 0.4); the points are drawn on Detour's
// navmesh (imported into meshway) and each engine snaps them to its own.
//
// Columns per engine: median ms per update (on the CPU clock of this process by default, which
// leaves out time other processes take from it; --clock wall for wall time), arrived (within
// 1 m of the target after S seconds), overlaps per sampled frame (pairs closer than 0.9 × the
// sum of radii horizontally and less than a height apart vertically; a frame is sampled every
// 10 updates), stuck (not arrived and moved less than 0.5 m in the last 5 s). With --runs N,
// each run executes every engine once in rotating order; times are the median over runs, the
// quality columns come from the first run (every engine is deterministic).
//
// A slow engine (--slow, navcat by default) runs once, and from --slow-from agents on for
// --slow-seconds simulated seconds only; its cells are then marked "(S s)" — its arrivals are
// not comparable with the other columns' (less time to arrive), its ms per update is the
// median over the shorter run.
//
// Usage: npm run bench:crowd -- [--agents 100,500,1000,5000] [--seconds 20] [--seed 1]
//          [--scene dungeon,large] [--runs 1] [--clock cpu|wall]
//          [--engines detour,navcat,meshway-sampled,meshway-orca] [--flags 31]
//          [--slow navcat] [--slow-from 1000] [--slow-seconds 8]
//          [--base path/to/other/dist/index.js]   (adds meshway-sampled@base, meshway-orca@base:
//                                                  another build of meshway, e.g. main's, for
//                                                  before/after ratios in one process)
import { parseArgs } from "node:util";
import * as core from "@recast-navigation/core";
import { generateSoloNavMesh as wasmGenerate } from "@recast-navigation/generators";
import * as navcat from "navcat";
import { crowd as navcatCrowd, generateSoloNavMesh as navcatGenerate } from "navcat/blocks";
import { navcatGeneratorOptions, recastGeneratorConfig } from "./generator-config.js";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    agents: { type: "string", default: "100,500,1000,5000" },
    seconds: { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
    scene: { type: "string", default: "dungeon,large" },
    runs: { type: "string", default: "1" },
    clock: { type: "string", default: "cpu" },
    engines: { type: "string", default: "detour,navcat,meshway-sampled,meshway-orca" },
    flags: { type: "string", default: "31" },
    slow: { type: "string", default: "navcat" },
    "slow-from": { type: "string", default: "1000" },
    "slow-seconds": { type: "string", default: "8" },
    base: { type: "string", default: "" },
  },
});
const COUNTS = values.agents.split(",").map(Number);
const SECONDS = Number(values.seconds);
const SEED = Number(values.seed);
const RUNS = Number(values.runs);
const ENGINES = values.engines.split(",");
if (COUNTS.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error("--agents: positive integers");
if (!(SECONDS > 5)) throw new Error("--seconds must be > 5 (stuck looks at the last 5 s)");
if (!(RUNS >= 1)) throw new Error("--runs must be >= 1");
if (values.clock !== "wall" && values.clock !== "cpu") throw new Error("--clock is wall or cpu");
const SCENES = values.scene.split(",");
for (const sc of SCENES) {
  if (sc !== "dungeon" && sc !== "large") throw new Error("--scene: dungeon and/or large");
}
const SLOW = new Set(values.slow ? values.slow.split(",") : []);
const SLOW_FROM = Number(values["slow-from"]);
const SLOW_SECONDS = Number(values["slow-seconds"]);
if (!(SLOW_SECONDS > 5)) throw new Error("--slow-seconds must be > 5");
for (const e of ENGINES) {
  if (!["detour", "navcat", "meshway-sampled", "meshway-orca"].includes(e.replace("@base", ""))) {
    throw new Error(`--engines: unknown engine ${e}`);
  }
}

/** Milliseconds on the chosen clock. */
const clock =
  values.clock === "cpu"
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => performance.now();

const DT = 1 / 60;
const SAMPLE_EVERY = 10;
const STUCK_FRAMES = Math.round(5 / DT);
const AGENT = {
  radius: 0.4,
  height: 2,
  maxSpeed: 3.5,
  maxAcceleration: 8,
  collisionQueryRange: 0.4 * 12,
  pathOptimizationRange: 0.4 * 30,
  separationWeight: 2,
};
/**
 * Detour's bits, the same in navcat: anticipateTurns 1 | obstacleAvoidance 2 | separation 4 |
 * optimizeVisibility 8 | optimizeTopology 16; --flags 31 (all) by default.
 */
const UPDATE_FLAGS = Number(values.flags);
if (!Number.isInteger(UPDATE_FLAGS) || UPDATE_FLAGS < 0 || UPDATE_FLAGS > 31) {
  throw new Error("--flags: an integer in [0, 31]");
}
const OVERLAP_DIST = 0.9 * 2 * AGENT.radius;

const meshway = await import("../dist/index.js");
const base = values.base
  ? await import(new URL(values.base, `file://${process.cwd()}/`).href)
  : null;
if (base) ENGINES.push("meshway-sampled@base", "meshway-orca@base");
await core.init();

// ---------------------------------------------------------------------------------------------
// Navmeshes and the scenario's points (not timed)

const cfg = meshway.resolveConfig({ agentRadius: AGENT.radius });
const hasMeshwayCrowd = typeof meshway.Crowd === "function";
/** The current scene's navmeshes, one per engine (set by loadMeshes). */
let sceneName = "";
let dtMesh = null;
let ncMesh = null;
let mwMesh = null;
let baseMesh = null;

function loadMeshes(name) {
  sceneName = name;
  const mesh = loadScene(name);
  const built = wasmGenerate(mesh.positions, mesh.indices, recastGeneratorConfig(cfg));
  if (!built.success) throw new Error(`${name}: WASM build failed: ${built.error}`);
  dtMesh?.destroy?.();
  dtMesh = built.navMesh;
  ncMesh = navcatGenerate(
    { positions: mesh.positions, indices: mesh.indices },
    navcatGeneratorOptions(cfg),
  ).navMesh;
  baseMesh = base ? base.buildNavMesh(mesh, { agentRadius: AGENT.radius }).navMesh : null;
  mwMesh = hasMeshwayCrowd
    ? meshway.buildNavMesh(mesh, { agentRadius: AGENT.radius }).navMesh
    : null;
}

/** Seeded starts and targets, area-weighted on Detour's navmesh, as float32 like every engine. */
function scenarioPoints(n) {
  const imported = meshway.importDetourNavMesh(core.exportNavMesh(dtMesh), sceneName);
  const q = new meshway.NavMeshQuery(imported);
  const filter = new meshway.QueryFilter();
  const rand = meshway.mulberry32(SEED);
  const res = new meshway.RandomPointResult();
  const pts = new Float32Array(n * 6);
  for (let i = 0; i < n * 2; i++) {
    q.findRandomPoint(filter, rand, res);
    if (res.ref === 0) throw new Error("no random point on the navmesh");
    pts.set(res.point, i * 3);
  }
  return pts; // [start0, target0, start1, target1, …]
}

// ---------------------------------------------------------------------------------------------
// Engines: each makes a crowd of n agents sent to their targets and exposes update() and
// readPositions(out: Float32Array(3n)).

function makeDetour(n, pts) {
  const crowd = new core.Crowd(dtMesh, { maxAgents: n, maxAgentRadius: AGENT.radius });
  const agents = [];
  for (let i = 0; i < n; i++) {
    const s = pts.subarray(i * 6, i * 6 + 3);
    const agent = crowd.addAgent(
      { x: s[0], y: s[1], z: s[2] },
      { ...AGENT, updateFlags: UPDATE_FLAGS, obstacleAvoidanceType: 0 },
    );
    const t = pts.subarray(i * 6 + 3, i * 6 + 6);
    agent.requestMoveTarget({ x: t[0], y: t[1], z: t[2] });
    agents.push(agent);
  }
  return {
    update: () => crowd.update(DT),
    readPositions(out) {
      for (let i = 0; i < n; i++) {
        const p = agents[i].position();
        out[i * 3] = p.x;
        out[i * 3 + 1] = p.y;
        out[i * 3 + 2] = p.z;
      }
    },
    destroy: () => crowd.destroy(),
  };
}

function makeNavcat(n, pts) {
  const crowd = navcatCrowd.create(AGENT.radius);
  const nearest = navcat.createFindNearestPolyResult();
  const ids = [];
  for (let i = 0; i < n; i++) {
    const s = [...pts.subarray(i * 6, i * 6 + 3)];
    const id = navcatCrowd.addAgent(crowd, ncMesh, s, {
      ...AGENT,
      updateFlags: UPDATE_FLAGS,
      queryFilter: navcat.DEFAULT_QUERY_FILTER,
    });
    const t = [...pts.subarray(i * 6 + 3, i * 6 + 6)];
    navcat.findNearestPoly(nearest, ncMesh, t, [1, 1, 1], navcat.DEFAULT_QUERY_FILTER);
    if (nearest.success)
      navcatCrowd.requestMoveTarget(crowd, id, nearest.nodeRef, nearest.position);
    ids.push(id);
  }
  return {
    update: () => navcatCrowd.update(crowd, ncMesh, DT),
    readPositions(out) {
      for (let i = 0; i < n; i++) {
        const p = crowd.agents[ids[i]].position;
        out[i * 3] = p[0];
        out[i * 3 + 1] = p[1];
        out[i * 3 + 2] = p[2];
      }
    },
    destroy() {},
  };
}

function makeMeshway(avoidance, lib = meshway) {
  return (n, pts) => {
    const crowd = new lib.Crowd(lib === meshway ? mwMesh : baseMesh, {
      maxAgents: n,
      maxAgentRadius: AGENT.radius,
    });
    const ids = [];
    for (let i = 0; i < n; i++) {
      const id = crowd.addAgent([...pts.subarray(i * 6, i * 6 + 3)], {
        ...AGENT,
        updateFlags: UPDATE_FLAGS,
        avoidance,
      });
      if (id >= 0) crowd.requestMoveTarget(id, [...pts.subarray(i * 6 + 3, i * 6 + 6)]);
      ids.push(id);
    }
    return {
      update: () => crowd.update(DT),
      readPositions(out) {
        const p = crowd.positions;
        for (let i = 0; i < n; i++) {
          const id = ids[i];
          // An agent that could not be added stays at its start (counted as not arrived).
          if (id < 0) out.set(pts.subarray(i * 6, i * 6 + 3), i * 3);
          else out.set(p.subarray(id * 3, id * 3 + 3), i * 3);
        }
      },
      destroy() {},
    };
  };
}

const MAKERS = {
  detour: makeDetour,
  navcat: makeNavcat,
  "meshway-sampled": hasMeshwayCrowd ? makeMeshway("sampled") : null,
  "meshway-orca": hasMeshwayCrowd ? makeMeshway("orca") : null,
  "meshway-sampled@base": base ? makeMeshway("sampled", base) : null,
  "meshway-orca@base": base ? makeMeshway("orca", base) : null,
};
if (!hasMeshwayCrowd && ENGINES.some((e) => e.startsWith("meshway"))) {
  console.log("meshway crowd: not built yet");
}
const engines = ENGINES.filter((e) => MAKERS[e]);

// ---------------------------------------------------------------------------------------------
// Quality measures

/** A number naming cell (x, z) (exact for |x|, |z| < 2^25). */
function cellKey(x, z) {
  return x * 67108864 + z;
}

/** Pairs closer than OVERLAP_DIST horizontally and less than a height apart, via a grid. */
function countOverlaps(pos, n) {
  const cell = OVERLAP_DIST;
  const grid = new Map();
  for (let i = 0; i < n; i++) {
    const key = cellKey(Math.floor(pos[i * 3] / cell), Math.floor(pos[i * 3 + 2] / cell));
    const list = grid.get(key);
    if (list) list.push(i);
    else grid.set(key, [i]);
  }
  let overlaps = 0;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(pos[i * 3] / cell);
    const cz = Math.floor(pos[i * 3 + 2] / cell);
    for (let dz = -1; dz <= 1; dz++) {
      for (let dx = -1; dx <= 1; dx++) {
        const list = grid.get(cellKey(cx + dx, cz + dz));
        if (!list) continue;
        for (const j of list) {
          if (j <= i) continue;
          const ex = pos[i * 3] - pos[j * 3];
          const ez = pos[i * 3 + 2] - pos[j * 3 + 2];
          const ey = pos[i * 3 + 1] - pos[j * 3 + 1];
          if (ex * ex + ez * ez < OVERLAP_DIST * OVERLAP_DIST && Math.abs(ey) < AGENT.height) {
            overlaps++;
          }
        }
      }
    }
  }
  return overlaps;
}

function dist3(a, i, b, j) {
  const x = a[i * 3] - b[j];
  const y = a[i * 3 + 1] - b[j + 1];
  const z = a[i * 3 + 2] - b[j + 2];
  return Math.sqrt(x * x + y * y + z * z);
}

/** One engine's whole scenario: per-update times and the quality columns. */
function runScenario(make, n, pts, seconds) {
  const FRAMES = Math.round(seconds / DT);
  const sim = make(n, pts);
  const pos = new Float32Array(n * 3);
  const before = new Float32Array(n * 3); // positions 5 s before the end
  const times = new Float64Array(FRAMES);
  let overlapSum = 0;
  let samples = 0;
  for (let f = 0; f < FRAMES; f++) {
    const t0 = clock();
    sim.update();
    times[f] = clock() - t0;
    if ((f + 1) % SAMPLE_EVERY === 0) {
      sim.readPositions(pos);
      overlapSum += countOverlaps(pos, n);
      samples++;
    }
    if (f + 1 === FRAMES - STUCK_FRAMES) sim.readPositions(before);
  }
  sim.readPositions(pos);
  sim.destroy();
  let arrived = 0;
  let stuck = 0;
  for (let i = 0; i < n; i++) {
    const done = dist3(pos, i, pts, i * 6 + 3) < 1;
    if (done) arrived++;
    else if (dist3(pos, i, before, i * 3) < 0.5) stuck++;
  }
  return { ms: median([...times]), arrived, overlaps: overlapSum / samples, stuck };
}

// ---------------------------------------------------------------------------------------------

for (const scene of SCENES) {
  loadMeshes(scene);
  const rows = [];
  for (const n of COUNTS) {
    const pts = scenarioPoints(n);
    const perEngine = Object.fromEntries(
      engines.map((e) => [e, { ms: [], first: null, seconds: SECONDS }]),
    );
    for (let run = 0; run < RUNS; run++) {
      for (let k = 0; k < engines.length; k++) {
        const e = engines[(run + k) % engines.length];
        const slow = SLOW.has(e);
        if (slow && run > 0) continue; // a slow engine runs once
        const seconds = slow && n >= SLOW_FROM ? Math.min(SLOW_SECONDS, SECONDS) : SECONDS;
        const r = runScenario(MAKERS[e], n, pts, seconds);
        perEngine[e].ms.push(r.ms);
        perEngine[e].first ??= r;
        perEngine[e].seconds = seconds;
        console.error(`${scene} ${n} ${e} run ${run + 1} (${seconds} s): ${r.ms.toFixed(3)} ms`);
      }
    }
    rows.push({ n, perEngine });
  }
  printTable(scene, rows);
}

function printTable(scene, rows) {
  const head = ["agents"];
  for (const e of engines) head.push(`${e} ms`);
  if (engines.includes("detour"))
    for (const e of engines) if (e !== "detour") head.push(`${e}/detour`);
  for (const e of engines) head.push(`${e} arrived`, `${e} overlaps`, `${e} stuck`);
  console.log(
    `\ncrowd bench: ${scene}, seed ${SEED}, ${SECONDS} s at dt 1/60, update flags ${UPDATE_FLAGS}, ${values.clock} clock, ${RUNS} run(s), median ms per update; "(S s)": that engine simulated S s only, once\n`,
  );
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map(() => "---").join("|")}|`);
  for (const { n, perEngine } of rows) {
    const cells = [String(n)];
    const ms = Object.fromEntries(engines.map((e) => [e, median(perEngine[e].ms)]));
    const mark = (e) => (perEngine[e].seconds < SECONDS ? ` (${perEngine[e].seconds} s)` : "");
    for (const e of engines) cells.push(`${ms[e].toFixed(2)}${mark(e)}`);
    if (engines.includes("detour")) {
      for (const e of engines) if (e !== "detour") cells.push((ms[e] / ms.detour).toFixed(2));
    }
    for (const e of engines) {
      const f = perEngine[e].first;
      cells.push(`${f.arrived} / ${n}${mark(e)}`, f.overlaps.toFixed(1), String(f.stuck));
    }
    console.log(`| ${cells.join(" | ")} |`);
  }
}
