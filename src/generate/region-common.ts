import { MeshwayError } from "../errors.js";
import type { BuildContext } from "./context.js";
import { type BuildScratch, sharedBuildScratch } from "./scratch.js";
import { BORDER_REGION, type CompactHeightfield, NOT_CONNECTED, NULL_AREA } from "./types.js";

// Module-local copies of the shared constants: some module loaders (vitest's) turn imported
// bindings into property reads, which are slow in the hot loops below.
const NO_LINK = NOT_CONNECTED;
const NO_AREA = NULL_AREA;
const BORDER_FLAG = BORDER_REGION;

/** Growable stack of int32 values (doubling), reused across calls to avoid allocation. */
export class IntStack {
  data: Int32Array;
  length = 0;

  constructor(capacity = 256) {
    // Start tiny and push past the end once: push's growth branch (and the data field's
    // reassignment) then already has type feedback, so code that inlines push is not
    // thrown away the first time a stack grows in the middle of a cold first build.
    this.data = new Int32Array(1);
    this.push(0);
    this.push(0);
    this.length = 0;
    this.grow(Math.max(4, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Makes room for at least `n` values in total. */
  grow(n: number): void {
    if (n <= this.data.length) return;
    let cap = this.data.length * 2;
    while (cap < n) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  clear(): void {
    this.length = 0;
  }
}

/**
 * The same memory as an Int32Array. Read through it, cellFirst / spanCon values are always
 * int32 for the JIT (a Uint32Array load may not fit and can be handled as a double).
 * cellFirst < 2^31, and spanCon is only bit-sliced, so the values mean the same.
 */
export function int32View(a: Uint32Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * Neighbour span index of every span in each direction: out[4 * i + dir] is the global index
 * of the span connected to span i across `dir`, or -1. Decoding `spanCon` once lets the
 * region stages, which visit neighbours many times, do a single load per neighbour.
 * Writes into `out` (length >= 4 * spanCount) when given, else into a new array.
 */
export function buildSpanNeighbours(chf: CompactHeightfield, out?: Int32Array): Int32Array {
  const { width: w, cellCount } = chf;
  const cellFirst = int32View(chf.cellFirst);
  const spanCon = int32View(chf.spanCon);
  const columns = w * chf.depth;
  out ??= new Int32Array(chf.spanCount * 4);
  for (let c = 0; c < columns; c++) {
    const count = cellCount[c]!;
    if (count === 0) continue;
    const first = cellFirst[c]!;
    const end = first + count;
    for (let i = first; i < end; i++) {
      const s = spanCon[i]!;
      const o = i * 4;
      let k = s & 0xff;
      out[o] = k === NO_LINK ? -1 : cellFirst[c - 1]! + k;
      k = (s >> 8) & 0xff;
      out[o + 1] = k === NO_LINK ? -1 : cellFirst[c + w]! + k;
      k = (s >> 16) & 0xff;
      out[o + 2] = k === NO_LINK ? -1 : cellFirst[c + 1]! + k;
      k = s >>> 24;
      out[o + 3] = k === NO_LINK ? -1 : cellFirst[c - w]! + k;
    }
  }
  return out;
}

/** A neighbour table left in a scratch slot by an earlier stage, and the slot's version then. */
interface LeftNeighbours {
  scratch: BuildScratch;
  version: number;
  table: Int32Array;
}
// Taken by the next stage (so a table too big for the scratch to keep is not held on to).
const leftNeighbours = /* @__PURE__ */ new WeakMap<CompactHeightfield, LeftNeighbours>();
/** Whether a chf's columns lie in span order, as a stage that walked them saw. */
const layoutOrdered = /* @__PURE__ */ new WeakMap<CompactHeightfield, boolean>();

/**
 * Records that `table` (in `scratch`'s "neighbours" slot, just handed out) is chf's
 * {@link buildSpanNeighbours} table, so the next stage can reuse it instead of rebuilding,
 * and whether chf's columns lie in span order (the layout never changes after compaction).
 */
export function leaveSpanNeighbours(
  chf: CompactHeightfield,
  scratch: BuildScratch,
  table: Int32Array,
  ordered: boolean,
): void {
  leftNeighbours.set(chf, { scratch, version: scratch.version("neighbours"), table });
  layoutOrdered.set(chf, ordered);
}

/** Whether chf's columns are known to lie in span order; null when no stage recorded it. */
export function spanLayoutOrdered(chf: CompactHeightfield): boolean | null {
  return layoutOrdered.get(chf) ?? null;
}

/**
 * chf's neighbour table: the one an earlier stage left in `scratch` if nothing has used the
 * slot since (connections do not change after compaction), else built into the slot.
 */
export function spanNeighbours(chf: CompactHeightfield, scratch: BuildScratch): Int32Array {
  const left = leftNeighbours.get(chf);
  leftNeighbours.delete(chf);
  if (
    left !== undefined &&
    left.scratch === scratch &&
    left.version === scratch.version("neighbours") &&
    left.table.length === chf.spanCount * 4
  ) {
    return left.table;
  }
  return buildSpanNeighbours(chf, scratch.int32("neighbours", chf.spanCount * 4));
}

function paintRect(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  minX: number,
  maxX: number,
  minZ: number,
  maxZ: number,
  regionId: number,
): void {
  const { width: w, cellCount, areas } = chf;
  const cellFirst = int32View(chf.cellFirst);
  for (let z = minZ; z < maxZ; z++) {
    for (let x = minX; x < maxX; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        if (areas[i] !== NO_AREA) spanRegion[i] = regionId;
      }
    }
  }
}

/**
 * Paints the four tile-border strips (borderSize cells wide) with their own region ids,
 * flagged BORDER_REGION, in Recast's order: -x strip, +x strip, -z strip, +z strip (later
 * strips overwrite the corners). Returns the next free region id. Nothing is painted when
 * borderSize <= 0.
 */
export function paintBorderRegions(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  borderSize: number,
  firstRegionId: number,
): number {
  if (borderSize <= 0) return firstRegionId;
  const w = chf.width;
  const d = chf.depth;
  const bw = Math.min(w, borderSize);
  const bd = Math.min(d, borderSize);
  let id = firstRegionId;
  paintRect(chf, spanRegion, 0, bw, 0, d, id++ | BORDER_FLAG);
  paintRect(chf, spanRegion, w - bw, w, 0, d, id++ | BORDER_FLAG);
  paintRect(chf, spanRegion, 0, w, 0, bd, id++ | BORDER_FLAG);
  paintRect(chf, spanRegion, 0, w, d - bd, d, id++ | BORDER_FLAG);
  return id;
}

/** Longest region outline walk, in steps (Recast's limit; very long outlines are cut short). */
const MAX_CONTOUR_WALK = 40000;

/**
 * Walks the outline of the region containing span `start`, beginning at its solid edge
 * `startDir`, and records the sequence of regions on the other side (0 = no region / wall).
 */
function walkRegionOutline(
  spanRegion: Uint16Array,
  nei: Int32Array,
  start: number,
  startDir: number,
  out: number[],
): void {
  const reg = spanRegion[start]!;
  let i = start;
  let dir = startDir;
  let ai = nei[i * 4 + dir]!;
  let cur = ai >= 0 ? spanRegion[ai]! : 0;
  out.push(cur);
  let iter = 0;
  while (++iter < MAX_CONTOUR_WALK) {
    ai = nei[i * 4 + dir]!;
    const r = ai >= 0 ? spanRegion[ai]! : 0;
    if (r !== reg) {
      // Edge: note the region across it and turn clockwise.
      if (r !== cur) {
        cur = r;
        out.push(r);
      }
      dir = (dir + 1) & 3;
    } else {
      if (ai < 0) return;
      // Open: step over and turn counter-clockwise to keep hugging the edge.
      i = ai;
      dir = (dir + 3) & 3;
    }
    if (i === start && dir === startDir) break;
  }
  // Remove adjacent duplicates, treating the list as circular.
  if (out.length > 1) {
    for (let j = 0; j < out.length; ) {
      if (out[j] === out[(j + 1) % out.length]) out.splice(j, 1);
      else j++;
    }
  }
}

/** Circular de-duplication of adjacent neighbours, keeping at least one entry. */
function removeAdjacentDuplicates(list: number[]): void {
  for (let i = 0; i < list.length && list.length > 1; ) {
    if (list[i] === list[(i + 1) % list.length]) list.splice(i, 1);
    else i++;
  }
}

function addUnique(list: number[], v: number): void {
  if (!list.includes(v)) list.push(v);
}

/**
 * Region clean-up shared by the watershed and monotone partitions, as in Recast's
 * mergeAndFilterRegions (Mononen):
 * 1. per region: span count, area, regions stacked above/below in the same columns (floors;
 *    a region stacked over itself is "overlapping"), and the circular list of regions met
 *    along its outline (0 = wall);
 * 2. groups of connected regions with fewer than `minRegionAreaCells` spans are removed,
 *    unless they touch a tile-border region;
 * 3. regions with at most `mergeRegionAreaCells` spans, or not touching a wall, are merged
 *    into their smallest neighbour when both share one edge run, the same area and no column;
 * 4. surviving ids are renumbered 1..n in order of first region index and spans are remapped.
 *
 * `spanRegion` is edited in place; BORDER_REGION ids are left as they are. Non-border ids in
 * it must be <= `regionCount`. Returns n, the number of regions left. `neighbours` (from
 * {@link buildSpanNeighbours}) may be passed to skip recomputing it.
 *
 * Deviation from Recast: ids are given only to regions that own spans, so ids are exactly
 * 1..n (Recast also numbers empty placeholder ids, e.g. the four border-strip ids).
 */
export function mergeAndFilterRegions(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  regionCount: number,
  minRegionAreaCells: number,
  mergeRegionAreaCells: number,
  ctx?: BuildContext,
  neighbours?: Int32Array,
): number {
  const nreg = regionCount + 1;
  const nei =
    neighbours ??
    buildSpanNeighbours(
      chf,
      (ctx?.scratch ?? sharedBuildScratch).int32("neighbours", chf.spanCount * 4),
    );

  const ids = new Int32Array(nreg);
  for (let r = 0; r < nreg; r++) ids[r] = r;
  const spanCounts = new Int32Array(nreg);
  const areaType = new Uint8Array(nreg);
  const overlap = new Uint8Array(nreg);
  const visited = new Uint8Array(nreg);
  const connections: number[][] = new Array(nreg);
  const floors: number[][] = new Array(nreg);
  for (let r = 0; r < nreg; r++) {
    connections[r] = [];
    floors[r] = [];
  }

  // 1. Gather per-region facts. Each span pass is a function of its own, so its loop is
  // optimized on its own feedback (a cold first build would otherwise run the later passes
  // in the interpreter after the first loop's optimized code bails out at its exit).
  gatherRegionFacts(
    chf,
    spanRegion,
    nei,
    regionCount,
    spanCounts,
    areaType,
    overlap,
    connections,
    floors,
  );
  const hadSpans = spanCounts.slice();

  // 2. Remove small groups of connected regions that do not touch a tile border.
  const stack: number[] = [];
  const trace: number[] = [];
  for (let r = 0; r < nreg; r++) {
    const id = ids[r]!;
    if (id === 0 || id & BORDER_FLAG || spanCounts[r] === 0 || visited[r]) continue;
    let connectsToBorder = false;
    let total = 0;
    stack.length = 0;
    trace.length = 0;
    visited[r] = 1;
    stack.push(r);
    while (stack.length > 0) {
      const cr = stack.pop()!;
      total += spanCounts[cr]!;
      trace.push(cr);
      for (const n of connections[cr]!) {
        if (n & BORDER_FLAG) {
          connectsToBorder = true;
          continue;
        }
        if (visited[n]) continue;
        const nid = ids[n]!;
        if (nid === 0 || nid & BORDER_FLAG) continue;
        stack.push(nid);
        visited[nid] = 1;
      }
    }
    if (total < minRegionAreaCells && !connectsToBorder) {
      for (const t of trace) {
        spanCounts[t] = 0;
        ids[t] = 0;
      }
    }
  }

  // 3. Merge small regions into their smallest compatible neighbour until nothing changes.
  let mergeCount: number;
  do {
    mergeCount = 0;
    for (let r = 0; r < nreg; r++) {
      const id = ids[r]!;
      if (id === 0 || id & BORDER_FLAG || overlap[r] || spanCounts[r] === 0) continue;
      const con = connections[r]!;
      // Large regions touching a wall stay as they are.
      if (spanCounts[r]! > mergeRegionAreaCells && con.includes(0)) continue;
      let smallest = 0xfffffff;
      let mergeId = id;
      for (const m of con) {
        if (m & BORDER_FLAG) continue;
        const mid = ids[m]!;
        if (mid === 0 || mid & BORDER_FLAG || overlap[m]) continue;
        if (
          spanCounts[m]! < smallest &&
          canMerge(r, m, ids, areaType, connections, floors) &&
          canMerge(m, r, ids, areaType, connections, floors)
        ) {
          smallest = spanCounts[m]!;
          mergeId = mid;
        }
      }
      if (mergeId === id) continue;
      if (!mergeInto(mergeId, r, ids, spanCounts, connections, floors)) continue;
      for (let j = 0; j < nreg; j++) {
        const jid = ids[j]!;
        if (jid === 0 || jid & BORDER_FLAG) continue;
        if (jid === id) ids[j] = mergeId;
        replaceNeighbour(connections[j]!, floors[j]!, id, mergeId);
      }
      mergeCount++;
    }
  } while (mergeCount > 0);

  // 4. Compact ids 1..n, numbering each merged group by its lowest region index.
  const newIdOf = new Uint16Array(nreg);
  let next = 0;
  for (let r = 0; r < nreg; r++) {
    const id = ids[r]!;
    if (id === 0 || id & BORDER_FLAG || hadSpans[r] === 0) continue;
    if (newIdOf[id] === 0) newIdOf[id] = ++next;
  }
  const finalId = new Uint16Array(nreg);
  for (let r = 1; r < nreg; r++) {
    const id = ids[r]!;
    if (id !== 0 && (id & BORDER_FLAG) === 0) finalId[r] = newIdOf[id]!;
  }
  remapSpanRegions(spanRegion, finalId);

  let overlapping = 0;
  for (let r = 0; r < nreg; r++) overlapping += overlap[r]!;
  if (overlapping > 0) {
    ctx?.warn(`regions: ${overlapping} regions overlap themselves vertically`);
    ctx?.count("regions.overlapping", overlapping);
  }
  return next;
}

/** Step 1 of {@link mergeAndFilterRegions}: span counts, areas, overlap, floors, outlines. */
function gatherRegionFacts(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  nei: Int32Array,
  regionCount: number,
  spanCounts: Int32Array,
  areaType: Uint8Array,
  overlap: Uint8Array,
  connections: number[][],
  floors: number[][],
): void {
  const nreg = regionCount + 1;
  const { width: w, cellCount, areas } = chf;
  const cellFirst = int32View(chf.cellFirst);
  const columns = w * chf.depth;
  const outlined = new Uint8Array(nreg);
  for (let c = 0; c < columns; c++) {
    const count = cellCount[c]!;
    if (count === 0) continue;
    const first = cellFirst[c]!;
    const end = first + count;
    for (let i = first; i < end; i++) {
      const r = spanRegion[i]!;
      if (r === 0) continue;
      if (r >= nreg) {
        if (r & BORDER_FLAG) continue;
        throw new MeshwayError(
          "INVALID_ARGUMENT",
          `mergeAndFilterRegions: span ${i} has region ${r} > regionCount ${regionCount}`,
        );
      }
      spanCounts[r]!++;
      if (count > 1) {
        // Regions sharing a column ("floors") may never merge; a region over itself overlaps.
        const fl = floors[r]!;
        for (let j = first; j < end; j++) {
          if (j === i) continue;
          const f = spanRegion[j]!;
          if (f === 0 || f >= nreg) continue;
          if (f === r) overlap[r] = 1;
          addUnique(fl, f);
        }
      }
      if (outlined[r]) continue;
      areaType[r] = areas[i]!;
      const o = i * 4;
      for (let dir = 0; dir < 4; dir++) {
        const ai = nei[o + dir]!;
        if ((ai >= 0 ? spanRegion[ai]! : 0) !== r) {
          walkRegionOutline(spanRegion, nei, i, dir, connections[r]!);
          outlined[r] = 1;
          break;
        }
      }
    }
  }
}

/** Step 4 of {@link mergeAndFilterRegions}: every non-border span id through `finalId`. */
function remapSpanRegions(spanRegion: Uint16Array, finalId: Uint16Array): void {
  const n = spanRegion.length;
  for (let i = 0; i < n; i++) {
    const r = spanRegion[i]!;
    if ((r & BORDER_FLAG) === 0) spanRegion[i] = finalId[r]!;
  }
}

/**
 * Whether region b may be merged into a, seen from a: same area, a meets b along one run
 * of its outline only (else the merged outline would have a hole), and b is not a floor of a.
 */
function canMerge(
  a: number,
  b: number,
  ids: Int32Array,
  areaType: Uint8Array,
  connections: number[][],
  floors: number[][],
): boolean {
  if (areaType[a] !== areaType[b]) return false;
  const bid = ids[b]!;
  let n = 0;
  for (const x of connections[a]!) if (x === bid) n++;
  if (n > 1) return false;
  return !floors[a]!.includes(bid);
}

/** Merges region b into region a (Recast's mergeRegions); false when they share no edge. */
function mergeInto(
  a: number,
  b: number,
  ids: Int32Array,
  spanCounts: Int32Array,
  connections: number[][],
  floors: number[][],
): boolean {
  const aid = ids[a]!;
  const bid = ids[b]!;
  const acon = connections[a]!;
  const bcon = connections[b]!;
  const insa = acon.indexOf(bid);
  if (insa === -1) return false;
  const insb = bcon.indexOf(aid);
  if (insb === -1) return false;
  // Splice b's outline into a's at the shared edge.
  const merged: number[] = [];
  const na = acon.length;
  for (let k = 0; k < na - 1; k++) merged.push(acon[(insa + 1 + k) % na]!);
  const nb = bcon.length;
  for (let k = 0; k < nb - 1; k++) merged.push(bcon[(insb + 1 + k) % nb]!);
  removeAdjacentDuplicates(merged);
  connections[a] = merged;
  const fa = floors[a]!;
  for (const f of floors[b]!) addUnique(fa, f);
  spanCounts[a]! += spanCounts[b]!;
  spanCounts[b] = 0;
  connections[b] = [];
  return true;
}

function replaceNeighbour(con: number[], fl: number[], oldId: number, newId: number): void {
  let changed = false;
  for (let k = 0; k < con.length; k++) {
    if (con[k] === oldId) {
      con[k] = newId;
      changed = true;
    }
  }
  for (let k = 0; k < fl.length; k++) if (fl[k] === oldId) fl[k] = newId;
  if (changed) removeAdjacentDuplicates(con);
}
