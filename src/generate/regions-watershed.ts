import { MeshwayError } from "../errors.js";
import type { BuildContext } from "./context.js";
import {
  IntStack,
  int32View,
  mergeAndFilterRegions,
  paintBorderRegions,
  spanLayoutOrdered,
  spanNeighbours,
} from "./region-common.js";
import { type BuildScratch, sharedBuildScratch } from "./scratch.js";
import {
  BORDER_REGION,
  type CompactHeightfield,
  type DistanceField,
  NULL_AREA,
  type Regions,
} from "./types.js";

// Module-local copies of the shared constants: some module loaders (vitest's) turn imported
// bindings into property reads, which are slow in the hot loops below.
const NO_AREA = NULL_AREA;
const BORDER_FLAG = BORDER_REGION;

/** Number of 2-unit distance levels sorted at once into level stacks. */
const LEVEL_STACKS = 8;
/** How far (in iterations) regions grow into each new level; Recast's fixed choice. */
const EXPAND_ITERS = 8;
const MAX_REGION_ID = 0xffff;

// Stacks reused between calls (they only grow); cleared before use. Made on the first call,
// not on import: a cold `import("meshway")` need not run IntStack's code (issue 17).
let levelStacks: IntStack[] | null = null;
let floodStack: IntStack | null = null;
let carryStack: IntStack | null = null;

/**
 * Watershed partition as in Recast's rcBuildRegions (Mononen): walk the distance field from
 * its highest level down in steps of 2; at each level first grow the existing regions into
 * the newly uncovered spans (by distance, at most EXPAND_ITERS rings), then flood-fill what
 * is left into new regions. After the last level regions grow without limit, then small
 * regions are removed or merged ({@link mergeAndFilterRegions}). Regions that overlap
 * themselves vertically are reported through `ctx` (Recast logs them and keeps them).
 *
 * @param dist distance field of this chf ({@link buildDistanceField}).
 * @param borderSize tile border width in cells; its spans get BORDER_REGION ids. [>= 0]
 * @param minRegionAreaCells connected regions smaller than this are dropped. [cells]
 * @param mergeRegionAreaCells regions up to this size are merged into neighbours. [cells]
 */
export function buildRegionsWatershed(
  chf: CompactHeightfield,
  dist: DistanceField,
  borderSize: number,
  minRegionAreaCells: number,
  mergeRegionAreaCells: number,
  ctx?: BuildContext,
): Regions {
  const n = chf.spanCount;
  if (dist.dist.length !== n) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `buildRegionsWatershed: distance field has ${dist.dist.length} entries, chf has ${n} spans`,
    );
  }
  const scratch = ctx?.scratch ?? sharedBuildScratch;
  if (levelStacks === null) {
    levelStacks = Array.from({ length: LEVEL_STACKS }, () => new IntStack(256));
    floodStack = new IntStack(256);
    carryStack = new IntStack(256);
  }
  // Usually the distance field's table (it builds one on its way).
  const nei = spanNeighbours(chf, scratch);
  const spanRegion = new Uint16Array(n);
  const ws: Watershed = {
    chf,
    nei,
    dist: dist.dist,
    reg: spanRegion,
    regDist: scratch.uint16("distance", n),
    pending: scratch.int32("spanColumn", n),
    pendingLength: 0,
    buckets: null,
    dirtySpan: scratch.int32("dirtySpans", n),
    dirtyValue: scratch.int32("dirtyValues", n),
    mark: scratch.int32("spanMarks", n).fill(0),
    stamp: 0,
    scratch,
    flood: floodStack!,
  };

  let regionId = paintBorderRegions(chf, spanRegion, borderSize, 1);
  collectPending(ws, dist.maxDistance);

  const stacks = levelStacks;

  let level = (dist.maxDistance + 1) & ~1;
  let sId = -1;
  let firstSort = true;
  let overflow = false;
  while (level > 0 && !overflow) {
    level = level >= 2 ? level - 2 : 0;
    sId = (sId + 1) & (LEVEL_STACKS - 1);
    if (sId === 0) sortSpansByLevel(ws, level, stacks, firstSort);
    else appendUnassigned(ws, stacks[sId - 1]!, stacks[sId]!);

    firstSort = false;
    const stack = stacks[sId]!;
    expandRegions(ws, EXPAND_ITERS, level, stack);

    // Spans still unassigned at this level seed new regions.
    const data = stack.data;
    for (let j = 0; j < stack.length; j++) {
      const i = data[j]!;
      if (spanRegion[i] !== 0) continue;
      if (floodRegion(ws, i, level, regionId)) {
        if (regionId === MAX_REGION_ID) {
          overflow = true;
          break;
        }
        regionId++;
      }
    }
  }
  if (overflow) {
    // Recast gives up on the whole partition here.
    ctx?.warn("regions: region id overflow (more than 65535 watershed regions); no regions built");
    return { spanRegion: new Uint16Array(n), regionCount: 0 };
  }

  // Let regions take every walkable span they can reach.
  // Filled here rather than by a branch in expandRegions: that function is optimized during
  // the per-level calls, and a branch they never took would send this long last call back to
  // the interpreter (a cold first build).
  fillFromPending(ws, 0, ws.flood);
  expandRegions(ws, EXPAND_ITERS * 8, 0, ws.flood);

  const regionCount = mergeAndFilterRegions(
    chf,
    spanRegion,
    regionId,
    minRegionAreaCells,
    mergeRegionAreaCells,
    ctx,
    nei,
  );
  return { spanRegion, regionCount };
}

/** Shared state of one watershed run. */
interface Watershed {
  chf: CompactHeightfield;
  nei: Int32Array;
  dist: Uint16Array;
  reg: Uint16Array;
  /** Distance (in half-cells of growth) from the region's flood seed, for fair growth. */
  regDist: Uint16Array;
  /** Walkable spans without a region (at the last compaction), in column order. */
  pending: Int32Array;
  pendingLength: number;
  /** Pending spans grouped by dist >> 1: bucket b is byLevel[start[b], start[b + 1]). */
  buckets: { byLevel: Int32Array; start: Int32Array; maxBucket: number } | null;
  /** Assignments of one expansion sweep: span, and region << 16 | seed distance. */
  dirtySpan: Int32Array;
  dirtyValue: Int32Array;
  /** Per span: stamp of the expansion call whose stack holds it, or of the ring that saw it. */
  mark: Int32Array;
  stamp: number;
  flood: IntStack;
  scratch: BuildScratch;
}

/**
 * Lists the walkable spans that have no region yet, in column order (Recast's scan order),
 * and, when the columns' spans lie in column order in memory (as the compact build makes
 * them), buckets them by distance level for {@link sortSpansByLevel}.
 *
 * The two loops are functions that end in a plain return: V8 optimizes such a loop mid-run
 * (on-stack replacement), and any not-yet-run code after it (a property store, arithmetic)
 * would send it back to the interpreter on the first build.
 */
function collectPending(ws: Watershed, maxDistance: number): void {
  const { chf, reg, pending, dist } = ws;
  // Levels above maxDistance >> 1 (only in a distance field not made by buildDistanceField)
  // share the top bucket: every use of the buckets treats all levels >= that one alike.
  const maxBucket = maxDistance >> 1;
  // Entries 1 .. are per-level counts; entry 0 flags spans out of column order.
  const bucketStart = new Int32Array(maxBucket + 2);
  // In column order the column walk is the span walk: skip the columns when that is known.
  const len =
    spanLayoutOrdered(chf) === true
      ? scanPendingInOrder(chf.areas, reg, pending, dist, bucketStart, maxBucket)
      : scanPending(chf, reg, pending, dist, bucketStart, maxBucket);
  ws.pendingLength = len;
  ws.buckets = null;
  if (bucketStart[0] !== 0) return;
  // Counting sort by level (stable, so every bucket stays in column order = index order).
  for (let b = 0; b <= maxBucket; b++) bucketStart[b + 1]! += bucketStart[b]!;
  const byLevel = ws.scratch.int32("spanOrder", len);
  fillBuckets(pending, dist, len, byLevel, bucketStart.slice(0, maxBucket + 1), maxBucket);
  ws.buckets = { byLevel, start: bucketStart, maxBucket };
}

/** collectPending's scan; returns the pending count (bucketStart[0] = 1 if out of order). */
function scanPending(
  chf: CompactHeightfield,
  reg: Uint16Array,
  pending: Int32Array,
  dist: Uint16Array,
  bucketStart: Int32Array,
  maxBucket: number,
): number {
  const { cellCount, areas } = chf;
  const cellFirst = int32View(chf.cellFirst);
  const columns = chf.width * chf.depth;
  let len = 0;
  let next = 0;
  for (let c = 0; c < columns; c++) {
    const count = cellCount[c]!;
    if (count === 0) continue;
    const first = cellFirst[c]!;
    const end = first + count;
    if (first !== next) bucketStart[0] = 1;
    next = end;
    for (let i = first; i < end; i++) {
      if (areas[i] !== NO_AREA && reg[i] === 0) {
        pending[len++] = i;
        const b = dist[i]! >> 1;
        bucketStart[Math.min(b, maxBucket) + 1]!++;
      }
    }
  }
  return len;
}

/** {@link scanPending} for spans known to lie in column order: one walk over the spans. */
function scanPendingInOrder(
  areas: Uint8Array,
  reg: Uint16Array,
  pending: Int32Array,
  dist: Uint16Array,
  bucketStart: Int32Array,
  maxBucket: number,
): number {
  const n = reg.length;
  let len = 0;
  for (let i = 0; i < n; i++) {
    if (areas[i] !== NO_AREA && reg[i] === 0) {
      pending[len++] = i;
      const b = dist[i]! >> 1;
      bucketStart[Math.min(b, maxBucket) + 1]!++;
    }
  }
  return len;
}

/** Writes pending[0, len) into byLevel by level, advancing each level's `fill` position. */
function fillBuckets(
  pending: Int32Array,
  dist: Uint16Array,
  len: number,
  byLevel: Int32Array,
  fill: Int32Array,
  maxBucket: number,
): void {
  for (let j = 0; j < len; j++) {
    const i = pending[j]!;
    const b = dist[i]! >> 1;
    byLevel[fill[Math.min(b, maxBucket)]!++] = i;
  }
}

/** Drops spans that gained a region from the pending list (they never lose it again). */
function compactPending(ws: Watershed): void {
  const { reg, pending } = ws;
  const n = ws.pendingLength;
  let len = 0;
  for (let j = 0; j < n; j++) {
    const i = pending[j]!;
    if (reg[i] === 0) pending[len++] = i;
  }
  ws.pendingLength = len;
}

/**
 * Buckets the unassigned walkable spans by distance level: stack k gets the spans at level
 * `startLevel - 2k` (and stack 0 everything higher), spans below the last bucket are skipped.
 * Every stack lists its spans in column order, as Recast's full scan does.
 */
function sortSpansByLevel(
  ws: Watershed,
  startLevel: number,
  stacks: IntStack[],
  firstSort: boolean,
): void {
  const buckets = ws.buckets;
  if (buckets === null) {
    scanSpansByLevel(ws, startLevel, stacks);
    return;
  }
  const reg = ws.reg;
  const { byLevel, start: bucketStart, maxBucket } = buckets;
  const start = startLevel >> 1;

  // Stack 0: unassigned spans of level >= start. Those above `start` are exactly the ones
  // still unassigned in the previous round's last stack (every earlier stack's leftovers were
  // appended to it), or, on the first sort, the spans of the higher buckets.
  const carry = carryStack!;
  carry.clear();
  if (firstSort) {
    for (let b = start + 1; b <= maxBucket; b++) {
      for (let j = bucketStart[b]!; j < bucketStart[b + 1]!; j++) {
        const i = byLevel[j]!;
        if (reg[i] === 0) carry.push(i);
      }
    }
  } else {
    const last = stacks[LEVEL_STACKS - 1]!;
    for (let j = 0; j < last.length; j++) {
      const i = last.data[j]!;
      if (reg[i] === 0) carry.push(i);
    }
  }
  for (const s of stacks) s.clear();
  const carried = carry.data.subarray(0, carry.length).sort();
  // Merge the carried spans with bucket `start`, both in index order.
  const s0 = stacks[0]!;
  let k = 0;
  if (start <= maxBucket) {
    for (let j = bucketStart[start]!; j < bucketStart[start + 1]!; j++) {
      const i = byLevel[j]!;
      if (reg[i] !== 0) continue;
      while (k < carried.length && carried[k]! < i) s0.push(carried[k++]!);
      s0.push(i);
    }
  }
  while (k < carried.length) s0.push(carried[k++]!);

  for (let sId = 1; sId < LEVEL_STACKS; sId++) {
    const b = start - sId;
    if (b < 0) break;
    if (b > maxBucket) continue;
    const stack = stacks[sId]!;
    for (let j = bucketStart[b]!; j < bucketStart[b + 1]!; j++) {
      const i = byLevel[j]!;
      if (reg[i] === 0) stack.push(i);
    }
  }
}

/** {@link sortSpansByLevel} for any span layout: one scan over the pending list. */
function scanSpansByLevel(ws: Watershed, startLevel: number, stacks: IntStack[]): void {
  const { dist, reg, pending } = ws;
  const n = ws.pendingLength;
  const start = startLevel >> 1;
  for (const s of stacks) s.clear();
  let len = 0;
  for (let j = 0; j < n; j++) {
    const i = pending[j]!;
    // Spans that gained a region never lose it: drop them from the pending list for good.
    if (reg[i] !== 0) continue;
    pending[len++] = i;
    let s = start - (dist[i]! >> 1);
    if (s >= LEVEL_STACKS) continue;
    if (s < 0) s = 0;
    stacks[s]!.push(i);
  }
  ws.pendingLength = len;
}

function appendUnassigned(ws: Watershed, from: IntStack, to: IntStack): void {
  const reg = ws.reg;
  const data = from.data;
  for (let j = 0; j < from.length; j++) {
    const i = data[j]!;
    if (reg[i] === 0) to.push(i);
  }
}

/**
 * Grows regions into the spans of `stack` one ring per iteration: each unassigned span joins
 * the same-area neighbour region whose seed distance is smallest (ties: lowest direction).
 * Spans that get a region are removed from the stack, the others keep their order. Stops
 * when a ring assigns nothing, or after `maxIter` rings unless `level` is 0.
 *
 * Same result as Recast's full sweep of the stack per ring, cheaper: a span's choice depends
 * only on its neighbours, and after the first ring only the spans just assigned changed, so a
 * later ring need only look at stack spans next to those (the frontier). The full sweep is
 * kept for rings whose frontier is about as large as the stack.
 */
function expandRegions(ws: Watershed, maxIter: number, level: number, stack: IntStack): void {
  const { chf, nei, reg, regDist, dirtySpan, dirtyValue, mark } = ws;
  const areas = chf.areas;
  // Stack spans get this call's stamp (membership); each frontier ring a newer one (visited).
  const callStamp = nextStamp(ws);
  let len = markStack(reg, stack, mark, callStamp);

  const data = stack.data;
  let iter = 0;
  let dirtyCount = len; // forces a full first sweep
  while (len > 0) {
    let count = 0;
    if (dirtyCount * 4 >= len) {
      // Full sweep, compacting the stack (spans assigned by frontier rings drop out too).
      let kept = 0;
      for (let j = 0; j < len; j++) {
        const i = data[j]!;
        if (reg[i] !== 0) continue;
        const v = bestNeighbour(nei, areas, reg, regDist, i);
        if (v !== 0) {
          dirtySpan[count] = i;
          dirtyValue[count++] = v;
        } else {
          data[kept++] = i;
        }
      }
      len = kept;
    } else {
      // Frontier: unvisited, unassigned stack spans next to last ring's spans. The last ring's
      // list moves to the top of dirtySpan first: its spans are assigned and this ring's are
      // not, so the two lists are disjoint sets of spans and together fit in n entries.
      const ringStamp = nextStamp(ws);
      const prev = dirtySpan.length - dirtyCount;
      dirtySpan.copyWithin(prev, 0, dirtyCount);
      for (let k = prev; k < prev + dirtyCount; k++) {
        const o = dirtySpan[k]! * 4;
        for (let dir = 0; dir < 4; dir++) {
          const ai = nei[o + dir]!;
          if (ai < 0 || reg[ai] !== 0) continue;
          const m = mark[ai]!;
          if (m < callStamp || m === ringStamp) continue;
          mark[ai] = ringStamp;
          const v = bestNeighbour(nei, areas, reg, regDist, ai);
          if (v !== 0) {
            dirtySpan[count] = ai;
            dirtyValue[count++] = v;
          }
        }
      }
    }
    // Apply after the ring so every span in it sees the same state.
    for (let k = 0; k < count; k++) {
      const i = dirtySpan[k]!;
      const v = dirtyValue[k]!;
      reg[i] = v >>> 16;
      regDist[i] = v & 0xffff;
    }
    dirtyCount = count;
    if (count === 0) break;
    if (level > 0 && ++iter >= maxIter) break;
  }
  stack.length = len;
  keepUnassigned(reg, stack);
}

/**
 * The region span i would join, as region << 16 | seed distance, or 0: the same-area,
 * non-border neighbour region with the smallest seed distance (ties: lowest direction).
 */
function bestNeighbour(
  nei: Int32Array,
  areas: Uint8Array,
  reg: Uint16Array,
  regDist: Uint16Array,
  i: number,
): number {
  let r = 0;
  let d2 = 0xffff;
  const area = areas[i]!;
  const o = i * 4;
  for (let dir = 0; dir < 4; dir++) {
    const ai = nei[o + dir]!;
    if (ai < 0 || areas[ai] !== area) continue;
    const ar = reg[ai]!;
    if (ar !== 0 && (ar & BORDER_FLAG) === 0 && regDist[ai]! + 2 < d2) {
      r = ar;
      d2 = regDist[ai]! + 2;
    }
  }
  return r === 0 ? 0 : (r << 16) | d2;
}

/** A stamp newer than every one in `ws.mark`. */
function nextStamp(ws: Watershed): number {
  if (ws.stamp === 0x7fffffff) {
    ws.mark.fill(0);
    ws.stamp = 0;
  }
  return ++ws.stamp;
}

/** Drops the assigned spans of `stack` (keeping the order) and stamps the rest; new length. */
function markStack(reg: Uint16Array, stack: IntStack, mark: Int32Array, stamp: number): number {
  const data = stack.data;
  let len = 0;
  for (let j = 0; j < stack.length; j++) {
    const i = data[j]!;
    if (reg[i] === 0) {
      data[len++] = i;
      mark[i] = stamp;
    }
  }
  stack.length = len;
  return len;
}

/** Refills `stack` with every pending (unassigned) span at distance >= level; its length. */
function fillFromPending(ws: Watershed, level: number, stack: IntStack): number {
  compactPending(ws);
  const { pending, dist } = ws;
  const n = ws.pendingLength;
  stack.grow(n);
  const data = stack.data;
  let len = 0;
  for (let j = 0; j < n; j++) {
    const i = pending[j]!;
    if (dist[i]! >= level) data[len++] = i;
  }
  stack.length = len;
  return len;
}

/** Drops the spans of `stack` that have a region, keeping the order; the new length. */
function keepUnassigned(reg: Uint16Array, stack: IntStack): number {
  const data = stack.data;
  let len = 0;
  for (let j = 0; j < stack.length; j++) {
    const i = data[j]!;
    if (reg[i] === 0) data[len++] = i;
  }
  stack.length = len;
  return len;
}

/**
 * Flood-fills a new region `r` from span `start` over same-area spans with distance >=
 * level - 2. A span touching (straight or one diagonal) another non-border region is left
 * out, so new regions never merge into old ones. Returns whether any span was claimed.
 */
function floodRegion(ws: Watershed, start: number, level: number, r: number): boolean {
  const { chf, nei, reg, regDist, dist, flood: stack } = ws;
  const areas = chf.areas;
  const area = areas[start]!;
  stack.clear();
  stack.push(start);
  reg[start] = r;
  regDist[start] = 0;
  const lev = level >= 2 ? level - 2 : 0;
  let count = 0;

  while (stack.length > 0) {
    const ci = stack.data[--stack.length]!;
    const o = ci * 4;
    let touchesOther = false;
    for (let dir = 0; dir < 4; dir++) {
      const ai = nei[o + dir]!;
      if (ai < 0 || areas[ai] !== area) continue;
      const nr = reg[ai]!;
      if (nr & BORDER_FLAG) continue;
      if (nr !== 0 && nr !== r) {
        touchesOther = true;
        break;
      }
      const ai2 = nei[ai * 4 + ((dir + 1) & 3)]!;
      if (ai2 >= 0) {
        if (areas[ai2] !== area) continue;
        const nr2 = reg[ai2]!;
        if (nr2 !== 0 && nr2 !== r) {
          touchesOther = true;
          break;
        }
      }
    }
    if (touchesOther) {
      reg[ci] = 0;
      continue;
    }
    count++;
    for (let dir = 0; dir < 4; dir++) {
      const ai = nei[o + dir]!;
      if (ai < 0 || areas[ai] !== area) continue;
      if (dist[ai]! >= lev && reg[ai] === 0) {
        reg[ai] = r;
        regDist[ai] = 0;
        stack.push(ai);
      }
    }
  }
  return count > 0;
}
