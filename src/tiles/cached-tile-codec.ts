import { linkNeighbours } from "../generate/compact.js";
import { erodeWalkableArea } from "../generate/erode.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { Vec3 } from "../math/vec3.js";
import { MAX_TILES_PER_CELL } from "../navmesh/nav-mesh.js";
import {
  BYTE_MODEL_SIZE,
  INT_MODEL_SIZE,
  newModel,
  RangeDecoder,
  RangeEncoder,
} from "./range-coder.js";
import { NO_LAYER } from "./tile-layers.js";

/*
 * A cached tile in the tile cache file (format 3): its compact heightfield, its heightfield
 * layer partition (span → layer) and the span areas its layer tiles were built from, as one
 * block that decodes on its own. Layout: u8 flags (1: bounds stored, 2: tile areas stored),
 * u8 layer count, u16 0, u32 span count, [f64 bmin xyz, bmax xyz when flag 1 — else they are
 * the tile's bounds as the build computes them], then one range-coded stream (range-coder.ts)
 * holding, in order:
 *
 *   per column, row by row: its span count (context: the left and upper columns' counts);
 *   per span: its floor as the residual of LOCO-I's planar predictor over the same-index
 *   spans left, up and up-left (else the left or upper span's floor), in 13 gradient
 *   contexts; whether it is open to the column top (context: top span of its column, the
 *   neighbours open); if not, its ceiling (floor + clearance) predicted the same way from
 *   the neighbours' ceilings; its area and its layer as "same as the reference span's"
 *   flags with an escape;
 *   then, when flag 2, per span the tile's areas against the obstacle-free erosion of the
 *   heightfield (recomputed here: it is what a tile with no obstacle or volume is built
 *   from, so those tiles cost a few bits).
 *
 * Links (spanCon) and cellFirst are not stored: the compaction stage's linkNeighbours and a
 * running sum give them back exactly. The erosion is handed back too (the cache keeps it).
 */

const FLAG_BOUNDS = 1;
const FLAG_AREAS = 2;
const HEADER = 8;
const BOUNDS = 48;
/** A span costs at least four adaptive decisions (≥ 0.02 bit each): bounds claimed counts. */
const MAX_SPANS_PER_BYTE = 128;

/** Reference kinds (contexts): same index left, same index up, another span, none. */
const REF_KINDS = 4;
/** Floor predictor kinds: 9 gradient classes of the planar predictor, then the REF_KINDS. */
const FLOOR_KINDS = 9 + REF_KINDS;
/** Ceiling predictor kinds (predictCeiling), each split by whether the floor was exact. */
const CEILING_KINDS = 12;

interface Models {
  count: Uint16Array;
  dy: Uint16Array;
  dh: Uint16Array;
  open: Uint16Array;
  same: Uint16Array;
  byte: Uint16Array;
}

const M_AREA = 0;
const M_LAYER = REF_KINDS;
const M_TILE_AREA = 2 * REF_KINDS;

function models(): Models {
  return {
    count: newModel(9 * INT_MODEL_SIZE),
    dy: newModel(FLOOR_KINDS * INT_MODEL_SIZE),
    dh: newModel(2 * CEILING_KINDS * INT_MODEL_SIZE),
    open: newModel(18),
    same: newModel(2 * REF_KINDS + 4),
    byte: newModel(3 * BYTE_MODEL_SIZE),
  };
}

/** What a cached tile block holds. */
export interface CachedTileData {
  chf: CompactHeightfield;
  /** Span → layer (NO_LAYER: in none). */
  layerOf: Uint8Array;
  layerCount: number;
  /** The tile's span areas its layer tiles were built from, when stored. */
  areas: Uint8Array | null;
  /** The heightfield's obstacle-free erosion (the cache's `eroded`). */
  eroded: Uint8Array;
}

/** The obstacle-free erosion the tile cache computes (tile-cache.ts tileAreas). */
export function obstacleFreeErosion(chf: CompactHeightfield, radiusVoxels: number): Uint8Array {
  const base: CompactHeightfield = { ...chf, areas: chf.areas.slice() };
  erodeWalkableArea(base, radiusVoxels);
  return base.areas;
}

const clamp2 = (n: number) => Math.min(n, 2);

/**
 * The reference of span `j` of column (x, z): its index and kind (REF_KINDS), -1 for none.
 * Reads only columns before (x, z) in row order, so the decoder has them.
 */
function reference(
  first: Uint32Array,
  count: Uint16Array,
  width: number,
  x: number,
  z: number,
  j: number,
  out: Int32Array,
): void {
  const c = x + z * width;
  if (x > 0 && count[c - 1]! > j) {
    out[0] = first[c - 1]! + j;
    out[1] = 0;
  } else if (z > 0 && count[c - width]! > j) {
    out[0] = first[c - width]! + j;
    out[1] = 1;
  } else if (x > 0 && count[c - 1]! > 0) {
    out[0] = first[c - 1]! + count[c - 1]! - 1;
    out[1] = 2;
  } else if (z > 0 && count[c - width]! > 0) {
    out[0] = first[c - width]! + count[c - width]! - 1;
    out[1] = 2;
  } else {
    out[0] = -1;
    out[1] = 3;
  }
}

/** LOCO-I's median edge detector over left a, upper b, upper-left c (Weinberger et al.). */
function med(a: number, b: number, c: number): number {
  if (c >= Math.max(a, b)) return Math.min(a, b);
  if (c <= Math.min(a, b)) return Math.max(a, b);
  return a + b - c;
}

const grad = (a: number, b: number, c: number): number => {
  const u = a > c ? a - c : c - a;
  const v = b > c ? b - c : c - b;
  return Math.min(u, 2) * 3 + Math.min(v, 2);
};

/** A span whose clearance reaches the top of the column (nothing solid above it). */
const OPEN = 0xffff;

/**
 * Predicted floor of span `j` of column (x, z) and its context into `out` [floor, kind]: the
 * planar predictor over the same-index spans of the left, upper and upper-left columns when
 * all three exist (sloped floors), else the reference span's (`r`, `kind` from
 * {@link reference}).
 */
function predictFloor(
  chf: { cellFirst: Uint32Array; cellCount: Uint16Array; spanY: Uint16Array },
  width: number,
  x: number,
  z: number,
  j: number,
  r: number,
  kind: number,
  out: Int32Array,
): void {
  const { cellFirst, cellCount, spanY } = chf;
  const c = x + z * width;
  if (
    x > 0 &&
    z > 0 &&
    cellCount[c - 1]! > j &&
    cellCount[c - width]! > j &&
    cellCount[c - width - 1]! > j
  ) {
    const ya = spanY[cellFirst[c - 1]! + j]!;
    const yb = spanY[cellFirst[c - width]! + j]!;
    const yd = spanY[cellFirst[c - width - 1]! + j]!;
    out[0] = med(ya, yb, yd);
    out[1] = grad(ya, yb, yd);
  } else {
    out[0] = r >= 0 ? spanY[r]! : 0;
    out[1] = 9 + kind;
  }
}

/** Ceiling (floor + clearance) of span s, or -1 when it is open. */
function ceilingOf(spanY: Uint16Array, spanH: Uint16Array, s: number): number {
  const c = spanY[s]! + spanH[s]!;
  return c === OPEN ? -1 : c;
}

/**
 * Predicted ceiling of a span that is not open, and its context, into `out` [ceiling, kind]:
 * the planar predictor when the same-index spans left, up and up-left all have ceilings
 * (kinds 0..8), else the left or upper one's (9, 10), else the floor `y` plus the last
 * clearance seen (`lastH`, 11).
 */
function predictCeiling(
  chf: { cellFirst: Uint32Array; cellCount: Uint16Array; spanY: Uint16Array; spanH: Uint16Array },
  width: number,
  x: number,
  z: number,
  j: number,
  y: number,
  lastH: number,
  out: Int32Array,
): void {
  const { cellFirst, cellCount, spanY, spanH } = chf;
  const c = x + z * width;
  const cl = c - 1;
  const cu = c - width;
  const a = x > 0 && cellCount[cl]! > j ? ceilingOf(spanY, spanH, cellFirst[cl]! + j) : -1;
  const b = z > 0 && cellCount[cu]! > j ? ceilingOf(spanY, spanH, cellFirst[cu]! + j) : -1;
  const d =
    x > 0 && z > 0 && cellCount[cu - 1]! > j ? ceilingOf(spanY, spanH, cellFirst[cu - 1]! + j) : -1;
  if (a >= 0 && b >= 0 && d >= 0) {
    out[0] = med(a, b, d);
    out[1] = grad(a, b, d);
  } else if (a >= 0) {
    out[0] = a;
    out[1] = 9;
  } else if (b >= 0) {
    out[0] = b;
    out[1] = 10;
  } else {
    out[0] = y + lastH;
    out[1] = 11;
  }
}

/** Context of the open flag: top span of its column or not, the left/upper spans open. */
function openContext(
  chf: { cellFirst: Uint32Array; cellCount: Uint16Array; spanY: Uint16Array; spanH: Uint16Array },
  width: number,
  x: number,
  z: number,
  j: number,
  n: number,
): number {
  const { cellFirst, cellCount, spanY, spanH } = chf;
  const c = x + z * width;
  // Per neighbour: 0 closed, 1 open, 2 no span of that index.
  let l = 2;
  let u = 2;
  if (x > 0 && cellCount[c - 1]! > j) {
    const s = cellFirst[c - 1]! + j;
    l = spanY[s]! + spanH[s]! === OPEN ? 1 : 0;
  }
  if (z > 0 && cellCount[c - width]! > j) {
    const s = cellFirst[c - width]! + j;
    u = spanY[s]! + spanH[s]! === OPEN ? 1 : 0;
  }
  return (j === n - 1 ? 9 : 0) + l * 3 + u;
}

const sameVec = (a: Vec3, b: Vec3) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * Encodes a cached tile. `bounds` are the heightfield bounds the build computes for the tile
 * (stored only when the heightfield's differ); `eroded` its obstacle-free erosion.
 */
export function encodeCachedTile(
  data: Omit<CachedTileData, "eroded">,
  eroded: Uint8Array,
  bounds: { bmin: Vec3; bmax: Vec3 },
): Uint8Array {
  const { chf, layerOf, layerCount, areas } = data;
  const { width, depth, cellFirst, cellCount, spanY, spanH } = chf;
  const storeBounds = !sameVec(chf.bmin, bounds.bmin) || !sameVec(chf.bmax, bounds.bmax);
  const rc = new RangeEncoder();
  const m = models();
  const ref = new Int32Array(2);
  const pred = new Int32Array(2);
  let lastH = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      const left = x > 0 ? clamp2(cellCount[c - 1]!) : 0;
      const up = z > 0 ? clamp2(cellCount[c - width]!) : 0;
      const n = cellCount[c]!;
      rc.uint(m.count, (left * 3 + up) * INT_MODEL_SIZE, n);
      for (let j = 0; j < n; j++) {
        const s = cellFirst[c]! + j;
        reference(cellFirst, cellCount, width, x, z, j, ref);
        const r = ref[0]!;
        const kind = ref[1]!;
        predictFloor(chf, width, x, z, j, r, kind, pred);
        const y = spanY[s]!;
        const dy = y - pred[0]!;
        rc.sint(m.dy, pred[1]! * INT_MODEL_SIZE, dy);
        const open = y + spanH[s]! === OPEN;
        rc.bit(m.open, openContext(chf, width, x, z, j, n), open ? 1 : 0);
        if (!open) {
          predictCeiling(chf, width, x, z, j, y, lastH, pred);
          const hk = 2 * pred[1]! + (dy === 0 ? 0 : 1);
          rc.sint(m.dh, hk * INT_MODEL_SIZE, y + spanH[s]! - pred[0]!);
          lastH = spanH[s]!;
        }
        const area = chf.areas[s]!;
        const sameArea = area === (r >= 0 ? chf.areas[r]! : 0);
        rc.bit(m.same, M_AREA + kind, sameArea ? 0 : 1);
        if (!sameArea) rc.byte(m.byte, 0, area);
        const layer = layerOf[s]!;
        const sameLayer = layer === (r >= 0 ? layerOf[r]! : 0);
        rc.bit(m.same, M_LAYER + kind, sameLayer ? 0 : 1);
        if (!sameLayer) rc.byte(m.byte, BYTE_MODEL_SIZE, layer);
      }
    }
  }
  if (areas) {
    let miss = 0;
    for (let s = 0; s < chf.spanCount; s++) {
      const e = eroded[s]!;
      const a = areas[s]!;
      const ctx = M_TILE_AREA + (e === 0 ? 0 : 2) + miss;
      miss = a === e ? 0 : 1;
      rc.bit(m.same, ctx, miss);
      if (miss) rc.byte(m.byte, 2 * BYTE_MODEL_SIZE, a);
    }
  }
  const stream = rc.finish();
  const head = HEADER + (storeBounds ? BOUNDS : 0);
  const out = new Uint8Array(head + stream.length);
  const dv = new DataView(out.buffer);
  out[0] = (storeBounds ? FLAG_BOUNDS : 0) | (areas ? FLAG_AREAS : 0);
  out[1] = layerCount;
  dv.setUint32(4, chf.spanCount, true);
  if (storeBounds) {
    const reals = [...chf.bmin, ...chf.bmax];
    for (let i = 0; i < 6; i++) dv.setFloat64(HEADER + 8 * i, reals[i]!, true);
  }
  out.set(stream, head);
  return out;
}

/** What the file's config says every tile heightfield is (the block does not repeat it). */
export interface CachedTileShape {
  width: number;
  depth: number;
  borderSize: number;
  cellSize: number;
  cellHeight: number;
  walkableHeightVoxels: number;
  walkableClimbVoxels: number;
  walkableRadiusVoxels: number;
  bounds: { bmin: Vec3; bmax: Vec3 };
}

/** A cached tile block's header, checked (see {@link readCachedTileHeader}). */
export interface CachedTileHeader {
  layerCount: number;
  spanCount: number;
  hasAreas: boolean;
  bmin: Vec3;
  bmax: Vec3;
  /** Offset of the coded stream. */
  head: number;
}

/**
 * Reads and checks the header of a block from {@link encodeCachedTile}: known flags, layer and
 * span counts in range (the span count bounded by the coded bytes, so nothing absurd is ever
 * allocated), finite bounds. `fail(offset, what)` must throw.
 */
export function readCachedTileHeader(
  block: Uint8Array,
  shape: CachedTileShape,
  fail: (at: number, what: string) => never,
): CachedTileHeader {
  if (block.length < HEADER) fail(0, "truncated header");
  const dv = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const flags = block[0]!;
  if ((flags & ~(FLAG_BOUNDS | FLAG_AREAS)) !== 0) fail(0, `unknown flags ${flags}`);
  const layerCount = block[1]!;
  if (layerCount > MAX_TILES_PER_CELL) {
    fail(1, `${layerCount} layers, a navmesh keeps at most ${MAX_TILES_PER_CELL} per tile`);
  }
  if (dv.getUint16(2, true) !== 0) fail(2, "reserved field is not 0");
  const spanCount = dv.getUint32(4, true);
  let bmin = shape.bounds.bmin;
  let bmax = shape.bounds.bmax;
  let head = HEADER;
  if (flags & FLAG_BOUNDS) {
    if (block.length < HEADER + BOUNDS) fail(HEADER, "truncated bounds");
    const r: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = dv.getFloat64(HEADER + 8 * i, true);
      if (!Number.isFinite(v)) fail(HEADER + 8 * i, `non-finite bound ${v}`);
      r.push(v);
    }
    bmin = [r[0]!, r[1]!, r[2]!];
    bmax = [r[3]!, r[4]!, r[5]!];
    head += BOUNDS;
  }
  const cells = shape.width * shape.depth;
  if (spanCount > MAX_SPANS_PER_BYTE * (block.length - head + 8) || spanCount > cells * 0xffff) {
    fail(4, `span count ${spanCount} is impossible for ${block.length - head} coded bytes`);
  }
  return { layerCount, spanCount, hasAreas: (flags & FLAG_AREAS) !== 0, bmin, bmax, head };
}

/**
 * Decodes a block whose header {@link readCachedTileHeader} accepted. Total: every stream
 * decodes to some heightfield — a value out of range is clamped into it (a floor to 0..65535,
 * a clearance below the column top, an area to 1..63, a layer that is not one, or repeats in a
 * column, to none), a column past the stated span count is cut, missing bytes read as zeros —
 * so it never fails and can run when the cache first needs the tile rather than on load. (The
 * file's checksum catches damage; this keeps a crafted file from doing worse than describing
 * some other heightfield.)
 */
export function decodeCachedTile(
  block: Uint8Array,
  header: CachedTileHeader,
  shape: CachedTileShape,
): CachedTileData {
  const { layerCount, head, bmin, bmax } = header;
  let spanCount = header.spanCount;
  const { width, depth } = shape;
  const cells = width * depth;
  const cellFirst = new Uint32Array(cells);
  const cellCount = new Uint16Array(cells);
  let spanY = new Uint16Array(spanCount);
  let spanH = new Uint16Array(spanCount);
  let areas = new Uint8Array(spanCount);
  let layerOf = new Uint8Array(spanCount);
  const rc = new RangeDecoder(block, head);
  const m = models();
  const ref = new Int32Array(2);
  const pred = new Int32Array(2);
  let lastH = 0;
  const partial = { cellFirst, cellCount, spanY, spanH };
  // Per layer: the last column holding one of its spans (a layer holds one span per column).
  const lastColumn = new Int32Array(MAX_TILES_PER_CELL).fill(-1);
  let s = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      const left = x > 0 ? clamp2(cellCount[c - 1]!) : 0;
      const up = z > 0 ? clamp2(cellCount[c - width]!) : 0;
      const n = Math.min(rc.uint(m.count, (left * 3 + up) * INT_MODEL_SIZE), spanCount - s);
      cellFirst[c] = s;
      cellCount[c] = n;
      for (let j = 0; j < n; j++, s++) {
        reference(cellFirst, cellCount, width, x, z, j, ref);
        const r = ref[0]!;
        const kind = ref[1]!;
        predictFloor(partial, width, x, z, j, r, kind, pred);
        const dy = rc.sint(m.dy, pred[1]! * INT_MODEL_SIZE);
        const y = Math.min(Math.max(dy + pred[0]!, 0), 0xffff);
        spanY[s] = y;
        // An open span's clearance reaches the column top; else its ceiling is coded.
        spanH[s] = OPEN - y;
        if (rc.bit(m.open, openContext(partial, width, x, z, j, n)) === 0) {
          predictCeiling(partial, width, x, z, j, y, lastH, pred);
          const hk = 2 * pred[1]! + (dy === 0 ? 0 : 1);
          const h = rc.sint(m.dh, hk * INT_MODEL_SIZE) + pred[0]! - y;
          const clamped = Math.max(0, Math.min(h, OPEN - 1 - y));
          spanH[s] = clamped;
          lastH = clamped;
        }
        const area = rc.bit(m.same, M_AREA + kind) ? rc.byte(m.byte, 0) : r >= 0 ? areas[r]! : 0;
        areas[s] = area === 0 || area > 63 ? 63 : area;
        let layer = rc.bit(m.same, M_LAYER + kind)
          ? rc.byte(m.byte, BYTE_MODEL_SIZE)
          : r >= 0
            ? layerOf[r]!
            : 0;
        if (layer !== NO_LAYER) {
          if (layer >= layerCount || lastColumn[layer] === c) layer = NO_LAYER;
          else lastColumn[layer] = c;
        }
        layerOf[s] = layer;
      }
    }
  }
  if (s < spanCount) {
    spanCount = s;
    spanY = spanY.slice(0, s);
    spanH = spanH.slice(0, s);
    areas = areas.slice(0, s);
    layerOf = layerOf.slice(0, s);
  }
  const spanCon = new Uint32Array(spanCount);
  const { walkableHeightVoxels, walkableClimbVoxels } = shape;
  linkNeighbours(
    width,
    depth,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    walkableHeightVoxels,
    walkableClimbVoxels,
  );
  const chf: CompactHeightfield = {
    width,
    depth,
    spanCount,
    walkableHeightVoxels,
    walkableClimbVoxels,
    borderSize: shape.borderSize,
    bmin,
    bmax,
    cellSize: shape.cellSize,
    cellHeight: shape.cellHeight,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    areas,
  };
  const eroded = obstacleFreeErosion(chf, shape.walkableRadiusVoxels);
  let tileAreas: Uint8Array | null = null;
  if (header.hasAreas) {
    tileAreas = new Uint8Array(spanCount);
    let miss = 0;
    for (let i = 0; i < spanCount; i++) {
      const e = eroded[i]!;
      miss = rc.bit(m.same, M_TILE_AREA + (e === 0 ? 0 : 2) + miss);
      tileAreas[i] = miss ? rc.byte(m.byte, 2 * BYTE_MODEL_SIZE) & 63 : e;
    }
  }
  return { chf, layerOf, layerCount, areas: tileAreas, eroded };
}
