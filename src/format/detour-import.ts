import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { buildTileBVTree } from "../navmesh/bvtree.js";
import {
  MAX_TILE_COORD,
  NavMesh,
  type NavMeshParams,
  type OffMeshConnection,
} from "../navmesh/nav-mesh.js";
import { MAX_POLYS_PER_TILE } from "../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../navmesh/tile.js";

/*
 * Byte layout read here (all little-endian, wasm32 struct layout, no padding in any struct used
 * except dtPolyDetail's two trailing bytes):
 *
 * recast-navigation-js NavMeshSerdes (exportNavMesh), 40 bytes:
 *   int magic 'MSET', int version 1, int numTiles,
 *   dtNavMeshParams { float orig[3], tileWidth, tileHeight; int maxTiles, maxPolys }
 * then per tile: { dtTileRef tileRef; int dataSize } (8 bytes; 16 with 64-bit refs) and the
 * tile's Detour data (dtCreateNavMeshData), each section padded to 4 bytes:
 *   dtMeshHeader (100 bytes), float verts[3 * vertCount], dtPoly[polyCount] (32 bytes),
 *   dtLink[maxLinkCount] (12 bytes; 16 with 64-bit refs), dtPolyDetail[detailMeshCount]
 *   (12 bytes), float detailVerts[3 * detailVertCount], uchar detailTris[4 * detailTriCount],
 *   dtBVNode[bvNodeCount] (16 bytes), dtOffMeshConnection[offMeshConCount] (36 bytes).
 */

const NAVMESHSET_MAGIC = 0x4d534554; // 'MSET' as a little-endian int
const TILECACHESET_MAGIC = 0x54534554; // 'TSET'
const NAVMESHSET_VERSION = 1;
const DT_NAVMESH_MAGIC = 0x444e4156; // 'DNAV'
const DT_NAVMESH_VERSION = 7;
const DT_VERTS_PER_POLYGON = 6;
const DT_EXT_LINK = 0x8000;
const DT_POLYTYPE_GROUND = 0;
const DT_POLYTYPE_OFFMESH_CONNECTION = 1;
const DT_OFFMESH_CON_BIDIR = 1;

const SET_HEADER_SIZE = 40;
const MESH_HEADER_SIZE = 100;
const POLY_SIZE = 32;
const POLY_DETAIL_SIZE = 12;
const BV_NODE_SIZE = 16;
const OFFMESH_CON_SIZE = 36;

/** Byte-swapped 'DNAV': data written on a big-endian machine. */
const DT_NAVMESH_MAGIC_SWAPPED = 0x56414e44;

/**
 * Detour's portal sides (0 = +x, 2 = +z, 4 = -x, 6 = -z) to meshway's tile-border sides, which
 * follow Recast's directions (0 = -x, 1 = +z, 2 = +x, 3 = -z). -1: not a portal side.
 */
const SIDE_FROM_DETOUR = [2, -1, 1, -1, 0, -1, 3, -1];

class Reader {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly source: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  fail(offset: number, what: string): never {
    throw new MeshwayError("INVALID_INPUT", `${this.source}: byte ${offset}: ${what}`);
  }
  /** Throws unless [offset, offset + size) lies within `end` (defaults to the whole input). */
  need(offset: number, size: number, what: string, end = this.bytes.length): void {
    if (offset + size > end) {
      this.fail(
        offset,
        `truncated: ${what} needs ${size} bytes, only ${Math.max(0, end - offset)} left`,
      );
    }
  }
  i32(o: number): number {
    return this.view.getInt32(o, true);
  }
  u32(o: number): number {
    return this.view.getUint32(o, true);
  }
  u16(o: number): number {
    return this.view.getUint16(o, true);
  }
  u8(o: number): number {
    return this.view.getUint8(o);
  }
  f32(o: number): number {
    return this.view.getFloat32(o, true);
  }
  /** A float that must be finite. */
  finite(o: number, what: string): number {
    const v = this.view.getFloat32(o, true);
    if (!Number.isFinite(v)) this.fail(o, `${what} is ${v}`);
    return v;
  }
  vec3(o: number, what: string): Vec3 {
    return [this.finite(o, what), this.finite(o + 4, what), this.finite(o + 8, what)];
  }
}

/** Rounds up to a multiple of 4 (arithmetic: corrupt counts may exceed 32 bits). */
function align4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

function fourcc(v: number): string {
  let s = "";
  for (let k = 24; k >= 0; k -= 8) {
    const c = (v >>> k) & 0xff;
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`;
  }
  return `'${s}'`;
}

interface ParsedTile {
  tile: NavMeshTile;
  /** Byte offset of the tile's mesh header, for messages. */
  at: number;
  offMesh: OffMeshConnection[];
  walkableHeight: number;
  walkableRadius: number;
  walkableClimb: number;
  /** 1 / bvQuantFactor: Detour stores the cell size only as the BV quantization factor. */
  cellSize: number;
  /** Header bmin.y and the tile's vertex heights, for estimating the cell height. */
  baseY: number;
}

/**
 * Loads a navmesh written by recast-navigation's `exportNavMesh` (its 'MSET' set header and
 * per-tile Detour data, 'DNAV' version 7) into meshway's runtime. Polygons, vertices, areas,
 * flags and detail meshes are kept exactly (Detour's polygon order, minus off-mesh connection
 * polygons, which become {@link NavMesh.addOffMeshConnection} connections); Detour's links and
 * BV tree are not read — meshway rebuilds both. Tile-border portals become
 * `EDGE_TILE_BORDER | side` with meshway's (Recast's) side numbering.
 *
 * Detour data does not record the cell height; the returned navmesh's `cellHeight` is the
 * largest value the vertex heights and agent height/climb are whole multiples of (the true
 * value, or a multiple of it when the data cannot tell).
 *
 * Throws MeshwayError("INVALID_INPUT") naming the problem and its byte offset (prefixed by
 * `source`) for anything malformed: wrong magic or version, truncated data, counts larger than
 * the bytes that hold them (checked before allocating), out-of-range indices, non-finite numbers.
 */
export function importDetourNavMesh(bytes: Uint8Array, source = "navmesh"): NavMesh {
  if (!(bytes instanceof Uint8Array)) {
    throw new MeshwayError("INVALID_ARGUMENT", "importDetourNavMesh expects a Uint8Array");
  }
  const r = new Reader(bytes, source);
  r.need(0, SET_HEADER_SIZE, "navmesh set header");
  const magic = r.u32(0);
  if (magic === TILECACHESET_MAGIC) {
    r.fail(0, "this is a tile cache export ('TSET', exportTileCache); use exportNavMesh's output");
  }
  if (magic !== NAVMESHSET_MAGIC) {
    r.fail(0, `bad magic ${fourcc(magic)}, expected 'MSET' (recast-navigation's exportNavMesh)`);
  }
  const version = r.i32(4);
  if (version !== NAVMESHSET_VERSION) {
    r.fail(4, `unsupported navmesh set version ${version}, expected ${NAVMESHSET_VERSION}`);
  }
  const numTiles = r.i32(8);
  if (numTiles < 0) r.fail(8, `negative tile count ${numTiles}`);
  const origin = r.vec3(12, "navmesh origin");
  const tileWidth = r.finite(24, "tile width");
  const tileDepth = r.finite(28, "tile height");
  if (!(tileWidth > 0 && tileDepth > 0)) {
    // A zero width puts every point in tile ±Infinity: every position query would miss.
    r.fail(24, `tile size ${tileWidth} x ${tileDepth} is not positive`);
  }

  // Tile record header: 4-byte tile refs (recast-navigation's wasm build) or 8-byte refs
  // (Detour built with DT_POLYREF64: 8-byte ref, int size, 4 bytes of padding).
  let tileHeaderSize = 8;
  let linkSize = 12;
  if (numTiles > 0) {
    const at = SET_HEADER_SIZE;
    const is32 = at + 12 <= bytes.length && r.u32(at + 8) === DT_NAVMESH_MAGIC;
    const is64 = at + 20 <= bytes.length && r.u32(at + 16) === DT_NAVMESH_MAGIC;
    if (!is32 && is64) {
      tileHeaderSize = 16;
      linkSize = 16;
    }
  }
  // Every tile takes at least its record header and a mesh header: bound the count by the bytes.
  const minTileBytes = tileHeaderSize + MESH_HEADER_SIZE;
  if (numTiles > (bytes.length - SET_HEADER_SIZE) / minTileBytes) {
    r.fail(
      8,
      `tile count ${numTiles} needs at least ${numTiles * minTileBytes} bytes of tiles, only ${bytes.length - SET_HEADER_SIZE} present`,
    );
  }

  const parsed: ParsedTile[] = [];
  let offset = SET_HEADER_SIZE;
  for (let t = 0; t < numTiles; t++) {
    r.need(offset, tileHeaderSize, `tile ${t} record header`);
    const refIsZero = r.u32(offset) === 0 && (tileHeaderSize === 8 || r.u32(offset + 4) === 0);
    const sizeAt = offset + (tileHeaderSize === 8 ? 4 : 8);
    const dataSize = r.i32(sizeAt);
    if (refIsZero) r.fail(offset, `tile ${t} has tile reference 0`);
    if (dataSize <= 0) r.fail(sizeAt, `tile ${t} has data size ${dataSize}`);
    const start = offset + tileHeaderSize;
    r.need(start, dataSize, `tile ${t} data (size ${dataSize})`);
    parsed.push(parseTile(r, t, start, dataSize, linkSize));
    offset = start + dataSize;
  }
  if (offset !== bytes.length) {
    r.fail(offset, `${bytes.length - offset} unexpected bytes after the last of ${numTiles} tiles`);
  }

  const first = parsed[0];
  const params: NavMeshParams = {
    origin,
    tileWidth,
    tileDepth,
    cellSize: first?.cellSize ?? 0,
    cellHeight: first ? estimateCellHeight(parsed) : 0,
    maxVertsPerPoly: DT_VERTS_PER_POLYGON,
    agentHeight: first?.walkableHeight ?? 0,
    agentRadius: first?.walkableRadius ?? 0,
    agentMaxClimb: first?.walkableClimb ?? 0,
  };
  const navMesh = new NavMesh(params);
  parsed.forEach((p, t) => {
    // The grid's own limits (coordinates, tiles per coordinate), reported where the tile is.
    try {
      navMesh.addTile(p.tile);
    } catch (e) {
      if (e instanceof MeshwayError) r.fail(p.at, `tile ${t}: ${e.message}`);
      throw e;
    }
  });
  // Connections last: each end links to ground polygons of whichever tile holds it.
  for (const p of parsed) for (const c of p.offMesh) navMesh.addOffMeshConnection(c);
  return navMesh;
}

/** A tile's mesh header (dtMeshHeader) and where each of its sections starts. */
interface TileHeader {
  where: string;
  start: number;
  tileX: number;
  tileZ: number;
  polyCount: number;
  vertCount: number;
  detailMeshCount: number;
  detailVertCount: number;
  detailTriCount: number;
  offMeshConCount: number;
  walkableHeight: number;
  walkableRadius: number;
  walkableClimb: number;
  bmin: Vec3;
  bmax: Vec3;
  quant: number;
  vertsAt: number;
  polysAt: number;
  detailAt: number;
  detailVertsAt: number;
  detailTrisAt: number;
  offMeshAt: number;
}

/** Which polygons are ground polygons (and their new index), and which vertices they use. */
interface PolygonClasses {
  polyType: Uint8Array;
  /** Ground polygon p's index among the ground polygons, -1 for off-mesh polygons. */
  newIndex: Int32Array;
  /** Bit 0: a ground polygon uses the vertex, bit 1: an off-mesh polygon does. */
  vertUse: Uint8Array;
  groundCount: number;
}

interface GroundPolygons {
  polyVerts: Uint32Array;
  polyNeighbours: Uint32Array;
  polyVertCount: Uint8Array;
  polyAreas: Uint8Array;
  polyFlags: Uint16Array;
  detailVertTotal: number;
  detailTriTotal: number;
}

/**
 * One tile of a Detour navmesh set (dtMeshHeader, then vertices, polygons, links, detail
 * meshes, detail vertices, detail triangles, BV nodes, off-mesh connections — Detour's
 * dtNavMesh::addTile layout) as a meshway tile, in named steps; every count and index is
 * checked before it is used.
 */
function parseTile(
  r: Reader,
  t: number,
  start: number,
  dataSize: number,
  linkSize: number,
): ParsedTile {
  const h = readTileHeader(r, t, start, dataSize, linkSize);
  const classes = classifyPolygons(r, h);
  const { vertRemap, vertices, keptVerts } = readVertices(r, h, classes.vertUse);
  const polys = readGroundPolygons(r, h, classes, vertRemap);
  const detail = readDetailMeshes(r, h, classes, polys, vertices);
  const offMesh = readOffMeshConnections(r, h, classes.polyType);
  const tile: NavMeshTile = {
    tileX: h.tileX,
    tileZ: h.tileZ,
    bmin: h.bmin,
    bmax: h.bmax,
    maxVertsPerPoly: DT_VERTS_PER_POLYGON,
    vertexCount: keptVerts,
    vertices,
    polyCount: classes.groundCount,
    polyVerts: polys.polyVerts,
    polyNeighbours: polys.polyNeighbours,
    polyVertCount: polys.polyVertCount,
    polyAreas: polys.polyAreas,
    polyFlags: polys.polyFlags,
    detailMeshes: detail.detailMeshes,
    detailVertices: detail.detailVertices,
    detailTriangles: detail.detailTriangles,
    bvBounds: new Float32Array(0),
    bvIndex: new Int32Array(0),
  };
  const bv = buildTileBVTree(tile);
  tile.bvBounds = bv.bvBounds;
  tile.bvIndex = bv.bvIndex;
  return {
    tile,
    at: start,
    offMesh,
    walkableHeight: h.walkableHeight,
    walkableRadius: h.walkableRadius,
    walkableClimb: h.walkableClimb,
    cellSize: Math.fround(1 / h.quant),
    baseY: h.bmin[1],
  };
}

/** The mesh header: magic, version, counts that fit the tile's bytes, section offsets. */
function readTileHeader(
  r: Reader,
  t: number,
  start: number,
  dataSize: number,
  linkSize: number,
): TileHeader {
  const end = start + dataSize;
  const where = `tile ${t}`;
  r.need(start, MESH_HEADER_SIZE, `${where} mesh header`, end);
  const magic = r.u32(start);
  if (magic === DT_NAVMESH_MAGIC_SWAPPED) {
    r.fail(start, `${where}: big-endian Detour data is not supported`);
  }
  if (magic !== DT_NAVMESH_MAGIC) {
    r.fail(start, `${where}: bad tile magic ${fourcc(magic)}, expected 'DNAV'`);
  }
  const version = r.i32(start + 4);
  if (version !== DT_NAVMESH_VERSION) {
    r.fail(
      start + 4,
      `${where}: unsupported Detour version ${version}, expected ${DT_NAVMESH_VERSION}`,
    );
  }
  const tileX = r.i32(start + 8);
  const tileZ = r.i32(start + 12);
  if (Math.abs(tileX) > MAX_TILE_COORD || Math.abs(tileZ) > MAX_TILE_COORD) {
    // Beyond this, grid keys would alias and the tile drop out of position queries.
    r.fail(start + 8, `${where}: tile coordinates (${tileX}, ${tileZ}) outside ±${MAX_TILE_COORD}`);
  }
  const count = (k: number, name: string): number => {
    const v = r.i32(start + k);
    if (v < 0) r.fail(start + k, `${where}: negative ${name} ${v}`);
    return v;
  };
  const polyCount = count(24, "polyCount");
  const vertCount = count(28, "vertCount");
  const maxLinkCount = count(32, "maxLinkCount");
  const detailMeshCount = count(36, "detailMeshCount");
  const detailVertCount = count(40, "detailVertCount");
  const detailTriCount = count(44, "detailTriCount");
  const bvNodeCount = count(48, "bvNodeCount");
  const offMeshConCount = count(52, "offMeshConCount");
  const offMeshBase = count(56, "offMeshBase");
  const walkableHeight = r.finite(start + 60, `${where} walkableHeight`);
  const walkableRadius = r.finite(start + 64, `${where} walkableRadius`);
  const walkableClimb = r.finite(start + 68, `${where} walkableClimb`);
  for (const [k, v] of [walkableHeight, walkableRadius, walkableClimb].entries()) {
    if (!(v >= 0)) r.fail(start + 60 + k * 4, `${where}: negative agent size ${v}`);
  }
  const bmin = r.vec3(start + 72, `${where} bmin`);
  const bmax = r.vec3(start + 84, `${where} bmax`);
  if (!(bmin[0] <= bmax[0] && bmin[1] <= bmax[1] && bmin[2] <= bmax[2])) {
    r.fail(start + 72, `${where}: bounds [${bmin}]..[${bmax}] are inverted`);
  }
  const quant = r.finite(start + 96, `${where} bvQuantFactor`);
  if (!(quant > 0)) r.fail(start + 96, `${where}: bvQuantFactor ${quant} is not positive`);
  if (offMeshBase > polyCount) {
    r.fail(start + 56, `${where}: offMeshBase ${offMeshBase} exceeds polyCount ${polyCount}`);
  }

  // Section offsets; the counts must fit the tile's bytes before anything is allocated.
  const vertsAt = start + align4(MESH_HEADER_SIZE);
  const polysAt = vertsAt + align4(12 * vertCount);
  const linksAt = polysAt + align4(POLY_SIZE * polyCount);
  const detailAt = linksAt + align4(linkSize * maxLinkCount);
  const detailVertsAt = detailAt + align4(POLY_DETAIL_SIZE * detailMeshCount);
  const detailTrisAt = detailVertsAt + align4(12 * detailVertCount);
  const bvAt = detailTrisAt + align4(4 * detailTriCount);
  const offMeshAt = bvAt + align4(BV_NODE_SIZE * bvNodeCount);
  const tileEnd = offMeshAt + align4(OFFMESH_CON_SIZE * offMeshConCount);
  if (tileEnd > end) {
    r.fail(
      start + 24,
      `${where}: header counts need ${tileEnd - start} bytes of tile data, the tile has ${dataSize}`,
    );
  }
  if (polyCount > MAX_POLYS_PER_TILE) {
    r.fail(
      start + 24,
      `${where}: ${polyCount} polygons, more than meshway's ${MAX_POLYS_PER_TILE}`,
    );
  }

  return {
    where,
    start,
    tileX,
    tileZ,
    polyCount,
    vertCount,
    detailMeshCount,
    detailVertCount,
    detailTriCount,
    offMeshConCount,
    walkableHeight,
    walkableRadius,
    walkableClimb,
    bmin,
    bmax,
    quant,
    vertsAt,
    polysAt,
    detailAt,
    detailVertsAt,
    detailTrisAt,
    offMeshAt,
  };
}

/** Polygons: classify, count ground polygons and the vertices they use. */
function classifyPolygons(r: Reader, h: TileHeader): PolygonClasses {
  const { where, start, polyCount, vertCount, polysAt, detailMeshCount, offMeshConCount } = h;
  const polyType = new Uint8Array(polyCount);
  const newIndex = new Int32Array(polyCount).fill(-1);
  const vertUse = new Uint8Array(vertCount); // bit 0: ground polygon, bit 1: off-mesh polygon
  let groundCount = 0;
  let offMeshPolys = 0;
  for (let p = 0; p < polyCount; p++) {
    const at = polysAt + p * POLY_SIZE;
    const nv = r.u8(at + 30);
    const type = r.u8(at + 31) >> 6;
    const pw = `${where} polygon ${p}`;
    if (type === DT_POLYTYPE_GROUND) {
      if (nv < 3 || nv > DT_VERTS_PER_POLYGON) r.fail(at + 30, `${pw} has ${nv} vertices`);
      // Detail meshes are indexed by polygon index, like Detour's getPolyHeight does.
      if (p >= detailMeshCount) {
        r.fail(
          start + 36,
          `${where}: ground polygon ${p} has no detail mesh (detailMeshCount ${detailMeshCount})`,
        );
      }
      newIndex[p] = groundCount++;
    } else if (type === DT_POLYTYPE_OFFMESH_CONNECTION) {
      if (nv !== 2) r.fail(at + 30, `${pw} (off-mesh connection) has ${nv} vertices, expected 2`);
      offMeshPolys++;
    } else {
      r.fail(at + 31, `${pw} has unknown polygon type ${type}`);
    }
    polyType[p] = type;
    for (let j = 0; j < nv; j++) {
      const v = r.u16(at + 4 + j * 2);
      if (v >= vertCount) {
        r.fail(at + 4 + j * 2, `${pw} vertex ${j} is ${v}, the tile has ${vertCount} vertices`);
      }
      vertUse[v] = vertUse[v]! | (type === DT_POLYTYPE_GROUND ? 1 : 2);
    }
  }
  if (offMeshPolys !== offMeshConCount) {
    r.fail(
      start + 52,
      `${where}: ${offMeshPolys} off-mesh connection polygons but offMeshConCount ${offMeshConCount}`,
    );
  }

  return { polyType, newIndex, vertUse, groundCount };
}

/** Vertices: drop those only off-mesh connection polygons use (their end points). */
function readVertices(
  r: Reader,
  h: TileHeader,
  vertUse: Uint8Array,
): { vertRemap: Int32Array; vertices: Float32Array; keptVerts: number } {
  const { where, vertCount, vertsAt } = h;
  const vertRemap = new Int32Array(vertCount);
  let keptVerts = 0;
  for (let i = 0; i < vertCount; i++) vertRemap[i] = vertUse[i] === 2 ? -1 : keptVerts++;
  const vertices = new Float32Array(keptVerts * 3);
  for (let i = 0; i < vertCount; i++) {
    const k = vertRemap[i]!;
    if (k < 0) continue;
    const at = vertsAt + i * 12;
    vertices[k * 3] = r.finite(at, `${where} vertex ${i} x`);
    vertices[k * 3 + 1] = r.finite(at + 4, `${where} vertex ${i} y`);
    vertices[k * 3 + 2] = r.finite(at + 8, `${where} vertex ${i} z`);
  }

  return { vertRemap, vertices, keptVerts };
}

/** Ground polygons, renumbered past the off-mesh ones; their detail sub-meshes' sizes checked. */
function readGroundPolygons(
  r: Reader,
  h: TileHeader,
  classes: PolygonClasses,
  vertRemap: Int32Array,
): GroundPolygons {
  const { where, polyCount, polysAt, detailAt, detailVertCount, detailTriCount } = h;
  const { newIndex, groundCount } = classes;
  const nvp = DT_VERTS_PER_POLYGON;
  const polyVerts = new Uint32Array(groundCount * nvp);
  const polyNeighbours = new Uint32Array(groundCount * nvp);
  const polyVertCount = new Uint8Array(groundCount);
  const polyAreas = new Uint8Array(groundCount);
  const polyFlags = new Uint16Array(groundCount);
  let detailVertTotal = 0;
  let detailTriTotal = 0;
  for (let p = 0; p < polyCount; p++) {
    const q = newIndex[p]!;
    if (q < 0) continue;
    const at = polysAt + p * POLY_SIZE;
    const nv = r.u8(at + 30);
    const pw = `${where} polygon ${p}`;
    polyVertCount[q] = nv;
    polyFlags[q] = r.u16(at + 28);
    polyAreas[q] = r.u8(at + 31) & 0x3f;
    for (let j = 0; j < nv; j++) {
      polyVerts[q * nvp + j] = vertRemap[r.u16(at + 4 + j * 2)]!;
      const neiAt = at + 16 + j * 2;
      const nei = r.u16(neiAt);
      let slot: number = EDGE_WALL;
      if (nei & DT_EXT_LINK) {
        const side = nei & ~DT_EXT_LINK;
        const mine = side < 8 ? SIDE_FROM_DETOUR[side]! : -1;
        if (mine < 0) r.fail(neiAt, `${pw} edge ${j}: invalid tile-border side ${side}`);
        slot = (EDGE_TILE_BORDER | mine) >>> 0;
      } else if (nei !== 0) {
        const target = nei - 1;
        if (target >= polyCount || newIndex[target]! < 0) {
          r.fail(neiAt, `${pw} edge ${j}: neighbour ${target} is not a ground polygon of the tile`);
        }
        slot = newIndex[target]! + 1;
      }
      polyNeighbours[q * nvp + j] = slot;
    }
    // Detail sub-mesh: Detour stores only the extra vertices; meshway's starts with the polygon's.
    const dAt = detailAt + p * POLY_DETAIL_SIZE;
    const vertBase = r.u32(dAt);
    const triBase = r.u32(dAt + 4);
    const extra = r.u8(dAt + 8);
    const triCount = r.u8(dAt + 9);
    if (vertBase + extra > detailVertCount) {
      r.fail(
        dAt,
        `${pw}: detail vertices ${vertBase}+${extra} exceed detailVertCount ${detailVertCount}`,
      );
    }
    if (triBase + triCount > detailTriCount) {
      r.fail(
        dAt + 4,
        `${pw}: detail triangles ${triBase}+${triCount} exceed detailTriCount ${detailTriCount}`,
      );
    }
    detailVertTotal += nv + extra;
    detailTriTotal += triCount;
  }

  return {
    polyVerts,
    polyNeighbours,
    polyVertCount,
    polyAreas,
    polyFlags,
    detailVertTotal,
    detailTriTotal,
  };
}

/**
 * Detail sub-meshes: Detour stores only the extra vertices; meshway's start with the
 * polygon's own vertices.
 */
function readDetailMeshes(
  r: Reader,
  h: TileHeader,
  classes: PolygonClasses,
  polys: GroundPolygons,
  vertices: Float32Array,
): { detailMeshes: Uint32Array; detailVertices: Float32Array; detailTriangles: Uint8Array } {
  const { where, polyCount, detailAt, detailVertsAt, detailTrisAt } = h;
  const { newIndex, groundCount } = classes;
  const { polyVertCount, polyVerts, detailVertTotal, detailTriTotal } = polys;
  const nvp = DT_VERTS_PER_POLYGON;
  const detailMeshes = new Uint32Array(groundCount * 4);
  const detailVertices = new Float32Array(detailVertTotal * 3);
  const detailTriangles = new Uint8Array(detailTriTotal * 4);
  let dv = 0;
  let dt = 0;
  for (let p = 0; p < polyCount; p++) {
    const q = newIndex[p]!;
    if (q < 0) continue;
    const nv = polyVertCount[q]!;
    const dAt = detailAt + p * POLY_DETAIL_SIZE;
    const vertBase = r.u32(dAt);
    const triBase = r.u32(dAt + 4);
    const extra = r.u8(dAt + 8);
    const triCount = r.u8(dAt + 9);
    detailMeshes[q * 4] = dv;
    detailMeshes[q * 4 + 1] = nv + extra;
    detailMeshes[q * 4 + 2] = dt;
    detailMeshes[q * 4 + 3] = triCount;
    for (let j = 0; j < nv; j++) {
      const k = polyVerts[q * nvp + j]! * 3;
      detailVertices[dv * 3] = vertices[k]!;
      detailVertices[dv * 3 + 1] = vertices[k + 1]!;
      detailVertices[dv * 3 + 2] = vertices[k + 2]!;
      dv++;
    }
    for (let j = 0; j < extra; j++) {
      const at = detailVertsAt + (vertBase + j) * 12;
      const what = `${where} detail vertex ${vertBase + j}`;
      detailVertices[dv * 3] = r.finite(at, what);
      detailVertices[dv * 3 + 1] = r.finite(at + 4, what);
      detailVertices[dv * 3 + 2] = r.finite(at + 8, what);
      dv++;
    }
    // Triangle indices below nv name polygon vertices, the rest extra vertices in order: the
    // same local numbering as meshway's sub-mesh, so they copy unchanged.
    for (let k = 0; k < triCount; k++) {
      const at = detailTrisAt + (triBase + k) * 4;
      for (let c = 0; c < 3; c++) {
        const idx = r.u8(at + c);
        if (idx >= nv + extra) {
          r.fail(
            at + c,
            `${where} polygon ${p} detail triangle ${k}: vertex ${idx} out of range (${nv + extra} vertices)`,
          );
        }
        detailTriangles[dt * 4 + c] = idx;
      }
      detailTriangles[dt * 4 + 3] = r.u8(at + 3);
      dt++;
    }
  }

  return { detailMeshes, detailVertices, detailTriangles };
}

/** Off-mesh connections: area and flags live on their polygons. */
function readOffMeshConnections(
  r: Reader,
  h: TileHeader,
  polyType: Uint8Array,
): OffMeshConnection[] {
  const { where, polyCount, polysAt, offMeshAt, offMeshConCount } = h;
  const offMesh: OffMeshConnection[] = [];
  for (let i = 0; i < offMeshConCount; i++) {
    const at = offMeshAt + i * OFFMESH_CON_SIZE;
    const what = `${where} off-mesh connection ${i}`;
    const poly = r.u16(at + 28);
    if (poly >= polyCount || polyType[poly] !== DT_POLYTYPE_OFFMESH_CONNECTION) {
      r.fail(at + 28, `${what}: polygon ${poly} is not an off-mesh connection polygon`);
    }
    const radius = r.finite(at + 24, `${what} radius`);
    if (radius < 0) r.fail(at + 24, `${what}: negative radius ${radius}`);
    const pAt = polysAt + poly * POLY_SIZE;
    offMesh.push({
      start: r.vec3(at, `${what} start`),
      end: r.vec3(at + 12, `${what} end`),
      radius,
      bidirectional: (r.u8(at + 30) & DT_OFFMESH_CON_BIDIR) !== 0,
      area: r.u8(pAt + 31) & 0x3f,
      flags: r.u16(pAt + 28),
      userId: r.u32(at + 32),
    });
  }

  return offMesh;
}

/**
 * Detour keeps no cell height, but every vertex height is bmin.y + k * ch and the agent height
 * and climb are whole numbers of ch. Try ch = agentHeight / n for n = 1, 2, ... and keep the
 * first (largest) that all of them are near-integer multiples of.
 */
function estimateCellHeight(parsed: ParsedTile[]): number {
  const first = parsed[0]!;
  const height = first.walkableHeight;
  if (!(height > 0)) return first.cellSize;
  const samples: number[] = [first.walkableClimb];
  for (const p of parsed) {
    const v = p.tile.vertices;
    const step = Math.max(1, Math.floor(p.tile.vertexCount / 64));
    for (let i = 0; i < p.tile.vertexCount && samples.length < 1024; i += step) {
      samples.push(v[i * 3 + 1]! - p.baseY);
    }
  }
  for (let n = 1; n <= 1024; n++) {
    const ch = height / n;
    let ok = true;
    for (const s of samples) {
      const k = s / ch;
      if (Math.abs(k - Math.round(k)) > 1e-3 + 1e-6 * Math.abs(k)) {
        ok = false;
        break;
      }
    }
    if (ok) return Math.fround(ch);
  }
  return first.cellSize;
}
