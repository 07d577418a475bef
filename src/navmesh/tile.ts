import type { Vec3 } from "../math/vec3.js";

/** Polygon flag set on every walkable polygon by default (filters include/exclude by flags). */
export const POLY_FLAG_WALK = 1;

/** Neighbour slot value: no neighbour across this edge (a wall). */
export const EDGE_WALL = 0;
/**
 * Neighbour slot flag: the edge lies on the tile border; low bits hold the side (0..3) as a
 * Recast direction: 0 = -x, 1 = +z, 2 = +x, 3 = -z (Detour's DT_EXT_LINK sides 4, 2, 0, 6).
 * NavMesh.addTile links such edges to the neighbouring tile's opposite-side edges.
 */
export const EDGE_TILE_BORDER = 0x80000000;

/**
 * One tile of runtime navmesh, world units, all data in flat typed arrays so a tile can be
 * written to and read from a byte block without per-polygon parsing.
 *
 * Polygon p uses slots [p * maxVertsPerPoly, p * maxVertsPerPoly + polyVertCount[p]) of
 * `polyVerts` and `polyNeighbours`. Neighbour slot i describes edge (v[i], v[i+1]):
 * EDGE_WALL, (index of the neighbour polygon in this tile) + 1, or EDGE_TILE_BORDER | side.
 */
export interface NavMeshTile {
  /** Tile column and row in the tile grid (0, 0 for a solo build). */
  tileX: number;
  tileZ: number;
  bmin: Vec3;
  bmax: Vec3;
  maxVertsPerPoly: number;
  vertexCount: number;
  /** 3 floats per vertex, world units. */
  vertices: Float32Array;
  polyCount: number;
  polyVerts: Uint32Array;
  polyNeighbours: Uint32Array;
  polyVertCount: Uint8Array;
  polyAreas: Uint8Array;
  polyFlags: Uint16Array;
  /** Per polygon: detail vertex base, vertex count, triangle base, triangle count. */
  detailMeshes: Uint32Array;
  /** 3 floats per vertex, world units; each sub-mesh starts with its polygon's vertices. */
  detailVertices: Float32Array;
  /** 4 bytes per triangle: three sub-mesh-local vertex indices and edge flags. */
  detailTriangles: Uint8Array;
  /**
   * Bounding-volume tree over the polygons for spatial queries: 6 floats per node (min xyz,
   * max xyz, world units) and, per node, a polygon index (leaf, >= 0) or the negated escape
   * offset (internal node: -n means "skip n nodes to leave this subtree"). Nodes are in
   * depth-first order. Empty when the tile has no polygons.
   */
  bvBounds: Float32Array;
  bvIndex: Int32Array;
}

/**
 * Signed XZ area of polygon p by the shoelace formula in (x, z): positive when clockwise seen
 * from +Y with x right and z down the page, so negative for the build's polygons (the
 * opposite of math/predicates2d.ts's triArea2XZ sign).
 */
export function polygonAreaXZ(tile: NavMeshTile, p: number): number {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[p]!;
  const v = tile.vertices;
  let twice = 0;
  for (let i = 0; i < n; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    const b = tile.polyVerts[p * nvp + ((i + 1) % n)]! * 3;
    twice += v[a]! * v[b + 2]! - v[b]! * v[a + 2]!;
  }
  return twice / 2;
}
