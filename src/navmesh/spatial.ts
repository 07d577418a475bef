import type { NavMeshTile } from "./tile.js";

/**
 * Polygons of `tile` whose bounding boxes overlap the box [bmin, bmax] (touching counts),
 * found by walking the tile's BV tree like Detour's queryPolygonsInTile. Writes polygon
 * indices to `out` (at most maxOut of them, in tree order) and returns how many it wrote.
 * Tiles without a BV tree fall back to testing every polygon's vertices.
 */
export function queryPolygonsInTile(
  tile: NavMeshTile,
  bmin: ArrayLike<number>,
  bmax: ArrayLike<number>,
  out: Int32Array,
  maxOut: number,
): number {
  const qx0 = bmin[0]!;
  const qy0 = bmin[1]!;
  const qz0 = bmin[2]!;
  const qx1 = bmax[0]!;
  const qy1 = bmax[1]!;
  const qz1 = bmax[2]!;
  const limit = Math.min(maxOut, out.length);
  let n = 0;
  const idx = tile.bvIndex;
  const nodes = idx.length;
  if (nodes === 0) return tile.polyCount > 0 ? scanPolygons(tile, bmin, bmax, out, limit) : 0;
  const b = tile.bvBounds;
  let i = 0;
  while (i < nodes && n < limit) {
    const o = i * 6;
    const overlap =
      qx0 <= b[o + 3]! &&
      qx1 >= b[o]! &&
      qy0 <= b[o + 4]! &&
      qy1 >= b[o + 1]! &&
      qz0 <= b[o + 5]! &&
      qz1 >= b[o + 2]!;
    const k = idx[i]!;
    if (k >= 0) {
      if (overlap) out[n++] = k;
      i++;
    } else {
      i += overlap ? 1 : -k;
    }
  }
  return n;
}

/** Brute-force fallback: polygon boxes from their vertices. */
function scanPolygons(
  tile: NavMeshTile,
  bmin: ArrayLike<number>,
  bmax: ArrayLike<number>,
  out: Int32Array,
  limit: number,
): number {
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  let n = 0;
  for (let p = 0; p < tile.polyCount && n < limit; p++) {
    let hit = true;
    for (let axis = 0; axis < 3 && hit; axis++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < tile.polyVertCount[p]!; i++) {
        const c = v[tile.polyVerts[p * nvp + i]! * 3 + axis]!;
        if (c < lo) lo = c;
        if (c > hi) hi = c;
      }
      hit = bmin[axis]! <= hi && bmax[axis]! >= lo;
    }
    if (hit) out[n++] = p;
  }
  return n;
}
