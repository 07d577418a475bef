import { MeshwayError } from "../errors.js";
import { AvoidanceInputs } from "./avoidance-inputs.js";
import { solveLp2, solveLp3 } from "./orca-lp.js";

/**
 * ORCA, optimal reciprocal collision avoidance (J. van den Berg, S. J. Guy, M. Lin, D. Manocha,
 * "Reciprocal n-Body Collision Avoidance", Robotics Research, STAR 70, 2011). Each neighbour
 * contributes a half-plane of velocities: the velocity obstacle of the pair (velocities that
 * collide within timeHorizon) is pushed out of by the smallest change u, and this agent takes
 * half of it, trusting the neighbour to take the other half. Each wall segment contributes a
 * half-plane tangent to its (convex) velocity obstacle within obstacleTimeHorizon, taken in
 * full. The new velocity is the one closest to the desired velocity inside every half-plane and
 * the vmax disc (2D LP); when the half-planes leave nothing (dense crowds), the one that
 * violates the agent constraints least while keeping the walls (3D LP). See orca-lp.ts.
 */
export interface OrcaParams {
  /** Look-ahead for other agents: larger reacts earlier, but makes dense crowds timid. [Units: s] [Limit: > 0] */
  timeHorizon: number;
  /** Look-ahead for walls: small, so agents may walk up to and along them. [Units: s] [Limit: > 0] */
  obstacleTimeHorizon: number;
}

/** For agents of radius ~0.4–0.6 walking at ~3.5 m/s among walls of an eroded navmesh. */
export const DEFAULT_ORCA_PARAMS: Readonly<OrcaParams> = Object.freeze({
  timeHorizon: 2,
  obstacleTimeHorizon: 0.4,
});

/** Circle record: p(2), radius, velocity(2), desired velocity(2), this agent's share of u (NaN: the skewed half). */
const CIRCLE = 8;
/** The symmetry-breaking turn of the preferred velocity: 0.02 rad (cos, sin as literals: no engine-dependent Math.sin). */
const TURN_COS = 0.9998000066665778;
const TURN_SIN = 0.01999866669333308;
/** How far a pair's split of the avoidance departs from ½ each. */
const SHARE_SKEW = 0.05;
/** Distances below this are "on" a wall. [Units: world units] */
const TOUCH_EPS = 1e-6;

export class OrcaPlanner {
  private readonly inputs: AvoidanceInputs;
  /** The last call's half-planes, (nx, nz, c) each: v admitted when nx·vx + nz·vz >= c. Walls first. */
  readonly lines: Float64Array;
  private readonly scratch: Float64Array;
  private readonly tmp = new Float64Array(2);
  private readonly res = new Float64Array(2);
  private lineTotal = 0;
  private wallLineTotal = 0;
  private feasibleLast = true;

  /** Capacities: neighbour agents and wall segments per call. */
  constructor(maxNeighbours: number, maxSegments: number) {
    this.inputs = new AvoidanceInputs(
      "OrcaPlanner",
      "maxNeighbours",
      maxNeighbours,
      CIRCLE,
      maxSegments,
      4,
    );
    this.lines = new Float64Array((maxNeighbours + maxSegments) * 3);
    this.scratch = new Float64Array((maxNeighbours + maxSegments) * 3);
  }

  /** Forgets every neighbour and segment. */
  reset(): void {
    this.inputs.reset();
  }

  /** Half-planes built by the last computeVelocity (walls first, then neighbours). */
  get lineCount(): number {
    return this.lineTotal;
  }

  /** How many of `lines` come from walls (kept hard by the fallback). */
  get wallLineCount(): number {
    return this.wallLineTotal;
  }

  /** Whether the last computeVelocity met every half-plane (false: the 3D LP fallback ran). */
  get feasible(): boolean {
    return this.feasibleLast;
  }

  /**
   * A neighbour agent: position, radius, current velocity, desired velocity (kept for symmetry
   * with ObstacleAvoidanceQuery; ORCA uses the current one). `share` is this agent's part of
   * the avoidance, in [0, 1]: the pair's two shares must sum to 1 (1: treat the neighbour as a
   * static obstacle, 0: leave it all to the neighbour); by default about ½ (see agentLine).
   */
  addCircle(
    px: number,
    pz: number,
    radius: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
    share = Number.NaN,
  ): void {
    this.inputs.addCircle(px, pz, radius, vx, vz, dvx, dvz);
    this.inputs.circles[(this.inputs.circleCount - 1) * CIRCLE + 7] =
      share >= 0 ? Math.min(share, 1) : Number.NaN;
  }

  /**
   * A wall segment p→q. The agent's centre is kept off it as a point (the navmesh is already
   * eroded by the agent radius). Exactly on a segment, its walkable side is taken to be the
   * right of p→q looking down −y (Detour's boundary orientation).
   */
  addSegment(px: number, pz: number, qx: number, qz: number): void {
    this.inputs.addSegment(px, pz, qx, qz);
  }

  /**
   * Chooses the velocity closest to (dvx, dvz) satisfying all constraints, |v| <= vmax; writes
   * out[0], out[1]; dt is the simulation step (for the collision-already-overlapping case).
   * With maxSpeedChange (maxAcceleration × dt), an agent free to walk moves from (vx, vz)
   * towards (dvx, dvz) by at most that much; once avoiding, the change is not limited.
   */
  computeVelocity(
    px: number,
    pz: number,
    radius: number,
    vmax: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
    dt: number,
    params: OrcaParams,
    out: Float64Array,
    maxSpeedChange = Number.POSITIVE_INFINITY,
  ): void {
    this.inputs.checkFinite("computeVelocity", px + pz + radius + vmax + vx + vz + dvx + dvz + dt);
    if (!(maxSpeedChange >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `OrcaPlanner.computeVelocity: maxSpeedChange must be >= 0, got ${maxSpeedChange}`,
      );
    }
    if (!(dt > 0) || !(params.timeHorizon > 0) || !(params.obstacleTimeHorizon > 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `OrcaPlanner.computeVelocity: dt, timeHorizon and obstacleTimeHorizon must be > 0, got ${dt}, ${params.timeHorizon}, ${params.obstacleTimeHorizon}`,
      );
    }
    if (out.length < 2) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        "OrcaPlanner.computeVelocity: out needs 2 elements (x, z)",
      );
    }
    const speed = Math.max(0, vmax);
    let n = 0;
    const invTo = 1 / params.obstacleTimeHorizon;
    for (let i = 0; i < this.inputs.segmentCount; i++) {
      if (this.wallLine(i, px, pz, vx, vz, invTo, n)) n++;
    }
    this.wallLineTotal = n;
    const invT = 1 / params.timeHorizon;
    const invDt = 1 / dt;
    for (let i = 0; i < this.inputs.circleCount; i++) {
      if (this.agentLine(i, px, pz, radius, vx, vz, invT, invDt, n)) n++;
    }
    this.lineTotal = n;
    const res = this.res;
    // Free walking: approach the desired velocity within maxSpeedChange (the agent's
    // acceleration). When that is not admitted the agent is avoiding, and ORCA's answer is only
    // safe if walked at once: then aim at the desired velocity itself, unlimited.
    let freeX = dvx;
    let freeZ = dvz;
    const chX = dvx - vx;
    const chZ = dvz - vz;
    const ch = Math.sqrt(chX * chX + chZ * chZ);
    if (ch > maxSpeedChange) {
      freeX = vx + (chX * maxSpeedChange) / ch;
      freeZ = vz + (chZ * maxSpeedChange) / ch;
    }
    if (admits(this.lines, n, speed, freeX, freeZ)) {
      const l2 = freeX * freeX + freeZ * freeZ;
      const k = l2 > speed * speed ? speed / Math.sqrt(l2) : 1;
      this.feasibleLast = true;
      out[0] = freeX * k;
      out[1] = freeZ * k;
      return;
    }
    // Perfect mirror images (two agents face to face on one line) would only slow down, each
    // waiting for the other to turn. When agents keep the desired velocity from being admitted, aim
    // a little clockwise of it: mirror images then pass each other on the same hand.
    let optX = dvx;
    let optZ = dvz;
    if (n > this.wallLineTotal && !admits(this.lines, n, speed, dvx, dvz)) {
      optX = dvx * TURN_COS + dvz * TURN_SIN;
      optZ = dvz * TURN_COS - dvx * TURN_SIN;
    }
    const failed = solveLp2(this.lines, n, speed, optX, optZ, false, res);
    this.feasibleLast = failed === n;
    if (failed < n) {
      solveLp3(this.lines, n, this.wallLineTotal, failed, speed, this.scratch, res, this.tmp);
    }
    out[0] = res[0]!;
    out[1] = res[1]!;
  }

  /**
   * Line for neighbour i: relative position p (to it), relative velocity w (this − it), combined
   * radius R. Without overlap the velocity obstacle is the cone from 0 tangent to the disc
   * (p, R), cut off by the disc (p/τ, R/τ); u is the shortest way from w to its boundary.
   */
  private agentLine(
    i: number,
    px: number,
    pz: number,
    radius: number,
    vx: number,
    vz: number,
    invT: number,
    invDt: number,
    k: number,
  ): boolean {
    const c = this.inputs.circles;
    const o = i * CIRCLE;
    const rpx = c[o]! - px;
    const rpz = c[o + 1]! - pz;
    const rvx = vx - c[o + 3]!;
    const rvz = vz - c[o + 4]!;
    const r = radius + c[o + 2]!;
    const dist2 = rpx * rpx + rpz * rpz;
    const r2 = r * r;
    let nx: number;
    let nz: number;
    let ux: number;
    let uz: number;
    if (dist2 > r2) {
      // w from the centre of the cut-off disc.
      const wx = rvx - rpx * invT;
      const wz = rvz - rpz * invT;
      const wl2 = wx * wx + wz * wz;
      const wDotP = wx * rpx + wz * rpz;
      if (wDotP < 0 && wDotP * wDotP > r2 * wl2) {
        // Nearest the cut-off arc: push radially out of the small disc.
        const wl = Math.sqrt(wl2);
        nx = wx / wl;
        nz = wz / wl;
        const push = r * invT - wl;
        ux = nx * push;
        uz = nz * push;
      } else {
        // Nearest a leg: p's direction turned by ±asin(R/|p|), towards the side w is on.
        const leg = Math.sqrt(dist2 - r2);
        let dx: number;
        let dz: number;
        if (rpx * wz - rpz * wx > 0) {
          dx = (rpx * leg - rpz * r) / dist2; // counter-clockwise leg
          dz = (rpx * r + rpz * leg) / dist2;
          nx = -dz; // outward: further counter-clockwise
          nz = dx;
        } else {
          dx = (rpx * leg + rpz * r) / dist2; // clockwise leg
          dz = (-rpx * r + rpz * leg) / dist2;
          nx = dz;
          nz = -dx;
        }
        const along = rvx * dx + rvz * dz;
        ux = dx * along - rvx;
        uz = dz * along - rvz;
      }
    } else {
      // Overlapping: get apart within one step, through the cut-off disc at p/dt.
      const wx = rvx - rpx * invDt;
      const wz = rvz - rpz * invDt;
      const wl = Math.sqrt(wx * wx + wz * wz);
      if (wl < 1e-12) return false; // same place, same velocity: no direction to prefer
      nx = wx / wl;
      nz = wz / wl;
      const push = r * invDt - wl;
      ux = nx * push;
      uz = nz * push;
    }
    // Our share of u (the paper's ½, any split summing to 1 keeps the guarantee): admit v with
    // n·(v − (v_this + share·u)) >= 0. The pair's two agents agree on who takes the larger
    // share by comparing positions, which breaks mirror symmetries (four agents crossing at a
    // point) that would otherwise leave everyone slowing down together.
    let share = c[o + 7]!;
    if (!(share >= 0)) {
      const first = px < c[o]! || (px === c[o]! && pz < c[o + 1]!);
      share = first ? 0.5 + SHARE_SKEW : 0.5 - SHARE_SKEW;
    }
    const l = this.lines;
    l[k * 3] = nx;
    l[k * 3 + 1] = nz;
    l[k * 3 + 2] = nx * (vx + share * ux) + nz * (vz + share * uz);
    return true;
  }

  /**
   * Line for wall segment i, seen from the agent's centre: a = a − p, b = b − p. Its velocity
   * obstacle within τ is the cone between the rays to a and b, beyond the chord a/τ–b/τ — convex.
   * With v (the current velocity) outside it, the half-plane is the separating line through the
   * obstacle's point nearest v, so it excludes the whole obstacle; with v inside, it is the
   * boundary piece nearest v, as for agents. Either way it admits 0, so walls alone are always
   * feasible and the fallback can keep them hard. (RVO2 builds wall lines from polygon
   * obstacles' legs; single segments with this convex obstacle are simpler and exact.)
   */
  private wallLine(
    i: number,
    px: number,
    pz: number,
    vx: number,
    vz: number,
    invTo: number,
    k: number,
  ): boolean {
    const s = this.inputs.segments;
    let ax = s[i * 4]! - px;
    let az = s[i * 4 + 1]! - pz;
    let bx = s[i * 4 + 2]! - px;
    let bz = s[i * 4 + 3]! - pz;
    const sx = bx - ax;
    const sz = bz - az;
    const sl2 = sx * sx + sz * sz;
    if (sl2 === 0) return false; // a point: hitting it exactly has no room to avoid
    const l = this.lines;
    // Closest point of the segment to the agent.
    const t = sl2 > 0 ? Math.max(0, Math.min(-(ax * sx + az * sz) / sl2, 1)) : 0;
    const cx = ax + sx * t;
    const cz = az + sz * t;
    const cross = ax * bz - az * bx; // > 0: a→b turns counter-clockwise around the agent
    if (cx * cx + cz * cz < TOUCH_EPS * TOUCH_EPS || Math.abs(cross) < TOUCH_EPS * Math.sqrt(sl2)) {
      // On the segment or its line: only going through the segment's middle collides.
      if (t <= 0 || t >= 1) return false;
      const len = Math.sqrt(sl2);
      // Do not cross it; the walkable side is (s.z, −s.x), the side Detour's boundary faces.
      l[k * 3] = sz / len;
      l[k * 3 + 1] = -sx / len;
      l[k * 3 + 2] = 0;
      return true;
    }
    if (cross < 0) {
      // Order so that a→b is counter-clockwise: the cone is left of ray a and right of ray b.
      const tx = ax;
      const tz = az;
      ax = bx;
      az = bz;
      bx = tx;
      bz = tz;
    }
    const al = Math.sqrt(ax * ax + az * az);
    const bl = Math.sqrt(bx * bx + bz * bz);
    const a0x = ax * invTo; // chord ends
    const a0z = az * invTo;
    const b0x = bx * invTo;
    const b0z = bz * invTo;
    // Outward normals: ray a's (clockwise of it), ray b's (counter-clockwise), the chord's (to 0).
    const naX = az / al;
    const naZ = -ax / al;
    const nbX = -bz / bl;
    const nbZ = bx / bl;
    let ncX = -(b0z - a0z);
    let ncZ = b0x - a0x;
    const ncl = Math.sqrt(ncX * ncX + ncZ * ncZ);
    ncX /= ncl;
    ncZ /= ncl;
    if (ncX * a0x + ncZ * a0z > 0) {
      ncX = -ncX;
      ncZ = -ncZ;
    }
    const inside =
      ax * vz - az * vx >= 0 && vx * bz - vz * bx >= 0 && ncX * (vx - a0x) + ncZ * (vz - a0z) <= 0;
    // Nearest point on each boundary piece: ray a from a0, ray b from b0, chord a0–b0.
    let best = Number.POSITIVE_INFINITY;
    let qx = 0;
    let qz = 0;
    let fx = 0; // the piece's outward normal
    let fz = 0;
    {
      const ta = Math.max(0, ((vx - a0x) * ax + (vz - a0z) * az) / (al * al));
      const x = a0x + ax * ta;
      const z = a0z + az * ta;
      const d = (vx - x) * (vx - x) + (vz - z) * (vz - z);
      if (d < best) {
        best = d;
        qx = x;
        qz = z;
        fx = naX;
        fz = naZ;
      }
    }
    {
      const tb = Math.max(0, ((vx - b0x) * bx + (vz - b0z) * bz) / (bl * bl));
      const x = b0x + bx * tb;
      const z = b0z + bz * tb;
      const d = (vx - x) * (vx - x) + (vz - z) * (vz - z);
      if (d < best) {
        best = d;
        qx = x;
        qz = z;
        fx = nbX;
        fz = nbZ;
      }
    }
    {
      const ex = b0x - a0x;
      const ez = b0z - a0z;
      const tc = Math.max(
        0,
        Math.min(((vx - a0x) * ex + (vz - a0z) * ez) / (ex * ex + ez * ez), 1),
      );
      const x = a0x + ex * tc;
      const z = a0z + ez * tc;
      const d = (vx - x) * (vx - x) + (vz - z) * (vz - z);
      if (d < best) {
        best = d;
        qx = x;
        qz = z;
        fx = ncX;
        fz = ncZ;
      }
    }
    let nx = fx;
    let nz = fz;
    if (!inside && best > 1e-24) {
      // Outside: the separating line through the nearest point, facing v.
      const d = Math.sqrt(best);
      nx = (vx - qx) / d;
      nz = (vz - qz) / d;
    }
    l[k * 3] = nx;
    l[k * 3 + 1] = nz;
    l[k * 3 + 2] = nx * qx + nz * qz;
    return true;
  }
}

/** Whether (vx, vz), clamped to the vmax disc, meets lines 0..count−1. */
function admits(lines: Float64Array, count: number, vmax: number, vx: number, vz: number): boolean {
  const l2 = vx * vx + vz * vz;
  const s = l2 > vmax * vmax ? vmax / Math.sqrt(l2) : 1;
  for (let k = 0; k < count; k++) {
    if (lines[k * 3]! * vx * s + lines[k * 3 + 1]! * vz * s < lines[k * 3 + 2]!) return false;
  }
  return true;
}
