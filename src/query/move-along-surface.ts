import type { QueryFilter } from "../navmesh/filter.js";
import { pointInPolyXZ, segmentParamXZ } from "../navmesh/geometry.js";
import { collectNeighbours } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { checkCoords, checkFilterShape, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { NODE_CLOSED, NULL_NODE } from "./node-pool.js";
import { passesFilter } from "./ref-geometry.js";
import { growFloat64, neighbourEdges, neighbourRefs } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * Constrained movement along the navmesh surface, as in Detour's
 * dtNavMeshQuery::moveAlongSurface (Mononen): a breadth-first search from the start polygon
 * over the polygons whose portals touch the circle spanned by start and end; if a visited
 * polygon contains the end point (on XZ) the agent gets there, otherwise it stops at the
 * point of the visited walls closest to the end — which makes it slide along walls.
 */

/** Polygons waiting in the breadth-first queue at once (Detour's MAX_STACK). */
export const MOVE_MAX_QUEUE = 48;

/** Result of {@link moveAlongSurface}, reused across calls. */
export class MoveAlongSurfaceResult {
  /**
   * Where the move ends: `end` when it was reached, else the closest point on the walls of
   * the visited polygons. Its y is NOT projected onto the detail surface (like Detour): it is
   * end's y, or interpolated along the wall edge; use getPolyHeight for the surface height.
   */
  readonly resultPos = new Float64Array(3);
  /** Polygons from the start polygon to the one containing resultPos, in walking order. */
  visited: Float64Array;
  visitedCount = 0;
  /**
   * "complete"; "outOfNodes" when the small search ran out of nodes or queue space (the
   * result is still a valid point on the visited polygons); "invalidRef" when startRef was
   * stale (its tile removed or replaced): resultPos = start, nothing visited.
   */
  status: QueryStatus = "complete";

  constructor(initialCapacity = 16) {
    this.visited = new Float64Array(Math.max(1, initialCapacity));
  }

  /** The polygon containing resultPos (last visited), 0 before the first call. */
  get lastRef(): PolyRef {
    return this.visitedCount > 0 ? this.visited[this.visitedCount - 1]! : 0;
  }
}

/** Breadth-first queue, a ring buffer (queries never nest, so one serves all). */
const queue = new Int32Array(MOVE_MAX_QUEUE);

/**
 * Moves from `start` (inside polygon `startRef`) towards `end`, staying on polygons that
 * pass `filter`, and writes the reachable end position and the polygons walked through to
 * `out`. Meant for small per-frame displacements: the search only visits polygons whose
 * portals lie within the circle through start and end, and at most as many as the query's
 * tinyNodePool holds (64, like Detour's tiny pool). End's y is ignored for the containment
 * test (2D, like Detour).
 *
 * A stale startRef (its tile removed or replaced) gives status "invalidRef". Throws
 * MeshwayError("INVALID_ARGUMENT") for non-finite points, a malformed startRef (never valid)
 * or an off-mesh connection's.
 */
export function moveAlongSurface(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  filter: QueryFilter,
  out: MoveAlongSurfaceResult,
): MoveAlongSurfaceResult {
  const navMesh = query.navMesh;
  // Points read once here; x − x is 0 only for a finite x (a sum could overflow). checkCoords
  // (which names the bad one) only on failure: the call would box six doubles every time.
  const sx = start?.[0] as number;
  const sy = start?.[1] as number;
  const sz = start?.[2] as number;
  const ex = end?.[0] as number;
  const ey = end?.[1] as number;
  const ez = end?.[2] as number;
  if (sx - sx + (sy - sy) + (sz - sz) !== 0) checkCoords(sx, sy, sz, "moveAlongSurface start");
  if (ex - ex + (ey - ey) + (ez - ez) !== 0) checkCoords(ex, ey, ez, "moveAlongSurface end");
  // Costs are never read here: the shape only (as raycast without useCosts).
  checkFilterShape(filter, "moveAlongSurface");
  if (!checkRef(navMesh, startRef, "moveAlongSurface startRef", true)) {
    out.resultPos[0] = sx;
    out.resultPos[1] = sy;
    out.resultPos[2] = sz;
    out.visitedCount = 0;
    out.status = "invalidRef";
    return out;
  }

  // The query's small pool, as Detour uses its tiny node pool for this search.
  const pool = query.tinyNodePool;
  pool.clear();
  let status: QueryStatus = "complete";

  // Portals farther than this from the segment's midpoint cannot lie on the way.
  const cx = (sx + ex) / 2;
  const cz = (sz + ez) / 2;
  const half = Math.sqrt((ex - sx) ** 2 + (ey - sy) ** 2 + (ez - sz) ** 2) / 2 + 0.001;
  const searchRadSqr = half * half;

  const startNode = pool.getNode(startRef);
  pool.flags[startNode] = NODE_CLOSED;
  // Ring buffer: Detour pops the front of a 48-slot array; same order, O(1) pops.
  let head = 0;
  let size = 1;
  queue[0] = startNode;

  let bestX = sx;
  let bestY = sy;
  let bestZ = sz;
  let bestDist = Number.POSITIVE_INFINITY;
  let bestNode = NULL_NODE;

  while (size > 0) {
    const cur = queue[head]!;
    head = head + 1 === MOVE_MAX_QUEUE ? 0 : head + 1;
    size--;
    const curRef = pool.ref[cur]!;
    const slot = tileOfRef(curRef);
    const poly = polyOfRef(curRef);
    const tile = navMesh.tileInSlot(slot)!;

    if (pointInPolyXZ(tile, poly, ex, ez)) {
      bestNode = cur;
      bestX = ex;
      bestY = ey;
      bestZ = ez;
      break;
    }

    const count = collectNeighbours(navMesh, curRef, neighbourRefs, neighbourEdges);
    const nvp = tile.maxVertsPerPoly;
    const n = tile.polyVertCount[poly]!;
    const v = tile.vertices;
    // Edges in Detour's order (n-1, 0, 1, …): edge j runs from vertex j to vertex j+1.
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const a = tile.polyVerts[poly * nvp + j]! * 3;
      const b = tile.polyVerts[poly * nvp + i]! * 3;
      let passable = false;
      for (let k = 0; k < count; k++) {
        if (neighbourEdges[k] !== j) continue;
        const nref = neighbourRefs[k]!;
        if (tileOfRef(nref) === OFF_MESH_SLOT || !passesFilter(navMesh, filter, nref)) continue;
        passable = true;
        const node = pool.getNode(nref);
        if (node === NULL_NODE) {
          status = "outOfNodes";
          continue;
        }
        if ((pool.flags[node]! & NODE_CLOSED) !== 0) continue;
        // Skip portals outside the search circle (whole edge, like Detour: cheaper than
        // clipping tile portals and only ever more permissive).
        const t = segmentParamXZ(cx, cz, v[a]!, v[a + 2]!, v[b]!, v[b + 2]!);
        const qx = v[a]! + (v[b]! - v[a]!) * t - cx;
        const qz = v[a + 2]! + (v[b + 2]! - v[a + 2]!) * t - cz;
        const d2 = qx * qx + qz * qz;
        if (d2 > searchRadSqr) continue;
        if (size < MOVE_MAX_QUEUE) {
          pool.parent[node] = cur;
          pool.flags[node] = pool.flags[node]! | NODE_CLOSED;
          let tail = head + size;
          if (tail >= MOVE_MAX_QUEUE) tail -= MOVE_MAX_QUEUE;
          queue[tail] = node;
          size++;
        } else {
          status = "outOfNodes";
        }
      }
      if (!passable) {
        // Wall: candidate stopping point is its point closest to the end.
        const t = segmentParamXZ(ex, ez, v[a]!, v[a + 2]!, v[b]!, v[b + 2]!);
        const qx = v[a]! + (v[b]! - v[a]!) * t;
        const qz = v[a + 2]! + (v[b + 2]! - v[a + 2]!) * t;
        const d2 = (qx - ex) * (qx - ex) + (qz - ez) * (qz - ez);
        if (d2 < bestDist) {
          bestDist = d2;
          bestX = qx;
          bestY = v[a + 1]! + (v[b + 1]! - v[a + 1]!) * t;
          bestZ = qz;
          bestNode = cur;
        }
      }
    }
  }

  const res = out.resultPos;
  res[0] = bestX;
  res[1] = bestY;
  res[2] = bestZ;
  // Path from the start to bestNode: count, then fill backwards.
  let n = 0;
  for (let node = bestNode; node !== NULL_NODE; node = pool.parent[node]!) n++;
  if (n > out.visited.length) out.visited = growFloat64(out.visited, n);
  let i = n;
  for (let node = bestNode; node !== NULL_NODE; node = pool.parent[node]!) {
    out.visited[--i] = pool.ref[node]!;
  }
  out.visitedCount = n;
  out.status = status;
  return out;
}
