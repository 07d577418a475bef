import type { QueryFilter } from "../navmesh/filter.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { checkFilter, checkPoint, checkRadius, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { PolysAroundCircleResult, searchAroundPortals } from "./portal-dijkstra.js";

/**
 * Polygons around a circle, as in Detour's dtNavMeshQuery::findPolysAroundCircle (Mononen,
 * current version): the portal Dijkstra (portal-dijkstra.ts) from the circle's center,
 * crossing only portals within `radius` of it on XZ.
 */

export { PolysAroundCircleResult };

/** The circle touches the portal (XZ); fields set per call, so no allocation. */
const circleGate = {
  cx: 0,
  cz: 0,
  radiusSqr: 0,
  admits(ax: number, az: number, bx: number, bz: number): boolean {
    return distancePtSegSqrXZ(this.cx, this.cz, ax, az, bx, bz) <= this.radiusSqr;
  },
};

/**
 * Finds the polygons connected to `startRef` through portals that lie within `radius` of
 * `center` (XZ), crossing only polygons that pass `filter`, and writes them with their
 * search-tree parents and costs to `out` (see {@link PolysAroundCircleResult}). The center's
 * y only affects costs. Off-mesh connections whose end touches the circle are included
 * (and followed), as in Detour.
 *
 * A stale startRef (its tile removed or replaced) gives status "invalidRef" and no polygons.
 * Throws MeshwayError("INVALID_ARGUMENT") for a non-finite center, a negative or non-finite
 * radius, or a malformed startRef (never valid).
 */
export function findPolysAroundCircle(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  center: ArrayLike<number>,
  radius: number,
  filter: QueryFilter,
  out: PolysAroundCircleResult,
): PolysAroundCircleResult {
  const navMesh = query.navMesh;
  checkPoint(center, "findPolysAroundCircle center");
  checkRadius(radius, "findPolysAroundCircle radius");
  checkFilter(filter, "findPolysAroundCircle");
  if (!checkRef(navMesh, startRef, "findPolysAroundCircle startRef", false)) {
    out.count = 0;
    out.status = "invalidRef";
    return out;
  }

  circleGate.cx = center[0]!;
  circleGate.cz = center[2]!;
  circleGate.radiusSqr = radius * radius;
  return searchAroundPortals(
    query,
    startRef,
    center[0]!,
    center[1]!,
    center[2]!,
    filter,
    circleGate,
    out,
  );
}
