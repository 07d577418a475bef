import { STRAIGHT_PATH_END } from "../query/straight-path.js";
import { updateFlags as UF } from "./agent-params.js";
import {
  type CrowdSim,
  MAX_CORNERS,
  MAX_NEIGHBOURS,
  ORCA_RADIUS_SCALE,
  S_WALKING,
  SETTLE_RADII,
  T_NONE,
  T_VALID,
  T_VELOCITY,
} from "./sim.js";

/**
 * Steering passes: the desired velocity from the corners (or the requested velocity) plus
 * separation, then the avoidance planner's choice (sampled velocity obstacles or ORCA).
 */

/** Desired velocity from the corners (or the requested velocity), plus separation. */
export function steer(s: CrowdSim): void {
  const cb = s.cornerBuffers;
  const np = s.npos;
  const dir = s.dir;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    s.settled[i] = 0;
    s.goalDist[i] = Number.POSITIVE_INFINITY;
    if (s.state[i] !== S_WALKING) continue;
    const ts = s.tstate[i]!;
    if (ts === T_NONE) continue;
    const o = i * 3;
    let dvx: number;
    let dvy: number;
    let dvz: number;
    if (ts === T_VELOCITY) {
      dvx = s.targetPos[o]!;
      dvy = s.targetPos[o + 1]!;
      dvz = s.targetPos[o + 2]!;
      s.desiredSpeed[i] = Math.sqrt(dvx * dvx + dvy * dvy + dvz * dvz);
    } else {
      const n = s.ncorners[i]!;
      if ((s.flags[i]! & UF.anticipateTurns) !== 0) smoothDirection(s, i, n, dir);
      else straightDirection(s, i, n, dir);
      const slowDown = s.radius[i]! * 2;
      let dist = slowDown;
      if (n > 0 && (cb.flags[i * MAX_CORNERS + n - 1]! & STRAIGHT_PATH_END) !== 0) {
        const c = (i * MAX_CORNERS + n - 1) * 3;
        const dx = cb.verts[c]! - np[o]!;
        const dz = cb.verts[c + 2]! - np[o + 2]!;
        const d = Math.sqrt(dx * dx + dz * dz);
        dist = Math.min(d, slowDown);
        if (s.partial[i] === 0) s.goalDist[i] = d;
        if (
          s.useOrca[i] === 1 &&
          ts === T_VALID &&
          s.partial[i] === 0 &&
          n === 1 &&
          d < s.radius[i]! * SETTLE_RADII
        ) {
          s.settled[i] = 1;
        }
      }
      const speed = s.maxSpeed[i]!;
      s.desiredSpeed[i] = speed;
      const scale = speed * (dist / slowDown);
      dvx = dir[0]! * scale;
      dvy = 0;
      dvz = dir[2]! * scale;
    }
    if (s.useOrca[i] === 1 && ts !== T_VELOCITY && s.settled[i] === 0 && (dvx !== 0 || dvz !== 0)) {
      laneBias(s, i, dvx, dvz, dir);
      dvx = dir[0]!;
      dvz = dir[2]!;
    }
    if ((s.flags[i]! & UF.separation) !== 0 && s.settled[i] === 0) {
      const sepDist = s.collisionQueryRange[i]!;
      const invSep = 1 / sepDist;
      const weight = s.separationWeight[i]!;
      let w = 0;
      let sx = 0;
      let sz = 0;
      for (let k = 0; k < s.nneis[i]!; k++) {
        const j = s.neis[i * MAX_NEIGHBOURS + k]!;
        const dx = np[o]! - np[j * 3]!;
        const dz = np[o + 2]! - np[j * 3 + 2]!;
        const d2 = dx * dx + dz * dz;
        if (d2 < 0.00001 || d2 > sepDist * sepDist) continue;
        const d = Math.sqrt(d2);
        const f = (weight * (1 - d * invSep * (d * invSep))) / d;
        sx += dx * f;
        sz += dz * f;
        w += 1;
      }
      if (w > 0.0001) {
        dvx += sx / w;
        dvz += sz / w;
        const sp2 = dvx * dvx + dvy * dvy + dvz * dvz;
        const des2 = s.desiredSpeed[i]! * s.desiredSpeed[i]!;
        if (sp2 > des2) {
          const shrink = des2 / sp2;
          dvx *= shrink;
          dvy *= shrink;
          dvz *= shrink;
        }
      }
    }
    s.dvel[o] = dvx;
    s.dvel[o + 1] = dvy;
    s.dvel[o + 2] = dvz;
  }
}

/** Towards the first corner (Detour's calcStraightSteerDirection), XZ unit or zero. */
export function straightDirection(s: CrowdSim, i: number, n: number, out: Float64Array): void {
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  if (n === 0) return;
  const v = s.cornerBuffers.verts;
  const c = i * MAX_CORNERS * 3;
  const x = v[c]! - s.npos[i * 3]!;
  const z = v[c + 2]! - s.npos[i * 3 + 2]!;
  normalizeXZ(x, z, out);
}

/**
 * Between the first two corners (Detour's calcSmoothSteerDirection): aim at the first
 * corner, pulled away from the second by half the distance, so turns start early.
 */
export function smoothDirection(s: CrowdSim, i: number, n: number, out: Float64Array): void {
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  if (n === 0) return;
  const v = s.cornerBuffers.verts;
  const c0 = i * MAX_CORNERS * 3;
  const c1 = (i * MAX_CORNERS + Math.min(1, n - 1)) * 3;
  const px = s.npos[i * 3]!;
  const pz = s.npos[i * 3 + 2]!;
  const d0x = v[c0]! - px;
  const d0z = v[c0 + 2]! - pz;
  let d1x = v[c1]! - px;
  let d1z = v[c1 + 2]! - pz;
  const len0 = Math.sqrt(d0x * d0x + d0z * d0z);
  const len1 = Math.sqrt(d1x * d1x + d1z * d1z);
  if (len1 > 0.001) {
    d1x /= len1;
    d1z /= len1;
  }
  normalizeXZ(d0x - d1x * len0 * 0.5, d0z - d1z * len0 * 0.5, out);
}

/** New velocity: desired, or the avoidance planner's choice. */
export function avoid(s: CrowdSim, dt: number): void {
  const np = s.npos;
  const out = s.avoidOut;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const o = i * 3;
    if ((s.flags[i]! & UF.obstacleAvoidance) === 0) {
      s.nvel[o] = s.dvel[o]!;
      s.nvel[o + 1] = s.dvel[o + 1]!;
      s.nvel[o + 2] = s.dvel[o + 2]!;
      continue;
    }
    const orca = s.useOrca[i] === 1;
    if (orca) {
      // Blocked time (the sampled planner's measure) lets a held-up walker squeeze past settled agents.
      blockedScale(s, i, dt);
      gatherObstacles(s, i, orca, 1);
    }
    const px = np[o]!;
    const pz = np[o + 2]!;
    const r = s.radius[i]!;
    const vmax = s.desiredSpeed[i]!;
    if (orca) {
      s.orca.computeVelocity(
        px,
        pz,
        r * ORCA_RADIUS_SCALE,
        vmax,
        s.vel[o]!,
        s.vel[o + 2]!,
        s.dvel[o]!,
        s.dvel[o + 2]!,
        dt,
        s.orcaParams,
        out,
        // maxAcceleration bounds free walking here, not in integrate (see OrcaPlanner).
        s.maxAcceleration[i]! * dt,
      );
    } else {
      // setAgent + sampleAdaptive: sampleVelocityAdaptive's eight doubles would be boxed.
      const k = blockedScale(s, i, dt);
      gatherObstacles(s, i, orca, k);
      s.sampler.setAgent(px, pz, r * k, vmax, s.vel[o]!, s.vel[o + 2]!, s.dvel[o]!, s.dvel[o + 2]!);
      s.sampler.sampleAdaptive(s.avoidanceParams, out);
    }
    s.nvel[o] = out[0]!;
    s.nvel[o + 1] = 0;
    s.nvel[o + 2] = out[1]!;
  }
}

/**
 * Gives agent i's planner (ORCA or the sampler: monomorphic calls, so they inline) what it
 * avoids, in one pass for both: its neighbours and the walls it is in front of (Detour's
 * dtTriArea2D test).
 */
function gatherObstacles(s: CrowdSim, i: number, orca: boolean, radiusScale: number): void {
  const np = s.npos;
  if (orca) s.orca.reset();
  else s.sampler.reset();
  const settled = s.settled[i]!;
  for (let k = 0; k < s.nneis[i]!; k++) {
    const nb = s.neis[i * MAX_NEIGHBOURS + k]!;
    const j = nb * 3;
    if (orca) {
      // A settled agent is an obstacle to walkers, who take full responsibility (as ORCA
      // does for static obstacles), and it ignores them: with a half-plane relative to its
      // own velocity, a stream walking past would carry it off its target. In full, though,
      // a settled agent in a narrow corridor plugs it: a walker held up for a while sees it
      // shrink (to a point after BLOCKED_TIME) and squeezes past, pushing it aside in the
      // collision pass; the settled agent's corridor still ends at its target: it walks back.
      const other = s.settled[nb]!;
      if (settled === 1 && other === 0) continue;
      const squeeze =
        settled === 0 && other === 1 ? 1 - SETTLED_SQUEEZE * (s.blockedTime[i]! / BLOCKED_TIME) : 1;
      s.orca.addCircle(
        np[j]!,
        np[j + 2]!,
        s.radius[nb]! * ORCA_RADIUS_SCALE * squeeze,
        s.vel[j]!,
        s.vel[j + 2]!,
        s.dvel[j]!,
        s.dvel[j + 2]!,
        settled === other ? urgencyShare(s.goalDist[i]!, s.goalDist[nb]!) : 1,
      );
    } else {
      s.sampler.addCircle(
        np[j]!,
        np[j + 2]!,
        s.radius[nb]! * radiusScale,
        s.vel[j]!,
        s.vel[j + 2]!,
        s.dvel[j]!,
        s.dvel[j + 2]!,
      );
    }
  }
  const b = s.boundaries[i]!;
  const seg = b.segments;
  const px = np[i * 3]!;
  const pz = np[i * 3 + 2]!;
  for (let k = 0; k < b.segmentCount; k++) {
    const so = k * 6;
    const abx = seg[so]! - px;
    const abz = seg[so + 2]! - pz;
    const acx = seg[so + 3]! - px;
    const acz = seg[so + 5]! - pz;
    if (acx * abz - abx * acz < 0) continue;
    if (orca) s.orca.addSegment(seg[so]!, seg[so + 2]!, seg[so + 3]!, seg[so + 5]!);
    else s.sampler.addSegment(seg[so]!, seg[so + 2]!, seg[so + 3]!, seg[so + 5]!);
  }
}

/** Unit XZ vector of (x, z) into out (y 0); zero when (x, z) is zero. */
function normalizeXZ(x: number, z: number, out: Float64Array): void {
  const len = Math.sqrt(x * x + z * z);
  if (len > 0) {
    out[0] = x / len;
    out[2] = z / len;
  } else {
    out[0] = 0;
    out[2] = 0;
  }
  out[1] = 0;
}

/**
 * A walker pair's split of the avoidance: the one nearer its goal yields less, so agents
 * about to arrive are not held off their targets by the crowd passing by; shares still sum
 * to 1 (each side computes it with the arguments swapped). NaN: neither is near, ORCA's ½.
 */
function urgencyShare(mine: number, theirs: number): number {
  if (mine === theirs || !(Math.min(mine, theirs) < URGENT_DIST)) return Number.NaN;
  const a = Math.min(mine, URGENT_DIST);
  const b = Math.min(theirs, URGENT_DIST);
  return 0.5 + ((a - b) / (2 * URGENT_DIST)) * URGENT_SKEW;
}

/** Goal distance from which a walker counts as urgent. [Units: m] */
const URGENT_DIST = 6;
/** Shares then range over ½ ± URGENT_SKEW / 2. */
const URGENT_SKEW = 0.9;

/** Lane formation looks this far ahead along the preferred velocity. [Units: m] */
const LANE_RANGE = 3;
/** Turn of the preferred velocity at full lateral cue: tan⁻¹(1) = 45°. */
const LANE_GAIN = 1;
/** A neighbour walks against (or with) the agent above this fraction of its max speed. */
const LANE_OPPOSED = 0.3;
/** Weight of neighbours walking the agent's way, relative to opposed ones. */
const LANE_JOIN = 0.5;
/** An opposed neighbour straight ahead counts as this far to the left side: mirror images pass on one hand. */
const LANE_TIE = 0.25;

/**
 * Lane formation for ORCA walkers (a social-force-style cue, cf. Helbing & Molnár 1995; lanes
 * in counter-flow, Helbing et al. 2005): ORCA by itself lets two opposing streams in a corridor
 * meet head on and stall. Read from the neighbours ahead (within LANE_RANGE) which side the
 * oncoming ones are on, and turn the preferred velocity (dvx, dvz) away from them and towards
 * neighbours walking the same way, so the streams sort into lanes before they meet. The cue is
 * normalised by the oncoming weight (one neighbour is as strong a cue as many) and only acts
 * when someone is oncoming. Writes out[0], out[2]; keeps the speed.
 */
function laneBias(s: CrowdSim, i: number, dvx: number, dvz: number, out: Float64Array): void {
  out[0] = dvx;
  out[2] = dvz;
  const sp = Math.sqrt(dvx * dvx + dvz * dvz);
  const fx = dvx / sp; // forward
  const fz = dvz / sp;
  const lx = -fz; // one side ("left"), the other is negative
  const lz = fx;
  const np = s.npos;
  const px = np[i * 3]!;
  const pz = np[i * 3 + 2]!;
  const r = s.radius[i]!;
  const vmin = LANE_OPPOSED * s.maxSpeed[i]!;
  let side = 0;
  let opposed = 0;
  for (let k = 0; k < s.nneis[i]!; k++) {
    const j = s.neis[i * MAX_NEIGHBOURS + k]!;
    if (s.settled[j] === 1) continue; // standing still: plain ORCA walks around it
    const rx = np[j * 3]! - px;
    const rz = np[j * 3 + 2]! - pz;
    const ahead = rx * fx + rz * fz;
    if (ahead <= 0 || ahead > LANE_RANGE) continue;
    const lat = rx * lx + rz * lz;
    const along = s.vel[j * 3]! * fx + s.vel[j * 3 + 2]! * fz;
    const w = 1 - ahead / LANE_RANGE; // nearer counts more
    const sideOf = lat / (Math.abs(lat) + r); // smooth sign of the lateral offset
    if (along < -vmin) {
      side -= w * (lat >= 0 ? Math.max(sideOf, LANE_TIE) : sideOf);
      opposed += w;
    } else if (along > vmin) {
      side += LANE_JOIN * w * sideOf;
    }
  }
  if (opposed === 0) return;
  const b = (LANE_GAIN * side) / Math.max(1, opposed);
  const x = fx + lx * b;
  const z = fz + lz * b;
  const k = sp / Math.sqrt(x * x + z * z);
  out[0] = x * k;
  out[2] = z * k;
}

/**
 * Agent i's avoidance radius scale (the sampled planner's). Each full-radius sampler in a packed
 * crowd sees every moving candidate hit a neighbour within a frame or two, so the cheapest is
 * to stand, and a jam never clears (Detour escapes this only because its neighbour list is
 * not the nearest agents: it mostly avoids agents metres away and walks through the near ones).
 * Here an agent held below BLOCKED_SPEED of its desired speed for a while plans with radii
 * shrinking to BLOCKED_MIN_SCALE over BLOCKED_TIME: it squeezes past, the collision pass (full
 * radii) keeps the bodies apart, and once walking again it grows back BLOCKED_RECOVER times as
 * fast (slowly: it keeps squeezing through the jam it is in). Flowing agents keep full radii.
 */
function blockedScale(s: CrowdSim, i: number, dt: number): number {
  const o = i * 3;
  const v2 = s.vel[o]! * s.vel[o]! + s.vel[o + 2]! * s.vel[o + 2]!;
  const d2 = s.dvel[o]! * s.dvel[o]! + s.dvel[o + 2]! * s.dvel[o + 2]!;
  let t = s.blockedTime[i]!;
  if (d2 > BLOCKED_MIN_DESIRED * BLOCKED_MIN_DESIRED && v2 < d2 * BLOCKED_SPEED * BLOCKED_SPEED) {
    t = Math.min(t + dt, BLOCKED_TIME);
  } else {
    t = Math.max(0, t - dt * BLOCKED_RECOVER);
  }
  s.blockedTime[i] = t;
  return 1 - (1 - BLOCKED_MIN_SCALE) * (t / BLOCKED_TIME);
}

/** How much of a settled agent's radius a fully blocked ORCA walker plans with less. */
const SETTLED_SQUEEZE = 1;
/** Below this fraction of the desired speed an agent counts as blocked. */
const BLOCKED_SPEED = 0.8;
/** Desired speeds below this are arriving, not blocked. [Units: m/s] */
const BLOCKED_MIN_DESIRED = 0.5;
/** Blocked time over which the radii shrink fully. [Units: s] */
const BLOCKED_TIME = 1;
/** Recovery runs at this fraction of the shrink's rate. */
const BLOCKED_RECOVER = 0.25;
/** Smallest planning radius, as a fraction of the agents' radii. */
const BLOCKED_MIN_SCALE = 0.1;
