import { describe, expect, it } from "vitest";
import { buildRegionsLayers } from "../../src/generate/regions-layers.js";
import { BORDER_REGION, type CompactHeightfield, WALKABLE_AREA } from "../../src/generate/types.js";
import { floorChf, makeChf, regionGrid, type SpanSpec } from "../helpers/hand-chf.js";

const OPEN = 0xffff;
const W = WALKABLE_AREA;

/**
 * 7 × 3 floor (y 0) with a bridge (y 3) over x 2..4 of the middle row, reached by one-voxel
 * steps (y 1) at x 1 and x 5. Climb 2 joins step↔bridge and step↔floor; the floor under the
 * bridge (clearance 2) meets only other floor spans.
 */
function bridgeChf(): CompactHeightfield {
  const columns: SpanSpec[][] = [];
  for (let z = 0; z < 3; z++) {
    for (let x = 0; x < 7; x++) {
      if (z === 1 && (x === 1 || x === 5)) columns.push([[1, OPEN, W]]);
      else if (z === 1 && x >= 2 && x <= 4)
        columns.push([
          [0, 2, W],
          [3, OPEN, W],
        ]);
      else columns.push([[0, OPEN, W]]);
    }
  }
  return makeChf(7, 3, columns, 2, 2);
}

/** No column may hold two spans of the same non-zero region. */
function expectNoStackedRegion(chf: CompactHeightfield, spanRegion: Uint16Array): void {
  for (let c = 0; c < chf.width * chf.depth; c++) {
    const seen = new Set<number>();
    for (let i = chf.cellFirst[c]!; i < chf.cellFirst[c]! + chf.cellCount[c]!; i++) {
      const r = spanRegion[i]!;
      if (r === 0) continue;
      expect(seen.has(r)).toBe(false);
      seen.add(r);
    }
  }
}

describe("buildRegionsLayers", () => {
  it("a plain rectangle becomes one layer", () => {
    const chf = floorChf(["######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 0, 0);
    expect([...new Set(spanRegion)]).toEqual([1]);
    expect(regionCount).toBe(1);
  });

  it("monotone pieces of a U-shaped floor merge back into one layer", () => {
    const chf = floorChf(["##..##", "##..##", "######"]);
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, -1, -1, 1, 1],
      [1, 1, -1, -1, 1, 1],
      [1, 1, 1, 1, 1, 1],
    ]);
    expect(regionCount).toBe(1);
  });

  it("a floor under a bridge gets its own layer; the walk over the bridge is one layer", () => {
    const chf = bridgeChf();
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 0, 0);
    expectNoStackedRegion(chf, spanRegion);
    const at = (x: number, z: number, k: number) => spanRegion[chf.cellFirst[x + z * 7]! + k]!;
    for (let x = 0; x < 7; x++) {
      expect(at(x, 0, 0)).toBe(1);
      expect(at(x, 2, 0)).toBe(1);
    }
    for (const x of [0, 1, 5, 6]) expect(at(x, 1, 0)).toBe(1);
    for (const x of [2, 3, 4]) {
      expect(at(x, 1, 1)).toBe(1); // bridge deck
      expect(at(x, 1, 0)).toBe(2); // floor underneath
    }
    expect(regionCount).toBe(2);
  });

  it("three disconnected stacked floors become three layers, lowest first", () => {
    const column: SpanSpec[] = [
      [0, 2, W],
      [3, 2, W],
      [6, OPEN, W],
    ];
    const chf = makeChf(
      3,
      2,
      Array.from({ length: 6 }, () => column),
    );
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 0, 0);
    expectNoStackedRegion(chf, spanRegion);
    for (let c = 0; c < 6; c++) {
      for (let k = 0; k < 3; k++) expect(spanRegion[chf.cellFirst[c]! + k]).toBe(k + 1);
    }
    expect(regionCount).toBe(3);
  });

  it("layers below minRegionArea are removed and the remaining ids stay compact", () => {
    const chf = bridgeChf();
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 0, 4);
    for (const x of [2, 3, 4]) {
      expect(spanRegion[chf.cellFirst[x + 7]!]).toBe(0);
      expect(spanRegion[chf.cellFirst[x + 7]! + 1]).toBe(1);
    }
    expect(regionCount).toBe(1);
  });

  it("different area ids are never merged into one layer", () => {
    const chf = floorChf(["####", "####"]);
    for (const c of [2, 3, 6, 7]) chf.areas[chf.cellFirst[c]!] = 5;
    const { spanRegion } = buildRegionsLayers(chf, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 2, 2],
      [1, 1, 2, 2],
    ]);
  });

  it("null-area spans keep region 0", () => {
    const chf = floorChf(["#x#", "###"]);
    const { spanRegion } = buildRegionsLayers(chf, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 0, 1],
      [1, 1, 1],
    ]);
  });

  it("borderSize > 0 paints BORDER_REGION strips; a small layer touching them survives", () => {
    const chf = floorChf(["######", "######", "######", "######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsLayers(chf, 1, 100);
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
});
