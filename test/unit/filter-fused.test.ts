import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { buildCompactHeightfield } from "../../src/generate/compact.js";
import {
  filterHeightfield,
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
} from "../../src/generate/filter.js";
import { computeBounds, gridSize } from "../../src/generate/grid.js";
import { addSpan, createHeightfield } from "../../src/generate/heightfield.js";
import { markWalkableTriangles, rasterizeTriangles } from "../../src/generate/rasterize.js";
import type { Heightfield } from "../../src/generate/types.js";
import { loadSharedMesh } from "../helpers/meshes.js";

function sequential(hf: Heightfield, wh: number, wc: number): void {
  filterLowHangingWalkableObstacles(hf, wc);
  filterLedgeSpans(hf, wh, wc);
  filterWalkableLowHeightSpans(hf, wh);
}

function walkableCount(hf: Heightfield): number {
  let n = 0;
  for (let c = 0; c < hf.columnHead.length; c++) {
    for (let s = hf.columnHead[c]!; s !== -1; s = hf.spans[s * 2 + 1]!)
      if (hf.spanArea[s] !== 0) n++;
  }
  return n;
}

describe("filterHeightfield (fused filters)", () => {
  it("equals the three filters in order on a hand-built column stack, and counts walkable spans", () => {
    const make = () => {
      const hf = createHeightfield(4, 4, [0, 0, 0], [4, 10, 4], 1, 0.1);
      for (let z = 0; z < 4; z++) for (let x = 0; x < 4; x++) addSpan(hf, x, z, 0, 10, 63, 1);
      addSpan(hf, 1, 1, 12, 13, 0, 1); // low-hanging obstacle above a walkable span
      addSpan(hf, 2, 1, 11, 30, 0, 1); // low ceiling
      addSpan(hf, 2, 2, 10, 16, 63, 1); // step up
      return hf;
    };
    const a = make();
    const b = make();
    sequential(a, 3, 2);
    const n = filterHeightfield(b, 3, 2);
    expect(Array.from(b.spanArea.subarray(0, b.poolUsed))).toEqual(
      Array.from(a.spanArea.subarray(0, a.poolUsed)),
    );
    expect(n).toBe(walkableCount(a));
  });

  for (const name of ["nav_test", "dungeon"] as const) {
    it(`equals the three filters in order on ${name}.obj, and the compact build agrees with and without the count`, () => {
      const cfg = resolveConfig({});
      const mesh = loadSharedMesh(name);
      const { bmin, bmax } = computeBounds(mesh.positions);
      const { width, depth } = gridSize(bmin, bmax, cfg.cellSize);
      const { areas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
      const make = () => {
        const hf = createHeightfield(width, depth, bmin, bmax, cfg.cellSize, cfg.cellHeight);
        rasterizeTriangles(hf, mesh.positions, mesh.indices, areas, cfg.walkableClimbVoxels);
        return hf;
      };
      const a = make();
      const b = make();
      sequential(a, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
      const n = filterHeightfield(b, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
      expect(b.spanArea).toEqual(a.spanArea);
      expect(n).toBe(walkableCount(a));
      const ca = buildCompactHeightfield(a, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
      const cb = buildCompactHeightfield(
        b,
        cfg.walkableHeightVoxels,
        cfg.walkableClimbVoxels,
        undefined,
        n,
      );
      expect(cb.spanCount).toBe(n);
      expect(cb.spanCon).toEqual(ca.spanCon);
      expect(cb.spanY).toEqual(ca.spanY);
      expect(cb.areas).toEqual(ca.areas);
    });
  }
});
