import type { QueryFilter } from "../navmesh/filter.js";
import { collectNeighbours, getPolyArea, getPortalPoints } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { relaxAtPortalMidpointWithCost } from "./filter-callbacks.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { NODE_CLOSED, NODE_OPEN, NULL_NODE } from "./node-pool.js";
import { passesFilter } from "./ref-geometry.js";
import { openSearchAt, relaxAtPortalMidpoint } from "./relax.js";
import { growFloat64, neighbourEdges, neighbourRefs } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/** Result of the polygons-around queries, reused across calls (arrays grow as needed). */
export class PolysAroundCircleResult {
  /** refs[i]: a polygon (or off-mesh connection) reached; refs[0] is the start polygon. */
  refs: Float64Array;
  /** parents[i]: the polygon refs[i] was reached from (0 for the start polygon). */
  parents: Float64Array;
  /** costs[i]: cost of reaching refs[i] from the search's origin (0 for the start polygon). */
  costs: Float64Array;
  count = 0;
  /**
   * "complete"; "outOfNodes" when the node pool ran out (results are a subset);
   * "invalidRef" when startRef was stale (its tile removed or replaced): count 0.
   */
  status: QueryStatus = "complete";

  constructor(initialCapacity = 32) {
    const n = Math.max(1, initialCapacity);
    this.refs = new Float64Array(n);
    this.parents = new Float64Array(n);
    this.costs = new Float64Array(n);
  }
}

/** Which portals a search may cross: the circle's and the shape's tests (XZ). */
export interface PortalGate {
  admits(ax: number, az: number, bx: number, bz: number): boolean;
}

const portalA = new Float64Array(3);
const portalB = new Float64Array(3);

/**
 * The Dijkstra search behind Detour's findPolysAroundCircle / findPolysAroundShape (Mononen):
 * from `startRef` at (ox, oy, oz), crossing only portals the gate admits into polygons the
 * filter passes. Node positions sit at portal midpoints; a step costs its 3D length times the
 * area cost of the polygon it walks through (an off-mesh connection with its own cost charges
 * that instead, as findPath does). Polygons are written when settled — in order of increasing
 * cost — with their search-tree parent and final cost. Arguments are checked by the callers.
 */
export function searchAroundPortals(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  ox: number,
  oy: number,
  oz: number,
  filter: QueryFilter,
  gate: PortalGate,
  out: PolysAroundCircleResult,
): PolysAroundCircleResult {
  const navMesh = query.navMesh;
  const areaCost = filter.areaCost;
  // The query's shared search pool and open list (as Detour's Dijkstra queries use them).
  const pool = query.nodePool;
  const queue = query.openList;
  openSearchAt(pool, queue, startRef, ox, oy, oz);

  let status: QueryStatus = "complete";
  let count = 0;
  while (!queue.empty()) {
    const best = queue.pop();
    pool.flags[best] = (pool.flags[best]! & ~NODE_OPEN) | NODE_CLOSED;
    const bestRef = pool.ref[best]!;
    const parent = pool.parent[best]!;
    const parentRef = parent === NULL_NODE ? 0 : pool.ref[parent]!;

    if (count === out.refs.length) {
      out.refs = growFloat64(out.refs, count + 1);
      out.parents = growFloat64(out.parents, count + 1);
      out.costs = growFloat64(out.costs, count + 1);
    }
    out.refs[count] = bestRef;
    out.parents[count] = parentRef;
    out.costs[count] = pool.total[best]!;
    count++;

    // Cost per unit walked in this polygon; an off-mesh connection may have a fixed price.
    const perMetre = areaCost[getPolyArea(navMesh, bestRef)]!;
    const fixedCost =
      tileOfRef(bestRef) === OFF_MESH_SLOT
        ? (navMesh.offMeshAt(polyOfRef(bestRef))?.cost ?? -1)
        : -1;
    const n = collectNeighbours(navMesh, bestRef, neighbourRefs, neighbourEdges);
    for (let k = 0; k < n; k++) {
      const nref = neighbourRefs[k]!;
      if (nref === parentRef || !passesFilter(navMesh, filter, nref)) continue;
      if (!getPortalPoints(navMesh, bestRef, nref, portalA, portalB)) continue;
      if (!gate.admits(portalA[0]!, portalA[2]!, portalB[0]!, portalB[2]!)) continue;
      const relaxed = filter.getCost
        ? relaxAtPortalMidpointWithCost(
            pool,
            queue,
            best,
            nref,
            portalA,
            portalB,
            filter.getCost,
            parentRef,
            bestRef,
          )
        : relaxAtPortalMidpoint(pool, queue, best, nref, portalA, portalB, perMetre, fixedCost);
      if (!relaxed) status = "outOfNodes";
    }
  }
  out.count = count;
  out.status = status;
  return out;
}
