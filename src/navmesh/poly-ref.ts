/**
 * Polygon references: the one owner of their bit layout. A ref is one JS number packing
 * (salt, tile slot, polygon) into 52 bits, exact in a double:
 *
 *   ref = (salt * 2^TILE_BITS + slot) * 2^POLY_BITS + poly
 *
 * 20 bits of polygon, 20 bits of tile slot (over a million tiles of a million polygons each)
 * and 12 bits of salt, bumped whenever a slot is reused so stale refs fail. Ref 0 is never
 * valid (salts start at 1). Slot {@link OFF_MESH_SLOT} holds the off-mesh connections.
 * Arithmetic, not bit operators: bit ops are 32-bit. Every other file decodes refs through
 * the functions below (test/unit/poly-ref.test.ts bans copies of the layout); they are small
 * enough for V8 to inline into the query loops. The one liveness test of a ref against a
 * navmesh (classifyRef, isLiveRef, checkRefArgument) lives here too.
 */
import { MeshwayError } from "../errors.js";
import type { NavMesh } from "./nav-mesh.js";

export type PolyRef = number;

export const POLY_BITS = 20;
export const TILE_BITS = 20;
export const SALT_BITS = 12;
const POLY_SPACE = 2 ** POLY_BITS;
const TILE_SPACE = 2 ** TILE_BITS;
const SALT_SPACE = 2 ** SALT_BITS;
/** Refs are below this (52 bits: exact integers in a double). */
export const REF_LIMIT = 2 ** (POLY_BITS + TILE_BITS + SALT_BITS);
export const MAX_POLYS_PER_TILE = POLY_SPACE;
export const MAX_TILES = TILE_SPACE;
/** Largest salt; salts run 1..MAX_SALT and wrap back to 1. */
export const MAX_SALT = SALT_SPACE - 1;

/** Slot 0 holds no ground tile: its "polygons" are the off-mesh connections. */
export const OFF_MESH_SLOT = 0;

export function encodePolyRef(salt: number, tile: number, poly: number): PolyRef {
  return (salt * TILE_SPACE + tile) * POLY_SPACE + poly;
}

// Floor arithmetic rather than `%`: a double modulo above 2^31 takes V8's slow path.
/** Polygon (or off-mesh connection) index of a ref: its low POLY_BITS. */
export function polyOfRef(ref: PolyRef): number {
  return ref - Math.floor(ref / POLY_SPACE) * POLY_SPACE;
}

/** Tile slot of a ref. */
export function tileOfRef(ref: PolyRef): number {
  const high = Math.floor(ref / POLY_SPACE);
  return high - Math.floor(high / TILE_SPACE) * TILE_SPACE;
}

/** Salt of a ref. */
export function saltOfRef(ref: PolyRef): number {
  return Math.floor(ref / (POLY_SPACE * TILE_SPACE));
}

/** The ref of polygon 0 of `ref`'s tile: refs of one tile are base + poly. */
export function tileBaseOfRef(ref: PolyRef): PolyRef {
  return Math.floor(ref / POLY_SPACE) * POLY_SPACE;
}

/** True when `ref` names an off-mesh connection (its slot is OFF_MESH_SLOT). */
export function isOffMeshRef(ref: PolyRef): boolean {
  return tileOfRef(ref) === OFF_MESH_SLOT;
}

/** Next salt for a reused slot: 1..MAX_SALT, never 0. */
export function nextSalt(salt: number): number {
  return salt + 1 >= SALT_SPACE ? 1 : salt + 1;
}

/**
 * What a polygon reference is to `navMesh` (see DESIGN.md "Errors and statuses"):
 * - "live": it names a ground polygon or off-mesh connection present now;
 * - "stale": it was valid once but its tile has been removed or replaced (its salt is not
 *   the slot's current salt, or the slot is empty now) or its off-mesh connection was
 *   removed — a run-time condition: queries report it as status "invalidRef";
 * - "malformed": it could never have been valid (not a positive integer below 2^52, salt 0,
 *   a slot index beyond the navmesh's slots, a polygon index beyond a live tile's polygon
 *   count with the current salt, an off-mesh index never allocated) — a programmer error:
 *   queries throw MeshwayError("INVALID_ARGUMENT").
 */
export type RefClass = "live" | "stale" | "malformed";

/** Classifies `ref` for `navMesh`; the live case costs what isLiveRef costs. */
export function classifyRef(navMesh: NavMesh, ref: PolyRef): RefClass {
  if (!(ref > 0 && ref < REF_LIMIT) || ref !== Math.floor(ref)) return "malformed";
  // Decoded once here (the queries classify every ref argument).
  const high = Math.floor(ref / POLY_SPACE);
  const salt = Math.floor(high / TILE_SPACE);
  const slotIndex = high - salt * TILE_SPACE;
  const poly = ref - high * POLY_SPACE;
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || salt === 0) return "malformed";
  if (slotIndex === OFF_MESH_SLOT) {
    if (poly >= navMesh.offMesh.length) return "malformed";
    return slot.salt === salt && navMesh.offMesh[poly] != null ? "live" : "stale";
  }
  const tile = slot.tile;
  if (slot.salt !== salt || tile === null) return "stale";
  return poly < tile.polyCount ? "live" : "malformed";
}

/**
 * True when `ref` names a live ground polygon or off-mesh connection (classifyRef(…) ===
 * "live" without telling stale from malformed; the query hot paths call it per call).
 */
export function isLiveRef(navMesh: NavMesh, ref: PolyRef): boolean {
  if (!(ref > 0) || ref !== Math.floor(ref)) return false;
  const high = Math.floor(ref / POLY_SPACE);
  const salt = Math.floor(high / TILE_SPACE);
  const slotIndex = high - salt * TILE_SPACE;
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || slot.salt !== salt) return false;
  const poly = ref - high * POLY_SPACE;
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly] != null;
  return slot.tile !== null && poly < slot.tile.polyCount;
}

/**
 * The slot index of `ref` when it names a live ground polygon, else -1 (off-mesh, stale or
 * malformed: the caller then asks classifyRef which). One decode for hot queries' start refs.
 */
export function liveGroundSlot(navMesh: NavMesh, ref: PolyRef): number {
  if (!(ref > 0 && ref < REF_LIMIT) || ref !== Math.floor(ref)) return -1;
  const high = Math.floor(ref / POLY_SPACE);
  const salt = Math.floor(high / TILE_SPACE);
  const slotIndex = high - salt * TILE_SPACE;
  if (slotIndex === OFF_MESH_SLOT || salt === 0) return -1;
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || slot.salt !== salt || slot.tile === null) return -1;
  return ref - high * POLY_SPACE < slot.tile.polyCount ? slotIndex : -1;
}

/**
 * Argument check of the queries: true when `ref` is live, false when stale (the query then
 * returns "invalidRef"); throws MeshwayError("INVALID_ARGUMENT") naming `name` when malformed.
 */
export function checkRefArgument(navMesh: NavMesh, ref: PolyRef, name: string): boolean {
  const c = classifyRef(navMesh, ref);
  if (c === "live") return true;
  if (c === "stale") return false;
  throw new MeshwayError(
    "INVALID_ARGUMENT",
    `${name} ${String(ref)} is not a polygon reference of this navmesh (0, not an integer, or its slot, polygon or off-mesh index was never valid)`,
  );
}
