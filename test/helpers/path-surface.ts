/**
 * Whether a path lies on a navmesh's surface (for tests of tiled builds and path queries):
 *   pathOnSurface(query, points)  // every point and every 0.25 m sample of every segment
 */
import type { NavMeshQuery } from "../../src/query/nav-mesh-query.js";

const refs = new Float64Array(64);
const closest = new Float64Array(3);

/** Height of the tiled surface under (x, z) within a climb of y, or NaN when off the mesh. */
function surfaceAt(q: NavMeshQuery, x: number, y: number, z: number): number {
  const climb = q.navMesh.agentMaxClimb;
  const n = q.queryPolygons([x, y, z], [1e-3, climb, 1e-3], q.defaultFilter, refs);
  let best = Number.NaN;
  for (let i = 0; i < n; i++) {
    q.closestPointOnPoly(refs[i]!, [x, y, z], closest);
    if (Math.hypot(closest[0]! - x, closest[2]! - z) > 1e-3) continue;
    const dy = Math.abs(closest[1]! - y);
    if (dy <= climb && !(Math.abs(best - y) <= dy)) best = closest[1]!;
  }
  return best;
}

/** Every point and every 0.25 m sample of every segment lies on the mesh, heights continuous. */
export function pathOnSurface(q: NavMeshQuery, points: readonly (readonly number[])[]): boolean {
  let y = points[0]![1]!;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0]! - a[0]!, b[2]! - a[2]!) / 0.25));
    for (let k = 0; k <= n; k++) {
      const t = k / n;
      const s = surfaceAt(q, a[0]! + (b[0]! - a[0]!) * t, y, a[2]! + (b[2]! - a[2]!) * t);
      if (Number.isNaN(s)) return false;
      y = s;
    }
  }
  return true;
}
