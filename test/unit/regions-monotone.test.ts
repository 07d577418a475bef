import { describe, expect, it } from "vitest";
import { buildRegionsMonotone, sweepMonotoneRows } from "../../src/generate/regions-monotone.js";
import { BORDER_REGION } from "../../src/generate/types.js";
import { floorChf, regionGrid } from "../helpers/hand-chf.js";

describe("buildRegionsMonotone", () => {
  it("a plain rectangle becomes one region", () => {
    const chf = floorChf(["######", "######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 0, 0, 0);
    expect([...new Set(spanRegion)]).toEqual([1]);
    expect(regionCount).toBe(1);
  });

  it("a U opening towards -z splits into two arms and the joining row", () => {
    const chf = floorChf(["##..##", "##..##", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, -1, -1, 2, 2],
      [1, 1, -1, -1, 2, 2],
      [3, 3, 3, 3, 3, 3],
    ]);
    expect(regionCount).toBe(3);
  });

  it("a U opening towards +z splits where one row region forks into two", () => {
    const chf = floorChf(["######", "##..##", "##..##"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 1, 1, 1, 1],
      [2, 2, -1, -1, 3, 3],
      [2, 2, -1, -1, 3, 3],
    ]);
  });

  it("null-area spans get region 0 and cut sweeps", () => {
    const chf = floorChf(["##x##", "##x##"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 0, 2, 2],
      [1, 1, 0, 2, 2],
    ]);
  });

  it("spans of different area ids never share a region", () => {
    const chf = floorChf(["####", "####"]);
    chf.areas[chf.cellFirst[2]!] = 5;
    chf.areas[chf.cellFirst[3]!] = 5;
    chf.areas[chf.cellFirst[6]!] = 5;
    chf.areas[chf.cellFirst[7]!] = 5;
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 2, 2],
      [1, 1, 2, 2],
    ]);
  });

  it("regions smaller than minRegionArea are removed", () => {
    const chf = floorChf(["##...####", "##...####"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 5, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [0, 0, -1, -1, -1, 1, 1, 1, 1],
      [0, 0, -1, -1, -1, 1, 1, 1, 1],
    ]);
  });

  it("borderSize > 0 paints four BORDER_REGION strips and sweeps only the inside", () => {
    const chf = floorChf(["######", "######", "######", "######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 1, 0, 0);
    const grid = regionGrid(chf, spanRegion);
    for (let z = 0; z < 6; z++) {
      for (let x = 0; x < 6; x++) {
        const inside = x >= 1 && x < 5 && z >= 1 && z < 5;
        if (inside) expect(grid[z]![x]).toBe(1);
        else expect(grid[z]![x]! & BORDER_REGION).toBe(BORDER_REGION);
      }
    }
    // Unlike Recast (which would call it 5 of 6), empty border placeholder ids get no number.
    expect(regionCount).toBe(1);
  });

  it("the sweep alone numbers regions row by row and returns the next free id", () => {
    const chf = floorChf(["##.##", "#####", "##.##"]);
    const spanRegion = new Uint16Array(chf.spanCount);
    const next = sweepMonotoneRows(chf, spanRegion, 0, 1);
    expect(next).toBe(6);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, -1, 2, 2],
      [3, 3, 3, 3, 3],
      [4, 4, -1, 5, 5],
    ]);
  });

  it("is deterministic: the same input gives identical ids", () => {
    const chf = floorChf(["#.#.####", "########", "##.##..#", "########"]);
    const a = buildRegionsMonotone(chf, 0, 0, 0);
    const b = buildRegionsMonotone(chf, 0, 0, 0);
    expect(Buffer.from(a.spanRegion.buffer)).toEqual(Buffer.from(b.spanRegion.buffer));
    expect(a.regionCount).toBe(b.regionCount);
  });
});
