import { MAX_NEIGHBOURS } from "../navmesh/neighbours.js";

/**
 * Scratch shared by the local queries (raycast, moveAlongSurface, findDistanceToWall,
 * findRandomPoint*, findPolysAroundCircle): one neighbour list, filled by collectNeighbours
 * and read before the next fill. Safe because those queries never call one another while
 * they hold it, and JavaScript runs one query at a time per thread.
 */
export const neighbourRefs = new Float64Array(MAX_NEIGHBOURS);
export const neighbourEdges = new Int32Array(MAX_NEIGHBOURS);

/** `a` grown to at least `n` entries (doubling), contents kept. */
export function growFloat64(a: Float64Array, n: number): Float64Array {
  if (n <= a.length) return a;
  let len = Math.max(1, a.length);
  while (len < n) len *= 2;
  const b = new Float64Array(len);
  b.set(a);
  return b;
}
