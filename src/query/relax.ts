import { NODE_CLOSED, NODE_OPEN, type NodePool, type NodeQueue, NULL_NODE } from "./node-pool.js";

/**
 * Starts a circle-limited Dijkstra search (Detour's findPolysAroundCircle and kin): clears the
 * query's pool and open list and opens `ref` at cost 0, positioned at (x, y, z).
 */
export function openSearchAt(
  pool: NodePool,
  queue: NodeQueue,
  ref: number,
  x: number,
  y: number,
  z: number,
): void {
  pool.clear();
  queue.clear();
  const start = pool.getNode(ref);
  pool.x[start] = x;
  pool.y[start] = y;
  pool.z[start] = z;
  pool.flags[start] = NODE_OPEN;
  queue.push(start, 0);
}

/** nodeAtPortalMidpoint's answer for a settled node (NULL_NODE is -1). */
export const CLOSED_NODE = -2;

/**
 * The node of `ref` for a relaxation from a portal (a, b): placed at the portal's middle when
 * reached for the first time; NULL_NODE when the pool has none left, CLOSED_NODE when it is
 * already settled.
 */
export function nodeAtPortalMidpoint(
  pool: NodePool,
  ref: number,
  a: Float64Array,
  b: Float64Array,
): number {
  const node = pool.getNode(ref);
  if (node === NULL_NODE) return NULL_NODE;
  const flags = pool.flags[node]!;
  if ((flags & NODE_CLOSED) !== 0) return CLOSED_NODE;
  if (flags === 0) {
    pool.x[node] = (a[0]! + b[0]!) / 2;
    pool.y[node] = (a[1]! + b[1]!) / 2;
    pool.z[node] = (a[2]! + b[2]!) / 2;
  }
  return node;
}

/** Dijkstra's rule: `node` takes `total` (reached from `best`) when it is new or lower. */
export function offerCost(
  pool: NodePool,
  queue: NodeQueue,
  node: number,
  best: number,
  total: number,
): void {
  const open = (pool.flags[node]! & NODE_OPEN) !== 0;
  if (open && total >= pool.total[node]!) return;
  pool.parent[node] = best;
  pool.total[node] = total;
  pool.cost[node] = total;
  if (open) {
    queue.modify(node, total);
  } else {
    pool.flags[node] = NODE_OPEN;
    queue.push(node, total);
  }
}

/**
 * One Dijkstra relaxation of the circle-limited searches (Detour's findPolysAroundCircle,
 * findRandomPointAroundCircle, findDistanceToWall): a node reached for the first time sits
 * at the middle of the portal (a, b); its cost becomes `best`'s cost plus the step — the
 * walk between the two node positions times `perMetre`, or `fixedCost` when that is >= 0 —
 * and is kept only when lower. Returns false when the pool has no node left for `ref`.
 */
export function relaxAtPortalMidpoint(
  pool: NodePool,
  queue: NodeQueue,
  best: number,
  ref: number,
  a: Float64Array,
  b: Float64Array,
  perMetre = 1,
  fixedCost = -1,
): boolean {
  const node = nodeAtPortalMidpoint(pool, ref, a, b);
  if (node === NULL_NODE) return false;
  if (node < 0) return true;
  const dx = pool.x[node]! - pool.x[best]!;
  const dy = pool.y[node]! - pool.y[best]!;
  const dz = pool.z[node]! - pool.z[best]!;
  offerCost(
    pool,
    queue,
    node,
    best,
    pool.total[best]! +
      (fixedCost >= 0 ? fixedCost : Math.sqrt(dx * dx + dy * dy + dz * dz) * perMetre),
  );
  return true;
}
