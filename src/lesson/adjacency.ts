import { distanceToSegment, GEOM_EPS, type Ring, ringBounds } from "./geometry.js";

/** How the polygons of a partition touch each other. */
export interface Adjacency {
  /** Pairs sharing a segment of positive length: 2 polygon indices per pair, a < b. */
  pairs: Int32Array;
  /** Per pair: the shared segment x0, z0, x1, z1 (the longest overlap if several). */
  segments: Float64Array;
  /** Per pair: total shared length. */
  lengths: Float64Array;
  /** Pairs whose closed regions meet in a single point only: 2 indices per pair. */
  pointPairs: Int32Array;
  /** Per point pair: the point x, z. */
  points: Float64Array;
  /**
   * Point pairs that are not joined around their point either: no chain of polygons that all
   * contain the point and share segments leads from one to the other. Such a pinch would be a
   * passage only a zero-width agent could use. Must be 0.
   */
  pinchPairs: number;
  /** Per polygon: neighbour polygon indices across shared segments. */
  neighbours: number[][];
}

/** Overlap of two collinear-enough segments: [t0, t1] along (a→b) or null. */
function collinearOverlap(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
  dx: number,
  dz: number,
): [number, number, number, number] | null {
  const ux = bx - ax;
  const uz = bz - az;
  const len = Math.hypot(ux, uz);
  if (len === 0) return null;
  // Both ends of the other segment must lie on the line through a, b.
  const off = (x: number, z: number) => Math.abs(ux * (z - az) - uz * (x - ax)) / len;
  if (off(cx, cz) > GEOM_EPS * 10 || off(dx, dz) > GEOM_EPS * 10) return null;
  const tc = ((cx - ax) * ux + (cz - az) * uz) / (len * len);
  const td = ((dx - ax) * ux + (dz - az) * uz) / (len * len);
  const lo = Math.max(0, Math.min(tc, td));
  const hi = Math.min(1, Math.max(tc, td));
  if ((hi - lo) * len <= GEOM_EPS * 10) return null;
  return [ax + lo * ux, az + lo * uz, ax + hi * ux, az + hi * uz];
}

/** A point where the two polygons' boundaries meet, or null (only called without shared segments). */
function touchPoint(a: Ring, b: Ring): [number, number] | null {
  for (const [p, q] of [
    [a, b],
    [b, a],
  ] as const) {
    const n = q.length >> 1;
    for (let i = 0; i < p.length; i += 2) {
      const x = p[i]!;
      const z = p[i + 1]!;
      for (let k = 0, j = n - 1; k < n; j = k++) {
        if (
          distanceToSegment(x, z, q[j * 2]!, q[j * 2 + 1]!, q[k * 2]!, q[k * 2 + 1]!) <=
          GEOM_EPS * 10
        ) {
          return [x, z];
        }
      }
    }
  }
  return null;
}

function onBoundary(poly: Ring, x: number, z: number): boolean {
  const n = poly.length >> 1;
  for (let k = 0, j = n - 1; k < n; j = k++) {
    if (
      distanceToSegment(x, z, poly[j * 2]!, poly[j * 2 + 1]!, poly[k * 2]!, poly[k * 2 + 1]!) <=
      GEOM_EPS * 10
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Measures adjacency by geometry alone (no stored links), so the simple rectangles and
 * meshway's polygons are judged the same way: for every pair with touching bounds, the
 * collinear overlaps of their edges give the shared segment; without one, a vertex of one
 * on the other's boundary is a single-point contact.
 */
export function measureAdjacency(polys: readonly Ring[]): Adjacency {
  const n = polys.length;
  const bounds = polys.map(ringBounds);
  const pairs: number[] = [];
  const segments: number[] = [];
  const lengths: number[] = [];
  const pointPairs: number[] = [];
  const points: number[] = [];
  const neighbours: number[][] = polys.map(() => []);
  const e = GEOM_EPS * 10;
  for (let a = 0; a < n; a++) {
    const A = polys[a]!;
    const ba = bounds[a]!;
    for (let b = a + 1; b < n; b++) {
      const bb = bounds[b]!;
      if (ba[0] > bb[2] + e || bb[0] > ba[2] + e || ba[1] > bb[3] + e || bb[1] > ba[3] + e)
        continue;
      const B = polys[b]!;
      const na = A.length >> 1;
      const nb = B.length >> 1;
      let total = 0;
      let best: [number, number, number, number] | null = null;
      let bestLen = 0;
      for (let i = 0, ip = na - 1; i < na; ip = i++) {
        for (let k = 0, kp = nb - 1; k < nb; kp = k++) {
          const o = collinearOverlap(
            A[ip * 2]!,
            A[ip * 2 + 1]!,
            A[i * 2]!,
            A[i * 2 + 1]!,
            B[kp * 2]!,
            B[kp * 2 + 1]!,
            B[k * 2]!,
            B[k * 2 + 1]!,
          );
          if (!o) continue;
          const len = Math.hypot(o[2] - o[0], o[3] - o[1]);
          total += len;
          if (len > bestLen) {
            bestLen = len;
            best = o;
          }
        }
      }
      if (best) {
        pairs.push(a, b);
        segments.push(...best);
        lengths.push(total);
        neighbours[a]!.push(b);
        neighbours[b]!.push(a);
        continue;
      }
      const p = touchPoint(A, B);
      if (p) {
        pointPairs.push(a, b);
        points.push(p[0], p[1]);
      }
    }
  }
  // A point contact is a pinch unless polygons around the point connect the two.
  let pinchPairs = 0;
  for (let k = 0; k < pointPairs.length; k += 2) {
    const a = pointPairs[k]!;
    const b = pointPairs[k + 1]!;
    const x = points[k]!;
    const z = points[k + 1]!;
    const seen = new Set<number>([a]);
    const queue = [a];
    let joined = false;
    for (let q = 0; q < queue.length && !joined; q++) {
      for (const m of neighbours[queue[q]!]!) {
        if (seen.has(m) || !onBoundary(polys[m]!, x, z)) continue;
        if (m === b) {
          joined = true;
          break;
        }
        seen.add(m);
        queue.push(m);
      }
    }
    if (!joined) pinchPairs++;
  }
  return {
    pairs: Int32Array.from(pairs),
    segments: Float64Array.from(segments),
    lengths: Float64Array.from(lengths),
    pointPairs: Int32Array.from(pointPairs),
    points: Float64Array.from(points),
    pinchPairs,
    neighbours,
  };
}
