import type { QueryFilter } from "../navmesh/filter.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { updateFlags as UF } from "./agent-params.js";
import type { PathCorridor } from "./path-corridor.js";
import {
  COLLISION_RESOLVE_FACTOR,
  type CrowdSim,
  MAX_NEIGHBOURS,
  S_WALKING,
  T_NONE,
  T_VELOCITY,
} from "./sim.js";
import { StepWall, stepStaysOnMesh } from "./straight-step.js";

/**
 * Motion passes: integration within maxAcceleration, collision resolution between
 * neighbours, movement along the navmesh surface, and the off-mesh link animation.
 */

/** Velocity towards nvel within maxAcceleration, then position (Detour's integrate). */
export function integrate(s: CrowdSim, dt: number): void {
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const o = i * 3;
    // An ORCA agent's planner applied maxAcceleration already: its avoiding velocities must be
    // walked as chosen (see OrcaPlanner.computeVelocity).
    const maxDelta =
      s.useOrca[i] === 1 && (s.flags[i]! & UF.obstacleAvoidance) !== 0
        ? Number.POSITIVE_INFINITY
        : s.maxAcceleration[i]! * dt;
    let dx = s.nvel[o]! - s.vel[o]!;
    let dy = s.nvel[o + 1]! - s.vel[o + 1]!;
    let dz = s.nvel[o + 2]! - s.vel[o + 2]!;
    const ds = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (ds > maxDelta) {
      const shrink = maxDelta / ds;
      dx *= shrink;
      dy *= shrink;
      dz *= shrink;
    }
    const vx = s.vel[o]! + dx;
    const vy = s.vel[o + 1]! + dy;
    const vz = s.vel[o + 2]! + dz;
    if (Math.sqrt(vx * vx + vy * vy + vz * vz) > 0.0001) {
      s.vel[o] = vx;
      s.vel[o + 1] = vy;
      s.vel[o + 2] = vz;
      s.npos[o] = s.npos[o]! + vx * dt;
      s.npos[o + 1] = s.npos[o + 1]! + vy * dt;
      s.npos[o + 2] = s.npos[o + 2]! + vz * dt;
    } else {
      s.vel[o] = 0;
      s.vel[o + 1] = 0;
      s.vel[o + 2] = 0;
    }
  }
}

/** Four Jacobi passes pushing overlapping neighbours apart (Detour's). */
export function resolveCollisions(s: CrowdSim): void {
  const np = s.npos;
  const disp = s.disp;
  for (let iter = 0; iter < 4; iter++) {
    for (let a = 0; a < s.nactive; a++) {
      const i = s.activeList[a]!;
      if (s.state[i] !== S_WALKING) continue;
      const o = i * 3;
      let sx = 0;
      let sz = 0;
      let w = 0;
      const ri = s.radius[i]!;
      for (let k = 0; k < s.nneis[i]!; k++) {
        const j = s.neis[i * MAX_NEIGHBOURS + k]!;
        let dx = np[o]! - np[j * 3]!;
        let dz = np[o + 2]! - np[j * 3 + 2]!;
        const rr = ri + s.radius[j]!;
        const d2 = dx * dx + dz * dz;
        if (d2 > rr * rr) continue;
        const d = Math.sqrt(d2);
        let pen: number;
        if (d < 0.0001) {
          // Coincident: push sideways of the desired velocity, opposite ways by id.
          const vx = s.dvel[o]!;
          const vz = s.dvel[o + 2]!;
          if (i > j) {
            dx = -vz;
            dz = vx;
          } else {
            dx = vz;
            dz = -vx;
          }
          pen = 0.01;
        } else {
          // Halves, settled agents too: one that stayed put would plug a narrow corridor for
          // good (walkers squeeze past it, see gatherObstacles); pushed aside, it walks back.
          pen = (1 / d) * ((rr - d) * 0.5) * COLLISION_RESOLVE_FACTOR;
        }
        sx += dx * pen;
        sz += dz * pen;
        w += 1;
      }
      if (w > 0.0001) {
        sx /= w;
        sz /= w;
      }
      disp[o] = sx;
      disp[o + 1] = 0;
      disp[o + 2] = sz;
    }
    for (let a = 0; a < s.nactive; a++) {
      const i = s.activeList[a]!;
      if (s.state[i] !== S_WALKING) continue;
      const o = i * 3;
      np[o] = np[o]! + disp[o]!;
      np[o + 2] = np[o + 2]! + disp[o + 2]!;
    }
  }
}

/** Positions constrained to the surface through the corridors. */
export function moveAlongSurface(s: CrowdSim): void {
  const q = s.query;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const o = i * 3;
    const c = s.corridors[i]!;
    const filter = s.filters[i]!;
    const fromRef = c.firstPoly;
    const fx = c.pos[0]!;
    const fy = c.pos[1]!;
    const fz = c.pos[2]!;
    c.movePosition(s.nposView[i]!, q, filter);
    if (c.firstPoly !== fromRef) keepStepStraight(s, c, filter, fromRef, fx, fy, fz);
    s.npos[o] = c.pos[0]!;
    s.npos[o + 1] = c.pos[1]!;
    s.npos[o + 2] = c.pos[2]!;
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) {
      c.reset(c.firstPoly, c.pos);
      s.partial[i] = 0;
    }
  }
}

/**
 * After a move from (fx, fy, fz) in polygon fromRef into another polygon: when the straight
 * step cut a corner (see straight-step.ts), moves instead to the nearest end it reaches — past
 * the corner on the line grazing it, else along the wall up to the corner, else nowhere.
 */
function keepStepStraight(
  s: CrowdSim,
  c: PathCorridor,
  filter: QueryFilter,
  fromRef: PolyRef,
  fx: number,
  fy: number,
  fz: number,
): void {
  const nm = s.navMesh;
  const q = s.query;
  const ex = c.pos[0]!;
  const ez = c.pos[2]!;
  if (stepWall === null) stepWall = new StepWall();
  const stepHit = stepWall;
  if (stepStaysOnMesh(nm, filter, fromRef, fx, fz, ex, ez, stepHit)) return;
  if (slideTarget(ex, ez, stepHit, slide)) {
    const ux = slide[0]! - fx;
    const uz = slide[2]! - fz;
    const ul2 = ux * ux + uz * uz;
    const k = ul2 > 0 ? ((ex - fx) * ux + (ez - fz) * uz) / ul2 : 1;
    if (k > 1) {
      corner.set(slide);
      slide[0] = fx + ux * k;
      slide[2] = fz + uz * k;
      c.movePosition(slide, q, filter);
      if (
        c.firstPoly === fromRef ||
        stepStaysOnMesh(nm, filter, fromRef, fx, fz, c.pos[0]!, c.pos[2]!, stepHit)
      ) {
        return;
      }
      slide.set(corner);
    }
  }
  c.movePosition(slide, q, filter);
  if (
    c.firstPoly === fromRef ||
    stepStaysOnMesh(nm, filter, fromRef, fx, fz, c.pos[0]!, c.pos[2]!, stepHit)
  ) {
    return;
  }
  slide[0] = fx;
  slide[1] = fy;
  slide[2] = fz;
  c.movePosition(slide, q, filter);
}

// Made on first use, not on import (issue 17).
let stepWall: StepWall | null = null;
const slide = new Float64Array(3);
const corner = new Float64Array(3);

/**
 * Where a step that met `hit`'s wall should end instead of (ex, ez): the wall's point nearest
 * to it, within the wall's ends — the step slides along the wall up to its corner. True when
 * it ended at a corner (an end of the wall).
 */
function slideTarget(ex: number, ez: number, hit: StepWall, out: Float64Array): boolean {
  const w = hit.wall;
  const wx = w[3]! - w[0]!;
  const wz = w[5]! - w[2]!;
  const l2 = wx * wx + wz * wz;
  let u = l2 > 0 ? ((ex - w[0]!) * wx + (ez - w[2]!) * wz) / l2 : 0;
  const clamped = u <= 0 || u >= 1;
  u = Math.max(0, Math.min(u, 1));
  out[0] = w[0]! + wx * u;
  out[1] = w[1]! + (w[4]! - w[1]!) * u;
  out[2] = w[2]! + wz * u;
  return clamped;
}

/** Off-mesh links: to the take-off point (first 15 %), then along the link. */
export function animateOffMesh(s: CrowdSim, dt: number): void {
  if (!s.autoTraverseOffMeshConnections) return;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.animActive[i] === 0) continue;
    const t = s.animT[i]! + dt;
    s.animT[i] = t;
    const tmax = s.animTmax[i]!;
    if (t > tmax || tmax <= 0) {
      s.animActive[i] = 0;
      s.state[i] = S_WALKING;
      continue;
    }
    const o = i * 3;
    const ta = tmax * 0.15;
    let from: Float64Array;
    let to: Float64Array;
    let u: number;
    if (t < ta) {
      from = s.animInit;
      to = s.animStart;
      u = clamp01(t / ta);
    } else {
      from = s.animStart;
      to = s.animEnd;
      u = clamp01((t - ta) / (tmax - ta));
    }
    for (let k = 0; k < 3; k++) {
      s.npos[o + k] = from[o + k]! + (to[o + k]! - from[o + k]!) * u;
      s.vel[o + k] = 0;
      s.dvel[o + k] = 0;
    }
  }
}

function clamp01(v: number): number {
  return v < 0 ? 0 : Math.min(v, 1);
}
