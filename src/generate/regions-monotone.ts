import type { BuildContext } from "./context.js";
import { mergeAndFilterRegions, paintBorderRegions } from "./region-common.js";
import {
  BORDER_REGION,
  type CompactHeightfield,
  NOT_CONNECTED,
  NULL_AREA,
  type Regions,
} from "./types.js";

/** Sweep has not met the previous row yet. */
const NO_NEIGHBOUR = 0;
/** Sweep touches more than one region of the previous row. */
const MANY_NEIGHBOURS = -1;

/** Scratch of the row sweep: sized once per call, reused by every row. */
interface SweepScratch {
  /** Per row-local sweep id (1-based): candidate previous-row region, NO_/MANY_NEIGHBOURS. */
  sweepNei: Int32Array;
  /** Per sweep: number of -z contacts with its candidate region. */
  sweepSamples: Int32Array;
  /** Per sweep: final region id. */
  sweepId: Int32Array;
  /** Spans given a sweep in the current row, so renumbering skips empty columns. */
  rowSpans: Int32Array;
  /** Per previous-row region: -z contacts from the current row; valid when stamp matches. */
  contactCount: Int32Array;
  contactStamp: Int32Array;
}

/**
 * Monotone row sweep as in Recast's rcBuildRegionsMonotone (Mononen). Each row of columns
 * [borderSize, width - borderSize) × [borderSize, depth - borderSize) is cut into sweeps: runs of
 * spans joined along -x with the same area. A sweep continues the previous row's region when all
 * of its -z contacts lie in one region and that region's -z contacts in this row all come from
 * this sweep; otherwise it opens a new region. The result is monotone along z, hence never
 * overlapping in height and free of holes.
 *
 * Writes region ids into `spanRegion` (spans already holding BORDER_REGION ids are left alone and
 * never joined) and returns the next unused region id. Shared by monotone and layer partitioning.
 */
export function sweepMonotoneRows(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  borderSize: number,
  firstRegionId: number,
  ctx?: BuildContext,
): number {
  const w = chf.width;
  const d = chf.depth;
  const cellCount = chf.cellCount;
  const b = Math.max(0, borderSize);

  // A row cannot hold more sweeps (or swept spans) than it has spans.
  let maxRowSpans = 0;
  for (let z = b; z < d - b; z++) {
    let n = 0;
    for (let c = z * w + b, end = z * w + w - b; c < end; c++) n += cellCount[c]!;
    if (n > maxRowSpans) maxRowSpans = n;
  }
  const rowCap = maxRowSpans + 1;
  // Region ids are 16-bit, so contacts never index past 0xffff.
  let regionCap = Math.min(0x10000, Math.max(256, firstRegionId + rowCap));
  const scratch: SweepScratch = {
    sweepNei: new Int32Array(rowCap),
    sweepSamples: new Int32Array(rowCap),
    sweepId: new Int32Array(rowCap),
    rowSpans: new Int32Array(rowCap),
    contactCount: new Int32Array(regionCap),
    contactStamp: new Int32Array(regionCap),
  };

  let nextId = firstRegionId;
  for (let z = b; z < d - b; z++) {
    if (regionCap < 0x10000 && nextId >= regionCap) {
      while (regionCap < 0x10000 && nextId >= regionCap) regionCap *= 2;
      regionCap = Math.min(regionCap, 0x10000);
      const cc = new Int32Array(regionCap);
      cc.set(scratch.contactCount);
      scratch.contactCount = cc;
      const cs = new Int32Array(regionCap);
      cs.set(scratch.contactStamp);
      scratch.contactStamp = cs;
    }
    nextId = sweepRow(chf, spanRegion, z, b, nextId, scratch);
  }

  if (nextId > BORDER_REGION) {
    ctx?.warn(
      `monotone regions: ${nextId - 1} region ids exceed the 15-bit id range; region ids wrap and may collide`,
    );
  }
  return nextId;
}

/** Sweeps row `z` (see {@link sweepMonotoneRows}); returns the next unused region id. */
function sweepRow(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  z: number,
  b: number,
  nextId: number,
  scratch: SweepScratch,
): number {
  const w = chf.width;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanCon = chf.spanCon;
  const areas = chf.areas;
  const sweepNei = scratch.sweepNei;
  const sweepSamples = scratch.sweepSamples;
  const sweepId = scratch.sweepId;
  const rowSpans = scratch.rowSpans;
  const contactCount = scratch.contactCount;
  const contactStamp = scratch.contactStamp;
  // Constants copied to locals: the hot loop then never reads a module binding (which some
  // transpilers turn into a property access per use).
  const border = BORDER_REGION;
  const none = NOT_CONNECTED;
  const nullArea = NULL_AREA;
  const stamp = z + 1;

  let sweepCount = 1;
  let rowSpanCount = 0;
  for (let c = z * w + b, rowEnd = z * w + w - b; c < rowEnd; c++) {
    const first = cellFirst[c]!;
    const end = first + cellCount[c]!;
    for (let i = first; i < end; i++) {
      const area = areas[i]!;
      if (area === nullArea) continue;
      const con = spanCon[i]!;

      // Join the sweep of the -x neighbour when it is a same-area, non-border span.
      let sweep = 0;
      const conW = con & 0xff;
      if (conW !== none) {
        const ai = cellFirst[c - 1]! + conW;
        const r = spanRegion[ai]!;
        if ((r & border) === 0 && areas[ai] === area) sweep = r;
      }
      if (sweep === 0) {
        sweep = sweepCount++;
        sweepNei[sweep] = NO_NEIGHBOUR;
        sweepSamples[sweep] = 0;
      }

      // Record the -z contact: the sweep keeps a single candidate region or gives up.
      const conS = con >>> 24;
      if (conS !== none) {
        const ai = cellFirst[c - w]! + conS;
        const r = spanRegion[ai]!;
        if (r !== 0 && (r & border) === 0 && areas[ai] === area) {
          const nei = sweepNei[sweep]!;
          if (nei === NO_NEIGHBOUR || nei === r) {
            sweepNei[sweep] = r;
            sweepSamples[sweep]!++;
            if (contactStamp[r] !== stamp) {
              contactStamp[r] = stamp;
              contactCount[r] = 0;
            }
            contactCount[r]!++;
          } else {
            sweepNei[sweep] = MANY_NEIGHBOURS;
          }
        }
      }
      spanRegion[i] = sweep;
      rowSpans[rowSpanCount++] = i;
    }
  }

  // A sweep inherits its neighbour's id only if it is that region's sole continuation.
  for (let s = 1; s < sweepCount; s++) {
    const nei = sweepNei[s]!;
    if (nei > 0 && contactCount[nei] === sweepSamples[s]) sweepId[s] = nei;
    else sweepId[s] = nextId++;
  }
  for (let k = 0; k < rowSpanCount; k++) {
    const i = rowSpans[k]!;
    spanRegion[i] = sweepId[spanRegion[i]!]!;
  }
  return nextId;
}

/**
 * Partitions walkable spans into regions by a monotone row sweep (Recast's
 * rcBuildRegionsMonotone): fast, never overlapping, but may yield long thin regions.
 * No distance field is needed. Border strips of `borderSize` cells get BORDER_REGION ids; regions
 * are then merged and filtered like watershed regions.
 *
 * @param borderSize tile border width. [Units: cells] [Limit: >= 0]
 * @param minRegionAreaCells connected groups of regions smaller than this are removed. [Units: cells²]
 * @param mergeRegionAreaCells regions smaller than this are merged into neighbours. [Units: cells²]
 */
export function buildRegionsMonotone(
  chf: CompactHeightfield,
  borderSize: number,
  minRegionAreaCells: number,
  mergeRegionAreaCells: number,
  ctx?: BuildContext,
): Regions {
  const spanRegion = new Uint16Array(chf.spanCount);
  let nextId = 1;
  if (borderSize > 0) nextId = paintBorderRegions(chf, spanRegion, borderSize, nextId);
  nextId = sweepMonotoneRows(chf, spanRegion, borderSize, nextId, ctx);
  const regionCount = mergeAndFilterRegions(
    chf,
    spanRegion,
    nextId,
    minRegionAreaCells,
    mergeRegionAreaCells,
    ctx,
  );
  return { spanRegion, regionCount };
}
