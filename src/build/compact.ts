import type { BuildContext } from "./context.js";
import {
  type CompactHeightfield,
  type Heightfield,
  NOT_CONNECTED,
  NULL_AREA,
  SPAN_MAX_HEIGHT,
} from "./types.js";

/**
 * Largest neighbour index an 8-bit connection slot can hold; NOT_CONNECTED (0xff) is reserved.
 * Recast's 6-bit slot stops at 62; ours allows columns of up to 255 walkable spans.
 */
export const MAX_LAYER_INDEX = NOT_CONNECTED - 1;

/**
 * Open space above every walkable solid span, with 4-neighbour links, as in Recast's
 * rcBuildCompactHeightfield (Mononen). A span's floor is the top of its solid span; its
 * clearance reaches the bottom of the next solid span (or SPAN_MAX_HEIGHT). Two spans in
 * adjacent columns connect when their floors differ by at most `walkableClimbVoxels` and the
 * open gap they share is at least `walkableHeightVoxels`; the lowest such neighbour wins.
 *
 * Clearance is stored in 16 bits, so connection tests see the true gap where Recast's 8-bit
 * `h` would see at most 255 — identical results whenever walkableHeight + walkableClimb <= 255.
 */
export function buildCompactHeightfield(
  hf: Heightfield,
  walkableHeightVoxels: number,
  walkableClimbVoxels: number,
  ctx?: BuildContext,
): CompactHeightfield {
  const width = hf.width;
  const depth = hf.depth;
  const columns = width * depth;
  const columnHead = hf.columnHead;
  const spanMin = hf.spanMin;
  const spanMax = hf.spanMax;
  const spanArea = hf.spanArea;
  const spanNext = hf.spanNext;

  let spanCount = 0;
  for (let c = 0; c < columns; c++) {
    for (let s = columnHead[c]; s !== -1; s = spanNext[s]) {
      if (spanArea[s] !== NULL_AREA) spanCount++;
    }
  }

  const cellFirst = new Uint32Array(columns);
  const cellCount = new Uint16Array(columns);
  const spanY = new Uint16Array(spanCount);
  const spanH = new Uint16Array(spanCount);
  const spanCon = new Uint32Array(spanCount).fill(0xffffffff);
  const areas = new Uint8Array(spanCount);

  // Fill columns: the open span starts on the solid span's top and ends at the next one's bottom.
  let idx = 0;
  for (let c = 0; c < columns; c++) {
    cellFirst[c] = idx;
    for (let s = columnHead[c]; s !== -1; s = spanNext[s]) {
      const area = spanArea[s];
      if (area === NULL_AREA) continue;
      const floor = spanMax[s];
      const next = spanNext[s];
      const ceiling = next === -1 ? SPAN_MAX_HEIGHT : spanMin[next];
      const clearance = ceiling - floor;
      spanY[idx] = floor;
      spanH[idx] = clearance < 0 ? 0 : Math.min(clearance, 0xffff);
      areas[idx] = area;
      idx++;
    }
    cellCount[c] = idx - cellFirst[c];
  }

  // Link neighbours. Spans of a column are sorted by floor, so the candidates within climb
  // reach form one contiguous run: skip those too low, stop at the first too high.
  let maxLayer = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      const first = cellFirst[c];
      const end = first + cellCount[c];
      for (let i = first; i < end; i++) {
        const y = spanY[i];
        const top = y + spanH[i];
        const lowest = y - walkableClimbVoxels;
        const highest = y + walkableClimbVoxels;
        let con = 0xffffffff;
        for (let dir = 0; dir < 4; dir++) {
          let nc: number;
          if (dir === 0) {
            if (x === 0) continue;
            nc = c - 1;
          } else if (dir === 1) {
            if (z === depth - 1) continue;
            nc = c + width;
          } else if (dir === 2) {
            if (x === width - 1) continue;
            nc = c + 1;
          } else {
            if (z === 0) continue;
            nc = c - width;
          }
          const nFirst = cellFirst[nc];
          const nEnd = nFirst + cellCount[nc];
          for (let k = nFirst; k < nEnd; k++) {
            const ny = spanY[k];
            if (ny < lowest) continue;
            if (ny > highest) break;
            const ntop = ny + spanH[k];
            const gap = Math.min(ntop, top) - Math.max(ny, y);
            if (gap >= walkableHeightVoxels) {
              const layer = k - nFirst;
              if (layer > MAX_LAYER_INDEX) {
                if (layer > maxLayer) maxLayer = layer;
                break;
              }
              const shift = dir << 3;
              con = (con & ~(0xff << shift)) | (layer << shift);
              break;
            }
          }
        }
        spanCon[i] = con >>> 0;
      }
    }
  }

  if (maxLayer > MAX_LAYER_INDEX && ctx) {
    ctx.warn(
      `buildCompactHeightfield: a column has too many walkable layers to link (neighbour index ${maxLayer}, max ${MAX_LAYER_INDEX}); those links are left unconnected`,
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
