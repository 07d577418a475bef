import {
  closestPointOnPolyBoundary,
  closestPointOnPoly as closestPointOnTilePoly,
  polyHeight,
  segmentParamXZ,
} from "../navmesh/geometry.js";
import { type NavMesh, OFF_MESH_SLOT } from "../navmesh/nav-mesh.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";

/**
 * Point-on-polygon geometry addressed by polygon reference: ground polygons go to the tile
 * geometry (src/navmesh/geometry.ts), off-mesh connections are treated as the segment between
 * their snapped end points, as Detour treats its two-vertex off-mesh polygons.
 */

const POLY_SPACE = 2 ** 20;

// Ref fields by floor arithmetic: `%` on refs above 2^31 is a slow floating-point modulo.
/** Polygon index of a ref (its low 20 bits). */
export function polyOf(ref: PolyRef): number {
  return ref - Math.floor(ref / POLY_SPACE) * POLY_SPACE;
}

/** Tile slot of a ref. */
export function slotOf(ref: PolyRef): number {
  const hi = Math.floor(ref / POLY_SPACE);
  return hi - Math.floor(hi / POLY_SPACE) * POLY_SPACE;
}

/**
 * NavMesh.isValidPolyRef by floor arithmetic (the query hot paths validate refs per call):
 * true when `ref` names a live ground polygon or off-mesh connection.
 */
export function isLiveRef(navMesh: NavMesh, ref: PolyRef): boolean {
  if (!(ref > 0) || ref !== Math.floor(ref)) return false;
  const hi = Math.floor(ref / POLY_SPACE);
  const salt = Math.floor(hi / POLY_SPACE);
  const slotIndex = hi - salt * POLY_SPACE;
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || slot.salt !== salt) return false;
  const poly = ref - hi * POLY_SPACE;
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly] != null;
  return slot.tile !== null && poly < slot.tile.polyCount;
}

/** Area id of a live ref's polygon or off-mesh connection; -1 when not live. */
export function areaOfRef(navMesh: NavMesh, ref: PolyRef): number {
  if (!isLiveRef(navMesh, ref)) return -1;
  const hi = Math.floor(ref / POLY_SPACE);
  const poly = ref - hi * POLY_SPACE;
  const slotIndex = hi - Math.floor(hi / POLY_SPACE) * POLY_SPACE;
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly]!.area;
  return navMesh.slots[slotIndex]!.tile!.polyAreas[poly]!;
}

/** The ground tile holding `ref`, or null (off-mesh connection, stale or foreign ref). */
export function groundTileOf(navMesh: NavMesh, ref: PolyRef): NavMeshTile | null {
  const hi = Math.floor(ref / POLY_SPACE);
  const salt = Math.floor(hi / POLY_SPACE);
  const slot = navMesh.slots[hi - salt * POLY_SPACE];
  if (slot === undefined || slot.salt !== salt) return null;
  const tile = slot.tile;
  return tile !== null && ref - hi * POLY_SPACE < tile.polyCount ? tile : null;
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
  if (slotOf(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return false;
    const o = polyOf(ref) * 6;
    offMeshLerp(navMesh.offMeshPoints, o, offMeshParam(navMesh.offMeshPoints, o, x, z), out);
    return true;
  }
  const tile = groundTileOf(navMesh, ref);
  if (tile === null) return false;
  closestPointOnPolyBoundary(tile, polyOf(ref), x, y, z, out);
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
  if (slotOf(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return -1;
    const o = polyOf(ref) * 6;
    offMeshLerp(navMesh.offMeshPoints, o, offMeshParam(navMesh.offMeshPoints, o, x, z), out);
    return 0;
  }
  const tile = groundTileOf(navMesh, ref);
  if (tile === null) return -1;
  return closestPointOnTilePoly(tile, polyOf(ref), x, y, z, out) ? 1 : 0;
}

/**
 * Detail-mesh height of the polygon at (x, z): NaN when (x, z) is outside it or `ref` is not
 * live. Off-mesh connections: the height of their segment at the XZ-closest point.
 */
export function heightByRef(navMesh: NavMesh, ref: PolyRef, x: number, z: number): number {
  if (slotOf(ref) === OFF_MESH_SLOT) {
    if (!isLiveRef(navMesh, ref)) return Number.NaN;
    const p = navMesh.offMeshPoints;
    const o = polyOf(ref) * 6;
    const t = offMeshParam(p, o, x, z);
    return p[o + 1]! + (p[o + 4]! - p[o + 1]!) * t;
  }
  const tile = groundTileOf(navMesh, ref);
  return tile === null ? Number.NaN : polyHeight(tile, polyOf(ref), x, z);
}
