import type { PolyMesh, PolyMeshDetail, Vec3 } from "../build/types.js";
import { MESH_NULL_INDEX, PORTAL_FLAG } from "../build/types.js";
import { buildTileBVTree } from "./bvtree.js";

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
 * Converts a voxel-space polygon mesh and its detail mesh into a world-space runtime tile.
 * Voxel x/z map to bmin + v * cellSize; y to bmin.y + (v + 1) * cellHeight, the height
 * Recast's detail mesh gives the same corners. (Detour's dtCreateNavMeshData puts polygon
 * corners one cell height lower, at bmin.y + v * cellHeight, while its detail interior
 * stays at Recast's height, so a flat floor comes out bumpy by a cell; meshway keeps one
 * continuous surface — see docs/differences-from-recast.md.)
 */
export function createNavMeshTile(
  pmesh: PolyMesh,
  dmesh: PolyMeshDetail,
  tileX = 0,
  tileZ = 0,
): NavMeshTile {
  const nvp = pmesh.maxVertsPerPoly;
  const cs = pmesh.cellSize;
  const ch = pmesh.cellHeight;
  const [ox, oy, oz] = pmesh.bmin;
  const vertices = new Float32Array(pmesh.vertCount * 3);
  for (let i = 0; i < pmesh.vertCount; i++) {
    vertices[i * 3] = ox + pmesh.verts[i * 3]! * cs;
    vertices[i * 3 + 1] = oy + (pmesh.verts[i * 3 + 1]! + 1) * ch;
    vertices[i * 3 + 2] = oz + pmesh.verts[i * 3 + 2]! * cs;
  }
  const polyCount = pmesh.polyCount;
  const polyVerts = new Uint32Array(polyCount * nvp);
  const polyNeighbours = new Uint32Array(polyCount * nvp);
  const polyVertCount = new Uint8Array(polyCount);
  const polyFlags = new Uint16Array(polyCount);
  for (let p = 0; p < polyCount; p++) {
    const base = p * 2 * nvp;
    let n = 0;
    while (n < nvp && pmesh.polys[base + n] !== MESH_NULL_INDEX) {
      polyVerts[p * nvp + n] = pmesh.polys[base + n]!;
      const nb = pmesh.polys[base + nvp + n]!;
      polyNeighbours[p * nvp + n] =
        nb === MESH_NULL_INDEX
          ? EDGE_WALL
          : (nb & PORTAL_FLAG) !== 0
            ? EDGE_TILE_BORDER | (nb & 0x3)
            : nb + 1;
      n++;
    }
    polyVertCount[p] = n;
    polyFlags[p] = pmesh.flags[p] || POLY_FLAG_WALK;
  }
  // Each detail sub-mesh starts with its polygon's corners; Detour reads those from the
  // polygon itself, so make them the very same points (heights included).
  const detailVertices = dmesh.verts.slice(0, dmesh.vertCount * 3);
  for (let p = 0; p < polyCount; p++) {
    const vb = dmesh.meshes[p * 4]!;
    for (let k = 0; k < polyVertCount[p]!; k++) {
      const v = polyVerts[p * nvp + k]! * 3;
      detailVertices[(vb + k) * 3] = vertices[v]!;
      detailVertices[(vb + k) * 3 + 1] = vertices[v + 1]!;
      detailVertices[(vb + k) * 3 + 2] = vertices[v + 2]!;
    }
  }
  const tile: NavMeshTile = {
    tileX,
    tileZ,
    bmin: [...pmesh.bmin],
    bmax: [...pmesh.bmax],
    maxVertsPerPoly: nvp,
    vertexCount: pmesh.vertCount,
    vertices,
    polyCount,
    polyVerts,
    polyNeighbours,
    polyVertCount,
    polyAreas: pmesh.areas.slice(0, polyCount),
    polyFlags,
    detailMeshes: dmesh.meshes.slice(0, polyCount * 4),
    detailVertices,
    detailTriangles: dmesh.tris.slice(0, dmesh.triCount * 4),
    bvBounds: new Float32Array(0),
    bvIndex: new Int32Array(0),
  };
  const bv = buildTileBVTree(tile);
  tile.bvBounds = bv.bvBounds;
  tile.bvIndex = bv.bvIndex;
  return tile;
}

/** Signed XZ area of polygon p (positive when counter-clockwise seen from +Y with x right, z down). */
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
