import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import {
  addSpan,
  countSpans,
  createHeightfield,
  nextSpan,
  spanBottom,
  spanTop,
} from "../../src/generate/heightfield.js";
import type { Heightfield } from "../../src/generate/types.js";

/** Spans of column (x, z), lowest first, as [min, max, area]. */
function column(hf: Heightfield, x: number, z: number): number[][] {
  const out: number[][] = [];
  for (let s = hf.columnHead[x + z * hf.width]!; s !== -1; s = nextSpan(hf, s)) {
    out.push([spanBottom(hf, s), spanTop(hf, s), hf.spanArea[s]!]);
  }
  return out;
}

function grid(): Heightfield {
  return createHeightfield(4, 3, [0, 0, 0], [4, 10, 3], 1, 1);
}

describe("createHeightfield", () => {
  it("creates width × depth empty columns and keeps the bounds and cell sizes", () => {
    const hf = createHeightfield(4, 3, [1, 2, 3], [5, 12, 6], 0.5, 0.25);
    expect(hf.width).toBe(4);
    expect(hf.depth).toBe(3);
    expect(hf.bmin).toEqual([1, 2, 3]);
    expect(hf.bmax).toEqual([5, 12, 6]);
    expect(hf.cellSize).toBe(0.5);
    expect(hf.cellHeight).toBe(0.25);
    expect(hf.columnHead.length).toBe(12);
    expect(Array.from(hf.columnHead).every((h) => h === -1)).toBe(true);
    expect(hf.poolUsed).toBe(0);
    expect(hf.freeHead).toBe(-1);
    expect(countSpans(hf)).toBe(0);
  });

  it("copies the bounds instead of aliasing the caller's arrays", () => {
    const bmin: [number, number, number] = [0, 0, 0];
    const hf = createHeightfield(1, 1, bmin, [1, 1, 1], 1, 1);
    bmin[0] = 5;
    expect(hf.bmin[0]).toBe(0);
  });

  it("throws INVALID_ARGUMENT for negative or fractional sizes and non-positive cells", () => {
    const bad = [
      () => createHeightfield(-1, 3, [0, 0, 0], [1, 1, 1], 1, 1),
      () => createHeightfield(2.5, 3, [0, 0, 0], [1, 1, 1], 1, 1),
      () => createHeightfield(2, 3, [0, 0, 0], [1, 1, 1], 0, 1),
      () => createHeightfield(2, 3, [0, 0, 0], [1, 1, 1], 1, Number.NaN),
    ];
    for (const f of bad) {
      expect(f).toThrow(MeshwayError);
      try {
        f();
      } catch (e) {
        expect((e as MeshwayError).code).toBe("INVALID_ARGUMENT");
      }
    }
  });
});

describe("addSpan", () => {
  it("keeps disjoint spans sorted bottom-up whatever the insertion order", () => {
    const hf = grid();
    addSpan(hf, 1, 2, 5, 6, 1, 1);
    addSpan(hf, 1, 2, 0, 2, 2, 1);
    addSpan(hf, 1, 2, 9, 10, 3, 1);
    addSpan(hf, 1, 2, 3, 4, 4, 1);
    expect(column(hf, 1, 2)).toEqual([
      [0, 2, 2],
      [3, 4, 4],
      [5, 6, 1],
      [9, 10, 3],
    ]);
    expect(countSpans(hf)).toBe(4);
    // Other columns stay empty.
    expect(column(hf, 2, 1)).toEqual([]);
  });

  it("keeps spans separated by a one-voxel gap apart", () => {
    const hf = grid();
    addSpan(hf, 0, 0, 0, 2, 63, 1);
    addSpan(hf, 0, 0, 3, 5, 63, 1);
    expect(column(hf, 0, 0)).toEqual([
      [0, 2, 63],
      [3, 5, 63],
    ]);
  });

  it("merges a span touching an existing one (top == new bottom) into one span", () => {
    const hf = grid();
    addSpan(hf, 0, 0, 0, 2, 63, 1);
    addSpan(hf, 0, 0, 2, 3, 63, 1);
    expect(column(hf, 0, 0)).toEqual([[0, 3, 63]]);
    // And from above: existing bottom == new top.
    addSpan(hf, 0, 0, 5, 8, 63, 1);
    addSpan(hf, 0, 0, 4, 5, 63, 1);
    expect(column(hf, 0, 0)).toEqual([
      [0, 3, 63],
      [4, 8, 63],
    ]);
  });

  it("merges overlapping spans into their union", () => {
    const hf = grid();
    addSpan(hf, 3, 1, 2, 6, 63, 1);
    addSpan(hf, 3, 1, 4, 9, 63, 1);
    expect(column(hf, 3, 1)).toEqual([[2, 9, 63]]);
    addSpan(hf, 3, 1, 0, 3, 63, 1);
    expect(column(hf, 3, 1)).toEqual([[0, 9, 63]]);
    addSpan(hf, 3, 1, 4, 5, 63, 1); // contained: no change
    expect(column(hf, 3, 1)).toEqual([[0, 9, 63]]);
  });

  it("absorbs every span a new span bridges", () => {
    const hf = grid();
    addSpan(hf, 2, 2, 0, 1, 63, 1);
    addSpan(hf, 2, 2, 3, 4, 63, 1);
    addSpan(hf, 2, 2, 6, 7, 63, 1);
    addSpan(hf, 2, 2, 9, 10, 63, 1);
    addSpan(hf, 2, 2, 1, 7, 63, 1);
    expect(column(hf, 2, 2)).toEqual([
      [0, 7, 63],
      [9, 10, 63],
    ]);
    expect(countSpans(hf)).toBe(2);
  });

  describe("area merge rule (flagMergeThreshold)", () => {
    it("takes the larger area id when the tops differ by at most the threshold", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 10, 5, 1);
      addSpan(hf, 0, 0, 8, 11, 3, 1); // merged top 11, existing top 10: |11 - 10| = 1 <= 1
      expect(column(hf, 0, 0)).toEqual([[0, 11, 5]]);
      addSpan(hf, 1, 0, 0, 10, 3, 1);
      addSpan(hf, 1, 0, 8, 11, 5, 1);
      expect(column(hf, 1, 0)).toEqual([[0, 11, 5]]);
    });

    it("keeps the new span's area when the tops differ by threshold + 1", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 10, 5, 1);
      addSpan(hf, 0, 0, 8, 12, 3, 1); // |12 - 10| = 2 > 1: the buried top loses
      expect(column(hf, 0, 0)).toEqual([[0, 12, 3]]);
      // The same pair with threshold 2 merges the areas.
      addSpan(hf, 1, 0, 0, 10, 5, 2);
      addSpan(hf, 1, 0, 8, 12, 3, 2);
      expect(column(hf, 1, 0)).toEqual([[0, 12, 5]]);
    });

    it("treats equal tops as within any threshold, including 0", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 10, 63, 0);
      addSpan(hf, 0, 0, 4, 10, 7, 0);
      expect(column(hf, 0, 0)).toEqual([[0, 10, 63]]);
      addSpan(hf, 1, 0, 0, 10, 63, 0);
      addSpan(hf, 1, 0, 4, 11, 7, 0);
      expect(column(hf, 1, 0)).toEqual([[0, 11, 7]]);
    });

    it("keeps a buried new span's own area (Recast starts the merge from the new span)", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 10, 0, 1);
      addSpan(hf, 0, 0, 2, 4, 63, 1); // inside [0, 10): max(63, 0)
      expect(column(hf, 0, 0)).toEqual([[0, 10, 63]]);
    });

    it("drops the area of an existing span buried under a taller new one", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 5, 63, 1);
      addSpan(hf, 0, 0, 3, 10, 0, 1); // |10 - 5| = 5 > 1
      expect(column(hf, 0, 0)).toEqual([[0, 10, 0]]);
      addSpan(hf, 1, 0, 0, 5, 63, 5);
      addSpan(hf, 1, 0, 3, 10, 0, 5); // |10 - 5| = 5 <= 5
      expect(column(hf, 1, 0)).toEqual([[0, 10, 63]]);
    });

    it("compares each absorbed span with the merged top grown so far, bottom-up", () => {
      const hf = grid();
      addSpan(hf, 0, 0, 0, 2, 40, 1);
      addSpan(hf, 0, 0, 3, 6, 20, 1);
      // New [1, 5) area 10 absorbs [0,2) (merged top 5, |5-2| = 3: dropped) then [3,6)
      // (merged top 6, |6-6| = 0: max(10, 20) = 20).
      addSpan(hf, 0, 0, 1, 5, 10, 1);
      expect(column(hf, 0, 0)).toEqual([[0, 6, 20]]);
    });
  });

  it("reuses merged-away pool entries before taking new ones", () => {
    const hf = grid();
    addSpan(hf, 0, 0, 0, 1, 63, 1);
    addSpan(hf, 0, 0, 2, 3, 63, 1);
    addSpan(hf, 0, 0, 4, 5, 63, 1);
    expect(hf.poolUsed).toBe(3);
    addSpan(hf, 0, 0, 0, 5, 63, 1); // frees 3 entries, uses 1 of them
    expect(hf.poolUsed).toBe(3);
    expect(hf.freeHead).not.toBe(-1);
    addSpan(hf, 1, 1, 0, 1, 63, 1);
    addSpan(hf, 2, 1, 0, 1, 63, 1);
    expect(hf.poolUsed).toBe(3);
    expect(hf.freeHead).toBe(-1);
    expect(countSpans(hf)).toBe(3);
    addSpan(hf, 3, 1, 0, 1, 63, 1);
    expect(hf.poolUsed).toBe(4);
  });

  it("grows the span pool by doubling without losing spans", () => {
    const hf = createHeightfield(1, 1, [0, 0, 0], [1, 10000, 1], 1, 1);
    const initial = hf.spanArea.length;
    const n = initial * 2 + 7; // forces two doublings
    for (let i = 0; i < n; i++) addSpan(hf, 0, 0, i * 2, i * 2 + 1, i % 64, 0);
    expect(hf.spans.length).toBe(initial * 8);
    expect(hf.spanArea.length).toBe(initial * 4);
    expect(countSpans(hf)).toBe(n);
    const col = column(hf, 0, 0);
    for (let i = 0; i < n; i++) expect(col[i]).toEqual([i * 2, i * 2 + 1, i % 64]);
  });
});
