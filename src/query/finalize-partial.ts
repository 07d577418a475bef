import type { NavMesh } from "../navmesh/nav-mesh.js";
import { isLiveRef } from "../navmesh/poly-ref.js";
import type { FindPathResult, PathFinder } from "./find-path.js";
import { MAX_NODE_STATES, NULL_NODE } from "./node-pool.js";

/**
 * Ends a sliced search with the corridor to the FURTHEST polygon of `existing` the search
 * reached (Detour's finalizeSlicedFindPathPartial, Mononen): replanning keeps the part of
 * the old corridor the new search joins, so an agent does not turn back to reach the goal
 * the search was not given time to reach. When no polygon of `existing` was reached the
 * corridor leads to the node closest to the end (status "partial"). Status "complete" when
 * the corridor ends on the search's end polygon; "invalidRef" (empty) when a ref went stale.
 */
export function finalizeSlicedPartial(
  navMesh: NavMesh,
  finder: PathFinder,
  existing: ArrayLike<number>,
  existingCount: number,
  outPolys: Float64Array | number[],
  result: FindPathResult,
): FindPathResult {
  // finalize() ends the search and gives the best corridor; the pool stays readable.
  const r = finder.finalize(outPolys, result);
  if (r.status === "invalidRef" || r.status === "noStart" || r.polyCount === 0) return r;
  const endRef = r.status === "complete" ? r.polys[r.polyCount - 1]! : -1;
  const pool = finder.pool;
  let node = NULL_NODE;
  for (let i = Math.min(existingCount, existing.length) - 1; i >= 0 && node === NULL_NODE; i--) {
    const ref = existing[i]!;
    if (!(ref > 0)) continue;
    for (let s = 0; s < MAX_NODE_STATES; s++) {
      const n = pool.findNode(ref, s);
      if (n !== NULL_NODE && pool.flags[n] !== 0) {
        node = n;
        break;
      }
    }
  }
  if (node !== NULL_NODE) {
    let count = 0;
    const limit = pool.count;
    for (let i = node; i !== NULL_NODE && count <= limit; i = pool.parent[i]!) count++;
    if (count <= limit) {
      let polys = r.polys;
      if (Array.isArray(polys)) polys.length = count;
      else if (polys.length < count) polys = new Float64Array(Math.max(count, polys.length * 2));
      let w = count;
      for (let i = node; i !== NULL_NODE; i = pool.parent[i]!) polys[--w] = pool.ref[i]!;
      r.polys = polys;
      r.polyCount = count;
      r.status = polys[count - 1] === endRef ? "complete" : "partial";
    }
  }
  // No polygon of `existing` reached: finalize's corridor to the best node, its status.
  // A tile removed since the last slice leaves dead refs: no corridor (as finalize does).
  for (let i = 0; i < r.polyCount; i++) {
    if (!isLiveRef(navMesh, r.polys[i]!)) {
      r.status = "invalidRef";
      r.polyCount = 0;
      if (Array.isArray(r.polys)) r.polys.length = 0;
      break;
    }
  }
  return r;
}
