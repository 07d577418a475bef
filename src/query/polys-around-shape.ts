import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";
import { collectNeighbours, getPolyArea, getPortalPoints } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { checkFilter, checkRef } from "./args.js";
import { relaxAtPortalMidpointWithCost } from "./filter-callbacks.js";
import type { NavMeshQuery } from "./nav-mesh-query.js";
import { NODE_CLOSED, NODE_OPEN, NULL_NODE } from "./node-pool.js";
import { PolysAroundCircleResult } from "./polys-around-circle.js";
import { passesFilter } from "./ref-geometry.js";
import { openSearchAt, relaxAtPortalMidpoint } from "./relax.js";
import { growFloat64, neighbourEdges, neighbourRefs } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * Polygons touched by a convex shape, as Detour's dtNavMeshQuery::findPolysAroundShape
 * (Mononen): the Dijkstra search of findPolysAroundCircle, started at the shape's centroid,
 * crossing only portals that intersect the shape on XZ. Unlike Detour, the shape may be wound
 * either way. Results share {@link PolysAroundCircleResult}: refs, search-tree parents, costs.
 */

/** Same layout as the circle query's result. */
export { PolysAroundCircleResult as PolysAroundShapeResult };

const PARALLEL_EPS = 1e-6;
const portalA = new Float64Array(3);
const portalB = new Float64Array(3);

/**
 * True when segment a-b (XZ) meets the convex polygon `verts` (xyz triples, `n` of them);
 * Cyrus–Beck clipping as Detour's dtIntersectSegmentPoly2D, with `wind` = +1 for Recast's
 * polygon winding and -1 for the other.
 */
function segmentMeetsPolyXZ(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  verts: ArrayLike<number>,
  n: number,
  wind: number,
): boolean {
  let tmin = 0;
  let tmax = 1;
  const dx = bx - ax;
  const dz = bz - az;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ex = verts[i * 3]! - verts[j * 3]!;
    const ez = verts[i * 3 + 2]! - verts[j * 3 + 2]!;
    const fx = ax - verts[j * 3]!;
    const fz = az - verts[j * 3 + 2]!;
    const num = (ez * fx - ex * fz) * wind;
    const den = (dz * ex - dx * ez) * wind;
    if (Math.abs(den) < PARALLEL_EPS) {
      if (num < 0) return false;
      continue;
    }
    const t = num / den;
    if (den < 0) {
      if (t > tmin) tmin = t;
    } else if (t < tmax) {
      tmax = t;
    }
    if (tmin > tmax) return false;
  }
  return true;
}

/**
 * Finds the polygons connected to `startRef` through portals that intersect the convex
 * polygon `verts` (flat xyz, at least 3 points, either winding) on XZ, crossing only polygons
 * that pass `filter`, and writes them with parents and costs to `out`. Off-mesh connections
 * whose end lies in the shape are included and followed, as in Detour.
 *
 * A stale startRef gives status "invalidRef" and no polygons. Throws
 * MeshwayError("INVALID_ARGUMENT") for fewer than 3 or non-finite vertices, or a malformed
 * startRef.
 */
export function findPolysAroundShape(
  query: NavMeshQuery,
  startRef: PolyRef,
  verts: ArrayLike<number>,
  filter: QueryFilter,
  out: PolysAroundCircleResult,
): PolysAroundCircleResult {
  const navMesh = query.navMesh;
  const nverts = verts == null ? 0 : Math.floor(verts.length / 3);
  if (nverts < 3 || verts.length !== nverts * 3) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `findPolysAroundShape verts must be xyz triples of at least 3 points, got ${verts?.length ?? verts} numbers`,
    );
  }
  let cx = 0;
  let cy = 0;
  let cz = 0;
  let twiceArea = 0;
  for (let i = 0, j = nverts - 1; i < nverts; j = i++) {
    const x = verts[i * 3]!;
    const y = verts[i * 3 + 1]!;
    const z = verts[i * 3 + 2]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findPolysAroundShape vertex ${i} [${x}, ${y}, ${z}] must be three finite numbers`,
      );
    }
    cx += x;
    cy += y;
    cz += z;
    twiceArea += verts[j * 3]! * z - x * verts[j * 3 + 2]!;
  }
  checkFilter(filter, "findPolysAroundShape");
  if (!checkRef(navMesh, startRef, "findPolysAroundShape startRef", false)) {
    out.count = 0;
    out.status = "invalidRef";
    return out;
  }
  // Recast's polygons have negative twice-area in this convention (see polygonAreaXZ).
  const wind = twiceArea <= 0 ? 1 : -1;
  cx /= nverts;
  cy /= nverts;
  cz /= nverts;
  const areaCost = filter.areaCost;
  const pool = query.nodePool;
  const queue = query.openList;
  openSearchAt(pool, queue, startRef, cx, cy, cz);
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
      if (
        !segmentMeetsPolyXZ(portalA[0]!, portalA[2]!, portalB[0]!, portalB[2]!, verts, nverts, wind)
      ) {
        continue;
      }
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
