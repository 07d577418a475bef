import type { QueryFilter } from "../navmesh/filter.js";
import { segmentParamXZ } from "../navmesh/geometry.js";
import { collectNeighbours, getPortalPoints } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { checkFilter, checkPoint, checkRadius, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { NODE_CLOSED, NODE_OPEN, NULL_NODE } from "./node-pool.js";
import { passesFilter } from "./ref-geometry.js";
import { openSearchAt, relaxAtPortalMidpoint } from "./relax.js";
import { neighbourEdges, neighbourRefs } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * Distance from a point to the nearest wall, as in Detour's
 * dtNavMeshQuery::findDistanceToWall (Mononen): a Dijkstra search outwards from the start
 * polygon over polygons whose portals touch the search circle; every wall edge (an edge
 * with no neighbour passing the filter) of an expanded polygon closer than the current
 * radius shrinks the radius to it, so the search stops as soon as no portal is nearer.
 */

/** Result of {@link findDistanceToWall}, reused across calls. */
export class DistanceToWallResult {
  /** Distance on XZ to the nearest wall, or maxRadius when no wall is that close. */
  hitDist = 0;
  /** True when a wall was found within maxRadius. */
  hit = false;
  /**
   * Nearest wall point (y interpolated along the wall edge, not the detail surface); the
   * center when there was no hit.
   */
  readonly hitPos = new Float64Array(3);
  /**
   * Unit vector from the wall point to the center (3D, like Detour; horizontal when center
   * lies at the wall's height); zero when there was no hit or the center is on the wall.
   */
  readonly hitNormal = new Float64Array(3);
  /**
   * "complete"; "outOfNodes" when the search ran out of nodes (result may be too far);
   * "invalidRef" when startRef was stale (its tile removed or replaced): then hitDist 0, no
   * hit, hitPos = center, zero normal.
   */
  status: QueryStatus = "complete";
}

const midA = new Float64Array(3);
const midB = new Float64Array(3);

/**
 * Finds the wall nearest to `center` (a point in polygon `startRef`) within `maxRadius`,
 * walking only polygons that pass `filter`; edges to polygons the filter rejects count as
 * walls. Distances are measured on XZ. Off-mesh connections are not followed.
 *
 * A stale startRef (its tile removed or replaced) gives status "invalidRef". Throws
 * MeshwayError("INVALID_ARGUMENT") for a non-finite center, a negative or non-finite radius,
 * a malformed startRef (never valid) or an off-mesh connection's.
 */
export function findDistanceToWall(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  center: ArrayLike<number>,
  maxRadius: number,
  filter: QueryFilter,
  out: DistanceToWallResult,
): DistanceToWallResult {
  const navMesh = query.navMesh;
  checkPoint(center, "findDistanceToWall center");
  checkRadius(maxRadius, "findDistanceToWall maxRadius");
  checkFilter(filter, "findDistanceToWall");
  if (!checkRef(navMesh, startRef, "findDistanceToWall startRef", true)) {
    out.hitDist = 0;
    out.hit = false;
    out.hitPos[0] = center[0]!;
    out.hitPos[1] = center[1]!;
    out.hitPos[2] = center[2]!;
    out.hitNormal.fill(0);
    out.status = "invalidRef";
    return out;
  }

  const cx = center[0]!;
  const cy = center[1]!;
  const cz = center[2]!;
  // The query's shared search pool and open list (as Detour's Dijkstra queries use them).
  const pool = query.nodePool;
  const queue = query.openList;
  openSearchAt(pool, queue, startRef, cx, cy, cz);

  let radiusSqr = maxRadius * maxRadius;
  let hit = false;
  let hx = cx;
  let hy = cy;
  let hz = cz;
  let status: QueryStatus = "complete";

  while (!queue.empty()) {
    const best = queue.pop();
    pool.flags[best] = (pool.flags[best]! & ~NODE_OPEN) | NODE_CLOSED;
    const bestRef = pool.ref[best]!;
    const slot = tileOfRef(bestRef);
    const poly = polyOfRef(bestRef);
    const tile = navMesh.tileInSlot(slot)!;
    const parent = pool.parent[best]!;
    const parentRef = parent === NULL_NODE ? 0 : pool.ref[parent]!;
    const count = collectNeighbours(navMesh, bestRef, neighbourRefs, neighbourEdges);

    const nvp = tile.maxVertsPerPoly;
    const n = tile.polyVertCount[poly]!;
    const v = tile.vertices;
    const base = poly * nvp;

    // Walls of this polygon within the current radius shrink it (edges in Detour's order,
    // n-1, 0, 1, …, so ties resolve the same way; edge j runs from vertex j to j+1).
    for (let i = 0, j = n - 1; i < n; j = i++) {
      let solid = true;
      for (let k = 0; k < count; k++) {
        if (neighbourEdges[k] === j && passesFilter(navMesh, filter, neighbourRefs[k]!)) {
          solid = false;
          break;
        }
      }
      if (!solid) continue;
      const a = tile.polyVerts[base + j]! * 3;
      const b = tile.polyVerts[base + i]! * 3;
      const t = segmentParamXZ(cx, cz, v[a]!, v[a + 2]!, v[b]!, v[b + 2]!);
      const px = v[a]! + (v[b]! - v[a]!) * t;
      const pz = v[a + 2]! + (v[b + 2]! - v[a + 2]!) * t;
      const d2 = (px - cx) * (px - cx) + (pz - cz) * (pz - cz);
      if (d2 > radiusSqr) continue;
      radiusSqr = d2;
      hit = true;
      hx = px;
      hy = v[a + 1]! + (v[b + 1]! - v[a + 1]!) * t;
      hz = pz;
    }

    // Expand to neighbours whose shared edge is within the (shrinking) radius.
    for (let k = 0; k < count; k++) {
      const nref = neighbourRefs[k]!;
      const edge = neighbourEdges[k]!;
      if (nref === parentRef || edge < 0 || tileOfRef(nref) === OFF_MESH_SLOT) continue;
      const a = tile.polyVerts[base + edge]! * 3;
      const b = tile.polyVerts[base + (edge + 1 < n ? edge + 1 : 0)]! * 3;
      const t = segmentParamXZ(cx, cz, v[a]!, v[a + 2]!, v[b]!, v[b + 2]!);
      const qx = v[a]! + (v[b]! - v[a]!) * t - cx;
      const qz = v[a + 2]! + (v[b + 2]! - v[a + 2]!) * t - cz;
      if (qx * qx + qz * qz > radiusSqr) continue;
      if (!passesFilter(navMesh, filter, nref)) continue;
      getPortalPoints(navMesh, bestRef, nref, midA, midB);
      if (!relaxAtPortalMidpoint(pool, queue, best, nref, midA, midB)) status = "outOfNodes";
    }
  }

  out.hit = hit;
  out.hitDist = Math.sqrt(radiusSqr);
  const pos = out.hitPos;
  pos[0] = hx;
  pos[1] = hy;
  pos[2] = hz;
  const nrm = out.hitNormal;
  const nx = cx - hx;
  const ny = hit ? cy - hy : 0;
  const nz = cz - hz;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  nrm[0] = len > 0 ? nx / len : 0;
  nrm[1] = len > 0 ? ny / len : 0;
  nrm[2] = len > 0 ? nz / len : 0;
  out.status = status;
  return out;
}
