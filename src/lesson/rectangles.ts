import type { Ring } from "./geometry.js";
import { LESSON_SCENE } from "./scene.js";

/** Maximal rectangles in cell units: rect k covers cols [c0, c1) × rows [r0, r1). */
export interface CellRectangles {
  count: number;
  /** 4 per rectangle: c0, r0, c1, r1 (end-exclusive). */
  cells: Int32Array;
  /** Per cell: the rectangle covering it, or -1. */
  owner: Int32Array;
}

/**
 * The lesson's simple partition: scanning cells row by row, each walkable cell not yet used
 * starts a rectangle that grows right until the run ends, then grows the whole run down while
 * every cell of the next row is walkable and unused. Every walkable cell ends in exactly one
 * rectangle, so the area is conserved exactly.
 */
export function maximalRectangles(walkable: Uint8Array): CellRectangles {
  const { cols, rows } = LESSON_SCENE;
  const owner = new Int32Array(cols * rows).fill(-1);
  const out: number[] = [];
  const free = (i: number, j: number): boolean =>
    walkable[i + j * cols] === 1 && owner[i + j * cols] === -1;
  // #region rectangles (shown on the explainer page, verbatim)
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      if (!free(i, j)) continue;
      let i1 = i + 1;
      while (i1 < cols && free(i1, j)) i1++;
      let j1 = j + 1;
      while (j1 < rows) {
        let whole = true;
        for (let x = i; x < i1; x++) {
          if (!free(x, j1)) {
            whole = false;
            break;
          }
        }
        if (!whole) break;
        j1++;
      }
      const id = out.length / 4;
      for (let y = j; y < j1; y++) for (let x = i; x < i1; x++) owner[x + y * cols] = id;
      out.push(i, j, i1, j1);
    }
  }
  // #endregion
  return { count: out.length / 4, cells: Int32Array.from(out), owner };
}

/** The rectangles as XZ rings in world units (corners in the order x0z0, x0z1, x1z1, x1z0). */
export function rectangleRings(rects: CellRectangles): Ring[] {
  const cs = LESSON_SCENE.cellSize;
  const rings: Ring[] = [];
  for (let k = 0; k < rects.count; k++) {
    const x0 = rects.cells[k * 4]! * cs;
    const z0 = rects.cells[k * 4 + 1]! * cs;
    const x1 = rects.cells[k * 4 + 2]! * cs;
    const z1 = rects.cells[k * 4 + 3]! * cs;
    rings.push(new Float64Array([x0, z0, x0, z1, x1, z1, x1, z0]));
  }
  return rings;
}
