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
 * enough for V8 to inline into the query loops.
 */
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
