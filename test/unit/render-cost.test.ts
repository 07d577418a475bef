import { describe, expect, it } from "vitest";
import { createImage, drawSegments } from "../../src/render/raster.js";
import {
  layoutDrawWork,
  layoutTopDown,
  RENDER_MAX_OVERDRAW,
  renderTopDown,
} from "../../src/render/top-down.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

// `render` cost is bounded (issue 19 B17, render-cost): a pile of coincident polygons is work
// per pixel times the pile's height; past RENDER_MAX_OVERDRAW per pixel it is refused.

function pileOfTriangles(n: number) {
  const verts: number[] = [];
  const polys: number[][] = [];
  for (let i = 0; i < n; i++) {
    const b = verts.length / 3;
    verts.push(0, 0, 0, 0, 0, 10, 10, 0, 0);
    polys.push([b, b + 1, b + 2]);
  }
  const nm = navMeshFor(10, 10);
  nm.addTile(handTile({ verts, polys }));
  return nm;
}

describe("render cost of overlapping polygons (render-cost)", () => {
  it(`refuses a layout needing more than ${RENDER_MAX_OVERDRAW} operations per pixel, naming the numbers`, () => {
    const L = layoutTopDown({ navMesh: pileOfTriangles(500), size: 2048 });
    expect(layoutDrawWork(L)).toBeGreaterThan(2e8);
    const e = thrownMeshwayError(() =>
      renderTopDown({ navMesh: pileOfTriangles(500), size: 2048 }),
    );
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toMatch(
      /^render: 500 polygons, 0 triangles and 1500 edges at 2048 × 2048 pixels need about \d+ pixel operations, \d+ per pixel; the limit is 200000000 \(8 per pixel, at least 200000000\): use a smaller size/,
    );
  });

  it("draws the same pile at a small size", () => {
    const img = renderTopDown({ navMesh: pileOfTriangles(60), size: 64 });
    expect(img.width).toBe(64);
  });

  it("strokes many overlapping segments as one shape (crossings sorted natively past 32 edges)", () => {
    const one = createImage(64, 64);
    const many = createImage(64, 64);
    const seg = [3.2, 5.1, 60.7, 58.3];
    drawSegments(one, seg, 3, [200, 0, 0, 255], { antialias: true, cap: "round" });
    const pile = Array.from({ length: 40 }, () => seg).flat();
    drawSegments(many, pile, 3, [200, 0, 0, 255], { antialias: true, cap: "round" });
    expect(Buffer.from(many.data).equals(Buffer.from(one.data))).toBe(true);
  });
});
