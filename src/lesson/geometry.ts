/**
 * Small XZ geometry for the lesson. A polygon is a Float64Array ring of x, z pairs (no
 * repeated first point), in either orientation. Boundaries count as inside everywhere:
 * the walkable surface is a closed set, so a path may run along a wall.
 */

import { segmentParamXZ } from "../navmesh/geometry.js";

/** Tolerance for "on the boundary" [world units]. */
export const GEOM_EPS = 1e-7;

export type Ring = Float64Array;

/** Signed area (positive when the ring turns from +x towards +z). */
export function signedArea(poly: Ring): number {
  const n = poly.length >> 1;
  let a = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    a += poly[j * 2]! * poly[i * 2 + 1]! - poly[i * 2]! * poly[j * 2 + 1]!;
  }
  return a / 2;
}

/**
 * Criterion ① (cross products): the signs of the cross products of consecutive edges, zero
 * ones (collinear corners) skipped. Convex when no two signs differ.
 */
export function crossProductSigns(poly: Ring): {
  positive: number;
  negative: number;
  convex: boolean;
} {
  const n = poly.length >> 1;
  let positive = 0;
  let negative = 0;
  // #region cross (shown on the explainer page, verbatim)
  for (let i = 0; i < n; i++) {
    const a = i * 2;
    const b = ((i + 1) % n) * 2;
    const c = ((i + 2) % n) * 2;
    const cross =
      (poly[b]! - poly[a]!) * (poly[c + 1]! - poly[b + 1]!) -
      (poly[b + 1]! - poly[a + 1]!) * (poly[c]! - poly[b]!);
    if (Math.abs(cross) < 1e-12) continue;
    if (cross > 0) positive++;
    else negative++;
  }
  // #endregion
  return { positive, negative, convex: positive === 0 || negative === 0 };
}

/** Distance from (x, z) to segment (ax, az)–(bx, bz). */
export function distanceToSegment(
  x: number,
  z: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  const t = segmentParamXZ(x, z, ax, az, bx, bz);
  return Math.hypot(x - (ax + t * (bx - ax)), z - (az + t * (bz - az)));
}

/**
 * Any simple polygon (convex or not): inside (crossing number) or on the boundary, within
 * about GEOM_EPS (the distance test uses the edge's L1 length, no square roots: this runs
 * hundreds of thousands of times per partition).
 */
export function pointInPolygon(poly: Ring, x: number, z: number): boolean {
  const n = poly.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = poly[i * 2]!;
    const zi = poly[i * 2 + 1]!;
    const xj = poly[j * 2]!;
    const zj = poly[j * 2 + 1]!;
    const ex = xj - xi;
    const ez = zj - zi;
    const cross = ex * (z - zi) - ez * (x - xi);
    if (
      Math.abs(cross) <= GEOM_EPS * (Math.abs(ex) + Math.abs(ez)) &&
      x >= Math.min(xi, xj) - GEOM_EPS &&
      x <= Math.max(xi, xj) + GEOM_EPS &&
      z >= Math.min(zi, zj) - GEOM_EPS &&
      z <= Math.max(zi, zj) + GEOM_EPS
    ) {
      return true;
    }
    if (zi > z !== zj > z && x < (ex * (z - zi)) / ez + xi) inside = !inside;
  }
  return inside;
}

/** Axis-aligned bounds of a ring: [minX, minZ, maxX, maxZ]. */
export function ringBounds(poly: Ring): [number, number, number, number] {
  let minX = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxZ = -Infinity;
  for (let i = 0; i < poly.length; i += 2) {
    const x = poly[i]!;
    const z = poly[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return [minX, minZ, maxX, maxZ];
}

/**
 * A set of convex polygons (a partition of the walkable surface) with precomputed bounds
 * and orientation, for "is this point / segment on the surface" tests.
 */
export class ConvexSurface {
  readonly polys: readonly Ring[];
  /** 4 per polygon: minX, minZ, maxX, maxZ. */
  readonly bounds: Float64Array;
  /** +1 or -1 per polygon: the ring's orientation. */
  readonly orientation: Int8Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly order: Int32Array;

  constructor(polys: readonly Ring[]) {
    this.polys = polys;
    this.bounds = new Float64Array(polys.length * 4);
    this.orientation = new Int8Array(polys.length);
    for (let p = 0; p < polys.length; p++) {
      this.bounds.set(ringBounds(polys[p]!), p * 4);
      this.orientation[p] = signedArea(polys[p]!) >= 0 ? 1 : -1;
    }
    this.lo = new Float64Array(polys.length);
    this.hi = new Float64Array(polys.length);
    this.order = new Int32Array(polys.length);
  }

  /** True when (x, z) is inside convex polygon p or within GEOM_EPS of its boundary. */
  containsIn(p: number, x: number, z: number): boolean {
    const b = this.bounds;
    if (x < b[p * 4]! - GEOM_EPS || x > b[p * 4 + 2]! + GEOM_EPS) return false;
    if (z < b[p * 4 + 1]! - GEOM_EPS || z > b[p * 4 + 3]! + GEOM_EPS) return false;
    const poly = this.polys[p]!;
    const s = this.orientation[p]!;
    const n = poly.length >> 1;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ex = poly[i * 2]! - poly[j * 2]!;
      const ez = poly[i * 2 + 1]! - poly[j * 2 + 1]!;
      const len = Math.hypot(ex, ez);
      if (len === 0) continue;
      // Inside is to the left of each edge for a positive ring (cross(e, p - a) >= 0).
      const c = s * (ex * (z - poly[j * 2 + 1]!) - ez * (x - poly[j * 2]!));
      if (c < -GEOM_EPS * len) return false;
    }
    return true;
  }

  /** The first polygon containing (x, z), or -1. */
  find(x: number, z: number): number {
    for (let p = 0; p < this.polys.length; p++) if (this.containsIn(p, x, z)) return p;
    return -1;
  }

  /** True when (x, z) lies on the surface (some polygon, boundary included). */
  contains(x: number, z: number): boolean {
    return this.find(x, z) >= 0;
  }

  /**
   * True when the whole segment lies on the surface: each convex polygon clips the segment to
   * one parameter interval (Cyrus–Beck), and the intervals must cover [0, 1] without a gap
   * longer than GEOM_EPS. Exact up to that tolerance, unlike sampling.
   */
  containsSegment(ax: number, az: number, bx: number, bz: number): boolean {
    const dx = bx - ax;
    const dz = bz - az;
    const len = Math.hypot(dx, dz);
    if (len <= GEOM_EPS) return this.contains(ax, az);
    const tEps = GEOM_EPS / len;
    const minX = Math.min(ax, bx);
    const maxX = Math.max(ax, bx);
    const minZ = Math.min(az, bz);
    const maxZ = Math.max(az, bz);
    const b = this.bounds;
    let count = 0;
    for (let p = 0; p < this.polys.length; p++) {
      if (b[p * 4]! > maxX + GEOM_EPS || b[p * 4 + 2]! < minX - GEOM_EPS) continue;
      if (b[p * 4 + 1]! > maxZ + GEOM_EPS || b[p * 4 + 3]! < minZ - GEOM_EPS) continue;
      const poly = this.polys[p]!;
      const s = this.orientation[p]!;
      const n = poly.length >> 1;
      let lo = 0;
      let hi = 1;
      for (let i = 0, j = n - 1; i < n && lo <= hi; j = i++) {
        const ex = poly[i * 2]! - poly[j * 2]!;
        const ez = poly[i * 2 + 1]! - poly[j * 2 + 1]!;
        const elen = Math.hypot(ex, ez);
        if (elen === 0) continue;
        // f(t) = f0 + t * f1 >= -eps * elen keeps the point on the inner side of this edge.
        const f0 = s * (ex * (az - poly[j * 2 + 1]!) - ez * (ax - poly[j * 2]!)) + GEOM_EPS * elen;
        const f1 = s * (ex * dz - ez * dx);
        if (f1 === 0) {
          if (f0 < 0) hi = -1;
        } else if (f1 > 0) {
          lo = Math.max(lo, -f0 / f1);
        } else {
          hi = Math.min(hi, -f0 / f1);
        }
      }
      if (lo <= hi) {
        this.lo[count] = lo;
        this.hi[count] = hi;
        count++;
      }
    }
    // Sweep the intervals in order of their start.
    const order = this.order;
    for (let k = 0; k < count; k++) order[k] = k;
    const lows = this.lo;
    const sorted = Array.from(order.subarray(0, count)).sort((u, v) => lows[u]! - lows[v]!);
    let reach = 0;
    for (const k of sorted) {
      if (lows[k]! > reach + tEps) return false;
      if (this.hi[k]! > reach) reach = this.hi[k]!;
      if (reach >= 1 - tEps) return true;
    }
    return reach >= 1 - tEps;
  }
}

/** Length of a polyline given as x, z pairs. */
export function polylineLength(pts: ArrayLike<number>): number {
  let len = 0;
  for (let i = 2; i + 1 < pts.length; i += 2) {
    len += Math.hypot(pts[i]! - pts[i - 2]!, pts[i + 1]! - pts[i - 1]!);
  }
  return len;
}
