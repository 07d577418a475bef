import { MeshwayError } from "../errors.js";
import type { NavMesh, OffMeshConnectionInfo } from "../navmesh/nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../navmesh/tile.js";

/*
 * Writes the layout src/format/detour-import.ts reads (recast-navigation-js's exportNavMesh:
 * 'MSET' set header, then per tile { tileRef, dataSize } and dtCreateNavMeshData's tile data,
 * Detour 'DNAV' version 7, little-endian, wasm32/x86 struct layout). Detour's runtime fills the
 * link array on addTile, so links are written zeroed (sized with room for portals that meet
 * several polygons and for off-mesh landings); the BV tree is meshway's, quantized the way
 * Detour's queries read it.
 */

const NAVMESHSET_MAGIC = 0x4d534554; // 'MSET'
const NAVMESHSET_VERSION = 1;
const DT_NAVMESH_MAGIC = 0x444e4156; // 'DNAV'
const DT_NAVMESH_VERSION = 7;
const DT_VERTS_PER_POLYGON = 6;
const DT_EXT_LINK = 0x8000;
const DT_POLYTYPE_OFFMESH_CONNECTION = 1;
const DT_OFFMESH_CON_BIDIR = 1;

const SET_HEADER_SIZE = 40;
const TILE_RECORD_SIZE = 8;
const MESH_HEADER_SIZE = 100;
const POLY_SIZE = 32;
const LINK_SIZE = 12;
const POLY_DETAIL_SIZE = 12;
const BV_NODE_SIZE = 16;
const OFFMESH_CON_SIZE = 36;

/** meshway's tile-border sides (Recast directions 0 = -x, 1 = +z, 2 = +x, 3 = -z) → Detour's. */
const SIDE_TO_DETOUR = [4, 2, 0, 6] as const;

const align4 = (n: number) => (n + 3) & ~3;

function fail(what: string): never {
  throw new MeshwayError("INVALID_ARGUMENT", `exportDetourNavMesh: ${what}`);
}

/** Detour's classifyOffMeshPoint: 0xff inside the tile's XZ box, else the outside side 0..7. */
function classifyPoint(p: readonly number[], tile: NavMeshTile): number {
  let code = 0;
  if (p[0]! >= tile.bmax[0]) code |= 1;
  if (p[2]! >= tile.bmax[2]) code |= 2;
  if (p[0]! < tile.bmin[0]) code |= 4;
  if (p[2]! < tile.bmin[2]) code |= 8;
  switch (code) {
    case 1:
      return 0;
    case 3:
      return 1;
    case 2:
      return 2;
    case 6:
      return 3;
    case 4:
      return 4;
    case 12:
      return 5;
    case 8:
      return 6;
    case 9:
      return 7;
  }
  return 0xff;
}

/** Squared XZ distance from p to the tile's box (0 inside), for connections landing nowhere. */
function distanceToTile2(p: readonly number[], tile: NavMeshTile): number {
  const dx = Math.max(tile.bmin[0] - p[0]!, 0, p[0]! - tile.bmax[0]);
  const dz = Math.max(tile.bmin[2] - p[2]!, 0, p[2]! - tile.bmax[2]);
  return dx * dx + dz * dz;
}

const log2NextPow2 = (n: number) => Math.max(0, Math.ceil(Math.log2(Math.max(1, n))));

/**
 * The navmesh as recast-navigation-js's `exportNavMesh` writes one (C++ Detour's sample
 * 'MSET' set): loadable by `importNavMesh` there and by {@link importDetourNavMesh} here.
 * Tiles in slot order, each with the layer index it has among the tiles at its (x, z).
 * Off-mesh connections go to the tile holding their start point (Detour stores them with
 * the start tile; one starting outside every tile goes to the nearest); their `cost` is not
 * representable in Detour and is dropped.
 *
 * Throws MeshwayError("INVALID_ARGUMENT") for what Detour cannot hold: more than 6 corners per
 * polygon, more than 65535 vertices in a tile, detail sub-meshes over 255 vertices or
 * triangles, or more tiles × polygons than 32-bit polygon refs address.
 */
export function exportDetourNavMesh(navMesh: NavMesh): Uint8Array {
  const nvp = navMesh.maxVertsPerPoly;
  if (nvp > DT_VERTS_PER_POLYGON) {
    fail(`polygons have up to ${nvp} corners; Detour allows ${DT_VERTS_PER_POLYGON}`);
  }
  const slots: number[] = [];
  for (let s = 0; s < navMesh.slots.length; s++) if (navMesh.tileInSlot(s)) slots.push(s);
  const tiles = slots.map((s) => navMesh.tileInSlot(s)!);

  // Off-mesh connections: the first tile whose box holds the start (XZ, then height), else nearest.
  const cons = navMesh.offMeshConnectionRefs().map((r) => navMesh.offMeshConnection(r)!);
  const consByTile: OffMeshConnectionInfo[][] = tiles.map(() => []);
  for (const con of cons) {
    let best = -1;
    let bestD = Infinity;
    for (let t = 0; t < tiles.length; t++) {
      const tile = tiles[t]!;
      const inside = classifyPoint(con.start, tile) === 0xff;
      const d = inside
        ? con.start[1] >= tile.bmin[1] && con.start[1] <= tile.bmax[1]
          ? -1
          : 0
        : distanceToTile2(con.start, tile);
      if (d < bestD) {
        bestD = d;
        best = t;
        if (d < 0) break;
      }
    }
    if (best >= 0) consByTile[best]!.push(con);
  }

  let maxPolys = 1;
  const sizes = tiles.map((tile, t) => {
    maxPolys = Math.max(maxPolys, tile.polyCount + consByTile[t]!.length);
    return tileDataSize(tile, consByTile[t]!.length, cons.length);
  });
  const tileBits = log2NextPow2(tiles.length);
  const polyBits = log2NextPow2(maxPolys);
  if (tileBits + polyBits > 22) {
    fail(
      `${tiles.length} tiles of up to ${maxPolys} polygons need ${tileBits + polyBits} ref bits; Detour's 32-bit refs leave 22`,
    );
  }

  let total = SET_HEADER_SIZE;
  for (const s of sizes) total += TILE_RECORD_SIZE + s.total;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  const p = navMesh.params;
  view.setUint32(0, NAVMESHSET_MAGIC, true);
  view.setInt32(4, NAVMESHSET_VERSION, true);
  view.setInt32(8, tiles.length, true);
  view.setFloat32(12, p.origin[0], true);
  view.setFloat32(16, p.origin[1], true);
  view.setFloat32(20, p.origin[2], true);
  view.setFloat32(24, p.tileWidth, true);
  view.setFloat32(28, p.tileDepth, true);
  view.setInt32(32, 2 ** tileBits, true);
  view.setInt32(36, 2 ** polyBits, true);

  let at = SET_HEADER_SIZE;
  tiles.forEach((tile, t) => {
    // Salt 1, tile index t: Detour's addTile restores the tile at that index.
    view.setUint32(at, (2 ** (tileBits + polyBits) + t * 2 ** polyBits) >>> 0, true);
    view.setInt32(at + 4, sizes[t]!.total, true);
    const layer = Math.max(0, navMesh.tilesAt(tile.tileX, tile.tileZ).indexOf(slots[t]!));
    writeTile(view, at + TILE_RECORD_SIZE, tile, layer, consByTile[t]!, sizes[t]!, navMesh);
    at += TILE_RECORD_SIZE + sizes[t]!.total;
  });
  return bytes;
}

interface TileSizes {
  vertCount: number;
  polyCount: number;
  maxLinkCount: number;
  detailVertCount: number;
  detailTriCount: number;
  bvNodeCount: number;
  offMeshCount: number;
  total: number;
}

function tileDataSize(tile: NavMeshTile, offMeshCount: number, allOffMesh: number): TileSizes {
  const nvp = tile.maxVertsPerPoly;
  const vertCount = tile.vertexCount + 2 * offMeshCount;
  if (vertCount > 0xffff) {
    fail(`tile (${tile.tileX}, ${tile.tileZ}) has ${vertCount} vertices; Detour indexes 65535`);
  }
  let edges = 0;
  let portals = 0;
  let detailVertCount = 0;
  for (let q = 0; q < tile.polyCount; q++) {
    const n = tile.polyVertCount[q]!;
    edges += n;
    for (let i = 0; i < n; i++)
      if ((tile.polyNeighbours[q * nvp + i]! & EDGE_TILE_BORDER) !== 0) portals++;
    const vc = tile.detailMeshes[q * 4 + 1]!;
    const tc = tile.detailMeshes[q * 4 + 3]!;
    if (vc - n > 255 || tc > 255) {
      fail(
        `tile (${tile.tileX}, ${tile.tileZ}) polygon ${q}: detail mesh of ${vc} vertices, ${tc} triangles exceeds Detour's 255`,
      );
    }
    detailVertCount += vc - n;
  }
  const polyCount = tile.polyCount + offMeshCount;
  // Detour's own count is edges + 2 * portals + 2 * landings; portals between differently
  // cut tiles may meet more polygons, and connections from other tiles may land here.
  const maxLinkCount = edges + 4 * portals + 4 * offMeshCount + 2 * allOffMesh;
  const detailTriCount = tile.detailTriangles.length / 4;
  const bvNodeCount = tile.bvIndex.length;
  const total =
    align4(MESH_HEADER_SIZE) +
    align4(12 * vertCount) +
    align4(POLY_SIZE * polyCount) +
    align4(LINK_SIZE * maxLinkCount) +
    align4(POLY_DETAIL_SIZE * tile.polyCount) +
    align4(12 * detailVertCount) +
    align4(4 * detailTriCount) +
    align4(BV_NODE_SIZE * bvNodeCount) +
    align4(OFFMESH_CON_SIZE * offMeshCount);
  return {
    vertCount,
    polyCount,
    maxLinkCount,
    detailVertCount,
    detailTriCount,
    bvNodeCount,
    offMeshCount,
    total,
  };
}

function writeTile(
  view: DataView,
  start: number,
  tile: NavMeshTile,
  layer: number,
  cons: OffMeshConnectionInfo[],
  s: TileSizes,
  navMesh: NavMesh,
): void {
  const nvp = tile.maxVertsPerPoly;
  const quant = Math.fround(1 / navMesh.cellSize);
  const i32 = (o: number, v: number) => view.setInt32(o, v, true);
  const f32 = (o: number, v: number) => view.setFloat32(o, v, true);
  const u16 = (o: number, v: number) => view.setUint16(o, v, true);
  view.setUint32(start, DT_NAVMESH_MAGIC, true);
  i32(start + 4, DT_NAVMESH_VERSION);
  i32(start + 8, tile.tileX);
  i32(start + 12, tile.tileZ);
  i32(start + 16, layer);
  i32(start + 20, 0);
  i32(start + 24, s.polyCount);
  i32(start + 28, s.vertCount);
  i32(start + 32, s.maxLinkCount);
  i32(start + 36, tile.polyCount);
  i32(start + 40, s.detailVertCount);
  i32(start + 44, s.detailTriCount);
  i32(start + 48, s.bvNodeCount);
  i32(start + 52, s.offMeshCount);
  i32(start + 56, tile.polyCount);
  f32(start + 60, navMesh.agentHeight);
  f32(start + 64, navMesh.agentRadius);
  f32(start + 68, navMesh.agentMaxClimb);
  for (let k = 0; k < 3; k++) {
    f32(start + 72 + 4 * k, tile.bmin[k]!);
    f32(start + 84 + 4 * k, tile.bmax[k]!);
  }
  f32(start + 96, quant);

  const vertsAt = start + align4(MESH_HEADER_SIZE);
  const polysAt = vertsAt + align4(12 * s.vertCount);
  const linksAt = polysAt + align4(POLY_SIZE * s.polyCount);
  const detailAt = linksAt + align4(LINK_SIZE * s.maxLinkCount);
  const detailVertsAt = detailAt + align4(POLY_DETAIL_SIZE * tile.polyCount);
  const detailTrisAt = detailVertsAt + align4(12 * s.detailVertCount);
  const bvAt = detailTrisAt + align4(4 * s.detailTriCount);
  const offMeshAt = bvAt + align4(BV_NODE_SIZE * s.bvNodeCount);

  for (let i = 0; i < tile.vertexCount * 3; i++) f32(vertsAt + i * 4, tile.vertices[i]!);
  cons.forEach((c, k) => {
    const o = vertsAt + (tile.vertexCount + 2 * k) * 12;
    for (let j = 0; j < 3; j++) {
      f32(o + j * 4, c.start[j]!);
      f32(o + 12 + j * 4, c.end[j]!);
    }
  });

  let dv = 0;
  for (let q = 0; q < tile.polyCount; q++) {
    const at = polysAt + q * POLY_SIZE;
    const n = tile.polyVertCount[q]!;
    for (let i = 0; i < n; i++) {
      u16(at + 4 + i * 2, tile.polyVerts[q * nvp + i]!);
      const nb = tile.polyNeighbours[q * nvp + i]!;
      const nei =
        nb === EDGE_WALL
          ? 0
          : (nb & EDGE_TILE_BORDER) !== 0
            ? DT_EXT_LINK | SIDE_TO_DETOUR[nb & 3]!
            : nb; // neighbour index + 1, as Detour's neis
      u16(at + 16 + i * 2, nei);
    }
    u16(at + 28, tile.polyFlags[q]!);
    view.setUint8(at + 30, n);
    view.setUint8(at + 31, tile.polyAreas[q]! & 0x3f);
    // Detail: Detour keeps only the vertices past the polygon's own corners.
    const vb = tile.detailMeshes[q * 4]!;
    const vc = tile.detailMeshes[q * 4 + 1]!;
    const d = detailAt + q * POLY_DETAIL_SIZE;
    view.setUint32(d, dv, true);
    view.setUint32(d + 4, tile.detailMeshes[q * 4 + 2]!, true);
    view.setUint8(d + 8, vc - n);
    view.setUint8(d + 9, tile.detailMeshes[q * 4 + 3]!);
    for (let k = n; k < vc; k++) {
      for (let j = 0; j < 3; j++)
        f32(detailVertsAt + dv * 12 + j * 4, tile.detailVertices[(vb + k) * 3 + j]!);
      dv++;
    }
  }
  new Uint8Array(view.buffer, detailTrisAt, s.detailTriCount * 4).set(tile.detailTriangles);

  cons.forEach((c, k) => {
    const poly = tile.polyCount + k;
    const at = polysAt + poly * POLY_SIZE;
    u16(at + 4, tile.vertexCount + 2 * k);
    u16(at + 6, tile.vertexCount + 2 * k + 1);
    u16(at + 28, c.flags);
    view.setUint8(at + 30, 2);
    view.setUint8(at + 31, (DT_POLYTYPE_OFFMESH_CONNECTION << 6) | (c.area & 0x3f));
    const o = offMeshAt + k * OFFMESH_CON_SIZE;
    for (let j = 0; j < 3; j++) {
      f32(o + j * 4, c.start[j]!);
      f32(o + 12 + j * 4, c.end[j]!);
    }
    f32(o + 24, c.radius);
    u16(o + 28, poly);
    view.setUint8(o + 30, c.bidirectional ? DT_OFFMESH_CON_BIDIR : 0);
    view.setUint8(o + 31, classifyPoint(c.end, tile));
    view.setUint32(o + 32, c.userId ?? 0, true);
  });

  // BV nodes, quantized from the tile's bmin by 1 / cellSize (min floored, max ceiled).
  const q16 = (v: number, k: number, up: boolean) => {
    // Relative to the float32 bmin Detour's header holds (its queries quantize from that).
    const x = (v - Math.fround(tile.bmin[k]!)) * quant;
    return Math.min(0xffff, Math.max(0, up ? Math.ceil(x) : Math.floor(x)));
  };
  for (let i = 0; i < s.bvNodeCount; i++) {
    const o = bvAt + i * BV_NODE_SIZE;
    for (let k = 0; k < 3; k++) {
      u16(o + k * 2, q16(tile.bvBounds[i * 6 + k]!, k, false));
      u16(o + 6 + k * 2, q16(tile.bvBounds[i * 6 + 3 + k]!, k, true));
    }
    i32(o + 12, tile.bvIndex[i]!);
  }
}
