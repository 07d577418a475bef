import type { BuildContext } from "./context.js";
import {
  type CompactHeightfield,
  type Heightfield,
  NOT_CONNECTED,
  NULL_AREA,
  SPAN_MAX_HEIGHT,
} from "./types.js";

/**
 * The open spans of a heightfield in column order, as filterHeightfield can record them while
 * it sweeps (saving buildCompactHeightfield a second walk over the span lists): floor, clearance
 * and area of every walkable span (entries [0, walkable count) are used), and the number of
 * walkable spans per column (adopted as the compact heightfield's cellCount).
 */
export interface OpenSpans {
  y: Uint16Array;
  h: Uint16Array;
  area: Uint8Array;
  cellCount: Uint16Array;
}

// Module-local copies of the shared constants: hot loops then read plain constants even
// where a test runner rewrites imports into property loads on a module object.
const NO_LINK = NOT_CONNECTED;
const UNWALKABLE = NULL_AREA;
const MAX_TOP = SPAN_MAX_HEIGHT;

/**
 * Largest neighbour index an 8-bit connection slot can hold; NOT_CONNECTED (0xff) is reserved.
 * Recast's 6-bit slot stops at 62; ours allows columns of up to 255 walkable spans.
 */
export const MAX_LAYER_INDEX = NO_LINK - 1;

/**
 * Open space above every walkable solid span, with 4-neighbour links, as in Recast's
 * rcBuildCompactHeightfield (Mononen). A span's floor is the top of its solid span; its
 * clearance reaches the bottom of the next solid span (or SPAN_MAX_HEIGHT). Two spans in
 * adjacent columns connect when their floors differ by at most `walkableClimbVoxels` and the
 * open gap they share is at least `walkableHeightVoxels`; the lowest such neighbour wins.
 *
 * Clearance is stored in 16 bits, so connection tests see the true gap where Recast's 8-bit
 * `h` would see at most 255 — identical results whenever walkableHeight + walkableClimb <= 255.
 *
 * `walkableSpanCount`, when given, must be the number of spans with a walkable area (as
 * filterHeightfield returns it); it saves a counting walk over the span lists. `open`, when
 * given with it, must hold what filterHeightfield recorded for this heightfield: the spans
 * are then copied from there instead of read from the lists. `reuseColumnHeads` (only with
 * `open`) lets cellFirst take over the memory of `hf.columnHead`, which is then no longer a
 * valid heightfield: for callers that drop the heightfield here, so its columns are not held
 * twice while the next stages run.
 */
export function buildCompactHeightfield(
  hf: Heightfield,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
  ctx?: BuildContext,
  walkableSpanCount?: number,
  open?: OpenSpans,
  reuseColumnHeads = false,
): CompactHeightfield {
  const width = hf.width;
  const depth = hf.depth;
  const fromOpen = open !== undefined && walkableSpanCount !== undefined;
  const heads = hf.columnHead;
  // Written before read, column by column, in the pass below (which reads only cellCount).
  const cellFirst =
    fromOpen && reuseColumnHeads
      ? new Uint32Array(heads.buffer, heads.byteOffset, heads.length)
      : new Uint32Array(width * depth);
  let cellCount: Uint16Array;
  // Phases are separate functions so V8 optimizes each loop on its own type feedback.
  // Arrays are allocated at their exact size.
  const spanCount = walkableSpanCount ?? countWalkable(hf);
  let spanY: Uint16Array;
  let spanH: Uint16Array;
  let areas: Uint8Array;
  if (fromOpen) {
    cellCount = open!.cellCount;
    let first = 0;
    for (let c = 0; c < cellFirst.length; c++) {
      cellFirst[c] = first;
      first += cellCount[c]!;
    }
    spanY = open!.y.slice(0, spanCount);
    spanH = open!.h.slice(0, spanCount);
    areas = open!.area.slice(0, spanCount);
  } else {
    cellCount = new Uint16Array(width * depth);
    spanY = new Uint16Array(spanCount);
    spanH = new Uint16Array(spanCount);
    areas = new Uint8Array(spanCount);
    fillColumns(hf, cellFirst, cellCount, spanY, spanH, areas);
  }
  const spanCon = new Uint32Array(spanCount);
  linkOverflow = 0;
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
  if (linkOverflow > MAX_LAYER_INDEX && ctx) {
    ctx.warn(
      `buildCompactHeightfield: a column has too many walkable layers to link (neighbour index ${linkOverflow}, max ${MAX_LAYER_INDEX}); those links are left unconnected`,
    );
  }

  const bmax = hf.bmax;
  return {
    width,
    depth,
    spanCount,
    walkableHeightVoxels,
    walkableClimbVoxels,
    borderSize: 0,
    bmin: [hf.bmin[0], hf.bmin[1], hf.bmin[2]],
    // Open space may reach walkableHeight above the highest solid top.
    bmax: [bmax[0], bmax[1] + walkableHeightVoxels * hf.cellHeight, bmax[2]],
    cellSize: hf.cellSize,
    cellHeight: hf.cellHeight,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    areas,
  };
}

/** Number of spans with a walkable area (those that get open space above them). */
function countWalkable(hf: Heightfield): number {
  const columnHead = hf.columnHead;
  const spanArea = hf.spanArea;
  const spans = hf.spans;
  let count = 0;
  for (let c = 0; c < columnHead.length; c++) {
    for (let s = columnHead[c]!; s !== -1; s = spans[s * 2 + 1]!) {
      if (spanArea[s] !== UNWALKABLE) count++;
    }
  }
  return count;
}

/**
 * Writes each column's range and the floor, clearance and area of every open span (one walk
 * over the column lists); the arrays must hold exactly the walkable spans.
 */
function fillColumns(
  hf: Heightfield,
  cellFirst: Uint32Array,
  cellCount: Uint16Array,
  yTmp: Uint16Array,
  hTmp: Uint16Array,
  areaTmp: Uint8Array,
): number {
  const columns = hf.width * hf.depth;
  const columnHead = hf.columnHead;
  const spans = hf.spans;
  const spanArea = hf.spanArea;
  let idx = 0;
  for (let c = 0; c < columns; c++) {
    const first = idx;
    let s = columnHead[c]!;
    while (s !== -1) {
      const next = spans[s * 2 + 1]!;
      const area = spanArea[s]!;
      if (area !== UNWALKABLE) {
        // Open space runs from this solid span's top to the next one's bottom.
        const floor = spans[s * 2]! >>> 16;
        const clearance = (next === -1 ? MAX_TOP : spans[next * 2]! & 0xffff) - floor;
        yTmp[idx] = floor;
        hTmp[idx] = clearance < 0 ? 0 : Math.min(clearance, 0xffff);
        areaTmp[idx] = area;
        idx++;
      }
      s = next;
    }
    cellFirst[c] = first;
    cellCount[c] = idx - first;
  }
  return idx;
}

/** Fills spanCon for every span: per direction the neighbour's index in its column (also run by tiles/cached-tile-codec.ts to restore a saved heightfield's links). */
export function linkNeighbours(
  width: number,
  depth: number,
  cellFirst: Uint32Array,
  cellCount: Uint16Array,
  spanY: Uint16Array,
  spanH: Uint16Array,
  spanCon: Uint32Array,
  wh: number,
  wc: number,
): void {
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      if (first === end) continue;
      // Neighbour column span ranges; an empty range at the grid edge.
      let f0 = 0;
      let e0 = 0;
      let f1 = 0;
      let e1 = 0;
      let f2 = 0;
      let e2 = 0;
      let f3 = 0;
      let e3 = 0;
      if (x > 0) {
        f0 = cellFirst[c - 1]!;
        e0 = f0 + cellCount[c - 1]!;
      }
      if (z < depth - 1) {
        f1 = cellFirst[c + width]!;
        e1 = f1 + cellCount[c + width]!;
      }
      if (x < width - 1) {
        f2 = cellFirst[c + 1]!;
        e2 = f2 + cellCount[c + 1]!;
      }
      if (z > 0) {
        f3 = cellFirst[c - width]!;
        e3 = f3 + cellCount[c - width]!;
      }
      if (end - first === 1) {
        // Lone span (the common case). A link between two lone spans is symmetric, so the
        // -x and -z links mirror the +x / +z links the earlier columns already computed.
        const y = spanY[first]!;
        const top = y + spanH[first]!;
        const l0 =
          e0 - f0 === 1
            ? ((spanCon[f0]! >>> 16) & 0xff) === 0
              ? 0
              : NO_LINK
            : findLink(spanY, spanH, f0, e0, y, top, wh, wc);
        const l1 = findLink(spanY, spanH, f1, e1, y, top, wh, wc);
        const l2 = findLink(spanY, spanH, f2, e2, y, top, wh, wc);
        const l3 =
          e3 - f3 === 1
            ? ((spanCon[f3]! >>> 8) & 0xff) === 0
              ? 0
              : NO_LINK
            : findLink(spanY, spanH, f3, e3, y, top, wh, wc);
        spanCon[first] = l0 | (l1 << 8) | (l2 << 16) | (l3 << 24);
        continue;
      }
      for (let i = first; i < end; i++) {
        const y = spanY[i]!;
        const top = y + spanH[i]!;
        const l0 = findLink(spanY, spanH, f0, e0, y, top, wh, wc);
        const l1 = findLink(spanY, spanH, f1, e1, y, top, wh, wc);
        const l2 = findLink(spanY, spanH, f2, e2, y, top, wh, wc);
        const l3 = findLink(spanY, spanH, f3, e3, y, top, wh, wc);
        spanCon[i] = l0 | (l1 << 8) | (l2 << 16) | (l3 << 24);
      }
    }
  }
}

/** Largest neighbour index that did not fit a link slot during the current build (0 if none). */
let linkOverflow = 0;

/**
 * Index within the neighbour column [first, end) of the lowest span reachable from a floor at
 * `y` with ceiling `top`, or NOT_CONNECTED. Spans are sorted by floor, so the candidates
 * within climb reach form one run: skip those too low, stop at the first too high.
 */
function findLink(
  spanY: Uint16Array,
  spanH: Uint16Array,
  first: number,
  end: number,
  y: number,
  top: number,
  walkableHeight: number,
  walkableClimb: number,
): number {
  for (let k = first; k < end; k++) {
    const ny = spanY[k]!;
    if (ny < y - walkableClimb) continue;
    if (ny > y + walkableClimb) break;
    if (Math.min(ny + spanH[k]!, top) - Math.max(ny, y) >= walkableHeight) {
      const layer = k - first;
      if (layer <= MAX_LAYER_INDEX) return layer;
      // Past the slot range Recast too leaves the link unconnected.
      if (layer > linkOverflow) linkOverflow = layer;
      return NO_LINK;
    }
  }
  return NO_LINK;
}
