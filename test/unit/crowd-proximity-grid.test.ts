import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProximityGrid } from "../../src/crowd/proximity-grid.js";
import { MeshwayError } from "../../src/errors.js";

function query(g: ProximityGrid, minX: number, minZ: number, maxX: number, maxZ: number, cap = 64) {
  const out = new Int32Array(cap);
  const n = g.queryItems(minX, minZ, maxX, maxZ, out);
  return [...out.subarray(0, n)];
}

describe("ProximityGrid", () => {
  it("finds items whose cells overlap the box, each once", () => {
    const g = new ProximityGrid(8, 1);
    g.addItem(7, 0.2, 0.2, 0.8, 0.8); // cell (0,0)
    g.addItem(3, 0.5, 0.5, 1.5, 1.5); // cells (0..1, 0..1)
    g.addItem(9, 5.1, 5.1, 5.2, 5.2); // cell (5,5)
    expect(query(g, 0.1, 0.1, 0.3, 0.3)).toEqual([3, 7]); // newest first within a cell
    expect(query(g, 1.1, 1.1, 1.2, 1.2)).toEqual([3]);
    expect(query(g, -3, -3, 10, 10).sort()).toEqual([3, 7, 9]);
    expect(query(g, 2, 2, 4.9, 4.9)).toEqual([]);
  });

  it("handles negative coordinates (floor, not truncation)", () => {
    const g = new ProximityGrid(4, 2);
    g.addItem(1, -0.5, -0.5, -0.1, -0.1); // cell (-1,-1)
    expect(query(g, 0.1, 0.1, 0.2, 0.2)).toEqual([]);
    expect(query(g, -1.9, -1.9, -1.8, -1.8)).toEqual([1]);
  });

  it("stops at out.length", () => {
    const g = new ProximityGrid(10, 1);
    for (let i = 0; i < 10; i++) g.addItem(i, 0.1, 0.1, 0.2, 0.2);
    expect(query(g, 0, 0, 1, 1, 3)).toEqual([9, 8, 7]);
  });

  it("clear() empties the grid", () => {
    const g = new ProximityGrid(2, 1);
    g.addItem(1, 0, 0, 0.5, 0.5);
    g.clear();
    expect(query(g, -1, -1, 1, 1)).toEqual([]);
    g.addItem(2, 0, 0, 0.5, 0.5);
    g.addItem(3, 0, 0, 0.5, 0.5);
    expect(query(g, -1, -1, 1, 1)).toEqual([3, 2]);
  });

  it("boxes spanning many cells grow the pool instead of dropping items", () => {
    const g = new ProximityGrid(2, 1);
    g.addItem(1, 0, 0, 9.5, 9.5); // 100 cells, pool sized for 8
    g.addItem(2, 9.2, 9.2, 9.3, 9.3);
    expect(query(g, 9, 9, 9.9, 9.9)).toEqual([2, 1]);
    expect(query(g, 0.1, 5.1, 0.2, 5.2)).toEqual([1]);
  });

  it("bad arguments throw MeshwayError naming the problem", () => {
    expect(() => new ProximityGrid(0, 1)).toThrow(MeshwayError);
    expect(() => new ProximityGrid(4, 0)).toThrow(/cellSize/);
    const g = new ProximityGrid(1, 1);
    expect(() => g.addItem(0, Number.NaN, 0, 1, 1)).toThrow(/box/);
    expect(() => g.addItem(0, 2, 0, 1, 1)).toThrow(/min <= max/);
    expect(() => g.queryItems(0, 0, 1e12, 1e12, new Int32Array(4))).toThrow(/cellSize/);
    g.addItem(0, 0, 0, 1, 1);
    expect(() => g.addItem(1, 0, 0, 1, 1)).toThrow(/maxItems/);
  });

  it("matches a brute-force cell-overlap scan, in the same order every time", () => {
    const box = fc
      .tuple(
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
      )
      .map(([x, z, w, h]) => [x, z, x + w, z + h] as const);
    fc.assert(
      fc.property(fc.array(box, { maxLength: 40 }), box, (items, q) => {
        const cs = 1.5;
        const g = new ProximityGrid(Math.max(1, items.length), cs);
        for (const [i, [a, b, c, d]] of items.entries()) g.addItem(i * 3, a, b, c, d);
        const c = (v: number) => Math.floor(v / cs);
        const expected = items
          .map((it, i) => ({ it, id: i * 3 }))
          .filter(
            ({ it }) =>
              c(it[0]) <= c(q[2]) &&
              c(it[2]) >= c(q[0]) &&
              c(it[1]) <= c(q[3]) &&
              c(it[3]) >= c(q[1]),
          )
          .map(({ id }) => id);
        const got = query(g, q[0], q[1], q[2], q[3], 64);
        expect([...got].sort((a, b) => a - b)).toEqual(expected);
        expect(query(g, q[0], q[1], q[2], q[3], 64)).toEqual(got);
      }),
      { numRuns: 200 },
    );
  });
});
