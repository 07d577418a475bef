import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import {
  markBoxArea,
  markConvexPolyArea,
  markCylinderArea,
  medianFilterWalkableArea,
} from "../../src/generate/areas.js";
import { buildCompactHeightfield } from "../../src/generate/compact.js";
import { type CompactHeightfield, NULL_AREA, WALKABLE_AREA } from "../../src/generate/types.js";
import { flatHeightfield } from "../helpers/hand-heightfield.js";

const W = WALKABLE_AREA;

/**
 * width×depth floor with cell size 1 and cell height 1: one walkable solid span [0, floor)
 * per column, so every compact span has y = floor (default 1).
 */
function flatField(
  width: number,
  depth: number,
  floor: (x: number, z: number) => number = () => 1,
): CompactHeightfield {
  return buildCompactHeightfield(flatHeightfield(width, depth, floor), 2, 100);
}

/** Cells ("x,z") whose span has the given area (one span per column). */
function cellsWithArea(chf: CompactHeightfield, area: number): Set<string> {
  const out = new Set<string>();
  for (let z = 0; z < chf.depth; z++) {
    for (let x = 0; x < chf.width; x++) {
      if (chf.areas[chf.cellFirst[x + z * chf.width]!] === area) out.add(`${x},${z}`);
    }
  }
  return out;
}

function cells(...list: [number, number][]): Set<string> {
  return new Set(list.map(([x, z]) => `${x},${z}`));
}

function rect(x0: number, z0: number, x1: number, z1: number): Set<string> {
  const out = new Set<string>();
  for (let z = z0; z <= z1; z++) for (let x = x0; x <= x1; x++) out.add(`${x},${z}`);
  return out;
}

const at = (chf: CompactHeightfield, x: number, z: number) => chf.cellFirst[x + z * chf.width]!;

describe("markBoxArea", () => {
  it("marks every column whose truncated grid index lies in the box", () => {
    const chf = flatField(10, 10);
    markBoxArea(chf, [2.5, 0, 3.2], [4.9, 5, 6.0], 7);
    expect(cellsWithArea(chf, 7)).toEqual(rect(2, 3, 4, 6));
  });

  it("tests the span floor against the box's Y range, inclusive at both ends", () => {
    const chf = flatField(4, 1, (x) => x + 1); // floors 1, 2, 3, 4
    markBoxArea(chf, [0, 2, 0], [4, 3.9, 1], 9);
    expect(cellsWithArea(chf, 9)).toEqual(cells([1, 0], [2, 0]));
  });

  it("never revives NULL_AREA spans", () => {
    const chf = flatField(5, 5);
    chf.areas[at(chf, 2, 2)] = NULL_AREA;
    markBoxArea(chf, [0, 0, 0], [5, 5, 5], 3);
    expect(chf.areas[at(chf, 2, 2)]).toBe(NULL_AREA);
    expect(cellsWithArea(chf, 3).size).toBe(24);
  });

  it("clamps to the grid and ignores boxes entirely outside it", () => {
    const chf = flatField(5, 5);
    markBoxArea(chf, [-10, 0, 3], [1.5, 5, 100], 4);
    expect(cellsWithArea(chf, 4)).toEqual(rect(0, 3, 1, 4));
    markBoxArea(chf, [6, 0, 0], [9, 5, 5], 6);
    markBoxArea(chf, [0, 0, -9], [5, 5, -1.5], 6);
    expect(cellsWithArea(chf, 6).size).toBe(0);
  });

  it("truncates toward zero like Recast: a box ending at x = -0.5 still reaches column 0", () => {
    const chf = flatField(3, 1);
    markBoxArea(chf, [-2, 0, 0], [-0.5, 5, 1], 8);
    expect(cellsWithArea(chf, 8)).toEqual(cells([0, 0]));
  });

  it("rejects area ids outside 0..63 and non-finite bounds", () => {
    const chf = flatField(2, 2);
    expect(() => markBoxArea(chf, [0, 0, 0], [1, 1, 1], 64)).toThrow(MeshwayError);
    expect(() => markBoxArea(chf, [0, 0, 0], [1, 1, 1], 1.5)).toThrow(MeshwayError);
    expect(() => markBoxArea(chf, [0, Number.NaN, 0], [1, 1, 1], 1)).toThrow(MeshwayError);
  });
});

describe("markCylinderArea", () => {
  it("marks columns whose cell centre is strictly inside the radius", () => {
    const chf = flatField(10, 10);
    markCylinderArea(chf, [5, 0, 5], 1.5, 2, 11);
    // Centres at ±0.5 in both axes: d² = 0.5 < 2.25; (±0.5, ±1.5): 2.5 > 2.25.
    expect(cellsWithArea(chf, 11)).toEqual(cells([4, 4], [5, 4], [4, 5], [5, 5]));
  });

  it("a slightly larger radius adds the 8 cells at d² = 2.5", () => {
    const chf = flatField(10, 10);
    markCylinderArea(chf, [5, 0, 5], 1.6, 2, 11);
    const expected = rect(3, 3, 6, 6);
    for (const c of ["3,3", "6,3", "3,6", "6,6"]) expected.delete(c);
    expect(cellsWithArea(chf, 11)).toEqual(expected);
  });

  it("excludes cell centres exactly on the circle", () => {
    const chf = flatField(10, 10);
    // Centred on cell (5,5)'s centre; cells (4,5), (6,5), (5,4), (5,6) are exactly 1 away.
    markCylinderArea(chf, [5.5, 0, 5.5], 1, 2, 12);
    expect(cellsWithArea(chf, 12)).toEqual(cells([5, 5]));
  });

  it("marks spans whose floor lies in [center.y, center.y + height]", () => {
    const chf = flatField(4, 1, (x) => x + 1); // floors 1..4
    markCylinderArea(chf, [2, 2, 0.5], 10, 1, 13);
    expect(cellsWithArea(chf, 13)).toEqual(cells([1, 0], [2, 0]));
  });

  it("never revives NULL_AREA spans", () => {
    const chf = flatField(10, 10);
    chf.areas[at(chf, 5, 5)] = NULL_AREA;
    markCylinderArea(chf, [5.5, 0, 5.5], 3, 2, 14);
    expect(chf.areas[at(chf, 5, 5)]).toBe(NULL_AREA);
  });
});

describe("markConvexPolyArea", () => {
  it("marks the columns whose cell centre is inside an axis-aligned rectangle", () => {
    const chf = flatField(10, 10);
    markConvexPolyArea(chf, [2, 0, 2, 6, 0, 2, 6, 0, 5, 2, 0, 5], 0, 5, 21);
    expect(cellsWithArea(chf, 21)).toEqual(rect(2, 2, 5, 4));
  });

  it("marks exactly the 28 cells with x + z < 7 under the triangle (0,0) (8,0) (0,8)", () => {
    const chf = flatField(10, 10);
    markConvexPolyArea(chf, [0, 0, 0, 8, 0, 0, 0, 0, 8], 0, 5, 22);
    const expected = new Set<string>();
    for (let z = 0; z < 10; z++)
      for (let x = 0; x < 10; x++) if (x + z < 7) expected.add(`${x},${z}`);
    expect(expected.size).toBe(28);
    expect(cellsWithArea(chf, 22)).toEqual(expected);
  });

  it("ignores vertex Y and winding, and tests span floors against [minY, maxY]", () => {
    const chf = flatField(4, 1, (x) => x + 1); // floors 1..4
    // Clockwise square with arbitrary vertex heights.
    markConvexPolyArea(chf, [0, 50, 0, 0, -3, 1, 4, 7, 1, 4, 0, 0], 2, 3.5, 23);
    expect(cellsWithArea(chf, 23)).toEqual(cells([1, 0], [2, 0]));
  });

  it("never revives NULL_AREA spans and ignores polygons off the grid", () => {
    const chf = flatField(5, 5);
    chf.areas[at(chf, 1, 1)] = NULL_AREA;
    markConvexPolyArea(chf, [0, 0, 0, 5, 0, 0, 5, 0, 5, 0, 0, 5], 0, 5, 24);
    expect(chf.areas[at(chf, 1, 1)]).toBe(NULL_AREA);
    expect(cellsWithArea(chf, 24).size).toBe(24);
    markConvexPolyArea(chf, [10, 0, 0, 12, 0, 0, 12, 0, 3], 0, 5, 25);
    expect(cellsWithArea(chf, 25).size).toBe(0);
  });

  it("rejects vertex arrays that are not xyz triples", () => {
    const chf = flatField(2, 2);
    expect(() => markConvexPolyArea(chf, [0, 0, 0, 1], 0, 1, 1)).toThrow(MeshwayError);
  });
});

describe("medianFilterWalkableArea", () => {
  it("replaces a lone area id by the surrounding one", () => {
    const chf = flatField(5, 5);
    chf.areas[at(chf, 2, 2)] = 5;
    medianFilterWalkableArea(chf);
    expect(cellsWithArea(chf, W).size).toBe(25);
  });

  it("keeps a 3-wide stripe and NULL_AREA spans", () => {
    const chf = flatField(7, 7);
    for (let z = 0; z < 7; z++) for (let x = 2; x <= 4; x++) chf.areas[at(chf, x, z)] = 5;
    chf.areas[at(chf, 0, 3)] = NULL_AREA;
    medianFilterWalkableArea(chf);
    expect(cellsWithArea(chf, 5)).toEqual(rect(2, 0, 4, 6));
    expect(cellsWithArea(chf, NULL_AREA)).toEqual(cells([0, 3]));
  });

  it("counts missing and NULL_AREA neighbours as the span's own area", () => {
    const chf = flatField(5, 5);
    // The corner has 3 real neighbours (W); the 5 missing ones count as its own area 5.
    chf.areas[at(chf, 0, 0)] = 5;
    // Surrounded by NULL_AREA except for two W neighbours: stays 6.
    chf.areas[at(chf, 3, 3)] = 6;
    for (const [x, z] of [
      [2, 2],
      [3, 2],
      [4, 2],
      [2, 3],
      [2, 4],
      [3, 4],
    ] as const) {
      chf.areas[at(chf, x, z)] = NULL_AREA;
    }
    medianFilterWalkableArea(chf);
    expect(chf.areas[at(chf, 0, 0)]).toBe(5);
    expect(chf.areas[at(chf, 3, 3)]).toBe(6);
  });
});
