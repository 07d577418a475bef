import type { OpenSpans } from "./compact.js";
import { DIR_OFFSET_X, DIR_OFFSET_Z, type Heightfield, NULL_AREA } from "./types.js";

/** Ceiling of a span with nothing above it (same sentinel as Recast's filters). */
const OPEN_CEILING = 0xffff;

/**
 * Lets agents step onto small obstacles: a non-walkable span whose top is at most
 * `walkableClimbVoxels` above the top of a walkable span directly below it (the previous span in
 * the column) becomes walkable with that span's area. Only originally walkable spans propagate,
 * so a stack of obstacles is not climbed step by step. (Recast's
 * rcFilterLowHangingWalkableObstacles.)
 */
export function filterLowHangingWalkableObstacles(
  hf: Heightfield,
  walkableClimbVoxels: number,
): void {
  const columnHead = hf.columnHead;
  const areas = hf.spanArea;
  const sp = hf.spans;
  // Local copy: cheaper than an imported binding in hot loops.
  const nullArea = NULL_AREA;
  for (let c = 0; c < columnHead.length; c++) {
    let prevWalkable = false;
    let prevArea = nullArea;
    let prevTop = 0;
    for (let s = columnHead[c]!; s !== -1; s = sp[s * 2 + 1]!) {
      const area = areas[s]!;
      const top = sp[s * 2]! >>> 16;
      const walkable = area !== nullArea;
      if (!walkable && prevWalkable && top - prevTop <= walkableClimbVoxels) {
        areas[s] = prevArea;
      }
      prevWalkable = walkable;
      prevArea = areas[s]!;
      prevTop = top;
    }
  }
}

/**
 * Marks walkable spans at ledges non-walkable (Recast's rcFilterLedgeSpans, 1.6 semantics).
 * For a walkable span with floor f (its top) and ceiling c (bottom of the next span, or open),
 * look at each of the 4 neighbour columns and every gap in it — below its first span, and above
 * each span up to the next — whose overlap with [f, c) is at least `walkableHeightVoxels` tall:
 * - a neighbour column outside the grid, or an open gap below the neighbour's first span
 *   (min(c, first span bottom) − f >= walkableHeightVoxels), is a drop: the span is a ledge;
 * - a neighbour floor more than `walkableClimbVoxels` below f is a drop: ledge;
 * - among neighbour floors within ±walkableClimbVoxels of f (and f itself), if highest − lowest
 *   exceeds walkableClimbVoxels the span sits on too steep a slope: also marked.
 */
export function filterLedgeSpans(
  hf: Heightfield,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
): void {
  const w = hf.width;
  const d = hf.depth;
  const columnHead = hf.columnHead;
  const areas = hf.spanArea;
  const sp = hf.spans;
  const nullArea = NULL_AREA;
  const dropLimit = -walkableClimbVoxels;
  // Column index offsets of the 4 neighbours (dir 0 = -x, 1 = +z, 2 = +x, 3 = -z).
  const neighbourOffset = new Int32Array(4);
  for (let dir = 0; dir < 4; dir++)
    neighbourOffset[dir] = DIR_OFFSET_X[dir]! + DIR_OFFSET_Z[dir]! * w;

  for (let z = 0; z < d; z++) {
    for (let x = 0; x < w; x++) {
      const col = x + z * w;
      // A column on the grid edge has a neighbour off the grid: all its walkable spans are ledges.
      const onEdge = x === 0 || z === 0 || x === w - 1 || z === d - 1;
      for (let s = columnHead[col]!; s !== -1; s = sp[s * 2 + 1]!) {
        if (areas[s] === nullArea) continue;
        if (onEdge) {
          areas[s] = nullArea;
          continue;
        }
        const floor = sp[s * 2]! >>> 16;
        const above = sp[s * 2 + 1]!;
        const ceiling = above !== -1 ? sp[above * 2]! & 0xffff : OPEN_CEILING;
        let isLedge = false;
        let lowestReachable = floor;
        let highestReachable = floor;

        for (let dir = 0; dir < 4; dir++) {
          let n = columnHead[col + neighbourOffset[dir]!]!;
          // The gap below the neighbour's lowest span reaches down forever: a drop.
          const firstBottom = n !== -1 ? sp[n * 2]! & 0xffff : OPEN_CEILING;
          if (Math.min(ceiling, firstBottom) - floor >= walkableHeightVoxels) {
            isLedge = true;
            break;
          }
          for (; n !== -1; n = sp[n * 2 + 1]!) {
            const nFloor = sp[n * 2]! >>> 16;
            // This and every higher neighbour span leave no opening under the ceiling.
            if (nFloor >= ceiling && walkableHeightVoxels > 0) break;
            const nAbove = sp[n * 2 + 1]!;
            const nCeiling = nAbove !== -1 ? sp[nAbove * 2]! & 0xffff : OPEN_CEILING;
            const top = Math.min(ceiling, nCeiling);
            const bottom = Math.max(floor, nFloor);
            if (top - bottom < walkableHeightVoxels) continue; // Too little room to pass.
            const step = nFloor - floor;
            if (step < dropLimit) {
              isLedge = true;
              break;
            }
            if (step <= walkableClimbVoxels) {
              if (nFloor < lowestReachable) lowestReachable = nFloor;
              else if (nFloor > highestReachable) highestReachable = nFloor;
            }
          }
          if (isLedge) break;
        }

        if (isLedge || highestReachable - lowestReachable > walkableClimbVoxels) {
          areas[s] = nullArea;
        }
      }
    }
  }
}

/**
 * Marks walkable spans without room to stand non-walkable: those whose clearance (next span's
 * bottom minus this span's top; unbounded at the column top) is below `walkableHeightVoxels`.
 * Clearance exactly equal to walkableHeightVoxels stays walkable.
 * (Recast's rcFilterWalkableLowHeightSpans.)
 */
export function filterWalkableLowHeightSpans(hf: Heightfield, walkableHeightVoxels: number): void {
  const columnHead = hf.columnHead;
  const areas = hf.spanArea;
  const sp = hf.spans;
  const nullArea = NULL_AREA;
  for (let c = 0; c < columnHead.length; c++) {
    for (let s = columnHead[c]!; s !== -1; s = sp[s * 2 + 1]!) {
      const above = sp[s * 2 + 1]!;
      const ceiling = above !== -1 ? sp[above * 2]! & 0xffff : OPEN_CEILING;
      if (ceiling - (sp[s * 2]! >>> 16) < walkableHeightVoxels) areas[s] = nullArea;
    }
  }
}

/**
 * The three filters above in one sweep over the columns, with the same result as calling
 * filterLowHangingWalkableObstacles, filterLedgeSpans and filterWalkableLowHeightSpans in that
 * order: the ledge and low-height rules only read geometry and the span's own area, so each
 * span can go through all three rules as soon as the low-hanging rule has seen the span below
 * it. One walk over the (scattered) span lists instead of three. Returns the number of
 * walkable spans left. When `open` is given (arrays y, h, area with room for every live span,
 * cellCount zeroed with one entry per column), the walkable spans' floor, clearance and area
 * are recorded there in column order for buildCompactHeightfield.
 */
export function filterHeightfield(
  hf: Heightfield,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
  open?: OpenSpans,
): number {
  return open === undefined
    ? filterSweep(hf, walkableHeightVoxels, walkableClimbVoxels, null, null, null, null)
    : filterSweep(
        hf,
        walkableHeightVoxels,
        walkableClimbVoxels,
        open.y,
        open.h,
        open.area,
        open.cellCount,
      );
}

function filterSweep(
  hf: Heightfield,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
  openY: Uint16Array | null,
  openH: Uint16Array | null,
  openArea: Uint8Array | null,
  cellCount: Uint16Array | null,
): number {
  const w = hf.width;
  const d = hf.depth;
  const columnHead = hf.columnHead;
  const areas = hf.spanArea;
  const sp = hf.spans;
  const nullArea = NULL_AREA;
  let walkable = 0;
  for (let z = 0; z < d; z++) {
    const zEdge = z === 0 || z === d - 1;
    for (let x = 0; x < w; x++) {
      const col = x + z * w;
      let s = columnHead[col]!;
      if (s === -1) continue;
      const onEdge = zEdge || x === 0 || x === w - 1;
      let prevWalkable = false;
      let prevArea = nullArea;
      let prevTop = 0;
      do {
        let area = areas[s]!;
        const top = sp[s * 2]! >>> 16;
        const above = sp[s * 2 + 1]!;
        // Low-hanging obstacle: judged on the areas as they were before this sweep's other rules.
        const wasWalkable = area !== nullArea;
        if (!wasWalkable && prevWalkable && top - prevTop <= walkableClimbVoxels) area = prevArea;
        prevWalkable = wasWalkable;
        prevArea = area;
        prevTop = top;
        if (area !== nullArea) {
          const ceiling = above !== -1 ? sp[above * 2]! & 0xffff : OPEN_CEILING;
          if (
            onEdge ||
            ceiling - top < walkableHeightVoxels ||
            isLedge(hf, col, top, ceiling, walkableHeightVoxels, walkableClimbVoxels)
          ) {
            area = nullArea;
          } else {
            if (openY !== null) {
              const clearance = ceiling - top;
              openY[walkable] = top;
              openH![walkable] = Math.max(clearance, 0);
              openArea![walkable] = area;
              cellCount![col]!++;
            }
            walkable++;
          }
        }
        areas[s] = area;
        s = above;
      } while (s !== -1);
    }
  }
  return walkable;
}

/**
 * filterLedgeSpans' test for one walkable span of interior column `col` with the given floor
 * and ceiling.
 */
function isLedge(
  hf: Heightfield,
  col: number,
  floor: number,
  ceiling: number,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
): boolean {
  const columnHead = hf.columnHead;
  const sp = hf.spans;
  const w = hf.width;
  const dropLimit = -walkableClimbVoxels;
  let lowestReachable = floor;
  let highestReachable = floor;
  for (let dir = 0; dir < 4; dir++) {
    const nCol = dir === 0 ? col - 1 : dir === 1 ? col + w : dir === 2 ? col + 1 : col - w;
    let n = columnHead[nCol]!;
    // The gap below the neighbour's lowest span reaches down forever: a drop.
    const firstBottom = n !== -1 ? sp[n * 2]! & 0xffff : OPEN_CEILING;
    if (Math.min(ceiling, firstBottom) - floor >= walkableHeightVoxels) {
      return true;
    }
    while (n !== -1) {
      const nFloor = sp[n * 2]! >>> 16;
      // This and every higher neighbour span leave no opening under the ceiling.
      if (nFloor >= ceiling && walkableHeightVoxels > 0) break;
      const nAbove = sp[n * 2 + 1]!;
      const nCeiling = nAbove !== -1 ? sp[nAbove * 2]! & 0xffff : OPEN_CEILING;
      const top = Math.min(ceiling, nCeiling);
      const bottom = Math.max(floor, nFloor);
      if (top - bottom >= walkableHeightVoxels) {
        const step = nFloor - floor;
        if (step < dropLimit) return true;
        if (step <= walkableClimbVoxels) {
          if (nFloor < lowestReachable) lowestReachable = nFloor;
          else if (nFloor > highestReachable) highestReachable = nFloor;
        }
      }
      n = nAbove;
    }
  }
  return highestReachable - lowestReachable > walkableClimbVoxels;
}
