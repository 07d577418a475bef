import { type BuildConfig, type ResolvedConfig, toBuildConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { MAX_AREAS } from "../navmesh/areas.js";
import { NavMesh, type NavMeshParams, type OffMeshConnection } from "../navmesh/nav-mesh.js";
import { MAX_POLYS_PER_TILE, MAX_TILES } from "../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, type NavMeshTile } from "../navmesh/tile.js";
import { crc32 } from "./crc32.js";

/*
 * The `.navmesh` file, format version 1 (docs/navmesh-format.md has the full description).
 * Everything little-endian. Offsets in bytes from the start of the file.
 *
 *   0  fixed header, 128 bytes (its own CRC32 at 124 covers bytes 0..123)
 * 128  payload (CRC32 at 120 covers all of it, padding included):
 *        build config as UTF-8 JSON, zero-padded to a multiple of 8
 *        tile blocks: 88-byte tile header, then the tile's typed arrays, each at an offset
 *          that is a multiple of 8 so a loader can view them in place
 *        off-mesh connections, 80 bytes each
 *
 * Every block starts at a multiple of 8 from the start of the file, so when the file's bytes
 * sit at a 4-byte-aligned offset in memory, every tile array is a view on them (no copy).
 */

/** Current (and newest readable) format version. */
export const NAVMESH_FORMAT_VERSION = 1;
/** The first four bytes of every meshway `.navmesh` file. */
const NAVMESH_MAGIC = "MWNM";

const MAGIC_BYTES = [0x4d, 0x57, 0x4e, 0x4d];
const HEADER_SIZE = 128;
const TILE_HEADER_SIZE = 88;
const OFFMESH_SIZE = 80;
/** Header flag: a build config is stored (configLength > 0). */
const FLAG_CONFIG = 1;
const KNOWN_FLAGS = FLAG_CONFIG;
/** Off-mesh record bits. */
const CON_BIDIRECTIONAL = 1;
const CON_HAS_COST = 2;
const CON_HAS_USER_ID = 4;
const KNOWN_CON_BITS = CON_BIDIRECTIONAL | CON_HAS_COST | CON_HAS_USER_ID;
/** Tile grid coordinates must stay inside NavMesh's numeric grid key. */
const MAX_TILE_COORD = 2 ** 25 - 1;
const MAX_VERTS_PER_POLY = 255;

// Header field offsets.
const H_VERSION = 4;
const H_FLAGS = 6;
const H_CONFIG_LENGTH = 8;
const H_TILE_COUNT = 12;
const H_OFFMESH_COUNT = 16;
const H_NVP = 20;
const H_PAYLOAD_LENGTH = 24; // u32 low, u32 high
const H_PARAMS = 32; // 10 float64: origin xyz, tileWidth, tileDepth, cellSize, cellHeight, agent h/r/climb
const H_RESERVED = 112; // 8 bytes, zero
const H_PAYLOAD_CRC = 120;
const H_HEADER_CRC = 124;

const PARAM_NAMES = [
  "origin x",
  "origin y",
  "origin z",
  "tileWidth",
  "tileDepth",
  "cellSize",
  "cellHeight",
  "agentHeight",
  "agentRadius",
  "agentMaxClimb",
];

// Tile header field offsets (from the block start).
const T_BLOCK_LENGTH = 0;
const T_TILE_X = 4;
const T_TILE_Z = 8;
const T_NVP = 12;
const T_VERTEX_COUNT = 16;
const T_POLY_COUNT = 20;
const T_DETAIL_VERTEX_COUNT = 24;
const T_DETAIL_TRIANGLE_COUNT = 28;
const T_BV_NODE_COUNT = 32;
const T_RESERVED = 36;
const T_BMIN = 40;
const T_BMAX = 64;

/** True when typed arrays store numbers little-endian (every mainstream JS platform). */
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type TileArray = Float32Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;
type TileArrayKey =
  | "vertices"
  | "polyVerts"
  | "polyNeighbours"
  | "detailMeshes"
  | "detailVertices"
  | "bvBounds"
  | "bvIndex"
  | "polyFlags"
  | "polyVertCount"
  | "polyAreas"
  | "detailTriangles";

interface TileCounts {
  nvp: number;
  vertexCount: number;
  polyCount: number;
  detailVertexCount: number;
  detailTriangleCount: number;
  bvNodeCount: number;
}

interface ArraySpec {
  key: TileArrayKey;
  size: 1 | 2 | 4;
  /** Element count from the tile's counts. */
  length(c: TileCounts): number;
  view(buffer: ArrayBufferLike, byteOffset: number, length: number): TileArray;
  alloc(length: number): TileArray;
  /**
   * One zero-length array shared by every empty section: an empty tile then costs no typed
   * arrays of its own (a file may hold 2^20 − 1 of them: empty-tiles-memory).
   */
  empty: TileArray;
  get(dv: DataView, at: number): number;
  set(dv: DataView, at: number, v: number): void;
}

const f32 = {
  empty: new Float32Array(0),
  size: 4,
  view: (b: ArrayBufferLike, o: number, n: number) => new Float32Array(b, o, n),
  alloc: (n: number) => new Float32Array(n),
  get: (dv: DataView, at: number) => dv.getFloat32(at, true),
  set: (dv: DataView, at: number, v: number) => dv.setFloat32(at, v, true),
} as const;
const u32 = {
  empty: new Uint32Array(0),
  size: 4,
  view: (b: ArrayBufferLike, o: number, n: number) => new Uint32Array(b, o, n),
  alloc: (n: number) => new Uint32Array(n),
  get: (dv: DataView, at: number) => dv.getUint32(at, true),
  set: (dv: DataView, at: number, v: number) => dv.setUint32(at, v, true),
} as const;
const i32 = {
  empty: new Int32Array(0),
  size: 4,
  view: (b: ArrayBufferLike, o: number, n: number) => new Int32Array(b, o, n),
  alloc: (n: number) => new Int32Array(n),
  get: (dv: DataView, at: number) => dv.getInt32(at, true),
  set: (dv: DataView, at: number, v: number) => dv.setInt32(at, v, true),
} as const;
const u16 = {
  empty: new Uint16Array(0),
  size: 2,
  view: (b: ArrayBufferLike, o: number, n: number) => new Uint16Array(b, o, n),
  alloc: (n: number) => new Uint16Array(n),
  get: (dv: DataView, at: number) => dv.getUint16(at, true),
  set: (dv: DataView, at: number, v: number) => dv.setUint16(at, v, true),
} as const;
const u8 = {
  empty: new Uint8Array(0),
  size: 1,
  view: (b: ArrayBufferLike, o: number, n: number) => new Uint8Array(b, o, n),
  alloc: (n: number) => new Uint8Array(n),
  get: (dv: DataView, at: number) => dv.getUint8(at),
  set: (dv: DataView, at: number, v: number) => dv.setUint8(at, v),
} as const;

/** The tile arrays in file order: 4-byte elements first, then 2, then 1. */
const ARRAYS: readonly ArraySpec[] = [
  { key: "vertices", length: (c) => c.vertexCount * 3, ...f32 },
  { key: "polyVerts", length: (c) => c.polyCount * c.nvp, ...u32 },
  { key: "polyNeighbours", length: (c) => c.polyCount * c.nvp, ...u32 },
  { key: "detailMeshes", length: (c) => c.polyCount * 4, ...u32 },
  { key: "detailVertices", length: (c) => c.detailVertexCount * 3, ...f32 },
  { key: "bvBounds", length: (c) => c.bvNodeCount * 6, ...f32 },
  { key: "bvIndex", length: (c) => c.bvNodeCount, ...i32 },
  { key: "polyFlags", length: (c) => c.polyCount, ...u16 },
  { key: "polyVertCount", length: (c) => c.polyCount, ...u8 },
  { key: "polyAreas", length: (c) => c.polyCount, ...u8 },
  { key: "detailTriangles", length: (c) => c.detailTriangleCount * 4, ...u8 },
];
const A_VERTICES = 0;
const A_POLY_VERTS = 1;
const A_POLY_NEIGHBOURS = 2;
const A_DETAIL_MESHES = 3;
const A_DETAIL_VERTICES = 4;
const A_BV_BOUNDS = 5;
const A_BV_INDEX = 6;
const A_POLY_VERT_COUNT = 8;
const A_POLY_AREAS = 9;
const A_DETAIL_TRIANGLES = 10;

/** Rounds up to a multiple of 8 (arithmetic: counts from a corrupt file may exceed 32 bits). */
function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/** Offsets of the arrays from the block start, and the block length (a multiple of 8). */
function tileLayout(c: TileCounts): { offsets: number[]; length: number } {
  const offsets: number[] = [];
  let at = TILE_HEADER_SIZE;
  for (const spec of ARRAYS) {
    offsets.push(at);
    at = align8(at + spec.length(c) * spec.size);
  }
  return { offsets, length: at };
}

function hex(v: number): string {
  return `0x${v.toString(16).padStart(8, "0")}`;
}

function fourcc(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < Math.min(4, bytes.length); i++) {
    const c = bytes[i]!;
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`;
  }
  return `'${s}'`;
}

/** Reports a problem at a byte offset (loading) or in a value (saving). Never returns. */
type Fail = (at: number, what: string) => never;

// ---------------------------------------------------------------------------------------------
// Checks shared by the writer and the reader: a file that saves always loads.

function tileCountsOf(tile: NavMeshTile, t: number, nvp: number): TileCounts {
  const bad = (what: string): never => {
    throw new MeshwayError("INVALID_ARGUMENT", `serializeNavMesh: tile ${t}: ${what}`);
  };
  const c: TileCounts = {
    nvp: tile.maxVertsPerPoly,
    vertexCount: tile.vertexCount,
    polyCount: tile.polyCount,
    detailVertexCount: tile.detailVertices.length / 3,
    detailTriangleCount: tile.detailTriangles.length / 4,
    bvNodeCount: tile.bvIndex.length,
  };
  if (c.nvp !== nvp) bad(`maxVertsPerPoly ${c.nvp} differs from the navmesh's ${nvp}`);
  for (const [name, v] of Object.entries(c)) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) bad(`${name} ${v} is not a u32 count`);
  }
  for (const spec of ARRAYS) {
    const arr = tile[spec.key];
    if (arr.length !== spec.length(c)) {
      bad(`${spec.key} has ${arr.length} elements, its counts imply ${spec.length(c)}`);
    }
  }
  return c;
}

/** Tile fields outside the arrays; `at(field)` gives the byte offset to report. */
function checkTileScalars(
  tileX: number,
  tileZ: number,
  bmin: ArrayLike<number>,
  bmax: ArrayLike<number>,
  c: TileCounts,
  fail: Fail,
  at: (field: number) => number,
): void {
  if (Math.abs(tileX) > MAX_TILE_COORD || Math.abs(tileZ) > MAX_TILE_COORD) {
    fail(at(T_TILE_X), `tile coordinates (${tileX}, ${tileZ}) outside ±${MAX_TILE_COORD}`);
  }
  if (c.polyCount > MAX_POLYS_PER_TILE) {
    fail(
      at(T_POLY_COUNT),
      `${c.polyCount} polygons, more than the ${MAX_POLYS_PER_TILE} a tile holds`,
    );
  }
  for (let k = 0; k < 3; k++) {
    if (!Number.isFinite(bmin[k]) || !Number.isFinite(bmax[k])) {
      fail(at(T_BMIN), `bounds [${Array.from(bmin)}]..[${Array.from(bmax)}] are not finite`);
    }
    if (!(bmin[k]! <= bmax[k]!)) {
      fail(at(T_BMIN), `bounds [${Array.from(bmin)}]..[${Array.from(bmax)}] are inverted`);
    }
  }
}

/**
 * Checks every index and number a query follows, so a loaded tile can never make a query read
 * out of range or loop: vertex and neighbour indices, detail ranges, BV-tree escapes, finite
 * floats. `at(array, element)` gives the byte offset to report.
 */
function checkTileArrays(
  a: readonly TileArray[],
  c: TileCounts,
  fail: Fail,
  at: (array: number, element: number) => number,
): void {
  const { nvp, vertexCount, polyCount, detailVertexCount, detailTriangleCount, bvNodeCount } = c;
  for (const k of [A_VERTICES, A_DETAIL_VERTICES, A_BV_BOUNDS]) {
    const f = a[k]!;
    for (let i = 0; i < f.length; i++) {
      if (!Number.isFinite(f[i])) fail(at(k, i), `${ARRAYS[k]!.key}[${i}] is ${f[i]}`);
    }
  }
  const pvc = a[A_POLY_VERT_COUNT]!;
  const pv = a[A_POLY_VERTS]!;
  const pn = a[A_POLY_NEIGHBOURS]!;
  const dm = a[A_DETAIL_MESHES]!;
  const dt = a[A_DETAIL_TRIANGLES]!;
  const areas = a[A_POLY_AREAS]!;
  for (let p = 0; p < polyCount; p++) {
    // QueryFilter prices areas 0..63: a higher one would cost NaN and bend paths silently.
    if (areas[p]! >= MAX_AREAS) {
      fail(at(A_POLY_AREAS, p), `polygon ${p} has area ${areas[p]}, areas are 0..${MAX_AREAS - 1}`);
    }
    const n = pvc[p]!;
    if (n < 3 || n > nvp)
      fail(at(A_POLY_VERT_COUNT, p), `polygon ${p} has ${n} vertices (3..${nvp})`);
    for (let i = p * nvp; i < p * nvp + n; i++) {
      if (pv[i]! >= vertexCount) {
        fail(at(A_POLY_VERTS, i), `polygon ${p} uses vertex ${pv[i]}, the tile has ${vertexCount}`);
      }
      const nb = pn[i]!;
      if (nb > polyCount && (nb < EDGE_TILE_BORDER || nb > EDGE_TILE_BORDER + 3)) {
        fail(at(A_POLY_NEIGHBOURS, i), `polygon ${p} has neighbour entry ${hex(nb)}`);
      }
    }
    const vb = dm[p * 4]!;
    const vc = dm[p * 4 + 1]!;
    const tb = dm[p * 4 + 2]!;
    const tc = dm[p * 4 + 3]!;
    if (vb + vc > detailVertexCount || tb + tc > detailTriangleCount) {
      fail(
        at(A_DETAIL_MESHES, p * 4),
        `polygon ${p}'s detail mesh (vertices ${vb}+${vc}, triangles ${tb}+${tc}) exceeds the tile's ${detailVertexCount} detail vertices or ${detailTriangleCount} triangles`,
      );
    }
    for (let i = tb * 4; i < (tb + tc) * 4; i += 4) {
      if (dt[i]! >= vc || dt[i + 1]! >= vc || dt[i + 2]! >= vc) {
        fail(
          at(A_DETAIL_TRIANGLES, i),
          `polygon ${p}'s detail triangle uses a vertex past its ${vc}`,
        );
      }
    }
  }
  const bi = a[A_BV_INDEX]!;
  const bb = a[A_BV_BOUNDS]!;
  for (let i = 0; i < bvNodeCount; i++) {
    // An inverted box never overlaps a query box: its subtree would be unreachable.
    for (let k = 0; k < 3; k++) {
      if (!(bb[i * 6 + k]! <= bb[i * 6 + 3 + k]!)) {
        fail(
          at(A_BV_BOUNDS, i * 6 + k),
          `BV node ${i} has an inverted box (min ${"xyz"[k]} ${bb[i * 6 + k]} > max ${bb[i * 6 + 3 + k]})`,
        );
      }
    }
    const k = bi[i]!;
    if (k >= polyCount || (k < 0 && i - k > bvNodeCount)) {
      fail(
        at(A_BV_INDEX, i),
        `BV node ${i} has index ${k} (${polyCount} polygons, ${bvNodeCount} nodes)`,
      );
    }
  }
}

function checkParams(p: ArrayLike<number>, nvp: number, fail: Fail): void {
  for (let k = 0; k < PARAM_NAMES.length; k++) {
    if (!Number.isFinite(p[k])) fail(H_PARAMS + k * 8, `navmesh ${PARAM_NAMES[k]} is ${p[k]}`);
  }
  // Sizes a query divides by or steps with must be positive, the agent's non-negative: a tile
  // width of 0 puts every point in tile ±Infinity, so every position query misses.
  for (let k = 3; k <= 6; k++) {
    if (!(p[k]! > 0)) fail(H_PARAMS + k * 8, `navmesh ${PARAM_NAMES[k]} ${p[k]} is not positive`);
  }
  for (let k = 7; k <= 9; k++) {
    if (!(p[k]! >= 0)) fail(H_PARAMS + k * 8, `navmesh ${PARAM_NAMES[k]} ${p[k]} is negative`);
  }
  if (!Number.isInteger(nvp) || nvp < 3 || nvp > MAX_VERTS_PER_POLY) {
    fail(H_NVP, `maxVertsPerPoly ${nvp} is not in 3..${MAX_VERTS_PER_POLY}`);
  }
}

function checkOffMesh(con: OffMeshConnection, fail: (field: number, what: string) => never): void {
  const pts = [...con.start, ...con.end];
  if (pts.length !== 6 || !pts.every(Number.isFinite)) fail(0, "end points are not finite xyz");
  if (!(con.radius >= 0) || !Number.isFinite(con.radius))
    fail(48, `radius ${con.radius} is not >= 0`);
  if (con.cost !== undefined && !(con.cost >= 0)) fail(56, `cost ${con.cost} is not >= 0`);
  if (!Number.isInteger(con.flags) || con.flags < 0 || con.flags > 0xffff) {
    fail(72, `flags ${con.flags} are not 0..0xffff`);
  }
  if (!Number.isInteger(con.area) || con.area < 0 || con.area > 63) {
    fail(74, `area ${con.area} is not 0..63`);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

function writeArray(
  out: Uint8Array,
  dv: DataView,
  at: number,
  arr: TileArray,
  spec: ArraySpec,
  nativeLE: boolean,
): void {
  if (nativeLE) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), at);
  } else {
    for (let i = 0; i < arr.length; i++) spec.set(dv, at + i * spec.size, arr[i]!);
  }
}

/** Writes one tile block at `at` (a multiple of 8); returns the block length. */
function writeTileBlock(
  out: Uint8Array,
  dv: DataView,
  at: number,
  tile: NavMeshTile,
  c: TileCounts,
  nativeLE: boolean,
): number {
  const { offsets, length } = tileLayout(c);
  dv.setUint32(at + T_BLOCK_LENGTH, length, true);
  dv.setInt32(at + T_TILE_X, tile.tileX, true);
  dv.setInt32(at + T_TILE_Z, tile.tileZ, true);
  dv.setUint32(at + T_NVP, c.nvp, true);
  dv.setUint32(at + T_VERTEX_COUNT, c.vertexCount, true);
  dv.setUint32(at + T_POLY_COUNT, c.polyCount, true);
  dv.setUint32(at + T_DETAIL_VERTEX_COUNT, c.detailVertexCount, true);
  dv.setUint32(at + T_DETAIL_TRIANGLE_COUNT, c.detailTriangleCount, true);
  dv.setUint32(at + T_BV_NODE_COUNT, c.bvNodeCount, true);
  for (let k = 0; k < 3; k++) {
    dv.setFloat64(at + T_BMIN + k * 8, tile.bmin[k]!, true);
    dv.setFloat64(at + T_BMAX + k * 8, tile.bmax[k]!, true);
  }
  for (let i = 0; i < ARRAYS.length; i++) {
    const spec = ARRAYS[i]!;
    writeArray(out, dv, at + offsets[i]!, tile[spec.key], spec, nativeLE);
  }
  return length;
}

function serializeWith(
  navMesh: NavMesh,
  config: ResolvedConfig | BuildConfig | null,
  nativeLE: boolean,
): Uint8Array {
  if (!(navMesh instanceof NavMesh)) {
    throw new MeshwayError("INVALID_ARGUMENT", "serializeNavMesh expects a NavMesh");
  }
  const params = navMesh.params;
  const nvp = params.maxVertsPerPoly;
  const paramValues = [
    ...params.origin,
    params.tileWidth,
    params.tileDepth,
    params.cellSize,
    params.cellHeight,
    params.agentHeight,
    params.agentRadius,
    params.agentMaxClimb,
  ];
  checkParams(paramValues, nvp, (_at, what) => {
    throw new MeshwayError("INVALID_ARGUMENT", `serializeNavMesh: ${what}`);
  });
  const configBytes =
    config == null
      ? new Uint8Array(0)
      : new TextEncoder().encode(JSON.stringify(toBuildConfig(config)));

  const tiles = navMesh.tiles;
  const counts = tiles.map((tile, t) => {
    const c = tileCountsOf(tile, t, nvp);
    const fail: Fail = (_at, what) => {
      throw new MeshwayError("INVALID_ARGUMENT", `serializeNavMesh: tile ${t}: ${what}`);
    };
    checkTileScalars(tile.tileX, tile.tileZ, tile.bmin, tile.bmax, c, fail, () => 0);
    checkTileArrays(
      ARRAYS.map((s) => tile[s.key]),
      c,
      fail,
      () => 0,
    );
    return c;
  });
  const cons = navMesh.offMeshConnectionRefs().map((ref) => navMesh.offMeshConnection(ref)!);
  cons.forEach((con, i) => {
    checkOffMesh(con, (_f, what) => {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `serializeNavMesh: off-mesh connection ${i}: ${what}`,
      );
    });
  });

  let payloadLength = align8(configBytes.length);
  for (const c of counts) payloadLength += tileLayout(c).length;
  payloadLength += cons.length * OFFMESH_SIZE;
  const out = new Uint8Array(HEADER_SIZE + payloadLength);
  const dv = new DataView(out.buffer);

  out.set(MAGIC_BYTES, 0);
  dv.setUint16(H_VERSION, NAVMESH_FORMAT_VERSION, true);
  dv.setUint16(H_FLAGS, configBytes.length > 0 ? FLAG_CONFIG : 0, true);
  dv.setUint32(H_CONFIG_LENGTH, configBytes.length, true);
  dv.setUint32(H_TILE_COUNT, tiles.length, true);
  dv.setUint32(H_OFFMESH_COUNT, cons.length, true);
  dv.setUint32(H_NVP, nvp, true);
  dv.setUint32(H_PAYLOAD_LENGTH, payloadLength % 2 ** 32, true);
  dv.setUint32(H_PAYLOAD_LENGTH + 4, Math.floor(payloadLength / 2 ** 32), true);
  for (let k = 0; k < paramValues.length; k++)
    dv.setFloat64(H_PARAMS + k * 8, paramValues[k]!, true);

  let at = HEADER_SIZE;
  out.set(configBytes, at);
  at += align8(configBytes.length);
  tiles.forEach((tile, t) => {
    at += writeTileBlock(out, dv, at, tile, counts[t]!, nativeLE);
  });
  for (const con of cons) {
    for (let k = 0; k < 3; k++) {
      dv.setFloat64(at + k * 8, con.start[k]!, true);
      dv.setFloat64(at + 24 + k * 8, con.end[k]!, true);
    }
    dv.setFloat64(at + 48, con.radius, true);
    dv.setFloat64(at + 56, con.cost ?? 0, true);
    dv.setFloat64(at + 64, con.userId ?? 0, true);
    dv.setUint16(at + 72, con.flags, true);
    dv.setUint8(at + 74, con.area);
    dv.setUint8(
      at + 75,
      (con.bidirectional ? CON_BIDIRECTIONAL : 0) |
        (con.cost !== undefined ? CON_HAS_COST : 0) |
        (con.userId !== undefined ? CON_HAS_USER_ID : 0),
    );
    at += OFFMESH_SIZE;
  }
  dv.setUint32(H_PAYLOAD_CRC, crc32(out, HEADER_SIZE, out.length), true);
  dv.setUint32(H_HEADER_CRC, crc32(out, 0, H_HEADER_CRC), true);
  return out;
}

/**
 * Writes a navmesh and the build config it came from (or null) as a `.navmesh` file image
 * (format {@link NAVMESH_FORMAT_VERSION}, layout in docs/navmesh-format.md). Deterministic:
 * the same navmesh and config give the same bytes. A ResolvedConfig is stored as the
 * BuildConfig it resolves from (the library's option names, derived voxel values dropped).
 *
 * Stores the live tiles in slot order and the live off-mesh connections in the order they
 * were added; links and the tile grid are rebuilt on load.
 * Throws MeshwayError("INVALID_ARGUMENT") for a tile the loader would refuse and
 * ("INVALID_CONFIG") for an invalid config.
 */
export function serializeNavMesh(
  navMesh: NavMesh,
  config: ResolvedConfig | BuildConfig | null,
): Uint8Array {
  return serializeWith(navMesh, config, HOST_LITTLE_ENDIAN);
}

// ---------------------------------------------------------------------------------------------
// Reading

interface TileBlock {
  at: number;
  tileX: number;
  tileZ: number;
  bmin: Vec3;
  bmax: Vec3;
  counts: TileCounts;
  offsets: number[];
}

/** Reads and checks a tile header at `at` whose block must end by `limit`. Allocates nothing. */
function readTileHeader(
  dv: DataView,
  at: number,
  limit: number,
  t: number,
  nvp: number,
  fail: Fail,
): TileBlock {
  const where = `tile ${t}`;
  if (at + TILE_HEADER_SIZE > limit) {
    fail(
      at,
      `${where}: its ${TILE_HEADER_SIZE}-byte header runs past the tile section (ends at byte ${limit})`,
    );
  }
  const blockLength = dv.getUint32(at + T_BLOCK_LENGTH, true);
  const counts: TileCounts = {
    nvp: dv.getUint32(at + T_NVP, true),
    vertexCount: dv.getUint32(at + T_VERTEX_COUNT, true),
    polyCount: dv.getUint32(at + T_POLY_COUNT, true),
    detailVertexCount: dv.getUint32(at + T_DETAIL_VERTEX_COUNT, true),
    detailTriangleCount: dv.getUint32(at + T_DETAIL_TRIANGLE_COUNT, true),
    bvNodeCount: dv.getUint32(at + T_BV_NODE_COUNT, true),
  };
  if (counts.nvp !== nvp) {
    fail(at + T_NVP, `${where}: maxVertsPerPoly ${counts.nvp} differs from the navmesh's ${nvp}`);
  }
  if (dv.getUint32(at + T_RESERVED, true) !== 0)
    fail(at + T_RESERVED, `${where}: reserved field is not 0`);
  const { offsets, length } = tileLayout(counts);
  if (blockLength !== length) {
    fail(
      at + T_BLOCK_LENGTH,
      `${where}: block length ${blockLength} does not match its counts (${counts.vertexCount} vertices, ${counts.polyCount} polygons, ${counts.detailVertexCount} detail vertices, ${counts.detailTriangleCount} detail triangles, ${counts.bvNodeCount} BV nodes need ${length} bytes)`,
    );
  }
  if (at + blockLength > limit) {
    fail(
      at + T_BLOCK_LENGTH,
      `${where}: block of ${blockLength} bytes runs past the tile section (ends at byte ${limit})`,
    );
  }
  const vec = (o: number): Vec3 => [
    dv.getFloat64(at + o, true),
    dv.getFloat64(at + o + 8, true),
    dv.getFloat64(at + o + 16, true),
  ];
  const block: TileBlock = {
    at,
    tileX: dv.getInt32(at + T_TILE_X, true),
    tileZ: dv.getInt32(at + T_TILE_Z, true),
    bmin: vec(T_BMIN),
    bmax: vec(T_BMAX),
    counts,
    offsets,
  };
  checkTileScalars(
    block.tileX,
    block.tileZ,
    block.bmin,
    block.bmax,
    counts,
    (o, what) => fail(o, `${where}: ${what}`),
    (f) => at + f,
  );
  return block;
}

/**
 * Typed arrays of a checked tile block: views on `bytes` when the host is little-endian and the
 * element offset is aligned, else copies (decoded through DataView on a big-endian host).
 */
function readTileArrays(
  bytes: Uint8Array,
  dv: DataView,
  b: TileBlock,
  nativeLE: boolean,
): TileArray[] {
  return ARRAYS.map((spec, i) => {
    const n = spec.length(b.counts);
    const at = b.at + b.offsets[i]!;
    if (n === 0) return spec.empty;
    if (nativeLE) {
      const abs = bytes.byteOffset + at;
      if (abs % spec.size === 0) return spec.view(bytes.buffer, abs, n);
      const copy = spec.alloc(n);
      new Uint8Array(copy.buffer).set(bytes.subarray(at, at + n * spec.size));
      return copy;
    }
    const out = spec.alloc(n);
    for (let e = 0; e < n; e++) out[e] = spec.get(dv, at + e * spec.size);
    return out;
  });
}

function tileFromBlock(b: TileBlock, a: TileArray[]): NavMeshTile {
  const c = b.counts;
  return {
    tileX: b.tileX,
    tileZ: b.tileZ,
    bmin: b.bmin,
    bmax: b.bmax,
    maxVertsPerPoly: c.nvp,
    vertexCount: c.vertexCount,
    vertices: a[0] as Float32Array,
    polyCount: c.polyCount,
    polyVerts: a[1] as Uint32Array,
    polyNeighbours: a[2] as Uint32Array,
    polyVertCount: a[8] as Uint8Array,
    polyAreas: a[9] as Uint8Array,
    polyFlags: a[7] as Uint16Array,
    detailMeshes: a[3] as Uint32Array,
    detailVertices: a[4] as Float32Array,
    detailTriangles: a[10] as Uint8Array,
    bvBounds: a[5] as Float32Array,
    bvIndex: a[6] as Int32Array,
  };
}

function readConfig(bytes: Uint8Array, length: number, fail: Fail): BuildConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        bytes.subarray(HEADER_SIZE, HEADER_SIZE + length),
      ),
    );
  } catch (e) {
    fail(HEADER_SIZE, `build config is not UTF-8 JSON (${(e as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    fail(HEADER_SIZE, "build config is not a JSON object");
  }
  try {
    // Options this version does not know (from a newer writer) are ignored, not refused.
    return toBuildConfig(parsed as Partial<BuildConfig>);
  } catch (e) {
    if (e instanceof MeshwayError) fail(HEADER_SIZE, `build config: ${e.message}`);
    throw e;
  }
}

function deserializeWith(
  bytes: Uint8Array,
  source: string,
  nativeLE: boolean,
): { navMesh: NavMesh; config: BuildConfig | null; version: number } {
  if (!(bytes instanceof Uint8Array)) {
    throw new MeshwayError("INVALID_ARGUMENT", "deserializeNavMesh expects a Uint8Array");
  }
  const fail: Fail = (at, what) => {
    throw new MeshwayError("INVALID_INPUT", `${source}: ${what} at byte ${at}`);
  };
  const n = bytes.length;
  if (n === 0) fail(0, "empty: no navmesh header");
  for (let i = 0; i < Math.min(4, n); i++) {
    if (bytes[i] !== MAGIC_BYTES[i]) {
      fail(
        0,
        `bad magic ${fourcc(bytes)}, expected '${NAVMESH_MAGIC}' (not a meshway .navmesh file)`,
      );
    }
  }
  const truncated = (what: string, need: number): never =>
    fail(n, `truncated: ${what} needs ${need} bytes, the file ends after ${n}`);
  // Magic and version sit at the same offsets in every version; the rest depends on the version.
  if (n < H_VERSION + 2) truncated("the format version", H_VERSION + 2);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, n);
  const version = dv.getUint16(H_VERSION, true);
  if (version > NAVMESH_FORMAT_VERSION) {
    fail(
      H_VERSION,
      `format version ${version} is newer than this meshway reads (version ${NAVMESH_FORMAT_VERSION}); upgrade meshway`,
    );
  }
  if (version < 1) fail(H_VERSION, `unsupported format version ${version}`);
  if (n < HEADER_SIZE) truncated("the header", HEADER_SIZE);
  const headerCrc = crc32(bytes, 0, H_HEADER_CRC);
  const storedHeaderCrc = dv.getUint32(H_HEADER_CRC, true);
  if (headerCrc !== storedHeaderCrc) {
    fail(
      H_HEADER_CRC,
      `corrupted: header checksum ${hex(headerCrc)}, expected ${hex(storedHeaderCrc)}`,
    );
  }

  // The header is intact from here on.
  const flags = dv.getUint16(H_FLAGS, true);
  if ((flags & ~KNOWN_FLAGS) !== 0) fail(H_FLAGS, `unknown flags ${hex(flags)}`);
  const configLength = dv.getUint32(H_CONFIG_LENGTH, true);
  if (configLength > 0 !== ((flags & FLAG_CONFIG) !== 0)) {
    fail(H_FLAGS, `config flag ${flags & FLAG_CONFIG} contradicts config length ${configLength}`);
  }
  if (dv.getUint32(H_RESERVED, true) !== 0 || dv.getUint32(H_RESERVED + 4, true) !== 0) {
    fail(H_RESERVED, "reserved header bytes are not 0");
  }
  const tileCount = dv.getUint32(H_TILE_COUNT, true);
  const offMeshCount = dv.getUint32(H_OFFMESH_COUNT, true);
  const nvp = dv.getUint32(H_NVP, true);
  const payloadLength =
    dv.getUint32(H_PAYLOAD_LENGTH, true) + dv.getUint32(H_PAYLOAD_LENGTH + 4, true) * 2 ** 32;
  const end = HEADER_SIZE + payloadLength;
  if (n < end) truncated(`the header plus its ${payloadLength}-byte payload`, end);
  if (n > end) {
    fail(
      end,
      `payload length mismatch: the header says ${payloadLength} bytes, the file holds ${n - HEADER_SIZE} after the header`,
    );
  }
  const payloadCrc = crc32(bytes, HEADER_SIZE, end);
  const storedPayloadCrc = dv.getUint32(H_PAYLOAD_CRC, true);
  if (payloadCrc !== storedPayloadCrc) {
    fail(
      H_PAYLOAD_CRC,
      `corrupted: payload checksum ${hex(payloadCrc)}, expected ${hex(storedPayloadCrc)}`,
    );
  }

  // Checksums match: anything wrong from here on was written wrong, not damaged.
  const paramValues: number[] = [];
  for (let k = 0; k < PARAM_NAMES.length; k++)
    paramValues.push(dv.getFloat64(H_PARAMS + k * 8, true));
  checkParams(paramValues, nvp, fail);
  if (tileCount >= MAX_TILES)
    fail(H_TILE_COUNT, `${tileCount} tiles, a navmesh holds fewer than ${MAX_TILES}`);
  if (offMeshCount > MAX_POLYS_PER_TILE) {
    fail(H_OFFMESH_COUNT, `${offMeshCount} off-mesh connections, at most ${MAX_POLYS_PER_TILE}`);
  }
  const tilesStart = HEADER_SIZE + align8(configLength);
  const minNeeded =
    align8(configLength) + tileCount * TILE_HEADER_SIZE + offMeshCount * OFFMESH_SIZE;
  if (minNeeded > payloadLength) {
    fail(
      H_PAYLOAD_LENGTH,
      `payload of ${payloadLength} bytes cannot hold a ${configLength}-byte config, ${tileCount} tiles and ${offMeshCount} off-mesh connections (at least ${minNeeded} bytes)`,
    );
  }
  const tilesEnd = end - offMeshCount * OFFMESH_SIZE;
  // Only the offsets are kept between the passes (headers are re-read, cheaply), so the
  // structure check costs 8 bytes per tile, not a block object.
  const blockAt = new Float64Array(tileCount);
  let at = tilesStart;
  for (let t = 0; t < tileCount; t++) {
    const b = readTileHeader(dv, at, tilesEnd, t, nvp, fail);
    blockAt[t] = at;
    at += tileLayout(b.counts).length;
  }
  if (at !== tilesEnd) {
    fail(
      at,
      `payload length mismatch: ${tilesEnd - at} bytes between the last tile and the off-mesh connections`,
    );
  }

  // Structure checked; now read (views where possible) and check the contents.
  const config = configLength > 0 ? readConfig(bytes, configLength, fail) : null;
  const tiles: NavMeshTile[] = [];
  for (let t = 0; t < tileCount; t++) {
    const b = readTileHeader(dv, blockAt[t]!, tilesEnd, t, nvp, fail);
    const arrays = readTileArrays(bytes, dv, b, nativeLE);
    checkTileArrays(
      arrays,
      b.counts,
      (o, what) => fail(o, `tile ${t}: ${what}`),
      (k, e) => b.at + b.offsets[k]! + e * ARRAYS[k]!.size,
    );
    tiles.push(tileFromBlock(b, arrays));
  }
  const cons: OffMeshConnection[] = [];
  for (let i = 0; i < offMeshCount; i++) {
    const o = tilesEnd + i * OFFMESH_SIZE;
    const f64 = (k: number) => dv.getFloat64(o + k * 8, true);
    const bits = dv.getUint8(o + 75);
    if ((bits & ~KNOWN_CON_BITS) !== 0 || dv.getUint32(o + 76, true) !== 0) {
      fail(o + 75, `off-mesh connection ${i}: unknown bits or reserved bytes set`);
    }
    const con: OffMeshConnection = {
      start: [f64(0), f64(1), f64(2)],
      end: [f64(3), f64(4), f64(5)],
      radius: f64(6),
      bidirectional: (bits & CON_BIDIRECTIONAL) !== 0,
      area: dv.getUint8(o + 74),
      flags: dv.getUint16(o + 72, true),
    };
    if (bits & CON_HAS_COST) con.cost = f64(7);
    if (bits & CON_HAS_USER_ID) con.userId = f64(8);
    checkOffMesh(con, (f, what) => fail(o + f, `off-mesh connection ${i}: ${what}`));
    cons.push(con);
  }

  const params: NavMeshParams = {
    origin: [paramValues[0]!, paramValues[1]!, paramValues[2]!],
    tileWidth: paramValues[3]!,
    tileDepth: paramValues[4]!,
    cellSize: paramValues[5]!,
    cellHeight: paramValues[6]!,
    maxVertsPerPoly: nvp,
    agentHeight: paramValues[7]!,
    agentRadius: paramValues[8]!,
    agentMaxClimb: paramValues[9]!,
  };
  const navMesh = new NavMesh(params);
  tiles.forEach((tile, t) => {
    // The grid's own limits (tiles per tile coordinate), reported where the tile is.
    try {
      navMesh.addTile(tile);
    } catch (e) {
      if (e instanceof MeshwayError) fail(blockAt[t]!, `tile ${t}: ${e.message}`);
      throw e;
    }
  });
  for (const con of cons) navMesh.addOffMeshConnection(con);
  return { navMesh, config, version };
}

/**
 * Reads a `.navmesh` file image written by {@link serializeNavMesh}. Returns the navmesh
 * (links and tile grid rebuilt), the stored build config (null when none) and the file's
 * format version.
 *
 * Tile arrays are views on `bytes` (no copy) when the host is little-endian and
 * `bytes.byteOffset` is a multiple of 4; otherwise they are copies. Views share the input's
 * memory: don't modify or transfer `bytes` while the navmesh is in use.
 *
 * Throws MeshwayError("INVALID_INPUT", "<source>: <what> at byte N") for a wrong magic, a
 * newer format version (naming both), a truncated file, a payload length that does not match
 * the file, a header or payload checksum mismatch ("corrupted: … checksum …, expected …"),
 * tile counts that do not match their block, or out-of-range indices. Sizes are checked before
 * anything is allocated, and nothing is returned unless the whole file checks out.
 */
export function deserializeNavMesh(
  bytes: Uint8Array,
  source = "navmesh",
): { navMesh: NavMesh; config: BuildConfig | null; version: number } {
  return deserializeWith(bytes, source, HOST_LITTLE_ENDIAN);
}

/**
 * One tile as a standalone block, byte-identical to its block inside a `.navmesh` file: for
 * handing tiles between threads (build a tile in a worker, transfer `block.buffer`, then
 * {@link deserializeNavMeshTile} and `navMesh.addTile` on the other side). Not checksummed.
 */
export function serializeNavMeshTile(tile: NavMeshTile): Uint8Array {
  const c = tileCountsOf(tile, 0, tile.maxVertsPerPoly);
  const fail: Fail = (_at, what) => {
    throw new MeshwayError("INVALID_ARGUMENT", `serializeNavMeshTile: ${what}`);
  };
  checkTileScalars(tile.tileX, tile.tileZ, tile.bmin, tile.bmax, c, fail, () => 0);
  checkTileArrays(
    ARRAYS.map((s) => tile[s.key]),
    c,
    fail,
    () => 0,
  );
  if (c.nvp < 3 || c.nvp > MAX_VERTS_PER_POLY) fail(0, `maxVertsPerPoly ${c.nvp} is not in 3..255`);
  const out = new Uint8Array(tileLayout(c).length);
  writeTileBlock(out, new DataView(out.buffer), 0, tile, c, HOST_LITTLE_ENDIAN);
  return out;
}

/**
 * Reads a block written by {@link serializeNavMeshTile} (or cut from a `.navmesh` file at a
 * tile's offset). Arrays are views on `block` when aligned, as in {@link deserializeNavMesh},
 * and are checked the same way; errors are INVALID_INPUT with offsets from the block start.
 */
export function deserializeNavMeshTile(block: Uint8Array, source = "tile"): NavMeshTile {
  if (!(block instanceof Uint8Array)) {
    throw new MeshwayError("INVALID_ARGUMENT", "deserializeNavMeshTile expects a Uint8Array");
  }
  const fail: Fail = (at, what) => {
    throw new MeshwayError("INVALID_INPUT", `${source}: ${what} at byte ${at}`);
  };
  const dv = new DataView(block.buffer, block.byteOffset, block.length);
  if (block.length < TILE_HEADER_SIZE) {
    fail(
      block.length,
      `truncated: a tile header needs ${TILE_HEADER_SIZE} bytes, the block has ${block.length}`,
    );
  }
  const nvp = dv.getUint32(T_NVP, true);
  if (nvp < 3 || nvp > MAX_VERTS_PER_POLY) fail(T_NVP, `maxVertsPerPoly ${nvp} is not in 3..255`);
  const b = readTileHeader(dv, 0, block.length, 0, nvp, fail);
  const length = tileLayout(b.counts).length;
  if (length !== block.length) {
    fail(length, `${block.length - length} unexpected bytes after the tile block`);
  }
  const arrays = readTileArrays(block, dv, b, HOST_LITTLE_ENDIAN);
  checkTileArrays(arrays, b.counts, fail, (k, e) => b.offsets[k]! + e * ARRAYS[k]!.size);
  return tileFromBlock(b, arrays);
}

/**
 * @internal Test hooks: the same reader and writer with the host's byte order forced, so the
 * big-endian fallback (DataView element by element) is exercised on little-endian machines.
 */
export const navMeshFileInternals = {
  serializeWith,
  deserializeWith,
  HOST_LITTLE_ENDIAN,
  HEADER_SIZE,
  TILE_HEADER_SIZE,
  OFFMESH_SIZE,
};
