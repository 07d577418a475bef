import type { QueryFilter } from "../navmesh/filter.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import { collectNeighbours, getPortalPoints, MAX_NEIGHBOURS } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { checkCoords, checkFilterShape, checkRadius, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { NODE_CLOSED, NULL_NODE } from "./node-pool.js";
import { passesFilter } from "./ref-geometry.js";
import { growFloat64 } from "./scratch.js";

import type { QueryStatus } from "./status.js";

/**
 * The non-overlapping polygons around a point, as Detour's
 * dtNavMeshQuery::findLocalNeighbourhood (Mononen): a breadth-first search from the start
 * polygon through portals within `radius` of the centre (XZ), keeping a polygon only when it
 * does not overlap on XZ a polygon already kept that is not adjacent to the one it was
 * reached from — so a bridge above a corridor does not end up in the corridor's set. The
 * crowd's local boundary collects its wall segments from these polygons.
 */

/** Breadth-first queue length, and node budget (the query's tiny pool), as Detour. */
const MAX_QUEUE = 48;

/** Result of {@link findLocalNeighbourhood}, reused across calls (arrays grow as needed). */
export class LocalNeighbourhoodResult {
  /** refs[0..count): the start polygon first, then in breadth-first order. */
  refs: Float64Array;
  /** parents[i]: the polygon refs[i] was reached from (0 for the start polygon). */
  parents: Float64Array;
  count = 0;
  /**
   * "complete"; "outOfNodes" when the search's small pool or queue ran out (a subset);
   * "invalidRef" when startRef was stale (its tile removed or replaced): count 0.
   */
  status: QueryStatus = "complete";

  constructor(initialCapacity = 16) {
    const n = Math.max(1, initialCapacity);
    this.refs = new Float64Array(n);
    this.parents = new Float64Array(n);
  }
}

const queue = new Int32Array(MAX_QUEUE);
const nbRefs = new Float64Array(MAX_NEIGHBOURS);
const nbEdges = new Int32Array(MAX_NEIGHBOURS);
const portalA = new Float64Array(3);
const portalB = new Float64Array(3);
let polyA = new Float64Array(32);
let polyB = new Float64Array(32);

/** Copies polygon `poly`'s XZ vertices to `out` (x, z pairs); returns the vertex count. */
function polyXZ(tile: NavMeshTile, poly: number, out: Float64Array): number {
  const n = tile.polyVertCount[poly]!;
  const base = poly * tile.maxVertsPerPoly;
  const v = tile.vertices;
  for (let k = 0; k < n; k++) {
    const o = tile.polyVerts[base + k]! * 3;
    out[k * 2] = v[o]!;
    out[k * 2 + 1] = v[o + 2]!;
  }
  return n;
}

/** Slack of Detour's dtOverlapPolyPoly2D: touching polygons do not overlap. */
const OVERLAP_EPS = 1e-4;

/** True when some edge normal of `a` separates the projections of a and b (XZ). */
function separatedByEdgeOf(a: Float64Array, na: number, b: Float64Array, nb: number): boolean {
  for (let i = 0, j = na - 1; i < na; j = i++) {
    // Normal of edge j→i (z, -x rotation of the edge direction).
    const nx = a[i * 2 + 1]! - a[j * 2 + 1]!;
    const nz = -(a[i * 2]! - a[j * 2]!);
    let amin = Infinity;
    let amax = -Infinity;
    for (let k = 0; k < na; k++) {
      const d = nx * a[k * 2]! + nz * a[k * 2 + 1]!;
      if (d < amin) amin = d;
      if (d > amax) amax = d;
    }
    let bmin = Infinity;
    let bmax = -Infinity;
    for (let k = 0; k < nb; k++) {
      const d = nx * b[k * 2]! + nz * b[k * 2 + 1]!;
      if (d < bmin) bmin = d;
      if (d > bmax) bmax = d;
    }
    if (amin + OVERLAP_EPS > bmax || amax - OVERLAP_EPS < bmin) return true;
  }
  return false;
}

/** Separating-axis overlap test of two convex XZ polygons (Detour's dtOverlapPolyPoly2D). */
export function overlapPolyPolyXZ(
  a: Float64Array,
  na: number,
  b: Float64Array,
  nb: number,
): boolean {
  return !separatedByEdgeOf(a, na, b, nb) && !separatedByEdgeOf(b, nb, a, na);
}

function push(out: LocalNeighbourhoodResult, ref: PolyRef, parent: PolyRef): void {
  const n = out.count;
  if (n === out.refs.length) {
    out.refs = growFloat64(out.refs, n + 1);
    out.parents = growFloat64(out.parents, n + 1);
  }
  out.refs[n] = ref;
  out.parents[n] = parent;
  out.count = n + 1;
}

/**
 * Writes to `out` the polygons reachable from `startRef` across portals within `radius` of
 * `centre` (XZ), passing `filter`, not crossing off-mesh connections, and not overlapping a
 * kept polygon they are not adjacent to (see the module comment). At most 64 polygons are
 * visited (the query's tiny node pool).
 *
 * A stale startRef gives status "invalidRef" and no polygons. Throws
 * MeshwayError("INVALID_ARGUMENT") for a non-finite centre, a negative or non-finite radius,
 * a malformed startRef or an off-mesh connection's.
 */
export function findLocalNeighbourhood(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  centre: ArrayLike<number>,
  radius: number,
  filter: QueryFilter,
  out: LocalNeighbourhoodResult,
): LocalNeighbourhoodResult {
  const navMesh = query.navMesh;
  const cx = centre?.[0] as number;
  const cy = centre?.[1] as number;
  const cz = centre?.[2] as number;
  // x − x is 0 only for a finite x; checkCoords (naming the bad point) only on failure: the
  // call would box three doubles every time.
  if (cx - cx + (cy - cy) + (cz - cz) !== 0)
    checkCoords(cx, cy, cz, "findLocalNeighbourhood centre");
  checkRadius(radius, "findLocalNeighbourhood radius");
  // Costs are never read here: the shape only (as raycast without useCosts).
  checkFilterShape(filter, "findLocalNeighbourhood");
  out.count = 0;
  if (!checkRef(navMesh, startRef, "findLocalNeighbourhood startRef", true)) {
    out.status = "invalidRef";
    return out;
  }
  const nvp2 = navMesh.maxVertsPerPoly * 2;
  if (polyA.length < nvp2) {
    polyA = new Float64Array(nvp2);
    polyB = new Float64Array(nvp2);
  }
  const radiusSqr = radius * radius;
  const pool = query.tinyNodePool;
  pool.clear();
  let status: QueryStatus = "complete";
  const startNode = pool.getNode(startRef);
  pool.flags[startNode] = NODE_CLOSED;
  let head = 0;
  let size = 1;
  queue[0] = startNode;
  push(out, startRef, 0);

  while (size > 0) {
    const cur = queue[head]!;
    head = head + 1 === MAX_QUEUE ? 0 : head + 1;
    size--;
    const curRef = pool.ref[cur]!;
    const nn = collectNeighbours(navMesh, curRef, nbRefs, nbEdges);
    for (let k = 0; k < nn; k++) {
      const nref = nbRefs[k]!;
      if (tileOfRef(nref) === OFF_MESH_SLOT) continue;
      const node = pool.getNode(nref);
      if (node === NULL_NODE) {
        status = "outOfNodes";
        continue;
      }
      if ((pool.flags[node]! & NODE_CLOSED) !== 0) continue;
      if (!passesFilter(navMesh, filter, nref)) continue;
      if (!getPortalPoints(navMesh, curRef, nref, portalA, portalB)) continue;
      if (
        distancePtSegSqrXZ(cx, cz, portalA[0]!, portalA[2]!, portalB[0]!, portalB[2]!) > radiusSqr
      ) {
        continue;
      }
      pool.flags[node] = pool.flags[node]! | NODE_CLOSED;
      pool.parent[node] = cur;
      const ntile = navMesh.tileInSlot(tileOfRef(nref))!;
      const na = polyXZ(ntile, polyOfRef(nref), polyA);
      // Overlap with an already kept polygon not adjacent to the current one: a different
      // level (bridge, stairs above) — not part of this neighbourhood.
      let overlap = false;
      for (let j = 0; j < out.count && !overlap; j++) {
        const past = out.refs[j]!;
        let connected = false;
        for (let m = 0; m < nn; m++) {
          if (nbRefs[m] === past) {
            connected = true;
            break;
          }
        }
        if (connected) continue;
        const ptile = navMesh.tileInSlot(tileOfRef(past))!;
        const nb = polyXZ(ptile, polyOfRef(past), polyB);
        overlap = overlapPolyPolyXZ(polyA, na, polyB, nb);
      }
      if (overlap) continue;
      push(out, nref, curRef);
      if (size < MAX_QUEUE) {
        let tail = head + size;
        if (tail >= MAX_QUEUE) tail -= MAX_QUEUE;
        queue[tail] = node;
        size++;
      } else {
        status = "outOfNodes";
      }
    }
  }
  out.status = status;
  return out;
}
