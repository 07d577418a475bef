import { MeshwayError } from "../errors.js";
import { AvoidanceInputs } from "./avoidance-inputs.js";
import { detSinCos } from "./det-trig.js";

/**
 * Detour's sampled velocity-obstacle steering (dtObstacleAvoidanceQuery, Mononen 2009–2010):
 * candidate velocities are scored by how far they stray from the desired and current velocity,
 * which side of each neighbour they pass, and how soon they would hit a neighbour (reciprocal
 * velocity obstacle: the neighbour is assumed to take half the avoidance) or a wall; the cheapest
 * candidate wins. Same sampling patterns and penalty terms as Detour, in float64.
 */
export interface ObstacleAvoidanceParams {
  /** 0..1: how far the sampling centre is pulled from 0 towards the desired velocity. */
  velBias: number;
  /** Penalty weight of |v − desired| / vmax. */
  weightDesVel: number;
  /** Penalty weight of |v − current| / vmax. */
  weightCurVel: number;
  /** Penalty weight of passing a neighbour on its "wrong" side. */
  weightSide: number;
  /** Penalty weight of 1 / (0.1 + time of impact / horizTime). */
  weightToi: number;
  /** Look-ahead for impacts. [Units: s] [Limit: > 0] */
  horizTime: number;
  /** Grid sampling: candidates per side. [Limit: >= 2] */
  gridSize: number;
  /** Adaptive sampling: directions per ring. [Limit: 1..32] */
  adaptiveDivs: number;
  /** Adaptive sampling: rings. [Limit: 1..4] */
  adaptiveRings: number;
  /** Adaptive sampling: refinement passes, each halving the pattern. [Limit: >= 1] */
  adaptiveDepth: number;
}

/** dtCrowd's defaults (every avoidance type before RecastDemo sets its presets). */
export const DEFAULT_AVOIDANCE_PARAMS: Readonly<ObstacleAvoidanceParams> = Object.freeze({
  velBias: 0.4,
  weightDesVel: 2,
  weightCurVel: 0.75,
  weightSide: 0.75,
  weightToi: 2.5,
  horizTime: 2.5,
  gridSize: 33,
  adaptiveDivs: 7,
  adaptiveRings: 2,
  adaptiveDepth: 5,
});
const CROWD_DEFAULTS = DEFAULT_AVOIDANCE_PARAMS;

/**
 * RecastDemo's four quality presets (Tool_Crowd.cpp; samples per agent: 11, 22, 45, 66): the
 * crowd defaults with velBias 0.5 and these adaptive patterns.
 */
export const AVOIDANCE_PRESETS: Readonly<
  Record<"low" | "medium" | "good" | "high", Readonly<ObstacleAvoidanceParams>>
> = Object.freeze({
  low: Object.freeze({
    ...CROWD_DEFAULTS,
    velBias: 0.5,
    adaptiveDivs: 5,
    adaptiveRings: 2,
    adaptiveDepth: 1,
  }),
  medium: Object.freeze({
    ...CROWD_DEFAULTS,
    velBias: 0.5,
    adaptiveDivs: 5,
    adaptiveRings: 2,
    adaptiveDepth: 2,
  }),
  good: Object.freeze({
    ...CROWD_DEFAULTS,
    velBias: 0.5,
    adaptiveDivs: 7,
    adaptiveRings: 2,
    adaptiveDepth: 3,
  }),
  high: Object.freeze({
    ...CROWD_DEFAULTS,
    velBias: 0.5,
    adaptiveDivs: 7,
    adaptiveRings: 3,
    adaptiveDepth: 3,
  }),
});

const MAX_PATTERN_DIVS = 32;
const MAX_PATTERN_RINGS = 4;
/**
 * Circle record: p(2), rad, vel(2), dvel(2) as added; then, per call: unit direction to it(2),
 * side normal(2), offset from the agent(2), |offset|² − (r + r_agent)², vel + agent vel(2).
 */
const CIRCLE = 16;
/**
 * Segment record: p(2), q(2) as added; then, per call: q − p (2), agent − p (2),
 * perp(q − p, agent − p), touch (1 when the agent is within 1 cm of it).
 */
const SEGMENT = 10;

export class ObstacleAvoidanceQuery {
  private readonly inputs: AvoidanceInputs;
  /** Segments a candidate can reach this call (a ray of length |v| <= the fastest candidate). */
  private readonly activeSegments: Int32Array;
  private activeCount = 0;
  /** Adaptive pattern, unit disc, (x, z) pairs. */
  private readonly pattern = new Float64Array((MAX_PATTERN_DIVS * MAX_PATTERN_RINGS + 1) * 2);
  /** sin, cos of half a division, then of a division, for trigDivs divisions. */
  private readonly trig = new Float64Array(4);
  private trigDivs = 0;
  // The current call's parameters, set by begin().
  private invHorizTime = 0;
  /** Candidates for evaluate(), (x, z) pairs: a whole adaptive pass fits. */
  private readonly cands = new Float64Array((MAX_PATTERN_DIVS * MAX_PATTERN_RINGS + 1) * 2);
  /** evaluate()'s best so far (in and out). */
  private bestPenalty = 0;
  private bestX = 0;
  private bestZ = 0;
  /** evaluate()'s last ruling-out obstacle: circle index, or circleCount + active segment index; -1 none. */
  private killer = -1;
  // The agent (setAgent) and the fastest candidate's speed (set by the sampling method).
  private px = 0;
  private pz = 0;
  private radius = 0;
  private vmax = 0;
  private fastest = 0;
  private vx = 0;
  private vz = 0;
  private dvx = 0;
  private dvz = 0;
  // params' weights and horizon as plain fields (read once per sample).
  private wDes = 0;
  private wCur = 0;
  private wSide = 0;
  private wToi = 0;
  private horiz = 0;
  private invVmax = 0;
  /**
   * False (Detour's rule): a neighbour the agent already overlaps charges every candidate that
   * moves relative to it, less the slower it moves, so in a packed crowd standing still always
   * wins and overlapping agents freeze. True (the crowd's): only candidates moving deeper into
   * it pay; moving apart or sliding past is free.
   */
  separatingIsFree = false;

  /** Capacities: neighbours (Detour's crowd uses 6) and wall segments (its boundary keeps 8). */
  constructor(maxCircles: number, maxSegments: number) {
    this.inputs = new AvoidanceInputs(
      "ObstacleAvoidanceQuery",
      "maxCircles",
      maxCircles,
      CIRCLE,
      maxSegments,
      SEGMENT,
    );
    this.activeSegments = new Int32Array(maxSegments);
  }

  /** Forgets every circle and segment. */
  reset(): void {
    this.inputs.reset();
  }

  /** Circles added since reset(). */
  get numCircles(): number {
    return this.inputs.circleCount;
  }

  /** Segments added since reset(). */
  get numSegments(): number {
    return this.inputs.segmentCount;
  }

  /** A neighbour agent: position, radius, current velocity, desired velocity. [Units: world units, per s] */
  addCircle(
    px: number,
    pz: number,
    radius: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
  ): void {
    this.inputs.addCircle(px, pz, radius, vx, vz, dvx, dvz);
  }

  /**
   * A wall segment p→q. The agent is tested against it as a point: navmesh edges are already
   * eroded by the agent radius. Detour's crowd adds only segments the agent is in front of.
   */
  addSegment(px: number, pz: number, qx: number, qz: number): void {
    this.inputs.addSegment(px, pz, qx, qz);
  }

  /**
   * Detour's adaptive sampling: a pattern of rings aligned with the desired velocity around a
   * centre biased towards it, refined `adaptiveDepth` times around the best sample at half the
   * radius. Writes the chosen velocity to out[0], out[1] (x, z); returns the samples evaluated.
   */
  sampleVelocityAdaptive(
    px: number,
    pz: number,
    radius: number,
    vmax: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
    params: ObstacleAvoidanceParams,
    out: Float64Array,
  ): number {
    this.setAgent(px, pz, radius, vmax, vx, vz, dvx, dvz);
    return this.sampleAdaptive(params, out);
  }

  /**
   * The agent's position, radius, speed limit, current and desired velocity for the next
   * sampleAdaptive. Small enough to inline: the crowd calls the two instead of
   * sampleVelocityAdaptive, whose double arguments would be boxed at every call.
   * @internal
   */
  setAgent(
    px: number,
    pz: number,
    radius: number,
    vmax: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
  ): void {
    this.px = px;
    this.pz = pz;
    this.radius = radius;
    this.vmax = vmax;
    this.vx = vx;
    this.vz = vz;
    this.dvx = dvx;
    this.dvz = dvz;
  }

  /** sampleVelocityAdaptive for the agent given to setAgent. @internal */
  sampleAdaptive(params: ObstacleAvoidanceParams, out: Float64Array): number {
    const vmax = this.vmax;
    const dvx = this.dvx;
    const dvz = this.dvz;
    this.fastest = vmax + 0.001;
    if (this.begin(params, out)) return 0;
    const pat = this.pattern;
    const nd = clampInt(params.adaptiveDivs, 1, MAX_PATTERN_DIVS);
    const nr = clampInt(params.adaptiveRings, 1, MAX_PATTERN_RINGS);
    const depth = Math.max(0, Math.trunc(params.adaptiveDepth));
    // sin / cos of a division and of half of one, computed again only when divs change.
    const trig = this.trig;
    if (this.trigDivs !== nd) {
      const da = (Math.PI * 2) / nd;
      detSinCos(da, trig);
      trig[2] = trig[0]!;
      trig[3] = trig[1]!;
      detSinCos(da * 0.5, trig);
      this.trigDivs = nd;
    }
    const sa = trig[2]!;
    const ca = trig[3]!;
    // Unit desired direction, and the same rotated by half a division (odd rings use it).
    let dx = dvx;
    let dz = dvz;
    const dl = Math.sqrt(dx * dx + dz * dz);
    if (dl > 0) {
      dx /= dl;
      dz /= dl;
    }
    const hx = dx * this.trig[1]! - dz * this.trig[0]!;
    const hz = dx * this.trig[0]! + dz * this.trig[1]!;

    // The pattern: the origin, then per ring (outermost first) its first point and pairs
    // rotated clockwise and counter-clockwise from it, and for an even count the opposite one.
    pat[0] = 0;
    pat[1] = 0;
    let n = 1;
    for (let j = 0; j < nr; j++) {
      const r = (nr - j) / nr;
      pat[n * 2] = (j % 2 === 0 ? dx : hx) * r;
      pat[n * 2 + 1] = (j % 2 === 0 ? dz : hz) * r;
      let cw = n; // last point on the clockwise side
      let ccw = n; // last point on the counter-clockwise side
      n++;
      for (let i = 1; i < nd - 1; i += 2) {
        const ax = pat[cw * 2]!;
        const az = pat[cw * 2 + 1]!;
        pat[n * 2] = ax * ca + az * sa;
        pat[n * 2 + 1] = -ax * sa + az * ca;
        const bx = pat[ccw * 2]!;
        const bz = pat[ccw * 2 + 1]!;
        pat[n * 2 + 2] = bx * ca - bz * sa;
        pat[n * 2 + 3] = bx * sa + bz * ca;
        cw = n;
        ccw = n + 1;
        n += 2;
      }
      if ((nd & 1) === 0) {
        // Detour writes this point one slot too far (harmless there: its presets use odd
        // counts); here it goes where it is counted.
        const bx = pat[ccw * 2]!;
        const bz = pat[ccw * 2 + 1]!;
        pat[n * 2] = bx * ca - bz * sa;
        pat[n * 2 + 1] = bx * sa + bz * ca;
        n++;
      }
    }

    let cr = vmax * (1 - params.velBias);
    let resX = dvx * params.velBias;
    let resZ = dvz * params.velBias;
    const limit = (vmax + 0.001) * (vmax + 0.001);
    let samples = 0;
    // The previous pass's winner is the next pass's centre (pattern point 0): its penalty is
    // known, so each refinement starts from it instead of evaluating it again (same result:
    // the other samples must beat it strictly either way).
    const cands = this.cands;
    let carried = Number.POSITIVE_INFINITY;
    for (let k = 0; k < depth; k++) {
      const known = carried < Number.POSITIVE_INFINITY;
      this.bestPenalty = carried;
      this.bestX = known ? resX : 0;
      this.bestZ = known ? resZ : 0;
      if (known) samples++; // counted as Detour counts it
      let count = 0;
      for (let i = known ? 1 : 0; i < n; i++) {
        const cx = resX + pat[i * 2]! * cr;
        const cz = resZ + pat[i * 2 + 1]! * cr;
        if (cx * cx + cz * cz > limit) continue;
        cands[count * 2] = cx;
        cands[count * 2 + 1] = cz;
        count++;
      }
      samples += count;
      this.evaluate(count);
      resX = this.bestX;
      resZ = this.bestZ;
      carried = this.bestPenalty;
      cr *= 0.5;
    }
    out[0] = resX;
    out[1] = resZ;
    return samples;
  }

  /**
   * Detour's grid sampling: gridSize × gridSize candidates centred on the biased desired
   * velocity, those beyond vmax skipped. Same arguments and result as sampleVelocityAdaptive.
   */
  sampleVelocityGrid(
    px: number,
    pz: number,
    radius: number,
    vmax: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
    params: ObstacleAvoidanceParams,
    out: Float64Array,
  ): number {
    if (!(params.gridSize >= 2)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `sampleVelocityGrid: params.gridSize must be >= 2, got ${params.gridSize}`,
      );
    }
    const size = Math.trunc(params.gridSize);
    const cs = (vmax * 2 * (1 - params.velBias)) / (size - 1);
    this.setAgent(px, pz, radius, vmax, vx, vz, dvx, dvz);
    this.fastest = vmax + cs;
    if (this.begin(params, out)) return 0;
    const cvx = dvx * params.velBias;
    const cvz = dvz * params.velBias;
    const half = (size - 1) * cs * 0.5;
    const limit = (vmax + cs / 2) * (vmax + cs / 2);
    this.bestPenalty = Number.POSITIVE_INFINITY;
    this.bestX = 0;
    this.bestZ = 0;
    let samples = 0;
    // A row at a time through the candidate buffer (it holds at least MAX_PATTERN points).
    const cands = this.cands;
    const perBatch = cands.length / 2;
    let count = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const cx = cvx + x * cs - half;
        const cz = cvz + y * cs - half;
        if (cx * cx + cz * cz > limit) continue;
        cands[count * 2] = cx;
        cands[count * 2 + 1] = cz;
        count++;
        samples++;
        if (count === perBatch) {
          this.evaluate(count);
          count = 0;
        }
      }
    }
    this.evaluate(count);
    out[0] = this.bestX;
    out[1] = this.bestZ;
    return samples;
  }

  /**
   * Checks the call, stores the parameters and prepares the obstacles (Detour's prepare()).
   * Returns true when the answer is already in `out`: with nothing to avoid (no neighbour, no
   * wall within reach of a candidate), the penalty is
   * wDes·|v − desired| + wCur·|v − current| (+ a constant), smallest at the desired velocity
   * when wDes >= wCur — the point the samples would only approximate.
   */
  private begin(params: ObstacleAvoidanceParams, out: Float64Array): boolean {
    const px = this.px;
    const pz = this.pz;
    const radius = this.radius;
    const vmax = this.vmax;
    const vx = this.vx;
    const vz = this.vz;
    const dvx = this.dvx;
    const dvz = this.dvz;
    const fastest = this.fastest;
    const sum = px + pz + radius + vmax + vx + vz + dvx + dvz;
    // Tested here first: passing the sum to checkFinite would box it at every call.
    if (!Number.isFinite(sum)) this.inputs.checkFinite("sampleVelocity", sum);
    if (!(params.horizTime > 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `sampleVelocity: params.horizTime must be > 0, got ${params.horizTime}`,
      );
    }
    if (out.length < 2) {
      throw new MeshwayError("INVALID_ARGUMENT", "sampleVelocity: out needs 2 elements (x, z)");
    }
    this.wDes = params.weightDesVel;
    this.wCur = params.weightCurVel;
    this.wSide = params.weightSide;
    this.wToi = params.weightToi;
    this.horiz = params.horizTime;
    this.invHorizTime = 1 / params.horizTime;
    this.invVmax = vmax > 0 ? 1 / vmax : Number.MAX_VALUE;
    if (!(vmax > 0)) {
      out[0] = 0;
      out[1] = 0;
      return true;
    }
    const c = this.inputs.circles;
    for (let i = 0; i < this.inputs.circleCount; i++) {
      const o = i * CIRCLE;
      const ox = c[o]! - px;
      const oz = c[o + 1]! - pz;
      let dpx = ox;
      let dpz = oz;
      const len = Math.sqrt(dpx * dpx + dpz * dpz);
      if (len > 0) {
        dpx /= len;
        dpz /= len;
      }
      c[o + 7] = dpx;
      c[o + 8] = dpz;
      // Which side to pass: by the sign of the relative desired velocity across the line of
      // sight (Detour's dtTriArea2D(0, dp, dv) with its 0.01 dead band).
      const rdx = c[o + 5]! - dvx;
      const rdz = c[o + 6]! - dvz;
      if (rdx * dpz - dpx * rdz < 0.01) {
        c[o + 9] = -dpz;
        c[o + 10] = dpx;
      } else {
        c[o + 9] = dpz;
        c[o + 10] = -dpx;
      }
      const r = radius + c[o + 2]!;
      c[o + 11] = ox;
      c[o + 12] = oz;
      c[o + 13] = ox * ox + oz * oz - r * r;
      c[o + 14] = vx + c[o + 3]!;
      c[o + 15] = vz + c[o + 4]!;
    }
    const s = this.inputs.segments;
    let active = 0;
    for (let i = 0; i < this.inputs.segmentCount; i++) {
      const o = i * SEGMENT;
      const ax = s[o]!;
      const az = s[o + 1]!;
      const d2 = distPtSegSqr(px, pz, ax, az, s[o + 2]!, s[o + 3]!);
      // A candidate's ray p + v·t, t in [0, 1], cannot reach a segment further than |v|.
      if (d2 > fastest * fastest) continue;
      const ex = s[o + 2]! - ax;
      const ez = s[o + 3]! - az;
      const wx = px - ax;
      const wz = pz - az;
      s[o + 4] = ex;
      s[o + 5] = ez;
      s[o + 6] = wx;
      s[o + 7] = wz;
      s[o + 8] = ez * wx - ex * wz; // perp2D(e, w), Detour's dtVperp2D
      s[o + 9] = d2 < 0.01 * 0.01 ? 1 : 0;
      this.activeSegments[active++] = i;
    }
    this.activeCount = active;
    this.killer = -1;
    // Nothing any candidate can reach (walls further than the fastest candidate goes add no
    // penalty to any sample): as with nothing to avoid.
    if (
      this.inputs.circleCount === 0 &&
      active === 0 &&
      params.weightDesVel >= params.weightCurVel
    ) {
      const d2 = dvx * dvx + dvz * dvz;
      const sc = d2 > vmax * vmax ? vmax / Math.sqrt(d2) : 1;
      out[0] = dvx * sc;
      out[1] = dvz * sc;
      return true;
    }
    return false;
  }

  /**
   * Detour's penalty (processSample) of candidates cands[0..count) in order, each bailing out
   * early once it cannot beat the best so far: a candidate strictly below bestPenalty becomes
   * the best (bestPenalty, bestX, bestZ, fields in and out). One loop over a batch rather than
   * a call per candidate: a call too large to inline would box its double arguments.
   */
  private evaluate(count: number): void {
    const cands = this.cands;
    const vx = this.vx;
    const vz = this.vz;
    const dvx = this.dvx;
    const dvz = this.dvz;
    const horiz = this.horiz;
    const invVmax = this.invVmax;
    const wDes = this.wDes;
    const wCur = this.wCur;
    const wToi = this.wToi;
    const toiPositive = wToi > 0;
    // Least impact term, wToi / (0.1 + 1) at no impact, less 1e-9 of it; -Infinity: no skip.
    const toiFloor = toiPositive ? (wToi / 1.1) * (1 - 1e-9) : Number.NEGATIVE_INFINITY;
    const c = this.inputs.circles;
    const nc = this.inputs.circleCount;
    const activeSegments = this.activeSegments;
    const ns = this.activeCount;
    let minPenalty = this.bestPenalty;
    let bestX = this.bestX;
    let bestZ = this.bestZ;
    let killer = this.killer;
    candidates: for (let q = 0; q < count; q++) {
      const cx = cands[q * 2]!;
      const cz = cands[q * 2 + 1]!;
      const vpen = wDes * (dist2(cx, cz, dvx, dvz) * invVmax);
      // Sure losers before the second distance and the division below: with what is left
      // under the best smaller than the impact term's least value (wToi / 1.1, less a margin
      // far above rounding), the threshold test below drops the sample anyway (the
      // subtractions only lower what is left).
      const left = minPenalty - vpen;
      if (left < toiFloor) continue;
      const vcpen = wCur * (dist2(cx, cz, vx, vz) * invVmax);
      if (left - vcpen < toiFloor) continue;
      // The impact time below which this sample cannot win (inverting tpen below).
      const minPen = left - vcpen;
      // minPen <= 0: the other terms alone reach the best, and the impact term adds at least
      // wToi / 1.1 (Detour's threshold below turns negative there and tests everything).
      if (minPen <= 0 && toiPositive) continue;
      const tThreshold = (wToi / minPen - 0.1) * horiz;
      if (tThreshold - horiz > -1.1920929e-7) continue;

      let tmin = horiz;
      const cx2 = cx * 2;
      const cz2 = cz * 2;
      // The obstacle that ruled out the previous candidate first: neighbouring candidates are
      // usually ruled out by the same one. Testing order cannot change the outcome: a
      // candidate is dropped exactly when its smallest impact time is below tThreshold, and
      // the penalty uses that minimum.
      if (killer >= 0) {
        const h =
          killer < nc
            ? this.circleHit(killer * CIRCLE, cx2, cz2)
            : this.segmentHit(activeSegments[killer - nc]! * SEGMENT, cx, cz);
        if (h < tmin) {
          tmin = h;
          if (tmin < tThreshold) continue;
        }
      }
      // Impacts first, the side term after them: most samples stop at an impact, and the side
      // term only adds to the sum.
      for (let i = 0; i < nc; i++) {
        const h = this.circleHit(i * CIRCLE, cx2, cz2);
        if (h < tmin) {
          tmin = h;
          if (tmin < tThreshold) {
            killer = i;
            continue candidates;
          }
        }
      }
      for (let k = 0; k < ns; k++) {
        const h = this.segmentHit(activeSegments[k]! * SEGMENT, cx, cz);
        if (h < tmin) {
          tmin = h;
          if (tmin < tThreshold) {
            killer = nc + k;
            continue candidates;
          }
        }
      }
      let side = 0;
      for (let i = 0; i < nc; i++) {
        const o = i * CIRCLE;
        const vabx = cx2 - c[o + 14]!;
        const vabz = cz2 - c[o + 15]!;
        const along = (c[o + 7]! * vabx + c[o + 8]! * vabz) * 0.5 + 0.5;
        const across = (c[o + 9]! * vabx + c[o + 10]! * vabz) * 2;
        side += Math.min(Math.max(Math.min(along, across), 0), 1);
      }
      if (nc > 0) side /= nc;
      const spen = this.wSide * side;
      const tpen = wToi * (1 / (0.1 + tmin * this.invHorizTime));
      const penalty = vpen + vcpen + spen + tpen;
      if (penalty < minPenalty) {
        minPenalty = penalty;
        bestX = cx;
        bestZ = cz;
      }
    }
    this.bestPenalty = minPenalty;
    this.bestX = bestX;
    this.bestZ = bestZ;
    this.killer = killer;
  }

  /**
   * Time of impact with circle record `o` of candidate velocity (cx2, cz2) / 2, or +Infinity
   * (Detour's sweepCircleCircle against the reciprocal velocity obstacle).
   */
  private circleHit(o: number, cx2: number, cz2: number): number {
    const c = this.inputs.circles;
    // Reciprocal velocity obstacle: velocity relative to the neighbour when each takes half.
    const vabx = cx2 - c[o + 14]!;
    const vabz = cz2 - c[o + 15]!;
    // Sweep the agent's circle along vab against the neighbour's.
    const a = vabx * vabx + vabz * vabz;
    if (a < 0.0001) return Number.POSITIVE_INFINITY; // not moving relative to it
    const b = vabx * c[o + 11]! + vabz * c[o + 12]!;
    const cc = c[o + 13]!;
    // Apart and moving apart: both roots negative. Overlapping and moving apart: free when
    // separatingIsFree (see there).
    if (b <= 0 && (cc > 0 || this.separatingIsFree)) return Number.POSITIVE_INFINITY;
    const d = b * b - a * cc;
    if (d < 0) return Number.POSITIVE_INFINITY; // passes by
    const rd = Math.sqrt(d);
    const inv = 1 / a;
    let htmin = (b - rd) * inv;
    const htmax = (b + rd) * inv;
    // Already overlapping: avoid more, the sooner the deeper.
    if (htmin < 0 && htmax > 0) htmin = -htmin * 0.5;
    return htmin >= 0 ? htmin : Number.POSITIVE_INFINITY;
  }

  /** Time of impact (doubled: walls count less) with segment record `o`, or +Infinity. */
  private segmentHit(o: number, cx: number, cz: number): number {
    const s = this.inputs.segments;
    const ex = s[o + 4]!;
    const ez = s[o + 5]!;
    if (s[o + 9] === 1) {
      // Touching: moving away from the wall is free, anything else hits at once.
      return -ez * cx + ex * cz < 0 ? Number.POSITIVE_INFINITY : 0;
    }
    // Ray p + cand·t against the segment (Detour's isectRaySeg), t and the segment parameter
    // both in [0, 1]: t = perp / d.
    const d = cz * ex - cx * ez;
    if (Math.abs(d) < 1e-6) return Number.POSITIVE_INFINITY;
    const perp = s[o + 8]!;
    // Sure misses without the division: t < 0 (signs differ), or t > 1 by more than rounding
    // (|perp| > |d|·(1 + 1e-9): perp · (1 / d) rounds above 1).
    if ((perp < 0 && d > 0) || (perp > 0 && d < 0)) return Number.POSITIVE_INFINITY;
    if (Math.abs(perp) > Math.abs(d) * 1.000000001) return Number.POSITIVE_INFINITY;
    const invD = 1 / d;
    const htmin = perp * invD;
    if (htmin < 0 || htmin > 1) return Number.POSITIVE_INFINITY;
    const u = (cz * s[o + 6]! - cx * s[o + 7]!) * invD;
    if (u < 0 || u > 1) return Number.POSITIVE_INFINITY;
    return htmin * 2; // avoid walls less than agents
  }
}

function dist2(ax: number, az: number, bx: number, bz: number): number {
  const dx = ax - bx;
  const dz = az - bz;
  return Math.sqrt(dx * dx + dz * dz);
}

/** Squared distance from (px, pz) to the segment a–b. */
function distPtSegSqr(
  px: number,
  pz: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  const sx = bx - ax;
  const sz = bz - az;
  const l2 = sx * sx + sz * sz;
  let t = l2 > 0 ? ((px - ax) * sx + (pz - az) * sz) / l2 : 0;
  t = Math.max(0, Math.min(t, 1));
  const dx = ax + sx * t - px;
  const dz = az + sz * t - pz;
  return dx * dx + dz * dz;
}

function clampInt(v: number, lo: number, hi: number): number {
  const i = Math.trunc(v);
  return Math.max(lo, Math.min(i, hi));
}
