import type { GetCostFn, PassFilterFn } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { type NodePool, type NodeQueue, NULL_NODE } from "./node-pool.js";
import { nodeAtPortalMidpoint, offerCost } from "./relax.js";

/**
 * The general path of the queries for filters with callbacks (QueryFilter.passFilter /
 * getCost): the table-only fast paths never come here.
 */

/** passFilter(ref, tile, poly) for a live ref (tile null for an off-mesh connection). */
export function callPassFilter(navMesh: NavMesh, pass: PassFilterFn, ref: PolyRef): boolean {
  const slot = tileOfRef(ref);
  const tile = slot === OFF_MESH_SLOT ? null : navMesh.tileInSlot(slot);
  return pass(ref, tile, polyOfRef(ref)) === true;
}

const from = new Float64Array(3);
const to = new Float64Array(3);

/** getCost for the walk (ax, ay, az) → (bx, by, bz) inside curRef; NaN or < 0 counts as 0. */
export function stepCost(
  getCost: GetCostFn,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  prevRef: PolyRef,
  curRef: PolyRef,
  nextRef: PolyRef,
): number {
  from[0] = ax;
  from[1] = ay;
  from[2] = az;
  to[0] = bx;
  to[1] = by;
  to[2] = bz;
  const c = getCost(from, to, prevRef, curRef, nextRef);
  // A negative or NaN step would let a search lower costs forever: clamp (documented).
  if (!(c >= 0)) return 0;
  return c;
}

/**
 * relaxAtPortalMidpoint (relax.ts) with the step priced by getCost(best's position, the
 * node's, prevRef, curRef = best's ref, nextRef = ref): same node placement and rule.
 */
export function relaxAtPortalMidpointWithCost(
  pool: NodePool,
  queue: NodeQueue,
  best: number,
  ref: number,
  a: Float64Array,
  b: Float64Array,
  getCost: GetCostFn,
  prevRef: PolyRef,
  curRef: PolyRef,
): boolean {
  const node = nodeAtPortalMidpoint(pool, ref, a, b);
  if (node === NULL_NODE) return false;
  if (node < 0) return true;
  const step = stepCost(
    getCost,
    pool.x[best]!,
    pool.y[best]!,
    pool.z[best]!,
    pool.x[node]!,
    pool.y[node]!,
    pool.z[node]!,
    prevRef,
    curRef,
    ref,
  );
  offerCost(pool, queue, node, best, pool.total[best]! + step);
  return true;
}
