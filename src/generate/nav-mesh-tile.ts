import { buildTileBVTree } from "../navmesh/bvtree.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { EDGE_TILE_BORDER, EDGE_WALL, POLY_FLAG_WALK } from "../navmesh/tile.js";
import { MESH_NULL_INDEX, PORTAL_FLAG, type PolyMesh, type PolyMeshDetail } from "./types.js";

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
