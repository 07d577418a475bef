import type { Ring } from "./geometry.js";

/**
 * Where a polygon's id label can go: the point of a convex ring farthest from its boundary (the
 * centre of the largest inscribed circle, the "pole of inaccessibility"), and how far that is.
 * The vertex centroid can sit close to a side of a thin triangle, so a label there sticks out;
 * the pole is as deep inside as any point can be.
 *
 * For a convex ring the depth of a point is its smallest distance to an edge's line; its
 * maximum is a small linear programme whose optimum is equidistant from three edge lines, so
 * every triple of edges is solved and the deepest point that no other edge comes closer to
 * wins (exact, deterministic; lesson polygons have at most a few dozen edges).
 */
export interface LabelSpot {
  x: number;
  z: number;
  /** Distance from (x, z) to the ring's boundary, world units (0 for a degenerate ring). */
  depth: number;
}

/** Edge lines of convex `ring` as inward unit normals: depth(x, z) = nx·x + nz·z - c. */
function edgeLines(ring: Ring): number[] {
  const n = ring.length >> 1;
  let area = 0;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    area += ring[k * 2]! * ring[j * 2 + 1]! - ring[j * 2]! * ring[k * 2 + 1]!;
  }
  const turn = area >= 0 ? 1 : -1;
  const lines: number[] = [];
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    const ax = ring[k * 2]!;
    const az = ring[k * 2 + 1]!;
    const ex = ring[j * 2]! - ax;
    const ez = ring[j * 2 + 1]! - az;
    const len = Math.hypot(ex, ez);
    if (len === 0) continue;
    // Left of the edge is inside for a counter-clockwise ring (area > 0), right otherwise.
    const nx = (-turn * ez) / len;
    const nz = (turn * ex) / len;
    lines.push(nx, nz, nx * ax + nz * az);
  }
  return lines;
}

function depthOn(lines: readonly number[], x: number, z: number): number {
  let depth = Infinity;
  for (let k = 0; k < lines.length; k += 3) {
    const d = lines[k]! * x + lines[k + 1]! * z - lines[k + 2]!;
    if (d < depth) depth = d;
  }
  return depth;
}

/** Signed distance from (x, z) to the boundary of convex `ring` (positive inside). */
export function insideDepth(ring: Ring, x: number, z: number): number {
  const d = depthOn(edgeLines(ring), x, z);
  return d === Infinity ? 0 : d;
}

/** The pole of inaccessibility of convex `ring` (see LabelSpot). */
export function labelSpot(ring: Ring): LabelSpot {
  const lines = edgeLines(ring);
  const m = lines.length / 3;
  const n = ring.length >> 1;
  let best: LabelSpot = { x: ring[0] ?? 0, z: ring[1] ?? 0, depth: 0 };
  for (let a = 0; a < m; a++) {
    for (let b = a + 1; b < m; b++) {
      for (let c = b + 1; c < m; c++) {
        // n·p - t = c for the three lines: Cramer's rule on [nx nz -1].
        const r = [a, b, c].map((i) => [lines[i * 3]!, lines[i * 3 + 1]!, lines[i * 3 + 2]!]);
        const [A, B, C] = r as [number[], number[], number[]];
        const det = (
          m00: number,
          m01: number,
          m02: number,
          m10: number,
          m11: number,
          m12: number,
          m20: number,
          m21: number,
          m22: number,
        ) =>
          m00 * (m11 * m22 - m12 * m21) -
          m01 * (m10 * m22 - m12 * m20) +
          m02 * (m10 * m21 - m11 * m20);
        const D = det(A[0]!, A[1]!, -1, B[0]!, B[1]!, -1, C[0]!, C[1]!, -1);
        if (Math.abs(D) < 1e-12) continue;
        const x = det(A[2]!, A[1]!, -1, B[2]!, B[1]!, -1, C[2]!, C[1]!, -1) / D;
        const z = det(A[0]!, A[2]!, -1, B[0]!, B[2]!, -1, C[0]!, C[2]!, -1) / D;
        const depth = depthOn(lines, x, z);
        if (depth > best.depth + 1e-12) best = { x, z, depth };
      }
    }
  }
  // Where the deepest points form a segment (a rectangle, a strip), its middle: the vertex
  // centroid when it is as deep, else the pole found.
  let cx = 0;
  let cz = 0;
  for (let k = 0; k < n; k++) {
    cx += ring[k * 2]!;
    cz += ring[k * 2 + 1]!;
  }
  cx /= n || 1;
  cz /= n || 1;
  const centroid = depthOn(lines, cx, cz);
  if (centroid >= best.depth - 1e-9) return { x: cx, z: cz, depth: Math.max(0, centroid) };
  return best;
}
