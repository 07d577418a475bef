import type { NavMesh } from "./nav-mesh.js";
import { encodePolyRef, OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "./poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "./tile.js";

/**
 * Polygon adjacency across tiles and off-mesh connections, as Detour walks it with
 * dtPoly::firstLink / dtLink and dtNavMeshQuery::getPortalPoints (Mononen). Same-tile
 * neighbours come from the tile's polyNeighbours; cross-tile portals and off-mesh ends from
 * the slot's LinkPool. LinkPool conventions (set by NavMesh): a ground polygon's link to an
 * off-mesh connection has edge LINK_EDGE_OFF_MESH; a connection's link to a ground polygon
 * has edge 0 (at the connection's start) or 1 (at its end); tile portals have edge = the
 * polygon edge and side = the tile side (0..3), other links side 0xff.
 */

/** Buffer length callers pass to {@link collectNeighbours}. */
export const MAX_NEIGHBOURS = 64;

/** LinkPool edge value of a ground polygon's link to an off-mesh connection. */
export const LINK_EDGE_OFF_MESH = 0xff;
/** LinkPool side value of links that are not tile portals. */
export const LINK_SIDE_NONE = 0xff;

/**
 * Writes every polygon reachable from `ref` across one edge or link to outRefs (up to the
 * buffers' length) and returns the count. outEdges[i] is the edge of `ref` crossed to reach
 * outRefs[i], or -1 when either side is an off-mesh connection. Order: same-tile neighbours
 * by edge, then links (newest first). Returns 0 for a ref whose tile is gone.
 */
export function collectNeighbours(
  navMesh: NavMesh,
  ref: PolyRef,
  outRefs: Float64Array,
  outEdges: Int32Array,
): number {
  const slotIndex = tileOfRef(ref);
  const poly = polyOfRef(ref);
  const slot = navMesh.slots[slotIndex];
  if (!slot) return 0;
  const max = Math.min(outRefs.length, outEdges.length);
  let n = 0;
  const tile = slot.tile;
  if (slotIndex !== OFF_MESH_SLOT) {
    if (!tile || poly >= tile.polyCount) return 0;
    const nvp = tile.maxVertsPerPoly;
    const base = poly * nvp;
    const count = tile.polyVertCount[poly]!;
    const nbs = tile.polyNeighbours;
    for (let i = 0; i < count && n < max; i++) {
      const nb = nbs[base + i]!;
      if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) !== 0) continue;
      outRefs[n] = encodePolyRef(slot.salt, slotIndex, nb - 1);
      outEdges[n++] = i;
    }
  }
  const links = slot.links;
  if (poly >= links.first.length) return n;
  const offMeshSource = slotIndex === OFF_MESH_SLOT;
  for (let l = links.first[poly]!; l >= 0 && n < max; l = links.next[l]!) {
    const edge = links.edge[l]!;
    outRefs[n] = links.ref[l]!;
    outEdges[n++] = offMeshSource || edge === LINK_EDGE_OFF_MESH ? -1 : edge;
  }
  return n;
}

/** Writes connection `index`'s snapped end point (0 start, 1 end) to out. */
function offMeshPoint(navMesh: NavMesh, index: number, end: number, out: Float64Array): void {
  const o = index * 6 + end * 3;
  const p = navMesh.offMeshPoints;
  out[0] = p[o]!;
  out[1] = p[o + 1]!;
  out[2] = p[o + 2]!;
}

/** Link of `poly` in slot `slotIndex` that targets `target`, or -1. */
function findLink(navMesh: NavMesh, slotIndex: number, poly: number, target: PolyRef): number {
  const links = navMesh.slots[slotIndex]!.links;
  if (poly >= links.first.length) return -1;
  for (let l = links.first[poly]!; l >= 0; l = links.next[l]!) {
    if (links.ref[l] === target) return l;
  }
  return -1;
}

/**
 * The portal between adjacent polygons `fromRef` and `toRef`: the shared edge's end points
 * as seen walking from `from` to `to`, left = the edge's first vertex in from's winding,
 * right = its second (Detour's getPortalPoints); a tile portal covering only part of the
 * edge is clipped to that part. When either polygon is an off-mesh connection both points
 * are the connection end touching the other polygon. False when they are not adjacent.
 */
export function getPortalPoints(
  navMesh: NavMesh,
  fromRef: PolyRef,
  toRef: PolyRef,
  outLeft: Float64Array,
  outRight: Float64Array,
): boolean {
  const fromSlot = tileOfRef(fromRef);
  const fromPoly = polyOfRef(fromRef);
  const toSlot = tileOfRef(toRef);
  if (fromSlot === OFF_MESH_SLOT || toSlot === OFF_MESH_SLOT) {
    const con = fromSlot === OFF_MESH_SLOT ? fromPoly : polyOfRef(toRef);
    const other = fromSlot === OFF_MESH_SLOT ? toRef : fromRef;
    const l = findLink(navMesh, OFF_MESH_SLOT, con, other);
    if (l < 0) return false;
    const end = navMesh.slots[OFF_MESH_SLOT]!.links.edge[l]!;
    offMeshPoint(navMesh, con, end, outLeft);
    offMeshPoint(navMesh, con, end, outRight);
    return true;
  }
  const slot = navMesh.slots[fromSlot];
  const tile = slot?.tile;
  if (!tile || fromPoly >= tile.polyCount) return false;
  const nvp = tile.maxVertsPerPoly;
  const base = fromPoly * nvp;
  const count = tile.polyVertCount[fromPoly]!;
  let edge = -1;
  let tmin = 0;
  let tmax = 1;
  if (toSlot === fromSlot) {
    const want = polyOfRef(toRef) + 1;
    for (let i = 0; i < count; i++) {
      if (tile.polyNeighbours[base + i] === want) {
        edge = i;
        break;
      }
    }
  }
  if (edge < 0) {
    const l = findLink(navMesh, fromSlot, fromPoly, toRef);
    if (l < 0) return false;
    const links = slot.links;
    edge = links.edge[l]!;
    if (edge >= count) return false;
    if (links.side[l] !== LINK_SIDE_NONE) {
      const bmin = links.bmin[l]!;
      const bmax = links.bmax[l]!;
      if (bmin !== 0 || bmax !== 255) {
        tmin = bmin / 255;
        tmax = bmax / 255;
      }
    }
  }
  const v = tile.vertices;
  const a = tile.polyVerts[base + edge]! * 3;
  const b = tile.polyVerts[base + (edge + 1 === count ? 0 : edge + 1)]! * 3;
  for (let k = 0; k < 3; k++) {
    const va = v[a + k]!;
    const d = v[b + k]! - va;
    outLeft[k] = va + d * tmin;
    outRight[k] = va + d * tmax;
  }
  return true;
}

/** Area id of a ground polygon or off-mesh connection (-1 when the ref is not live). */
export function getPolyArea(navMesh: NavMesh, ref: PolyRef): number {
  const slotIndex = tileOfRef(ref);
  const poly = polyOfRef(ref);
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly]?.area ?? -1;
  const tile = navMesh.slots[slotIndex]?.tile;
  return tile && poly < tile.polyCount ? tile.polyAreas[poly]! : -1;
}

/** Flags of a ground polygon or off-mesh connection (0 when the ref is not live). */
export function getPolyFlags(navMesh: NavMesh, ref: PolyRef): number {
  const slotIndex = tileOfRef(ref);
  const poly = polyOfRef(ref);
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly]?.flags ?? 0;
  const tile = navMesh.slots[slotIndex]?.tile;
  return tile && poly < tile.polyCount ? tile.polyFlags[poly]! : 0;
}
