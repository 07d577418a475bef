import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { binTriangles } from "../../src/tiles/build-tile.js";
import { createTileGrid, tileBounds, tilesTouchingBox } from "../../src/tiles/tile-grid.js";
import { SceneBuilder } from "../helpers/scenes.js";

// Cell 0.25, tile 8 cells = 2 world units, radius 0.5 = 2 cells → border 5 cells = 1.25.
const CFG = resolveConfig({ cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5, tileSize: 8 });

describe("tileSize config", () => {
  it("derives the border (walkableRadiusVoxels + 3) and the tile's world size only when tiled", () => {
    expect(CFG.borderSizeVoxels).toBe(5);
    expect(CFG.tileWorldSize).toBe(2);
    const solo = resolveConfig({ cellSize: 0.25, agentRadius: 0.5 });
    expect(solo.tileSize).toBe(0);
    expect(solo.borderSizeVoxels).toBe(0);
    expect(solo.tileWorldSize).toBe(0);
  });

  it("refuses a negative, fractional or too large tileSize, naming the option and range", () => {
    for (const tileSize of [-1, 2.5, 4097, Number.NaN]) {
      expect(() => resolveConfig({ tileSize })).toThrow(/"tileSize" = .* integer >= 0 and <= 4096/);
    }
  });
});

describe("tile grid", () => {
  it("covers the bounds with ceil(cells / tileSize) tiles per side", () => {
    // 5.1 × 3 world → 20 × 12 cells → 3 × 2 tiles of 8 cells.
    const g = createTileGrid([1, 0, 2], [6.1, 1, 5], CFG);
    expect([g.tilesX, g.tilesZ, g.tileSize, g.tileWorld]).toEqual([3, 2, 8, 2]);
  });

  it("refuses a solo config", () => {
    expect(() => createTileGrid([0, 0, 0], [1, 1, 1], resolveConfig())).toThrow(MeshwayError);
  });

  it("grows each tile's heightfield box by the border on XZ only", () => {
    const g = createTileGrid([1, 0, 2], [6.1, 1, 5], CFG);
    expect(tileBounds(g, CFG, 1, 1)).toEqual({ bmin: [1.75, 0, 2.75], bmax: [6.25, 1, 7.25] });
  });

  it("lists touching tiles in (tz, tx) order, edges counting for both sides, clamped to the grid", () => {
    const g = createTileGrid([0, 0, 0], [6, 1, 6], CFG); // 3 × 3
    expect(tilesTouchingBox(g, [2.5, 0, 0.5], [3, 0, 1])).toEqual([[1, 0]]);
    expect(tilesTouchingBox(g, [1.5, 0, 1.5], [2, 0, 2])).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(tilesTouchingBox(g, [-10, 0, 5], [0.5, 0, 50])).toEqual([[0, 2]]);
    expect(tilesTouchingBox(g, [10, 0, 10], [11, 0, 11])).toEqual([]);
  });
});

describe("binTriangles", () => {
  it("lists each triangle under every tile its XZ box reaches (tile grown by the pad), ascending", () => {
    // Three small quads (2 triangles each) in tiles (0,0), (1,0) and spanning (1..2, 1).
    const mesh = new SceneBuilder()
      .floor(0.5, 0.5, 1, 1)
      .floor(2.5, 0.5, 3, 1)
      .floor(3, 2.5, 5, 3)
      .build();
    const g = createTileGrid([0, 0, 0], [6, 1, 6], CFG);
    const bins = binTriangles(mesh, g, 0);
    const tile = (tx: number, tz: number) =>
      Array.from(
        bins.triangles.subarray(bins.offsets[tx + tz * 3]!, bins.offsets[tx + tz * 3 + 1]!),
      );
    expect(tile(0, 0)).toEqual([0, 1]);
    expect(tile(1, 0)).toEqual([2, 3]);
    expect(tile(1, 1)).toEqual([4, 5]);
    expect(tile(2, 1)).toEqual([4, 5]);
    expect(tile(2, 2)).toEqual([]);
    expect(bins.offsets[9]).toBe(8);
    // With a 0.6 pad the first quad (x 0.5..1) stays in tile 0 but the second (x 2.5..3)
    // reaches back into tile 0 (box up to 2.6).
    const padded = binTriangles(mesh, g, 0.6);
    expect(Array.from(padded.triangles.subarray(padded.offsets[0]!, padded.offsets[1]!))).toEqual([
      0, 1, 2, 3,
    ]);
  });
});
