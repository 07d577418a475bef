import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { BuildContext } from "../../src/generate/context.js";
import { countSpans, createHeightfield } from "../../src/generate/heightfield.js";
import {
  markWalkableTriangles,
  rasterizeTriangles,
  SKIP_TRIANGLE,
} from "../../src/generate/rasterize.js";
import { type Heightfield, NULL_AREA, WALKABLE_AREA } from "../../src/generate/types.js";
import type { TriangleMesh } from "../../src/input.js";

/** 10 × 10 columns, 10 cells tall, cell size 1 and cell height 1, from the origin. */
function grid10(): Heightfield {
  return createHeightfield(10, 10, [0, 0, 0], [10, 10, 10], 1, 1);
}

function meshOf(...tris: number[][]): TriangleMesh {
  const positions = new Float32Array(tris.flat());
  const indices = Uint32Array.from({ length: tris.length * 3 }, (_, i) => i);
  return { positions, indices, vertexCount: tris.length * 3, triangleCount: tris.length };
}

/** Rasterizes one triangle (9 numbers) with the given area; returns the heightfield. */
function rasterizeOne(tri: number[], area = 7, flagMergeThreshold = 1, ctx?: BuildContext) {
  const hf = grid10();
  const m = meshOf(tri);
  rasterizeTriangles(hf, m.positions, m.indices, new Uint8Array([area]), flagMergeThreshold, ctx);
  return hf;
}

/** Every span as "x,z:[min,max)area", sorted by z then x then height. */
function spanList(hf: Heightfield): string[] {
  const out: string[] = [];
  for (let z = 0; z < hf.depth; z++) {
    for (let x = 0; x < hf.width; x++) {
      for (let s = hf.columnHead[x + z * hf.width]!; s !== -1; s = hf.spans[s * 2 + 1]!) {
        out.push(
          `${x},${z}:[${hf.spans[s * 2]! & 0xffff},${hf.spans[s * 2]! >>> 16})${hf.spanArea[s]}`,
        );
      }
    }
  }
  return out;
}

describe("markWalkableTriangles", () => {
  // Seen from above (+Y toward the viewer) with +x to the right, +z points down the page.
  const ccw = [0, 0, 0, 0, 0, 1, 1, 0, 0]; // v0 → v1 (+z) → v2 (+x): counter-clockwise on screen
  const cw = [0, 0, 0, 1, 0, 0, 0, 0, 1];

  it("marks a flat floor walkable only when wound counter-clockwise seen from above", () => {
    const { areas, degenerateCount } = markWalkableTriangles(meshOf(ccw, cw), 45);
    expect(Array.from(areas)).toEqual([WALKABLE_AREA, NULL_AREA]);
    expect(degenerateCount).toBe(0);
  });

  it("uses a strict comparison: a slope exactly at the limit is not walkable", () => {
    // The plane y = z rises 45°: its float32 normal.y equals float32 cos(45°) exactly.
    const slope45 = [0, 0, 0, 0, 1, 1, 1, 0, 0];
    expect(markWalkableTriangles(meshOf(slope45), 45).areas[0]).toBe(NULL_AREA);
    expect(markWalkableTriangles(meshOf(slope45), 45.001).areas[0]).toBe(WALKABLE_AREA);
    expect(markWalkableTriangles(meshOf(slope45), 44.999).areas[0]).toBe(NULL_AREA);
    // A flat floor with a 0° limit: normal.y = 1 = cos(0), not greater. Limits below ~0.02°
    // behave the same, because their cosine rounds to 1 in float32.
    expect(markWalkableTriangles(meshOf(ccw), 0).areas[0]).toBe(NULL_AREA);
    expect(markWalkableTriangles(meshOf(ccw), 0.01).areas[0]).toBe(NULL_AREA);
    expect(markWalkableTriangles(meshOf(ccw), 1).areas[0]).toBe(WALKABLE_AREA);
  });

  it("marks walls walkable only with a 90° limit (float32 cos(90°) is slightly negative)", () => {
    const wall = [0, 0, 0, 0, 1, 0, 1, 0, 0];
    expect(markWalkableTriangles(meshOf(wall), 89.9).areas[0]).toBe(NULL_AREA);
    expect(markWalkableTriangles(meshOf(wall), 90).areas[0]).toBe(WALKABLE_AREA);
  });

  it("marks zero-area triangles SKIP_TRIANGLE and counts them", () => {
    const collinear = [0, 0, 0, 1, 1, 1, 2, 2, 2];
    const coincident = [3, 1, 3, 3, 1, 3, 4, 1, 3];
    const { areas, degenerateCount } = markWalkableTriangles(
      meshOf(collinear, ccw, coincident),
      45,
    );
    expect(Array.from(areas)).toEqual([SKIP_TRIANGLE, WALKABLE_AREA, SKIP_TRIANGLE]);
    expect(degenerateCount).toBe(2);
  });
});

describe("rasterizeTriangles on a 10×10×10 grid with unit cells", () => {
  it("rasterizes a flat triangle into one span per covered cell, floor/ceil snapped", () => {
    // Right triangle x >= 1, z >= 1, x + z <= 5 at y = 2.5: the cells with x, z >= 1 and
    // x + z <= 4 have area inside it; cells merely touching its edges get nothing.
    const hf = rasterizeOne([1, 2.5, 1, 1, 2.5, 4, 4, 2.5, 1], 7);
    expect(spanList(hf)).toEqual([
      "1,1:[2,3)7",
      "2,1:[2,3)7",
      "3,1:[2,3)7",
      "1,2:[2,3)7",
      "2,2:[2,3)7",
      "1,3:[2,3)7",
    ]);
    expect(countSpans(hf)).toBe(6);
  });

  it("gives a flat triangle at an integer height a one-voxel span above it", () => {
    const hf = rasterizeOne([0.2, 3, 0.2, 0.2, 3, 0.8, 0.8, 3, 0.2]);
    expect(spanList(hf)).toEqual(["0,0:[3,4)7"]);
  });

  it("rasterizes a sloped triangle with each cell's own height range", () => {
    // Plane y = 1 + x / 2 over x >= 0, z >= 0, x + z <= 4.
    const hf = rasterizeOne([0, 1, 0, 0, 1, 4, 4, 3, 0], 9);
    expect(spanList(hf)).toEqual([
      "0,0:[1,2)9", // x in [0, 1]: y in [1, 1.5]
      "1,0:[1,2)9", // y in [1.5, 2]
      "2,0:[2,3)9", // y in [2, 2.5]
      "3,0:[2,3)9", // y in [2.5, 3]
      "0,1:[1,2)9",
      "1,1:[1,2)9",
      "2,1:[2,3)9",
      "0,2:[1,2)9",
      "1,2:[1,2)9",
      "0,3:[1,2)9",
    ]);
  });

  it("rasterizes a vertical triangle into the column it stands in, one span per row", () => {
    // In the plane x = 4.5, from z = 2.5 to 4.5; its top edge falls from y = 6 to y = 1.
    const hf = rasterizeOne([4.5, 1, 2.5, 4.5, 6, 2.5, 4.5, 1, 4.5], 3);
    expect(spanList(hf)).toEqual([
      "4,2:[1,6)3", // z in [2.5, 3]: y up to 6
      "4,3:[1,5)3", // z in [3, 4]: y up to 4.75
      "4,4:[1,3)3", // z in [4, 4.5]: y up to 2.25
    ]);
  });

  it("clips a triangle reaching past the low x/z edges to the cells inside the grid", () => {
    // x >= -2, z >= -2, x + z <= 2: inside the grid only x, z >= 0 with x + z < 2.
    const hf = rasterizeOne([-2, 1.5, -2, -2, 1.5, 4, 4, 1.5, -2]);
    expect(spanList(hf)).toEqual(["0,0:[1,2)7", "1,0:[1,2)7", "0,1:[1,2)7"]);
  });

  it("clips a triangle reaching past the high x/z edges to the cells inside the grid", () => {
    const hf = rasterizeOne([8, 1.5, 8, 8, 1.5, 14, 14, 1.5, 8]);
    expect(spanList(hf)).toEqual(["8,8:[1,2)7", "9,8:[1,2)7", "8,9:[1,2)7", "9,9:[1,2)7"]);
  });

  it("folds a piece less than one cell before the low x edge into column 0 (Recast truncates)", () => {
    // Plane y = 2 - 2x, x from -0.5 to 0.5 in row z = 0. Recast's (int) cast truncates
    // -0.5 to 0, so the first x cut is at x = 1 and the outside part's heights (up to y = 3)
    // land in column 0: [1, 3) rather than the [1, 2) of the inside part alone.
    const hf = rasterizeOne([-0.5, 3, 0.1, -0.5, 3, 0.9, 0.5, 1, 0.5]);
    expect(spanList(hf)).toEqual(["0,0:[1,3)7"]);
  });

  it("clamps spans to the grid's height range [0, 10)", () => {
    // A wall in the plane z = 2.5 from y = -5 to y = 15.
    const hf = rasterizeOne([3.2, -5, 2.5, 3.2, 15, 2.5, 3.8, 5, 2.5]);
    expect(spanList(hf)).toEqual(["3,2:[0,10)7"]);
    // Entirely below the box in y: nothing, although x/z are inside.
    expect(spanList(rasterizeOne([1, -3, 1, 1, -3, 2, 2, -2, 1]))).toEqual([]);
  });

  it("skips triangles whose bounding box misses the grid box, and counts them", () => {
    const ctx = new BuildContext();
    const outsideX = rasterizeOne([11, 1, 1, 11, 1, 2, 13, 1, 1], 7, 1, ctx);
    const above = rasterizeOne([1, 12, 1, 1, 12, 2, 2, 12, 1], 7, 1, ctx);
    expect(countSpans(outsideX)).toBe(0);
    expect(countSpans(above)).toBe(0);
    expect(ctx.counts["rasterize.outsideTriangles"]).toBe(2);
    // Touching the box face from outside passes the box test but covers no cell.
    expect(countSpans(rasterizeOne([10, 1, 1, 10, 1, 2, 12, 1, 1]))).toBe(0);
  });

  it("skips SKIP_TRIANGLE triangles and counts them", () => {
    const ctx = new BuildContext();
    const hf = rasterizeOne([1, 1.5, 1, 1, 1.5, 4, 4, 1.5, 1], SKIP_TRIANGLE, 1, ctx);
    expect(countSpans(hf)).toBe(0);
    expect(ctx.counts["rasterize.skippedTriangles"]).toBe(1);
  });

  it("skips a degenerate triangle after markWalkableTriangles", () => {
    const ctx = new BuildContext();
    const m = meshOf([1, 1, 1, 2, 2, 2, 3, 3, 3]);
    const { areas, degenerateCount } = markWalkableTriangles(m, 45);
    const hf = grid10();
    rasterizeTriangles(hf, m.positions, m.indices, areas, 1, ctx);
    expect(degenerateCount).toBe(1);
    expect(countSpans(hf)).toBe(0);
    expect(ctx.counts["rasterize.skippedTriangles"]).toBe(1);
  });

  it("still rasterizes NULL_AREA triangles: they are solid, just not walkable", () => {
    const hf = rasterizeOne([0.2, 2.5, 0.2, 0.2, 2.5, 0.8, 0.8, 2.5, 0.2], NULL_AREA);
    expect(spanList(hf)).toEqual(["0,0:[2,3)0"]);
  });

  it("merges stacked triangles' spans with the climb rule for their areas", () => {
    const floor = [0.2, 2.5, 0.2, 0.2, 2.5, 0.8, 0.8, 2.5, 0.2]; // span [2, 3)
    const lid = [0.2, 3.5, 0.2, 0.2, 3.5, 0.8, 0.8, 3.5, 0.2]; // span [3, 4), touching
    const m = meshOf(floor, lid);
    const areas = new Uint8Array([WALKABLE_AREA, NULL_AREA]);
    const within = grid10();
    rasterizeTriangles(within, m.positions, m.indices, areas, 1); // tops 3 and 4: within 1
    expect(spanList(within)).toEqual([`0,0:[2,4)${WALKABLE_AREA}`]);
    const beyond = grid10();
    rasterizeTriangles(beyond, m.positions, m.indices, areas, 0);
    expect(spanList(beyond)).toEqual(["0,0:[2,4)0"]);
  });

  it("honours the grid's bounds and cell sizes", () => {
    // Same flat triangle as above, shifted by the grid origin and scaled by cells of 0.5.
    const hf = createHeightfield(10, 10, [100, -20, 50], [105, -15, 55], 0.5, 0.5);
    const tri = [1, 2.5, 1, 1, 2.5, 4, 4, 2.5, 1].map((v, i) =>
      i % 3 === 0 ? 100 + v / 2 : i % 3 === 1 ? -20 + v / 2 : 50 + v / 2,
    );
    const m = meshOf(tri);
    rasterizeTriangles(hf, m.positions, m.indices, new Uint8Array([7]), 1);
    expect(spanList(hf)).toEqual(spanList(rasterizeOne([1, 2.5, 1, 1, 2.5, 4, 4, 2.5, 1], 7)));
  });

  it("throws INVALID_ARGUMENT when triAreas is shorter than the triangle count", () => {
    const m = meshOf([0, 0, 0, 0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1, 1, 0, 0]);
    expect(() =>
      rasterizeTriangles(grid10(), m.positions, m.indices, new Uint8Array(1), 1),
    ).toThrow(MeshwayError);
  });
});
