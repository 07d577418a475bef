import type { ConvexSurface } from "./geometry.js";

/**
 * The lesson's own funnel ("simple stupid funnel", Mononen 2010, the string pulling Detour's
 * findStraightPath does) over a list of portals, recording every step so the page can play it.
 * The lesson runs it on both methods' portals: on the toy rectangles it is the only funnel;
 * on meshway's navmesh its last step equals findStraightPath (a unit test checks it).
 */

/** Numbers recorded per funnel step (see FunnelRun.steps). */
export const FUNNEL_STEP_STRIDE = 8;

export interface FunnelRun {
  /** Every bend the walk fixed, in order (the steps' `fixed` counts index into this). */
  bends: Float64Array;
  /** The straightened path, x, z pairs, start first: `bends` without straight-on points. */
  points: Float64Array;
  count: number;
  /**
   * One record of FUNNEL_STEP_STRIDE numbers per portal visited (restarts visit some twice):
   * apex x, z; left x, z; right x, z; the portal index; the path points fixed so far.
   */
  steps: Float64Array;
  stepCount: number;
}

/** Points closer than this are one point [world units] (Detour's dtVequal uses 1/16384). */
const SAME = 1 / 16384;

function same(ax: number, az: number, bx: number, bz: number): boolean {
  return (ax - bx) * (ax - bx) + (az - bz) * (az - bz) < SAME * SAME;
}

/** Twice the signed area of (a, b, c) on XZ: > 0 when c lies left of a → b (our portal convention). */
function cross(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): number {
  return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

/**
 * Orients a portal segment (a, b) seen from a point strictly inside the polygon it is left
 * from (its centroid): returns [leftX, leftZ, rightX, rightZ], "left" being the end with
 * cross > 0 looking from there at the segment's midpoint.
 */
export function orientPortal(
  fromX: number,
  fromZ: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): [number, number, number, number] {
  const mx = (ax + bx) / 2;
  const mz = (az + bz) / 2;
  return cross(fromX, fromZ, mx, mz, ax, az) > 0 ? [ax, az, bx, bz] : [bx, bz, ax, az];
}

/**
 * String pulling through `portals` (4 numbers each: left x, z, right x, z, as orientPortal
 * gives them) from start to goal. Each side of the funnel only ever tightens; when one side
 * crosses the other, that side's end becomes a bend (the new apex) and the walk restarts
 * there. Bounded: every restart fixes one more point, so at most portals² iterations.
 */
export function runFunnel(
  start: readonly [number, number],
  goal: readonly [number, number],
  portals: Float64Array,
): FunnelRun {
  // Portal list with a degenerate portal at the goal, so the goal ends the walk.
  const n = portals.length / 4 + 1;
  const P = new Float64Array(n * 4);
  P.set(portals);
  P.set([goal[0], goal[1], goal[0], goal[1]], (n - 1) * 4);
  const out: number[] = [start[0], start[1]];
  const steps: number[] = [];
  let ax = start[0];
  let az = start[1];
  let lx = ax;
  let lz = az;
  let rx = ax;
  let rz = az;
  let li = -1;
  let ri = -1;
  const record = (i: number) => steps.push(ax, az, lx, lz, rx, rz, i, out.length / 2);
  // A bend at the point already last (several portals share a wall corner) is not a new point.
  const push = (x: number, z: number) => {
    const k = out.length;
    if (!same(out[k - 2]!, out[k - 1]!, x, z)) out.push(x, z);
  };
  const limit = n * n + n;
  for (let i = 0, iter = 0; i < n && iter < limit; i++, iter++) {
    const plx = P[i * 4]!;
    const plz = P[i * 4 + 1]!;
    const prx = P[i * 4 + 2]!;
    const prz = P[i * 4 + 3]!;
    // #region funnel (shown on the explainer page, verbatim)
    // Right side (Detour's order and tests): tighten when the new right end lies inside.
    if (cross(ax, az, rx, rz, prx, prz) >= 0) {
      if (same(ax, az, rx, rz) || cross(ax, az, lx, lz, prx, prz) < 0) {
        rx = prx;
        rz = prz;
        ri = i;
      } else {
        // The right edge crossed over the left one: the left end is a bend.
        ax = lx;
        az = lz;
        push(ax, az);
        rx = ax;
        rz = az;
        i = li;
        ri = li;
        record(i);
        continue;
      }
    }
    if (cross(ax, az, lx, lz, plx, plz) <= 0) {
      if (same(ax, az, lx, lz) || cross(ax, az, rx, rz, plx, plz) > 0) {
        lx = plx;
        lz = plz;
        li = i;
      } else {
        ax = rx;
        az = rz;
        push(ax, az);
        lx = ax;
        lz = az;
        i = ri;
        li = ri;
        record(i);
        continue;
      }
    }
    // #endregion
    record(i);
  }
  const last = out.length;
  if (!same(out[last - 2]!, out[last - 1]!, goal[0], goal[1])) out.push(goal[0], goal[1]);
  const points = mergeStraightOn(out);
  return {
    bends: Float64Array.from(out),
    points,
    count: points.length / 2,
    steps: Float64Array.from(steps),
    stepCount: steps.length / FUNNEL_STEP_STRIDE,
  };
}

/** |cross| ≤ this × |a| × |b|: the path does not turn at the point. */
const STRAIGHT_ON = 1e-9;

/**
 * Drops points where the path goes straight on: on the cells' staircase the walk fixes a
 * bend at a wall corner lying exactly on the line (as findShortestPath does, exact-path.ts).
 */
function mergeStraightOn(pts: readonly number[]): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < pts.length; i += 2) {
    const n = out.length;
    if (n >= 2 && i + 2 < pts.length) {
      const ax = pts[i]! - out[n - 2]!;
      const az = pts[i + 1]! - out[n - 1]!;
      const bx = pts[i + 2]! - pts[i]!;
      const bz = pts[i + 3]! - pts[i + 1]!;
      const c = ax * bz - az * bx;
      if (
        ax * bx + az * bz > 0 &&
        Math.abs(c) <= STRAIGHT_ON * Math.hypot(ax, az) * Math.hypot(bx, bz)
      )
        continue;
    }
    out.push(pts[i]!, pts[i + 1]!);
  }
  return Float64Array.from(out);
}

/** The point-dropping run: every test made, in order, on the midpoint polyline's point indices. */
export interface DropRun {
  /** Per test: index (into the midpoint polyline) of the tested point, its current neighbours. */
  tested: Int32Array;
  prev: Int32Array;
  next: Int32Array;
  /** 1 when the shortcut prev → next stays on the surface and the point was dropped. */
  dropped: Uint8Array;
  count: number;
}

/**
 * Replays src/lesson/path.ts dropStraighten test by test: sweeps over the remaining interior
 * points, dropping each whose neighbours see each other on the surface, until a sweep drops
 * nothing (the stall). Same order and outcome as dropStraighten.
 */
export function recordDrops(points: readonly number[], surface: ConvexSurface): DropRun {
  const alive: number[] = [];
  for (let i = 0; i < points.length / 2; i++) alive.push(i);
  const tested: number[] = [];
  const prev: number[] = [];
  const next: number[] = [];
  const dropped: number[] = [];
  let changed = true;
  for (let sweep = 0; changed && sweep <= points.length; sweep++) {
    changed = false;
    // #region drop (shown on the explainer page, verbatim)
    for (let k = 1; k + 1 < alive.length; ) {
      const a = alive[k - 1]!;
      const b = alive[k + 1]!;
      const ok = surface.containsSegment(
        points[a * 2]!,
        points[a * 2 + 1]!,
        points[b * 2]!,
        points[b * 2 + 1]!,
      );
      tested.push(alive[k]!);
      prev.push(a);
      next.push(b);
      dropped.push(ok ? 1 : 0);
      if (ok) {
        alive.splice(k, 1);
        changed = true;
      } else {
        k++;
      }
    }
    // #endregion
  }
  return {
    tested: Int32Array.from(tested),
    prev: Int32Array.from(prev),
    next: Int32Array.from(next),
    dropped: Uint8Array.from(dropped),
    count: tested.length,
  };
}
