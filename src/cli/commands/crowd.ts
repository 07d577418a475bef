import { Crowd } from "../../crowd/crowd.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { encodePng } from "../../node/png.js";
import { NavMeshQuery } from "../../query/nav-mesh-query.js";
import { mulberry32 } from "../../query/random-point.js";
import { createImage, drawPolyline, fillCircle, type Rgba } from "../../render/raster.js";
import { drawLayout, layoutTopDown } from "../../render/top-down.js";
import { viewX, viewY } from "../../render/view.js";
import { loadNavMesh } from "../load.js";
import { parseCommandArgs, parseNumber, UsageError } from "../options.js";
import { writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const CROWD_HELP = `usage: meshway crowd <file.navmesh> --agents N --seconds S [--seed K] [--avoidance sampled|orca] [--json] [--png trails.png]

Runs a seeded crowd scenario: N agents start at random points of the navmesh and walk to
random targets for S simulated seconds (steps of 1/60 s), then prints the quality table:
time per update, agents arrived, overlapping pairs per sampled frame, agents stuck.

options:
  --agents N            agents (default 100)
  --seconds S           simulated seconds (default 20)
  --seed K              scenario seed (default 1)
  --avoidance M         sampled (Detour's velocity sampling, default) | orca
  --radius R            agent radius in world units (default: the navmesh's agent radius)
  --json                print {agents, seconds, seed, avoidance, steps, msPerUpdate, arrived,
                        overlapsPerFrame, stuck} as JSON
  --png FILE            draw the agents' trails over the navmesh

examples:
  meshway crowd level.navmesh --agents 500 --seconds 20
  meshway crowd level.navmesh --agents 200 --seconds 10 --avoidance orca --png trails.png`;

const DT = 1 / 60;
/** Overlaps are counted every this many steps. */
const SAMPLE_EVERY = 10;
/** Agent speed and acceleration of the scenario (the bench). */
const MAX_SPEED = 3.5;
const MAX_ACCELERATION = 8;

export interface CrowdRunOptions {
  agents: number;
  seconds: number;
  seed: number;
  avoidance: "sampled" | "orca";
  radius: number;
  /** Keep XZ trails (one point per SAMPLE_EVERY steps) for drawing. */
  trails?: boolean;
}

export interface CrowdRunResult {
  agents: number;
  seconds: number;
  seed: number;
  avoidance: "sampled" | "orca";
  steps: number;
  msPerUpdate: number;
  arrived: number;
  overlapsPerFrame: number;
  stuck: number;
  /** Per agent, XZ pairs (only with trails). */
  trails?: number[][];
}

/**
 * Pairs of agents closer than 0.9 × the sum of their radii (XZ), by a uniform grid of cells
 * 2 × radius wide (every agent has the same radius here).
 */
export function countOverlaps(positions: Float32Array, count: number, radius: number): number {
  const cell = 2 * radius;
  const limit = (0.9 * 2 * radius) ** 2;
  const buckets = new Map<number, number[]>();
  const key = (cx: number, cz: number) => (cx + 0x8000) * 0x10000 + (cz + 0x8000);
  for (let i = 0; i < count; i++) {
    const k = key(Math.floor(positions[i * 3]! / cell), Math.floor(positions[i * 3 + 2]! / cell));
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = []));
    b.push(i);
  }
  let pairs = 0;
  for (let i = 0; i < count; i++) {
    const x = positions[i * 3]!;
    const y = positions[i * 3 + 1]!;
    const z = positions[i * 3 + 2]!;
    const cx = Math.floor(x / cell);
    const cz = Math.floor(z / cell);
    for (let dz = -1; dz <= 1; dz++) {
      for (let dx = -1; dx <= 1; dx++) {
        const b = buckets.get(key(cx + dx, cz + dz));
        if (!b) continue;
        for (const j of b) {
          if (j <= i) continue;
          const ex = positions[j * 3]! - x;
          const ez = positions[j * 3 + 2]! - z;
          // Agents on different floors do not touch.
          if (Math.abs(positions[j * 3 + 1]! - y) > 1) continue;
          if (ex * ex + ez * ez < limit) pairs++;
        }
      }
    }
  }
  return pairs;
}

/** The seeded scenario of `meshway crowd` (also usable from scripts). */
export function runCrowdScenario(navMesh: NavMesh, o: CrowdRunOptions): CrowdRunResult {
  const q = new NavMeshQuery(navMesh);
  const rng = mulberry32(o.seed);
  const crowd = new Crowd(navMesh, { maxAgents: o.agents, maxAgentRadius: o.radius });
  const targets = new Float64Array(o.agents * 3);
  const ids: number[] = [];
  for (let i = 0; i < o.agents; i++) {
    const start = q.findRandomPoint(q.defaultFilter, rng);
    const end = q.findRandomPoint(q.defaultFilter, rng);
    if (start.ref === 0 || end.ref === 0) break;
    const id = crowd.addAgent(start.point, {
      radius: o.radius,
      maxSpeed: MAX_SPEED,
      maxAcceleration: MAX_ACCELERATION,
      avoidance: o.avoidance,
    });
    if (id < 0) continue;
    crowd.requestMoveTarget(id, end.point);
    targets.set(end.point, id * 3);
    ids.push(id);
  }
  const steps = Math.max(1, Math.round(o.seconds / DT));
  const times: number[] = [];
  const trails: number[][] | undefined = o.trails ? ids.map(() => []) : undefined;
  const lastSecond = Math.min(steps, Math.round(1 / DT));
  const before = new Float32Array(o.agents * 3);
  let overlaps = 0;
  let samples = 0;
  for (let s = 0; s < steps; s++) {
    if (s === steps - lastSecond) before.set(crowd.positions);
    const t0 = performance.now();
    crowd.update(DT);
    times.push(performance.now() - t0);
    if (s % SAMPLE_EVERY === 0 || s === steps - 1) {
      overlaps += countOverlaps(crowd.positions, o.agents, o.radius);
      samples++;
      if (trails) {
        for (let k = 0; k < ids.length; k++) {
          const id = ids[k]!;
          trails[k]!.push(crowd.positions[id * 3]!, crowd.positions[id * 3 + 2]!);
        }
      }
    }
  }
  let arrived = 0;
  let stuck = 0;
  const p = crowd.positions;
  for (const id of ids) {
    const o3 = id * 3;
    const d = Math.hypot(p[o3]! - targets[o3]!, p[o3 + 2]! - targets[o3 + 2]!);
    if (d <= Math.max(0.5, 2 * o.radius)) {
      arrived++;
    } else if (Math.hypot(p[o3]! - before[o3]!, p[o3 + 2]! - before[o3 + 2]!) < 0.5) {
      // Not there and moved less than half a metre in the last second.
      stuck++;
    }
  }
  times.sort((a, b) => a - b);
  const result: CrowdRunResult = {
    agents: ids.length,
    seconds: steps * DT,
    seed: o.seed,
    avoidance: o.avoidance,
    steps,
    msPerUpdate: times[times.length >> 1]!,
    arrived,
    overlapsPerFrame: overlaps / samples,
    stuck,
  };
  if (trails) result.trails = trails;
  return result;
}

const TRAIL_COLOURS: readonly Rgba[] = [
  [220, 50, 47, 200],
  [38, 139, 210, 200],
  [133, 153, 0, 200],
  [211, 54, 130, 200],
  [181, 137, 0, 200],
  [42, 161, 152, 200],
  [108, 113, 196, 200],
  [203, 75, 22, 200],
];

/** PNG of the navmesh with every agent's trail and its end position. */
export function drawTrails(navMesh: NavMesh, trails: number[][], radius: number): Uint8Array {
  const L = layoutTopDown({ navMesh, size: 1024 });
  const img = createImage(L.width, L.height, L.background);
  drawLayout(img, L);
  const v = L.view;
  const px = Math.max(1.5, radius * v.scale);
  for (let k = 0; k < trails.length; k++) {
    const t = trails[k]!;
    const pts = new Float64Array(t.length);
    for (let i = 0; i < t.length; i += 2) {
      pts[i] = viewX(v, t[i]!);
      pts[i + 1] = viewY(v, t[i + 1]!);
    }
    const colour = TRAIL_COLOURS[k % TRAIL_COLOURS.length]!;
    drawPolyline(img, pts, 1.5, colour, { antialias: true, cap: "round" });
    if (pts.length >= 2) {
      fillCircle(img, pts[pts.length - 2]!, pts[pts.length - 1]!, Math.min(px, 6), colour);
    }
  }
  return encodePng(img);
}

export function crowdCommand(args: string[], io: Io): number {
  const { positionals, str, flag } = parseCommandArgs(args, {
    agents: { type: "string" },
    seconds: { type: "string" },
    seed: { type: "string" },
    avoidance: { type: "string" },
    radius: { type: "string" },
    json: { type: "boolean" },
    png: { type: "string" },
  });
  if (flag("help")) {
    io.out(`${CROWD_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("crowd needs exactly one .navmesh file");
  const agents = parseNumber("agents", str("agents")) ?? 100;
  if (!Number.isInteger(agents) || agents < 1 || agents > 65535) {
    throw new UsageError(`--agents must be an integer in 1..65535, got ${agents}`);
  }
  const seconds = parseNumber("seconds", str("seconds")) ?? 20;
  if (!(seconds > 0 && seconds <= 3600)) {
    throw new UsageError(`--seconds must be in (0, 3600], got ${seconds}`);
  }
  const seed = parseNumber("seed", str("seed")) ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${seed}`);
  const avoidance = str("avoidance") ?? "sampled";
  if (avoidance !== "sampled" && avoidance !== "orca") {
    throw new UsageError(`--avoidance must be sampled or orca, got "${avoidance}"`);
  }
  const png = str("png");
  if (png !== undefined && !/\.png$/i.test(png)) throw new UsageError("--png needs a .png file");
  const { navMesh } = loadNavMesh(positionals[0]!);
  const radius =
    parseNumber("radius", str("radius")) ?? (navMesh.agentRadius > 0 ? navMesh.agentRadius : 0.4);
  if (!(radius > 0 && radius < 100))
    throw new UsageError(`--radius must be in (0, 100), got ${radius}`);
  const r = runCrowdScenario(navMesh, {
    agents,
    seconds,
    seed,
    avoidance,
    radius,
    trails: png !== undefined,
  });
  if (png !== undefined) writeOutput(png, drawTrails(navMesh, r.trails ?? [], radius));
  const { trails: _trails, ...json } = r;
  if (flag("json")) {
    io.out(`${JSON.stringify(json)}\n`);
    return 0;
  }
  const lines = [
    `crowd: ${r.agents} agents (${avoidance}, radius ${radius}), ${r.seconds.toFixed(1)} s in ${r.steps} steps, seed ${seed}`,
    "| ms per update | arrived | overlaps per frame | stuck |",
    "|---|---|---|---|",
    `| ${r.msPerUpdate.toFixed(3)} | ${r.arrived} / ${r.agents} | ${r.overlapsPerFrame.toFixed(2)} | ${r.stuck} |`,
  ];
  if (png !== undefined) lines.push(`trails: ${png}`);
  io.out(`${lines.join("\n")}\n`);
  return 0;
}
