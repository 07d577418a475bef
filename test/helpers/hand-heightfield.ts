/**
 * Solid heightfields (`Heightfield`, the rasterizer's output) written out by hand, for unit tests
 * of the compact build, erosion and area marking. Stable API:
 *
 *   makeHeightfield(width, depth, (x, z) => [[min, max, area], ...])   // any span lists
 *   flatHeightfield(width, depth, floor?)   // one walkable span [0, floor(x, z)) per column
 *
 * Spans are pooled column by column (x fastest), lowest first, so when every column holds one
 * span, span `c` of the pool belongs to column `c = x + z * width`.
 */
import { type Heightfield, WALKABLE_AREA } from "../../src/generate/types.js";

/** One solid span: bottom and top in voxels, area id. */
export type SolidSpan = [min: number, max: number, area: number];

export interface HeightfieldOptions {
  /** Cell height in world units (default 0.5). */
  cellHeight?: number;
  /** bmax y in world units (default 10). */
  maxY?: number;
}

/** A Heightfield built directly from per-column span lists (lowest first); cell size 1. */
export function makeHeightfield(
  width: number,
  depth: number,
  columns: (x: number, z: number) => SolidSpan[],
  opts: HeightfieldOptions = {},
): Heightfield {
  const all: SolidSpan[][] = [];
  let total = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const spans = columns(x, z);
      all.push(spans);
      total += spans.length;
    }
  }
  const hf: Heightfield = {
    width,
    depth,
    bmin: [0, 0, 0],
    bmax: [width, opts.maxY ?? 10, depth],
    cellSize: 1,
    cellHeight: opts.cellHeight ?? 0.5,
    columnHead: new Int32Array(width * depth).fill(-1),
    spans: new Int32Array(total * 2).fill(-1),
    spanArea: new Uint8Array(total),
    poolUsed: total,
    freeHead: -1,
  };
  let p = 0;
  all.forEach((spans, c) => {
    let prev = -1;
    for (const [min, max, area] of spans) {
      hf.spans[p * 2] = min | (max << 16);
      hf.spanArea[p] = area;
      if (prev === -1) hf.columnHead[c] = p;
      else hf.spans[prev * 2 + 1] = p;
      prev = p;
      p++;
    }
  });
  return hf;
}

/**
 * width×depth floor with cell size 1 and cell height 1 (bmax y 1): one walkable span
 * [0, floor(x, z)) per column; a column whose floor is `null` stays empty. Default floor 1.
 */
export function flatHeightfield(
  width: number,
  depth: number,
  floor: (x: number, z: number) => number | null = () => 1,
): Heightfield {
  return makeHeightfield(
    width,
    depth,
    (x, z) => {
      const top = floor(x, z);
      return top === null ? [] : [[0, top, WALKABLE_AREA]];
    },
    { cellHeight: 1, maxY: 1 },
  );
}
