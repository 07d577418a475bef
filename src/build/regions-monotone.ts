import type { BuildContext } from "./context.js";
import { mergeAndFilterRegions, paintBorderRegions } from "./region-common.js";
import { BORDER_REGION, type CompactHeightfield, NULL_AREA, NOT_CONNECTED, type Regions } from "./types.js";

/** Sweep has not met the previous row yet. */
const NO_NEIGHBOUR = 0;
/** Sweep touches more than one region of the previous row. */
const MANY_NEIGHBOURS = -1;

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
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanCon = chf.spanCon;
  const areas = chf.areas;
  const b = Math.max(0, borderSize);

  // Per-sweep scratch, indexed by row-local sweep id (1-based), reused for every row.
  let sweepCap = Math.max(w, d, 16) + 1;
  let sweepNei = new Int32Array(sweepCap);
  let sweepSamples = new Int32Array(sweepCap);
  let sweepId = new Int32Array(sweepCap);
  // Per-region scratch: how many -z contacts of the current row land in each previous-row region.
  // A row stamp replaces clearing the whole table every row.
  let regionCap = Math.max(firstRegionId + 1, 256);
  let contactCount = new Int32Array(regionCap);
  let contactStamp = new Int32Array(regionCap);

  let nextId = firstRegionId;
  for (let z = b; z < d - b; z++) {
    if (nextId + 1 > regionCap) {
      while (nextId + 1 > regionCap) regionCap *= 2;
      const cc = new Int32Array(regionCap);
      cc.set(contactCount);
      contactCount = cc;
      const cs = new Int32Array(regionCap);
      cs.set(contactStamp);
      contactStamp = cs;
    }
    const stamp = z + 1;
    let sweepCount = 1;
    const rowBase = z * w;

    for (let x = b; x < w - b; x++) {
      const c = rowBase + x;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        const area = areas[i]!;
        if (area === NULL_AREA) continue;
        const con = spanCon[i]!;

        // Join the sweep of the -x neighbour when it is a same-area, non-border span.
        let sweep = 0;
        const conW = con & 0xff;
        if (conW !== NOT_CONNECTED) {
          const ai = cellFirst[c - 1]! + conW;
          const r = spanRegion[ai]!;
          if ((r & BORDER_REGION) === 0 && areas[ai] === area) sweep = r;
        }
        if (sweep === 0) {
          sweep = sweepCount++;
          if (sweep >= sweepCap) {
            sweepCap *= 2;
            const a = new Int32Array(sweepCap);
            a.set(sweepNei);
            sweepNei = a;
            const s = new Int32Array(sweepCap);
            s.set(sweepSamples);
            sweepSamples = s;
            sweepId = new Int32Array(sweepCap);
          }
          sweepNei[sweep] = NO_NEIGHBOUR;
          sweepSamples[sweep] = 0;
        }

        // Record the -z contact: the sweep keeps a single candidate region or gives up.
        const conS = (con >>> 24) & 0xff;
        if (conS !== NOT_CONNECTED) {
          const ai = cellFirst[c - w]! + conS;
          const r = spanRegion[ai]!;
          if (r !== 0 && (r & BORDER_REGION) === 0 && areas[ai] === area) {
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
      }
    }

    // A sweep inherits its neighbour's id only if it is that region's sole continuation.
    for (let s = 1; s < sweepCount; s++) {
      const nei = sweepNei[s]!;
      if (nei > 0 && contactCount[nei] === sweepSamples[s]) sweepId[s] = nei;
      else sweepId[s] = nextId++;
    }

    for (let x = b; x < w - b; x++) {
      const c = rowBase + x;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        const r = spanRegion[i]!;
        if (r !== 0) spanRegion[i] = sweepId[r]!;
      }
    }
  }

  if (nextId > BORDER_REGION) {
    ctx?.warn(
      `monotone regions: ${nextId - 1} region ids exceed the 15-bit id range; region ids wrap and may collide`,
    );
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
