import { MeshwayError } from "../errors.js";
import { deserializeNavMeshTile, serializeNavMeshTile } from "../format/navmesh-file.js";
import type { Vec3 } from "../math/vec3.js";
import { MAX_AREAS } from "../navmesh/areas.js";
import { buildTileBVTree } from "../navmesh/bvtree.js";
import { MAX_POLYS_PER_TILE } from "../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../navmesh/tile.js";
import {
  BYTE_MODEL_SIZE,
  INT_MODEL_SIZE,
  newModel,
  RangeDecoder,
  RangeEncoder,
} from "./range-coder.js";

/*
 * A navmesh tile in the tile cache file (format 3), modelled on how the build makes it
 * (generate/nav-mesh-tile.ts) and range-coded (range-coder.ts):
 *   - bounds: each coordinate "same as candidate k" (the caller's guesses: the heightfield's
 *     bounds, an empty tile's), else the f64;
 *   - vertices as the voxel coordinates they were made from (x = bmin.x + vx·cs, y = bmin.y +
 *     (vy + 1)·ch, rounded to float32), each a difference from the previous vertex's;
 *   - polygons: corner count, corners as "the next unused vertex" or an index, neighbours as
 *     "what the shared edge says" (the polygon with the reversed edge, else a wall) or a value;
 *   - areas and flags as "same as the previous polygon" or a value;
 *   - detail sub-meshes: bases as running sums, vertex and triangle counts; the sub-mesh's
 *     first vertices are its polygon's corners (not stored), the others as float32 bits;
 *     triangles as bytes;
 *   - the BV tree is rebuilt (buildTileBVTree) when that gives the stored one.
 * Tiles are coded into a stream the caller owns (its cached tile's, cached-tile-codec.ts),
 * sharing models from one tile to the next. Each starts with a mode bit: 1 for the above, 0
 * for a tile that does not fit it (then its serializeNavMeshTile block follows as a length and
 * bytes). The writer first codes the tile alone and decodes it back, and takes mode 1 only
 * when the tile comes back byte for byte, so the round trip is exact by construction.
 */

const INT = INT_MODEL_SIZE;
const BYTE = BYTE_MODEL_SIZE;

/** Integer models (slots of INT each). */
const I_POLY_COUNT = 0;
const I_VERT_COUNT = 1;
const I_VX = 2; // 3: x, y, z
const I_CORNER = 5;
const I_CORNER_BACK = 6;
const I_NEIGHBOUR = 7;
const I_DETAIL_EXTRA = 8;
const I_DETAIL_TRIS = 9;
const I_BLOCK_LENGTH = 10;
const I_DETAIL_Q = 11; // 3: x, y, z
const I_TRI = 14; // 3: a triangle's vertices in order
const INT_MODELS = 17;

/** Bit models. */
const B_NEW_CORNER = 0; // 2 contexts
const B_EDGE = 2; // 4 contexts: predicted wall / link × on the tile square's edge
const B_BORDER = 6; // 2
const B_AREA = 8;
const B_FLAGS = 9;
const B_BOUNDS = 10; // 2 candidates × 6 coordinates
const B_QUANTIZED = 22;
const B_MODE = 23;
const B_DETAIL_GRID = 24; // 3
const B_TRI_FLAGS = 27;
const BIT_MODELS = 28;

/** Byte models. */
const Y_AREA = 0;
const Y_FLAGS = 1; // 2
const Y_DIR = 3;
const Y_F32 = 4; // 4 byte planes
const Y_TRI_FLAGS = 8;
const Y_F64 = 9; // one model for the 8 bytes (rare)
const Y_BLOCK = 10;
const BYTE_MODELS = 11;

export interface NavTileModels {
  int: Uint16Array;
  bit: Uint16Array;
  byte: Uint16Array;
}

export function navTileModels(): NavTileModels {
  return {
    int: newModel(INT_MODELS * INT),
    bit: newModel(BIT_MODELS),
    byte: newModel(BYTE_MODELS * BYTE),
  };
}

/** What the file knows of a tile before reading it. */
export interface NavTileContext {
  tileX: number;
  tileZ: number;
  maxVertsPerPoly: number;
  cellSize: number;
  cellHeight: number;
  /** Likely bounds (the heightfield's, an empty tile's), tried in order per coordinate. */
  candidates: { bmin: Vec3; bmax: Vec3 }[];
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u8of64 = new Uint8Array(f64.buffer);

function bitsOf(v: number): number {
  f32[0] = v;
  return u32[0]!;
}
function floatOf(bits: number): number {
  u32[0] = bits;
  return f32[0]!;
}

/** Quantized vertex coordinates, or null when some vertex is not on the voxel grid. */
function quantize(tile: NavMeshTile, cs: number, ch: number): Int32Array | null {
  const [ox, oy, oz] = tile.bmin;
  const v = tile.vertices;
  const q = new Int32Array(v.length);
  for (let i = 0; i < v.length; i += 3) {
    const qx = Math.round((v[i]! - ox) / cs);
    const qy = Math.round((v[i + 1]! - oy) / ch) - 1;
    const qz = Math.round((v[i + 2]! - oz) / cs);
    if (
      Math.fround(ox + qx * cs) !== v[i] ||
      Math.fround(oy + (qy + 1) * ch) !== v[i + 1] ||
      Math.fround(oz + qz * cs) !== v[i + 2]
    ) {
      return null;
    }
    q[i] = qx;
    q[i + 1] = qy;
    q[i + 2] = qz;
  }
  return q;
}

/** Per polygon edge: the polygon with the reversed edge + 1, else EDGE_WALL. */
function sharedEdges(tile: NavMeshTile): Uint32Array {
  const nvp = tile.maxVertsPerPoly;
  const out = new Uint32Array(tile.polyCount * nvp);
  // Edges by their first vertex, as linked lists in typed arrays (no per-edge object).
  const head = new Int32Array(tile.vertexCount + 1).fill(-1);
  const next = new Int32Array(tile.polyCount * nvp);
  const n = (p: number) => tile.polyVertCount[p]!;
  const vert = (p: number, k: number) => tile.polyVerts[p * nvp + (k % n(p))]!;
  for (let p = 0; p < tile.polyCount; p++) {
    for (let k = 0; k < n(p); k++) {
      const e = p * nvp + k;
      const a = vert(p, k);
      next[e] = head[a]!;
      head[a] = e;
    }
  }
  for (let p = 0; p < tile.polyCount; p++) {
    for (let k = 0; k < n(p); k++) {
      const a = vert(p, k);
      const b = vert(p, k + 1);
      // The last-listed edge b→a wins, as the first-seen-overwritten map did.
      let q = -1;
      for (let e = head[b]!; e >= 0; e = next[e]!) {
        const ep = (e / nvp) | 0;
        if (vert(ep, (e % nvp) + 1) === a) {
          q = ep;
          break;
        }
      }
      out[p * nvp + k] = q < 0 || q === p ? EDGE_WALL : q + 1;
    }
  }
  return out;
}

/** Whether edge a→b is axis-aligned in voxels (portal edges are): a context, nothing more. */
function onSquareEdge(q: Int32Array | null, tile: NavMeshTile, a: number, b: number): number {
  if (!q) return 0;
  const ax = q[a * 3]!;
  const az = q[a * 3 + 2]!;
  const bx = q[b * 3]!;
  const bz = q[b * 3 + 2]!;
  return (ax === bx || az === bz) && tile.polyCount > 0 ? 1 : 0;
}

/**
 * Edge flags a detail triangle (a, b, c) likely has: per edge j, bits 2j..2j+1 are 1 when the
 * edge joins consecutive polygon corners (the sub-mesh's first n vertices), i.e. lies on the
 * polygon's boundary. The coder stores whether the real flags are these.
 */
function likelyTriFlags(a: number, b: number, c: number, n: number): number {
  const edge = (u: number, v: number) =>
    u < n && v < n && ((u + 1) % n === v || (v + 1) % n === u) ? 1 : 0;
  return edge(a, b) | (edge(b, c) << 2) | (edge(c, a) << 4);
}

/** Grid step of a coordinate axis: cell size across, cell height up. */
const stepOf = (ctx: NavTileContext, axis: number) => (axis === 1 ? ctx.cellHeight : ctx.cellSize);

function sameArrays(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Codes `tile` in mode 1 (without the mode bit); false as soon as it does not fit. */
function encodeCoded(
  tile: NavMeshTile,
  ctx: NavTileContext,
  rc: RangeEncoder,
  m: NavTileModels,
): boolean {
  const nvp = tile.maxVertsPerPoly;
  if (nvp !== ctx.maxVertsPerPoly || tile.tileX !== ctx.tileX || tile.tileZ !== ctx.tileZ) {
    return false;
  }
  // Bounds.
  const bounds = [...tile.bmin, ...tile.bmax];
  for (let i = 0; i < 6; i++) {
    const v = bounds[i]!;
    let k = 0;
    for (; k < ctx.candidates.length && k < 2; k++) {
      const c = ctx.candidates[k]!;
      const g = i < 3 ? c.bmin[i]! : c.bmax[i - 3]!;
      const hit = Object.is(g, v);
      rc.bit(m.bit, B_BOUNDS + 2 * i + k, hit ? 1 : 0);
      if (hit) break;
    }
    if (k === Math.min(2, ctx.candidates.length)) {
      f64[0] = v;
      for (let b = 0; b < 8; b++) rc.byte(m.byte, Y_F64 * BYTE, u8of64[b]!);
    }
  }
  // Vertices.
  const nVerts = tile.vertexCount;
  rc.uint(m.int, I_VERT_COUNT * INT, nVerts);
  const q = quantize(tile, ctx.cellSize, ctx.cellHeight);
  rc.bit(m.bit, B_QUANTIZED, q ? 1 : 0);
  if (q) {
    for (let i = 0; i < nVerts * 3; i++) {
      rc.sint(m.int, (I_VX + (i % 3)) * INT, q[i]! - (i >= 3 ? q[i - 3]! : 0));
    }
  } else {
    for (let i = 0; i < nVerts * 3; i++) {
      const bits = bitsOf(tile.vertices[i]!);
      for (let b = 0; b < 4; b++) rc.byte(m.byte, (Y_F32 + b) * BYTE, (bits >>> (8 * b)) & 0xff);
    }
  }
  // Polygons.
  const nPolys = tile.polyCount;
  rc.uint(m.int, I_POLY_COUNT * INT, nPolys);
  let next = 0;
  for (let p = 0; p < nPolys; p++) {
    const n = tile.polyVertCount[p]!;
    if (n < 3 || n > nvp) return false;
    rc.uint(m.int, I_CORNER_BACK * INT, n - 3);
    let prev = -1;
    for (let k = 0; k < nvp; k++) {
      const v = tile.polyVerts[p * nvp + k]!;
      if (k >= n) {
        if (v !== 0 || tile.polyNeighbours[p * nvp + k] !== 0) return false;
        continue;
      }
      if (v >= nVerts) return false;
      const fresh = v === next;
      rc.bit(m.bit, B_NEW_CORNER + (prev === next - 1 ? 1 : 0), fresh ? 1 : 0);
      if (fresh) next++;
      else rc.sint(m.int, I_CORNER * INT, v - (prev >= 0 ? prev : next));
      prev = v;
    }
  }
  const shared = sharedEdges(tile);
  for (let p = 0; p < nPolys; p++) {
    const n = tile.polyVertCount[p]!;
    for (let k = 0; k < n; k++) {
      const e = p * nvp + k;
      const a = tile.polyVerts[e]!;
      const b = tile.polyVerts[p * nvp + ((k + 1) % n)]!;
      const c = B_EDGE + (shared[e]! === EDGE_WALL ? 0 : 2) + onSquareEdge(q, tile, a, b);
      const v = tile.polyNeighbours[e]!;
      const hit = v === shared[e];
      rc.bit(m.bit, c, hit ? 0 : 1);
      if (hit) continue;
      const border = (v & EDGE_TILE_BORDER) !== 0;
      rc.bit(m.bit, B_BORDER + onSquareEdge(q, tile, a, b), border ? 1 : 0);
      if (border) {
        if ((v & ~EDGE_TILE_BORDER) > 0xff) return false;
        rc.byte(m.byte, Y_DIR * BYTE, v & 0xff);
      } else {
        if (v > nPolys) return false;
        rc.uint(m.int, I_NEIGHBOUR * INT, v);
      }
    }
  }
  for (let p = 0; p < nPolys; p++) {
    const area = tile.polyAreas[p]!;
    const sameArea = p > 0 && area === tile.polyAreas[p - 1];
    rc.bit(m.bit, B_AREA, sameArea ? 1 : 0);
    if (!sameArea) rc.byte(m.byte, Y_AREA * BYTE, area);
    const flags = tile.polyFlags[p]!;
    const sameFlags = p > 0 && flags === tile.polyFlags[p - 1];
    rc.bit(m.bit, B_FLAGS, sameFlags ? 1 : 0);
    if (!sameFlags) {
      rc.byte(m.byte, Y_FLAGS * BYTE, flags & 0xff);
      rc.byte(m.byte, (Y_FLAGS + 1) * BYTE, flags >>> 8);
    }
  }
  // Detail sub-meshes.
  const dm = tile.detailMeshes;
  const dv = tile.detailVertices;
  let vbase = 0;
  let tbase = 0;
  for (let p = 0; p < nPolys; p++) {
    const n = tile.polyVertCount[p]!;
    const vc = dm[p * 4 + 1]!;
    const tc = dm[p * 4 + 3]!;
    if (dm[p * 4] !== vbase || dm[p * 4 + 2] !== tbase || vc < n) return false;
    rc.uint(m.int, I_DETAIL_EXTRA * INT, vc - n);
    rc.sint(m.int, I_DETAIL_TRIS * INT, tc - (vc - 2));
    for (let k = 0; k < n; k++) {
      const c = tile.polyVerts[p * nvp + k]! * 3;
      const d = (vbase + k) * 3;
      for (let j = 0; j < 3; j++)
        if (bitsOf(dv[d + j]!) !== bitsOf(tile.vertices[c + j]!)) return false;
    }
    // Extra detail vertices: per coordinate on the voxel grid (a sampled height, an interior
    // sample) as its grid offset from the first corner's, else its float32 bits XOR the
    // first corner's (same sign and exponent: high bytes 0).
    const c0 = tile.polyVerts[p * nvp]! * 3;
    for (let k = n; k < vc; k++) {
      for (let j = 0; j < 3; j++) {
        const v = dv[(vbase + k) * 3 + j]!;
        const base = tile.bmin[j]!;
        const step = stepOf(ctx, j);
        const qv = Math.round((v - base) / step);
        const onGrid = Math.fround(base + qv * step) === v;
        rc.bit(m.bit, B_DETAIL_GRID + j, onGrid ? 1 : 0);
        const ref = tile.vertices[c0 + j]!;
        if (onGrid) rc.sint(m.int, (I_DETAIL_Q + j) * INT, qv - Math.round((ref - base) / step));
        else {
          const bits = (bitsOf(v) ^ bitsOf(ref)) >>> 0;
          for (let b = 0; b < 4; b++)
            rc.byte(m.byte, (Y_F32 + b) * BYTE, (bits >>> (8 * b)) & 0xff);
        }
      }
    }
    const dt = tile.detailTriangles;
    for (let t = tbase; t < tbase + tc; t++) {
      for (let j = 0; j < 3; j++) rc.uint(m.int, (I_TRI + j) * INT, dt[t * 4 + j]!);
      const flags = dt[t * 4 + 3]!;
      const likely = flags === likelyTriFlags(dt[t * 4]!, dt[t * 4 + 1]!, dt[t * 4 + 2]!, n);
      rc.bit(m.bit, B_TRI_FLAGS, likely ? 1 : 0);
      if (!likely) rc.byte(m.byte, Y_TRI_FLAGS * BYTE, flags);
    }
    vbase += vc;
    tbase += tc;
  }
  if (vbase * 3 !== dv.length || tbase * 4 !== tile.detailTriangles.length) return false;
  const bv = buildTileBVTree(tile);
  return sameArrays(bv.bvBounds, tile.bvBounds) && sameArrays(bv.bvIndex, tile.bvIndex);
}

/** Writes navmesh tiles into a cached tile's stream (see the layout above). */
export class NavTileWriter {
  private readonly m = navTileModels();
  constructor(private readonly rc: RangeEncoder) {}

  write(tile: NavMeshTile, ctx: NavTileContext): void {
    const block = serializeNavMeshTile(tile);
    const alone = new RangeEncoder();
    let fits = encodeCoded(tile, ctx, alone, navTileModels());
    if (fits) {
      try {
        const back = new NavTileReader(new RangeDecoder(alone.finish()), Infinity).readCoded(
          ctx,
          (_at, what) => {
            throw new MeshwayError("INVALID_INPUT", what);
          },
        );
        fits = sameArrays(serializeNavMeshTile(back), block);
      } catch (e) {
        if (!(e instanceof MeshwayError)) throw e;
        fits = false;
      }
    }
    this.rc.bit(this.m.bit, B_MODE, fits ? 1 : 0);
    if (fits) {
      encodeCoded(tile, ctx, this.rc, this.m);
      return;
    }
    this.rc.uint(this.m.int, I_BLOCK_LENGTH * INT, block.length);
    for (let i = 0; i < block.length; i++) this.rc.byte(this.m.byte, Y_BLOCK * BYTE, block[i]!);
  }
}

/**
 * Reads tiles written by {@link NavTileWriter}; each is checked as deserializeNavMeshTile
 * checks a tile block (indices in range, counts consistent). `limit` bounds every count (the
 * caller's: its stream's length times what one coded byte can hold at most).
 */
export class NavTileReader {
  private readonly m = navTileModels();
  constructor(
    private readonly rc: RangeDecoder,
    private readonly limit: number,
  ) {}

  /** True when reading has gone past the end of the stream (it was cut short). */
  overran(): boolean {
    return this.rc.overran();
  }

  /** The next tile; `fail(offset, what)` must throw (offsets are the caller's to add). */
  read(ctx: NavTileContext, fail: (at: number, what: string) => never): NavMeshTile {
    if (this.rc.bit(this.m.bit, B_MODE) === 1) return this.readCoded(ctx, fail);
    const length = this.rc.uint(this.m.int, I_BLOCK_LENGTH * INT);
    if (length > this.limit) fail(0, `tile block of ${length} bytes is impossible here`);
    const block = new Uint8Array(length);
    for (let i = 0; i < length; i++) block[i] = this.rc.byte(this.m.byte, Y_BLOCK * BYTE);
    let tile: NavMeshTile;
    try {
      tile = deserializeNavMeshTile(block, "tile");
    } catch (e) {
      if (e instanceof MeshwayError) fail(0, e.message);
      throw e;
    }
    if (
      tile.tileX !== ctx.tileX ||
      tile.tileZ !== ctx.tileZ ||
      tile.maxVertsPerPoly !== ctx.maxVertsPerPoly
    ) {
      fail(
        0,
        `not a tile (${ctx.tileX}, ${ctx.tileZ}) with ${ctx.maxVertsPerPoly} corners a polygon`,
      );
    }
    return tile;
  }

  readCoded(ctx: NavTileContext, fail: (at: number, what: string) => never): NavMeshTile {
    const limit = this.limit;
    const at = 0;
    const rc = this.rc;
    const m = this.m;
    const nvp = ctx.maxVertsPerPoly;
    const bounds: number[] = [];
    const ncand = Math.min(2, ctx.candidates.length);
    for (let i = 0; i < 6; i++) {
      let k = 0;
      let v = 0;
      for (; k < ncand; k++) {
        if (rc.bit(m.bit, B_BOUNDS + 2 * i + k) === 1) {
          const c = ctx.candidates[k]!;
          v = i < 3 ? c.bmin[i]! : c.bmax[i - 3]!;
          break;
        }
      }
      if (k === ncand) {
        for (let b = 0; b < 8; b++) u8of64[b] = rc.byte(m.byte, Y_F64 * BYTE);
        v = f64[0]!;
        if (!Number.isFinite(v)) fail(at, `non-finite tile bound ${v}`);
      }
      bounds.push(v);
    }
    const bmin: Vec3 = [bounds[0]!, bounds[1]!, bounds[2]!];
    const bmax: Vec3 = [bounds[3]!, bounds[4]!, bounds[5]!];
    const nVerts = rc.uint(m.int, I_VERT_COUNT * INT);
    if (nVerts > limit || nVerts > 0xffff) fail(at, `${nVerts} vertices is impossible here`);
    const vertices = new Float32Array(nVerts * 3);
    const cs = ctx.cellSize;
    const ch = ctx.cellHeight;
    if (rc.bit(m.bit, B_QUANTIZED) === 1) {
      const q = [0, 0, 0];
      for (let i = 0; i < nVerts * 3; i++) {
        const axis = i % 3;
        q[axis] = q[axis]! + rc.sint(m.int, (I_VX + axis) * INT);
        const v = q[axis]!;
        vertices[i] =
          axis === 1 ? bmin[1] + (v + 1) * ch : (axis === 0 ? bmin[0] : bmin[2]) + v * cs;
      }
    } else {
      for (let i = 0; i < nVerts * 3; i++) {
        let bits = 0;
        for (let b = 0; b < 4; b++) bits |= rc.byte(m.byte, (Y_F32 + b) * BYTE) << (8 * b);
        vertices[i] = floatOf(bits >>> 0);
      }
    }
    const nPolys = rc.uint(m.int, I_POLY_COUNT * INT);
    if (nPolys > limit || nPolys > 0xffff || nPolys > MAX_POLYS_PER_TILE) {
      fail(at, `${nPolys} polygons is impossible here`);
    }
    const polyVerts = new Uint32Array(nPolys * nvp);
    const polyVertCount = new Uint8Array(nPolys);
    let next = 0;
    for (let p = 0; p < nPolys; p++) {
      const n = rc.uint(m.int, I_CORNER_BACK * INT) + 3;
      if (n > nvp) fail(at, `polygon ${p} has ${n} corners, at most ${nvp}`);
      polyVertCount[p] = n;
      let prev = -1;
      for (let k = 0; k < n; k++) {
        let v: number;
        if (rc.bit(m.bit, B_NEW_CORNER + (prev === next - 1 ? 1 : 0)) === 1) v = next++;
        else v = rc.sint(m.int, I_CORNER * INT) + (prev >= 0 ? prev : next);
        if (v < 0 || v >= nVerts) fail(at, `polygon ${p} corner ${k} is vertex ${v} of ${nVerts}`);
        polyVerts[p * nvp + k] = v;
        prev = v;
      }
    }
    const tile: NavMeshTile = {
      tileX: ctx.tileX,
      tileZ: ctx.tileZ,
      bmin,
      bmax,
      maxVertsPerPoly: nvp,
      vertexCount: nVerts,
      vertices,
      polyCount: nPolys,
      polyVerts,
      polyNeighbours: new Uint32Array(nPolys * nvp),
      polyVertCount,
      polyAreas: new Uint8Array(nPolys),
      polyFlags: new Uint16Array(nPolys),
      detailMeshes: new Uint32Array(nPolys * 4),
      detailVertices: new Float32Array(0),
      detailTriangles: new Uint8Array(0),
      bvBounds: new Float32Array(0),
      bvIndex: new Int32Array(0),
    };
    const shared = sharedEdges(tile);
    const qv = quantize(tile, cs, ch);
    for (let p = 0; p < nPolys; p++) {
      const n = polyVertCount[p]!;
      for (let k = 0; k < n; k++) {
        const e = p * nvp + k;
        const a = polyVerts[e]!;
        const b = polyVerts[p * nvp + ((k + 1) % n)]!;
        const c = B_EDGE + (shared[e]! === EDGE_WALL ? 0 : 2) + onSquareEdge(qv, tile, a, b);
        if (rc.bit(m.bit, c) === 0) {
          tile.polyNeighbours[e] = shared[e]!;
        } else if (rc.bit(m.bit, B_BORDER + onSquareEdge(qv, tile, a, b)) === 1) {
          const dir = rc.byte(m.byte, Y_DIR * BYTE);
          if (dir > 3) fail(at, `polygon ${p} edge ${k} is a tile border in direction ${dir}`);
          tile.polyNeighbours[e] = (EDGE_TILE_BORDER | dir) >>> 0;
        } else {
          const v = rc.uint(m.int, I_NEIGHBOUR * INT);
          if (v > nPolys) fail(at, `polygon ${p} edge ${k} links polygon ${v - 1} of ${nPolys}`);
          tile.polyNeighbours[e] = v;
        }
      }
    }
    for (let p = 0; p < nPolys; p++) {
      tile.polyAreas[p] =
        rc.bit(m.bit, B_AREA) === 1 && p > 0
          ? tile.polyAreas[p - 1]!
          : rc.byte(m.byte, Y_AREA * BYTE);
      if (tile.polyAreas[p]! >= MAX_AREAS) {
        fail(at, `polygon ${p} has area ${tile.polyAreas[p]}, areas are 0..${MAX_AREAS - 1}`);
      }
      if (rc.bit(m.bit, B_FLAGS) === 1 && p > 0) tile.polyFlags[p] = tile.polyFlags[p - 1]!;
      else {
        const lo = rc.byte(m.byte, Y_FLAGS * BYTE);
        tile.polyFlags[p] = lo | (rc.byte(m.byte, (Y_FLAGS + 1) * BYTE) << 8);
      }
    }
    const dm = tile.detailMeshes;
    const dverts: number[] = [];
    const dtris: number[] = [];
    let vbase = 0;
    let tbase = 0;
    for (let p = 0; p < nPolys; p++) {
      const n = polyVertCount[p]!;
      const vc = rc.uint(m.int, I_DETAIL_EXTRA * INT) + n;
      const tc = rc.sint(m.int, I_DETAIL_TRIS * INT) + vc - 2;
      if (vc > 255 || tc < 0 || tc > 255 || vbase + vc > limit || tbase + tc > limit) {
        fail(at, `polygon ${p} detail sub-mesh of ${vc} vertices, ${tc} triangles is impossible`);
      }
      dm[p * 4] = vbase;
      dm[p * 4 + 1] = vc;
      dm[p * 4 + 2] = tbase;
      dm[p * 4 + 3] = tc;
      for (let k = 0; k < n; k++) {
        const c = polyVerts[p * nvp + k]! * 3;
        dverts.push(vertices[c]!, vertices[c + 1]!, vertices[c + 2]!);
      }
      const c0 = polyVerts[p * nvp]! * 3;
      for (let k = n * 3; k < vc * 3; k++) {
        const j = k % 3;
        const base = bmin[j]!;
        const step = stepOf(ctx, j);
        const ref = vertices[c0 + j]!;
        if (rc.bit(m.bit, B_DETAIL_GRID + j) === 1) {
          const qv = rc.sint(m.int, (I_DETAIL_Q + j) * INT) + Math.round((ref - base) / step);
          dverts.push(base + qv * step);
        } else {
          let bits = 0;
          for (let b = 0; b < 4; b++) bits |= rc.byte(m.byte, (Y_F32 + b) * BYTE) << (8 * b);
          dverts.push(floatOf((bits ^ bitsOf(ref)) >>> 0));
        }
      }
      for (let t = 0; t < tc; t++) {
        const a = rc.uint(m.int, I_TRI * INT);
        const b = rc.uint(m.int, (I_TRI + 1) * INT);
        const c = rc.uint(m.int, (I_TRI + 2) * INT);
        if (a >= vc || b >= vc || c >= vc) {
          fail(at, `polygon ${p}'s detail triangle uses a vertex past its ${vc}`);
        }
        const flags =
          rc.bit(m.bit, B_TRI_FLAGS) === 1
            ? likelyTriFlags(a, b, c, n)
            : rc.byte(m.byte, Y_TRI_FLAGS * BYTE);
        dtris.push(a, b, c, flags);
      }
      vbase += vc;
      tbase += tc;
    }
    tile.detailVertices = new Float32Array(dverts);
    tile.detailTriangles = new Uint8Array(dtris);
    // What a tile block's reader checks holds here by construction (indices below their
    // counts, detail ranges inside the arrays, border entries +0..3) or was checked above
    // (corner and detail-triangle indices, areas); the floats are checked now, before the BV
    // tree is built from them (its boxes are then finite and its escapes in range).
    for (let k = 0; k < 3; k++) {
      if (!(bmin[k]! <= bmax[k]!))
        fail(at, `bounds [${bmin}]..[${bmax}] are not finite or inverted`);
    }
    for (const f of [vertices, tile.detailVertices]) {
      for (let i = 0; i < f.length; i++) {
        if (!Number.isFinite(f[i]!)) fail(at, `a vertex coordinate is ${f[i]}`);
      }
    }
    const bv = buildTileBVTree(tile);
    tile.bvBounds = bv.bvBounds;
    tile.bvIndex = bv.bvIndex;
    return tile;
  }
}
