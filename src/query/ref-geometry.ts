import type { QueryFilter } from "../navmesh/filter.js";
import {
  closestPointOnPolyBoundary,
  closestPointOnPoly as closestPointOnTilePoly,
  polyHeight,
  segmentParamXZ,
} from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPolyFlags } from "../navmesh/neighbours.js";
import {
  isLiveRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { callPassFilter } from "./filter-callbacks.js";

/**
 * Point-on-polygon geometry addressed by polygon reference: ground polygons go to the tile
 * geometry (src/navmesh/geometry.ts), off-mesh connections are treated as the segment between
 * their snapped end points, as Detour treats its two-vertex off-mesh polygons.
 */

/** Area id of a live ref's polygon or off-mesh connection; -1 when not live. */
export function areaOfRef(navMesh: NavMesh, ref: PolyRef): number {
  if (!isLiveRef(navMesh, ref)) return -1;
  const poly = polyOfRef(ref);
  const slotIndex = tileOfRef(ref);
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMeshAt(poly)!.area;
  return navMesh.tileInSlot(slotIndex)!.polyAreas[poly]!;
}

/** True when the polygon or connection `ref` passes the filter's flags and its passFilter. */
export function passesFilter(navMesh: NavMesh, filter: QueryFilter, ref: PolyRef): boolean {
  const flags = getPolyFlags(navMesh, ref);
  if ((flags & filter.includeFlags) === 0 || (flags & filter.excludeFlags) !== 0) return false;
  return !filter.passFilter || callPassFilter(navMesh, filter.passFilter, ref);
}

/** The ground tile holding `ref`, or null (off-mesh connection, stale or foreign ref). */
export function groundTileOf(navMesh: NavMesh, ref: PolyRef): NavMeshTile | null {
  const slotIndex = tileOfRef(ref);
  return slotIndex !== OFF_MESH_SLOT && isLiveRef(navMesh, ref)
    ? navMesh.tileInSlot(slotIndex)
    : null;
}

/** XZ parameter of (x, z) on off-mesh connection `index`'s segment, its start point at `o`. */
function offMeshParam(points: Float64Array, o: number, x: number, z: number): number {
  return segmentParamXZ(x, z, points[o]!, points[o + 2]!, points[o + 3]!, points[o + 5]!);
}

/** Writes the point of connection `index` at XZ parameter t (3D lerp of its end points). */
function offMeshLerp(points: Float64Array, o: number, t: number, out: Float64Array): void {
  out[0] = points[o]! + (points[o + 3]! - points[o]!) * t;
  out[1] = points[o + 1]! + (points[o + 4]! - points[o + 1]!) * t;
  out[2] = points[o + 2]! + (points[o + 5]! - points[o + 2]!) * t;
}

/**
 * The point itself when inside the polygon on XZ, else the closest point on its edges
 * (polygon vertices, not the detail mesh). False when `ref` is not a live polygon.
 */
export function closestPointOnBoundaryByRef(
  navMesh: NavMesh,
  ref: PolyRef,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
): boolean {
  if (tileOfRef(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return false;
    const o = polyOfRef(ref) * 6;
    offMeshLerp(navMesh.offMeshEndPoints, o, offMeshParam(navMesh.offMeshEndPoints, o, x, z), out);
    return true;
  }
  const tile = groundTileOf(navMesh, ref);
  if (tile === null) return false;
  closestPointOnPolyBoundary(tile, polyOfRef(ref), x, y, z, out);
  return true;
}

/**
 * Closest point on the polygon's detail surface: (x, detail height, z) and 1 when (x, z) is
 * over the polygon, the closest boundary point and 0 when not, -1 when `ref` is not live.
 * Off-mesh connections: the closest point of their segment, never "over".
 */
export function closestPointByRef(
  navMesh: NavMesh,
  ref: PolyRef,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
): number {
  if (tileOfRef(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return -1;
    const o = polyOfRef(ref) * 6;
    offMeshLerp(navMesh.offMeshEndPoints, o, offMeshParam(navMesh.offMeshEndPoints, o, x, z), out);
    return 0;
  }
  const tile = groundTileOf(navMesh, ref);
  if (tile === null) return -1;
  return closestPointOnTilePoly(tile, polyOfRef(ref), x, y, z, out) ? 1 : 0;
}

/**
 * Detail-mesh height of the polygon at (x, z): NaN when (x, z) is outside it or `ref` is not
 * live. Off-mesh connections: the height of their segment at the XZ-closest point.
 */
export function heightByRef(navMesh: NavMesh, ref: PolyRef, x: number, z: number): number {
  if (tileOfRef(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return Number.NaN;
    const p = navMesh.offMeshEndPoints;
    const o = polyOfRef(ref) * 6;
    const t = offMeshParam(p, o, x, z);
    return p[o + 1]! + (p[o + 4]! - p[o + 1]!) * t;
  }
  const tile = groundTileOf(navMesh, ref);
  return tile === null ? Number.NaN : polyHeight(tile, polyOfRef(ref), x, z);
}
