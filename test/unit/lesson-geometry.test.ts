import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureAdjacency } from "../../src/lesson/adjacency.js";
import { ConvexSurface, crossProductSigns, pointInPolygon } from "../../src/lesson/geometry.js";
import { dropStraighten } from "../../src/lesson/path.js";
import { maximalRectangles, rectangleRings } from "../../src/lesson/rectangles.js";
import { LESSON_SCENE } from "../../src/lesson/scene.js";
import { toyFilter } from "../../src/lesson/surface.js";

const rect = (x0: number, z0: number, x1: number, z1: number) =>
  new Float64Array([x0, z0, x0, z1, x1, z1, x1, z0]);

describe("lesson geometry", () => {
  it("criterion ① counts cross-product signs and skips collinear corners", () => {
    expect(crossProductSigns(rect(0, 0, 2, 1))).toEqual({ positive: 0, negative: 4, convex: true });
    // A square with an extra collinear corner on one side is still convex.
    expect(crossProductSigns(new Float64Array([0, 0, 1, 0, 2, 0, 2, 2, 0, 2])).convex).toBe(true);
    expect(crossProductSigns(new Float64Array([0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2])).convex).toBe(
      false,
    );
  });

  it("points on a polygon's boundary count as inside", () => {
    const L = new Float64Array([0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2]);
    expect(pointInPolygon(L, 1, 1.5)).toBe(true);
    expect(pointInPolygon(L, 1.5, 1)).toBe(true);
    expect(pointInPolygon(L, 1.5, 1.5)).toBe(false);
    expect(pointInPolygon(L, 0.5, 0.5)).toBe(true);
  });

  it("adjacency: shared segments, a 4-way corner is a point contact but no pinch, a diagonal touch is a pinch", () => {
    const four = measureAdjacency([
      rect(0, 0, 1, 1),
      rect(1, 0, 2, 1),
      rect(0, 1, 1, 2),
      rect(1, 1, 2, 2),
    ]);
    expect(Array.from(four.pairs)).toEqual([0, 1, 0, 2, 1, 3, 2, 3]);
    expect(Array.from(four.lengths)).toEqual([1, 1, 1, 1]);
    expect(Array.from(four.pointPairs)).toEqual([0, 3, 1, 2]);
    expect(four.pinchPairs).toBe(0);
    const diagonal = measureAdjacency([rect(0, 0, 1, 1), rect(1, 1, 2, 2)]);
    expect(diagonal.pairs.length).toBe(0);
    expect(Array.from(diagonal.points)).toEqual([1, 1]);
    expect(diagonal.pinchPairs).toBe(1);
    // A T-junction: the shared length is the overlap.
    const t = measureAdjacency([rect(0, 0, 3, 1), rect(1, 1, 2, 3)]);
    expect(Array.from(t.lengths)).toEqual([1]);
  });

  it("containsSegment is exact on a pinch and along walls", () => {
    const s = new ConvexSurface([rect(0, 0, 1, 1), rect(1, 1, 2, 2), rect(0, 1, 1, 3)]);
    expect(s.containsSegment(0.5, 0.5, 1.5, 1.5)).toBe(true); // through the shared corner point
    expect(s.containsSegment(0, 0, 0, 3)).toBe(true); // along the outer wall
    expect(s.containsSegment(0.5, 0.5, 1.5, 1.2)).toBe(false); // clips the empty square
  });

  it("property: containsSegment agrees with dense sampling on the lesson's rectangles", () => {
    const rings = rectangleRings(maximalRectangles(toyFilter(0.75)));
    const surface = new ConvexSurface(rings);
    const { width, depth } = LESSON_SCENE;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 96 }),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 96 }),
        fc.integer({ min: 0, max: 64 }),
        (a, b, c, d) => {
          // Quarter-cell lattice points, like the portal midpoints the straightening uses.
          const [ax, az, bx, bz] = [
            (a * width) / 96,
            (b * depth) / 64,
            (c * width) / 96,
            (d * depth) / 64,
          ];
          const exact = surface.containsSegment(ax, az, bx, bz);
          let sampled = true;
          const n = 4000;
          for (let k = 0; k <= n && sampled; k++) {
            sampled = surface.contains(ax + ((bx - ax) * k) / n, az + ((bz - az) * k) / n);
          }
          // Exact "on" implies every sample is on; sampling can only miss a crossing, never invent one.
          if (exact) expect(sampled).toBe(true);
          if (!sampled) expect(exact).toBe(false);
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });

  it("dropping points never leaves the surface and ends with no removable point", () => {
    const surface = new ConvexSurface([rect(0, 0, 4, 1), rect(3, 1, 4, 4), rect(0, 3, 3, 4)]);
    const path = [0.5, 0.5, 2, 0.5, 3.5, 0.5, 3.5, 2, 3.5, 3.5, 2, 3.5, 0.5, 3.5];
    const out = dropStraighten(path, surface);
    expect(out).toEqual([0.5, 0.5, 3.5, 0.5, 3.5, 3.5, 0.5, 3.5]);
  });
});
