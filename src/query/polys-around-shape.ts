import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { checkFilter, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { type PolysAroundCircleResult, searchAroundPortals } from "./portal-dijkstra.js";

/**
 * Polygons touched by a convex shape, as Detour's dtNavMeshQuery::findPolysAroundShape
 * (Mononen): the Dijkstra search of findPolysAroundCircle, started at the shape's centroid,
 * crossing only portals that intersect the shape on XZ. Unlike Detour, the shape may be wound
 * either way. Results share {@link PolysAroundCircleResult}: refs, search-tree parents, costs.
 */

/** Same layout as the circle query's result. */
export { PolysAroundCircleResult as PolysAroundShapeResult } from "./portal-dijkstra.js";

const PARALLEL_EPS = 1e-6;
const NO_VERTS: ArrayLike<number> = [];

/** The portal meets the shape (XZ); fields set per call, so no allocation. */
const shapeGate = {
  verts: NO_VERTS,
  n: 0,
  wind: 1,
  admits(ax: number, az: number, bx: number, bz: number): boolean {
    return segmentMeetsPolyXZ(ax, az, bx, bz, this.verts, this.n, this.wind);
  },
};

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
  query: NavMeshQueryCore,
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
  shapeGate.verts = verts;
  shapeGate.n = nverts;
  shapeGate.wind = wind;
  const result = searchAroundPortals(query, startRef, cx, cy, cz, filter, shapeGate, out);
  shapeGate.verts = NO_VERTS; // do not keep the caller's array alive
  return result;
}
