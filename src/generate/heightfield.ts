import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import type { Heightfield } from "./types.js";

/** Smallest span pool we allocate; growing from here costs a handful of doublings at most. */
const MIN_POOL_CAPACITY = 1024;
/** Largest pool we reserve up front; beyond this the pool grows on demand. */
const MAX_INITIAL_POOL_CAPACITY = 1 << 20;
/** Largest pool at all: span indices and the Int32Array of two ints per span stay in range. */
const MAX_POOL_CAPACITY = 2 ** 30 - 1;

/**
 * An empty solid heightfield of `width` × `depth` columns over the box [bmin, bmax].
 * The span pool is sized for about one span per column and doubles when full.
 * `pool` optionally supplies the span pool's memory (spans: 8 bytes, areas: 1 byte per span).
 * `maxSpans` bounds the pool: the span that would exceed it throws MeshwayError
 * ("GRID_TOO_LARGE"), which rasterizeTriangles reports with the triangle being rasterized.
 * Throws MeshwayError("INVALID_ARGUMENT") for non-integer or negative sizes and non-positive
 * cell sizes (programmer errors; callers derive these from a validated config).
 */
export function createHeightfield(
  width: number,
  depth: number,
  bmin: Vec3,
  bmax: Vec3,
  cellSize: number,
  cellHeight: number,
  pool?: { spans: ArrayBuffer; areas: ArrayBuffer },
  maxSpans = MAX_POOL_CAPACITY,
): Heightfield {
  if (!Number.isInteger(width) || width < 0 || !Number.isInteger(depth) || depth < 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `createHeightfield: width and depth must be non-negative integers, got ${width} × ${depth}`,
    );
  }
  if (!(cellSize > 0) || !(cellHeight > 0)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `createHeightfield: cellSize and cellHeight must be > 0, got ${cellSize} and ${cellHeight}`,
    );
  }
  const columns = width * depth;
  let capacity = Math.min(Math.max(columns, MIN_POOL_CAPACITY), MAX_INITIAL_POOL_CAPACITY);
  if (pool !== undefined) {
    // Caller-owned (reused) memory: its contents are garbage, which is fine since pool
    // entries are written when handed out. Use all of it to make growing less likely.
    capacity = Math.min(pool.spans.byteLength >>> 3, pool.areas.byteLength);
  }
  // Never past the limit: the pool only grows (and checks the limit) when it is full.
  capacity = Math.max(0, Math.min(capacity, Math.floor(maxSpans)));
  const hf: Heightfield = {
    width,
    depth,
    bmin: [bmin[0], bmin[1], bmin[2]],
    bmax: [bmax[0], bmax[1], bmax[2]],
    cellSize,
    cellHeight,
    columnHead: new Int32Array(columns).fill(-1),
    spans: EMPTY_SPANS,
    spanArea: EMPTY_AREAS,
    poolUsed: 0,
    freeHead: -1,
    maxSpans: Math.max(0, Math.min(Math.floor(maxSpans), MAX_POOL_CAPACITY)),
  };
  // Assigned after creation on purpose: V8 treats a field never re-stored as a constant and
  // compiles addSpan / the rasterizer against it; the pool's first growth (growPool) would
  // then throw that code away in the middle of the first build. Storing here marks the
  // fields mutable before any code is optimized.
  hf.spans = pool ? new Int32Array(pool.spans, 0, capacity * 2) : new Int32Array(capacity * 2);
  hf.spanArea = pool ? new Uint8Array(pool.areas, 0, capacity) : new Uint8Array(capacity);
  return hf;
}

const EMPTY_SPANS = new Int32Array(0);
const EMPTY_AREAS = new Uint8Array(0);

/** Bottom of pool span `s`. */
export function spanBottom(hf: Heightfield, s: number): number {
  return hf.spans[s * 2]! & 0xffff;
}

/** Top of pool span `s`. */
export function spanTop(hf: Heightfield, s: number): number {
  return hf.spans[s * 2]! >>> 16;
}

/** Next span up the column from pool span `s`, -1 at the top. */
export function nextSpan(hf: Heightfield, s: number): number {
  return hf.spans[s * 2 + 1]!;
}

/**
 * Doubles the span pool (up to `hf.maxSpans`), copying the used part into fresh typed arrays;
 * throws MeshwayError("GRID_TOO_LARGE") when the pool already holds `maxSpans` entries.
 */
function growPool(hf: Heightfield): void {
  const limit = hf.maxSpans ?? MAX_POOL_CAPACITY;
  if (hf.spanArea.length >= limit) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `the heightfield's ${hf.width} × ${hf.depth} columns and ${hf.poolUsed} spans reach maxVoxels ${hf.width * hf.depth + limit} (columns + spans)`,
    );
  }
  const capacity = Math.min(Math.max(hf.spanArea.length * 2, MIN_POOL_CAPACITY), limit);
  const used = hf.poolUsed;
  const spans = new Int32Array(capacity * 2);
  spans.set(hf.spans.subarray(0, used * 2));
  const spanArea = new Uint8Array(capacity);
  spanArea.set(hf.spanArea.subarray(0, used));
  hf.spans = spans;
  hf.spanArea = spanArea;
}

/**
 * Inserts the solid span [spanMin, spanMax) with `area` into column (x, z), keeping the
 * column sorted and disjoint (span insertion as in Recast's rcAddSpan, Mononen).
 *
 * Every existing span that overlaps or touches the new one (an existing span whose top equals
 * the new bottom, or whose bottom equals the new top, counts as touching) is absorbed, one by
 * one from the bottom up, and the result covers the union. Areas combine by the climb rule:
 * starting from the new span's area, an absorbed span whose top is within `flagMergeThreshold`
 * voxels of the merged top (as grown so far) contributes max(area, its area) — higher ids take
 * priority; an absorbed span further below loses its area, since its surface is buried. As in
 * Recast, the new span's own area is kept even when the new span ends up buried.
 *
 * No bounds checks: x, z must lie inside the grid and spanMin < spanMax <= SPAN_MAX_HEIGHT.
 */
export function addSpan(
  hf: Heightfield,
  x: number,
  z: number,
  spanMin: number,
  spanMax: number,
  area: number,
  flagMergeThreshold: number,
): void {
  const column = x + z * hf.width;
  const sp = hf.spans;
  let prev = -1;
  let cur = hf.columnHead[column]!;
  // Skip the spans entirely below the new one.
  let bounds = 0;
  while (cur !== -1) {
    bounds = sp[cur * 2]!;
    if (bounds >>> 16 >= spanMin) break;
    prev = cur;
    cur = sp[cur * 2 + 1]!;
  }
  if (cur === -1 || (bounds & 0xffff) > spanMax) {
    insertSpan(hf, column, prev, cur, spanMin | (spanMax << 16), area);
    return;
  }
  // `cur` overlaps or touches the new span: it becomes the merged span, in place, and absorbs
  // every following span that still overlaps the (growing) union. Once one span overlaps,
  // none further up can lie below the union, so no more skipping is needed.
  const areas = hf.spanArea;
  const keep = cur;
  let newMin = spanMin;
  let newMax = spanMax;
  let newArea = area;
  for (;;) {
    const curMax = bounds >>> 16;
    const curMin = bounds & 0xffff;
    if (curMin < newMin) newMin = curMin;
    if (curMax > newMax) newMax = curMax;
    // newMax >= curMax here, so this is |newMax - curMax| <= flagMergeThreshold.
    if (newMax - curMax <= flagMergeThreshold) {
      const curArea = areas[cur]!;
      if (curArea > newArea) newArea = curArea;
    }
    const after = sp[cur * 2 + 1]!;
    if (cur !== keep) {
      // Return the absorbed span to the free list.
      sp[cur * 2 + 1] = hf.freeHead;
      hf.freeHead = cur;
    }
    cur = after;
    if (cur === -1) break;
    bounds = sp[cur * 2]!;
    if ((bounds & 0xffff) > newMax) break;
  }
  sp[keep * 2] = newMin | (newMax << 16);
  areas[keep] = newArea;
  sp[keep * 2 + 1] = cur;
}

/** Links a fresh span with packed `bounds` between `prev` (-1: column head) and `cur`. */
function insertSpan(
  hf: Heightfield,
  column: number,
  prev: number,
  cur: number,
  bounds: number,
  area: number,
): void {
  let s = hf.freeHead;
  if (s !== -1) {
    hf.freeHead = hf.spans[s * 2 + 1]!;
  } else {
    if (hf.poolUsed === hf.spanArea.length) growPool(hf);
    s = hf.poolUsed++;
  }
  const sp = hf.spans;
  sp[s * 2] = bounds;
  sp[s * 2 + 1] = cur;
  hf.spanArea[s] = area;
  if (prev === -1) hf.columnHead[column] = s;
  else sp[prev * 2 + 1] = s;
}

/**
 * Number of live spans: pool entries handed out minus those on the free list (short: merges
 * free spans and the next insertion reuses them), not a walk over every column.
 */
export function countSpans(hf: Heightfield): number {
  const sp = hf.spans;
  let free = 0;
  for (let s = hf.freeHead; s !== -1; s = sp[s * 2 + 1]!) free++;
  return hf.poolUsed - free;
}
