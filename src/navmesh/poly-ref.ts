/**
 * Polygon references: one JS number packing (salt, tile slot, polygon) into 52 bits, exact in
 * a double. 20 bits of polygon, 20 bits of tile slot (over a million tiles of a million
 * polygons each) and 12 bits of salt, bumped whenever a slot is reused so stale refs fail.
 * Ref 0 is never valid (salts start at 1). Arithmetic, not bit operators: bit ops are 32-bit.
 */
export type PolyRef = number;

export const POLY_BITS = 20;
export const TILE_BITS = 20;
export const SALT_BITS = 12;
const POLY_SPACE = 2 ** POLY_BITS;
const TILE_SPACE = 2 ** TILE_BITS;
const SALT_SPACE = 2 ** SALT_BITS;
export const MAX_POLYS_PER_TILE = POLY_SPACE;
export const MAX_TILES = TILE_SPACE;

export function encodePolyRef(salt: number, tile: number, poly: number): PolyRef {
  return (salt * TILE_SPACE + tile) * POLY_SPACE + poly;
}

// Floor arithmetic rather than `%`: a double modulo above 2^31 takes V8's slow path.
export function polyOfRef(ref: PolyRef): number {
  return ref - Math.floor(ref / POLY_SPACE) * POLY_SPACE;
}

export function tileOfRef(ref: PolyRef): number {
  const high = Math.floor(ref / POLY_SPACE);
  return high - Math.floor(high / TILE_SPACE) * TILE_SPACE;
}

export function saltOfRef(ref: PolyRef): number {
  return Math.floor(ref / (POLY_SPACE * TILE_SPACE));
}

/** Next salt for a reused slot: 1..SALT_SPACE-1, never 0. */
export function nextSalt(salt: number): number {
  return salt + 1 >= SALT_SPACE ? 1 : salt + 1;
}
