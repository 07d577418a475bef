import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NeighbourGrid } from "../../src/crowd/neighbour-grid.js";

/** Brute force: the k nearest (XZ) within range, vertically closer than the mean height. */
function bruteNearest(
  pos: Float64Array,
  height: Float64Array,
  n: number,
  self: number,
  range: number,
  k: number,
): number[] {
  const c: [number, number][] = [];
  for (let j = 0; j < n; j++) {
    if (j === self) continue;
    if (Math.abs(pos[self * 3 + 1]! - pos[j * 3 + 1]!) >= (height[self]! + height[j]!) * 0.5) {
      continue;
    }
    const dx = pos[self * 3]! - pos[j * 3]!;
    const dz = pos[self * 3 + 2]! - pos[j * 3 + 2]!;
    const d = dx * dx + dz * dz;
    if (d <= range * range) c.push([d, j]);
  }
  c.sort((a, b) => a[0] - b[0]);
  return c.slice(0, k).map((e) => e[0]);
}

describe("NeighbourGrid", () => {
  it("finds the k nearest within range, as brute force does (distances equal, sorted)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        fc.double({ min: 0.5, max: 8, noNaN: true }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (n, cellSize, range, k, seed) => {
          let s = seed;
          const rand = () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s / 2 ** 32;
          };
          const pos = new Float64Array(n * 3);
          const height = new Float64Array(n).fill(2);
          for (let i = 0; i < n; i++) {
            pos[i * 3] = (rand() - 0.5) * 20;
            pos[i * 3 + 1] = rand() < 0.2 ? 3 : 0; // some on another floor
            pos[i * 3 + 2] = (rand() - 0.5) * 20;
          }
          const ids = Int32Array.from({ length: n }, (_, i) => i);
          const grid = new NeighbourGrid(n, cellSize);
          grid.build(ids, n, pos, height);
          const outIds = new Int32Array(k);
          const outDist = new Float64Array(k);
          for (let i = 0; i < n; i++) {
            const m = grid.nearest(
              i,
              pos[i * 3]!,
              pos[i * 3 + 1]!,
              pos[i * 3 + 2]!,
              height[i]!,
              range,
              k,
              outIds,
              outDist,
              0,
            );
            expect([...outDist.subarray(0, m)]).toEqual(bruteNearest(pos, height, n, i, range, k));
            for (let t = 0; t < m; t++) expect(outIds[t]).not.toBe(i);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("answers the same ids in the same order in the dense and the hashed layout", () => {
    // An agent far out makes the agents' cell box too big for the dense layout.
    const n = 300;
    let seed = 7;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pos = new Float64Array((n + 1) * 3);
    for (let i = 0; i < n; i++) {
      // Quantised, so equal distances (ties) occur.
      pos[i * 3] = Math.round((rand() - 0.5) * 24 * 4) / 4;
      pos[i * 3 + 2] = Math.round((rand() - 0.5) * 24 * 4) / 4;
    }
    pos[n * 3] = 1e6;
    pos[n * 3 + 2] = -1e6;
    const height = new Float64Array(n + 1).fill(2);
    const ids = Int32Array.from({ length: n + 1 }, (_, i) => i);
    const answers = (count: number): number[][] => {
      const grid = new NeighbourGrid(n + 1, 1.6);
      grid.build(ids, count, pos, height);
      const outIds = new Int32Array(6);
      const outDist = new Float64Array(6);
      const all: number[][] = [];
      for (let i = 0; i < n; i++) {
        const m = grid.nearest(i, pos[i * 3]!, 0, pos[i * 3 + 2]!, 2, 4.8, 6, outIds, outDist, 0);
        all.push([...outIds.subarray(0, m)]);
      }
      return all;
    };
    expect(answers(n + 1)).toEqual(answers(n));
  });

  it("is empty for a lone agent and deterministic in order for equal distances", () => {
    const pos = Float64Array.from([0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 1]);
    const h = new Float64Array(4).fill(2);
    const grid = new NeighbourGrid(4, 1.6);
    grid.build(Int32Array.from([0]), 1, pos, h);
    const ids = new Int32Array(6);
    const d = new Float64Array(6);
    expect(grid.nearest(0, 0, 0, 0, 2, 4.8, 6, ids, d, 0)).toBe(0);
    grid.build(Int32Array.from([0, 1, 2, 3]), 4, pos, h);
    const m = grid.nearest(0, 0, 0, 0, 2, 4.8, 6, ids, d, 0);
    expect(m).toBe(3);
    expect([...d.subarray(0, 3)]).toEqual([1, 1, 1]);
    const first = [...ids.subarray(0, 3)];
    grid.build(Int32Array.from([0, 1, 2, 3]), 4, pos, h);
    grid.nearest(0, 0, 0, 0, 2, 4.8, 6, ids, d, 0);
    expect([...ids.subarray(0, 3)]).toEqual(first);
  });
});
