import { describe, expect, it } from "vitest";
import { buildCompactHeightfield, MAX_LAYER_INDEX } from "../../src/generate/compact.js";
import { BuildContext } from "../../src/generate/context.js";
import { nextSpan, spanBottom, spanTop } from "../../src/generate/heightfield.js";
import {
  type CompactHeightfield,
  type Heightfield,
  NOT_CONNECTED,
  NULL_AREA,
  SPAN_MAX_HEIGHT,
  WALKABLE_AREA,
} from "../../src/generate/types.js";
import { makeHeightfield, type SolidSpan } from "../helpers/hand-heightfield.js";

function con(chf: CompactHeightfield, span: number, dir: number): number {
  return (chf.spanCon[span]! >>> (dir * 8)) & 0xff;
}

function allCons(chf: CompactHeightfield, span: number): number[] {
  return [0, 1, 2, 3].map((d) => con(chf, span, d));
}

const W = WALKABLE_AREA;
const NC = NOT_CONNECTED;

describe("buildCompactHeightfield", () => {
  it("puts an open span on top of each walkable solid span with clearance to the next solid span", () => {
    const hf = makeHeightfield(1, 1, () => [
      [0, 2, W],
      [10, 12, 7],
    ]);
    const chf = buildCompactHeightfield(hf, 3, 1);
    expect(chf.spanCount).toBe(2);
    expect(Array.from(chf.spanY)).toEqual([2, 12]);
    expect(Array.from(chf.spanH)).toEqual([8, SPAN_MAX_HEIGHT - 12]);
    expect(Array.from(chf.areas)).toEqual([W, 7]);
    expect(allCons(chf, 0)).toEqual([NC, NC, NC, NC]);
    expect(allCons(chf, 1)).toEqual([NC, NC, NC, NC]);
  });

  it("skips NULL_AREA solid spans but lets them cap the clearance below", () => {
    const hf = makeHeightfield(1, 1, () => [
      [0, 2, W],
      [5, 6, NULL_AREA],
      [9, 9, NULL_AREA],
    ]);
    const chf = buildCompactHeightfield(hf, 1, 1);
    expect(chf.spanCount).toBe(1);
    expect(chf.spanY[0]).toBe(2);
    expect(chf.spanH[0]).toBe(3);
  });

  it("clamps the topmost clearance to 0xffff minus the floor", () => {
    const hf = makeHeightfield(1, 1, () => [[0, 0xfffe, W]]);
    const chf = buildCompactHeightfield(hf, 1, 1);
    expect(chf.spanY[0]).toBe(0xfffe);
    expect(chf.spanH[0]).toBe(1);
  });

  it("lays columns out contiguously with empty columns counting zero", () => {
    // 3×2 grid; column (1,0) empty, column (2,1) has two walkable spans.
    const hf = makeHeightfield(3, 2, (x, z) => {
      if (x === 1 && z === 0) return [];
      if (x === 2 && z === 1)
        return [
          [0, 1, W],
          [20, 21, W],
        ];
      if (x === 0 && z === 1) return [[0, 1, NULL_AREA]];
      return [[0, 1, W]];
    });
    const chf = buildCompactHeightfield(hf, 2, 1);
    expect(chf.spanCount).toBe(5);
    expect(Array.from(chf.cellCount)).toEqual([1, 0, 1, 0, 1, 2]);
    expect(Array.from(chf.cellFirst)).toEqual([0, 1, 1, 2, 2, 3]);
    expect(Array.from(chf.spanY)).toEqual([1, 1, 1, 1, 21]);
  });

  it("copies the grid header and raises bmax.y by the walkable height", () => {
    const hf = makeHeightfield(2, 3, () => [[0, 1, W]]);
    const chf = buildCompactHeightfield(hf, 4, 2);
    expect(chf.width).toBe(2);
    expect(chf.depth).toBe(3);
    expect(chf.walkableHeightVoxels).toBe(4);
    expect(chf.walkableClimbVoxels).toBe(2);
    expect(chf.borderSize).toBe(0);
    expect(chf.bmin).toEqual([0, 0, 0]);
    expect(chf.bmax).toEqual([2, 10 + 4 * 0.5, 3]);
    expect(chf.cellSize).toBe(1);
    expect(chf.cellHeight).toBe(0.5);
  });

  it("links the four neighbours of a flat 3×3 floor with direction order -x, +z, +x, -z", () => {
    const hf = makeHeightfield(3, 3, () => [[0, 1, W]]);
    const chf = buildCompactHeightfield(hf, 2, 1);
    // Span index equals column index here.
    expect(allCons(chf, 4)).toEqual([0, 0, 0, 0]);
    expect(allCons(chf, 0)).toEqual([NC, 0, 0, NC]); // (0,0): no -x, no -z
    expect(allCons(chf, 8)).toEqual([0, NC, NC, 0]); // (2,2): no +z, no +x
    expect(allCons(chf, 2)).toEqual([0, 0, NC, NC]); // (2,0)
    expect(allCons(chf, 6)).toEqual([NC, NC, 0, 0]); // (0,2)
  });

  it("connects a step exactly at the climb limit and not one voxel higher", () => {
    const climb = 3;
    for (const [step, connected] of [
      [climb, true],
      [climb + 1, false],
    ] as const) {
      const hf = makeHeightfield(2, 1, (x) => [[0, x === 0 ? 5 : 5 + step, W]]);
      const chf = buildCompactHeightfield(hf, 4, climb);
      expect(con(chf, 0, 2)).toBe(connected ? 0 : NC);
      expect(con(chf, 1, 0)).toBe(connected ? 0 : NC);
    }
  });

  it("connects when the shared gap equals the walkable height and not when one voxel less", () => {
    const height = 6;
    for (const [gap, connected] of [
      [height, true],
      [height - 1, false],
    ] as const) {
      // Column 0 has a ceiling `gap` voxels above its floor; column 1 is open above.
      const hf = makeHeightfield(2, 1, (x) =>
        x === 0
          ? [
              [0, 2, W],
              [2 + gap, 3 + gap, NULL_AREA],
            ]
          : [[0, 2, W]],
      );
      const chf = buildCompactHeightfield(hf, height, 1);
      expect(chf.spanH[0]).toBe(gap);
      expect(con(chf, 0, 2)).toBe(connected ? 0 : NC);
      expect(con(chf, 1, 0)).toBe(connected ? 0 : NC);
    }
  });

  it("measures the shared gap from the higher floor to the lower ceiling", () => {
    // Floors at 4 and 6 (climb 2); ceilings at 12 and 14: shared gap = 12 - 6 = 6.
    for (const [height, connected] of [
      [6, true],
      [7, false],
    ] as const) {
      const hf = makeHeightfield(2, 1, (x) =>
        x === 0
          ? [
              [0, 4, W],
              [12, 13, NULL_AREA],
            ]
          : [
              [0, 6, W],
              [14, 15, NULL_AREA],
            ],
      );
      const chf = buildCompactHeightfield(hf, height, 2);
      expect(con(chf, 0, 2)).toBe(connected ? 0 : NC);
      expect(con(chf, 1, 0)).toBe(connected ? 0 : NC);
    }
  });

  it("stores the neighbour's index within its own column", () => {
    // Column 1 has floors at 2 and 30; column 0 has one floor at 30.
    const hf = makeHeightfield(2, 1, (x) =>
      x === 0
        ? [[0, 30, W]]
        : [
            [0, 2, W],
            [20, 30, W],
          ],
    );
    const chf = buildCompactHeightfield(hf, 4, 1);
    expect(Array.from(chf.spanY)).toEqual([30, 2, 30]);
    expect(con(chf, 0, 2)).toBe(1);
    expect(con(chf, 2, 0)).toBe(0);
    expect(con(chf, 1, 0)).toBe(NC);
  });

  it("links to the lowest neighbour that qualifies when several do", () => {
    // Floor at 5; neighbour floors at 3 and 7 both within climb 2 and with room.
    const hf = makeHeightfield(2, 1, (x) =>
      x === 0
        ? [[0, 5, W]]
        : [
            [0, 3, W],
            [6, 7, W],
          ],
    );
    // The neighbour span at 3 has clearance 3 (up to 6): gap with floor 5 is 1.
    let chf = buildCompactHeightfield(hf, 1, 2);
    expect(con(chf, 0, 2)).toBe(0);
    // Needing 2 voxels of gap rules out the floor at 3, leaving the floor at 7.
    chf = buildCompactHeightfield(hf, 2, 2);
    expect(con(chf, 0, 2)).toBe(1);
  });

  it("leaves links past neighbour index 254 unconnected and warns once", () => {
    const layers = 300;
    const stack = (): SolidSpan[] => {
      const spans: SolidSpan[] = [];
      for (let k = 0; k < layers; k++) spans.push([k * 3, k * 3 + 1, W]);
      return spans;
    };
    const hf = makeHeightfield(2, 1, stack);
    const ctx = new BuildContext();
    const chf = buildCompactHeightfield(hf, 2, 0, ctx);
    expect(chf.spanCount).toBe(2 * layers);
    expect(chf.cellCount[0]).toBe(layers);
    expect(chf.cellCount[1]).toBe(layers);
    expect(MAX_LAYER_INDEX).toBe(254);
    for (let k = 0; k < layers; k++) {
      const expected = k <= MAX_LAYER_INDEX ? k : NC;
      expect(con(chf, k, 2)).toBe(expected);
      expect(con(chf, layers + k, 0)).toBe(expected);
    }
    expect(ctx.warnings).toHaveLength(1);
    expect(ctx.warnings[0]).toContain("299");
  });

  it("does not warn when every column fits", () => {
    const hf = makeHeightfield(4, 4, () => [[0, 1, W]]);
    const ctx = new BuildContext();
    buildCompactHeightfield(hf, 2, 1, ctx);
    expect(ctx.warnings).toEqual([]);
  });

  it("ignores spans on the heightfield's free list", () => {
    const hf = makeHeightfield(1, 1, () => [[0, 2, W]]);
    // Grow the pool with a dangling free span that is not linked into any column.
    const grown: Heightfield = {
      ...hf,
      spans: Int32Array.from([...hf.spans, 7 | (9 << 16), -1]),
      spanArea: Uint8Array.from([...hf.spanArea, W]),
      poolUsed: 2,
      freeHead: 1,
    };
    const chf = buildCompactHeightfield(grown, 1, 1);
    expect(chf.spanCount).toBe(1);
    expect(chf.spanY[0]).toBe(2);
  });

  it("matches a direct reading of the link rule on random multi-layer grids", () => {
    let seed = 99;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    for (let trial = 0; trial < 40; trial++) {
      const width = 1 + rand(12);
      const depth = 1 + rand(12);
      const wh = 1 + rand(6);
      const wc = rand(5);
      // Mostly lone spans (the fast path), sometimes stacks of up to 4, some NULL_AREA.
      const hf = makeHeightfield(width, depth, () => {
        const n = rand(10) < 6 ? 1 : rand(5);
        const spans: SolidSpan[] = [];
        let bottom = rand(6);
        for (let k = 0; k < n; k++) {
          const top = bottom + 1 + rand(4);
          spans.push([bottom, top, rand(8) === 0 ? NULL_AREA : 1 + rand(63)]);
          bottom = top + 1 + rand(10);
        }
        return spans;
      });
      const chf = buildCompactHeightfield(hf, wh, wc);
      // Reference: every open span, then per direction the first qualifying neighbour.
      const ys: number[][] = [];
      const tops: number[][] = [];
      for (let c = 0; c < width * depth; c++) {
        const y: number[] = [];
        const t: number[] = [];
        for (let s = hf.columnHead[c]!; s !== -1; s = nextSpan(hf, s)) {
          if (hf.spanArea[s] === NULL_AREA) continue;
          const next = nextSpan(hf, s);
          y.push(spanTop(hf, s));
          t.push(next === -1 ? SPAN_MAX_HEIGHT : spanBottom(hf, next));
        }
        ys.push(y);
        tops.push(t);
      }
      const dx = [-1, 0, 1, 0];
      const dz = [0, 1, 0, -1];
      for (let z = 0; z < depth; z++) {
        for (let x = 0; x < width; x++) {
          const c = x + z * width;
          expect(chf.cellCount[c]).toBe(ys[c]!.length);
          for (let k = 0; k < ys[c]!.length; k++) {
            const i = chf.cellFirst[c]! + k;
            expect(chf.spanY[i]).toBe(ys[c]![k]);
            expect(chf.spanH[i]).toBe(tops[c]![k]! - ys[c]![k]!);
            for (let d = 0; d < 4; d++) {
              const nx = x + dx[d]!;
              const nz = z + dz[d]!;
              let expected = NC;
              if (nx >= 0 && nz >= 0 && nx < width && nz < depth) {
                const n = nx + nz * width;
                for (let m = 0; m < ys[n]!.length; m++) {
                  const gap =
                    Math.min(tops[c]![k]!, tops[n]![m]!) - Math.max(ys[c]![k]!, ys[n]![m]!);
                  if (gap >= wh && Math.abs(ys[n]![m]! - ys[c]![k]!) <= wc) {
                    expected = m;
                    break;
                  }
                }
              }
              expect(con(chf, i, d)).toBe(expected);
            }
          }
        }
      }
    }
  });

  it("returns an empty field for an empty heightfield", () => {
    const hf = makeHeightfield(3, 3, () => []);
    const chf = buildCompactHeightfield(hf, 2, 1);
    expect(chf.spanCount).toBe(0);
    expect(Array.from(chf.cellCount)).toEqual(new Array(9).fill(0));
  });
});
