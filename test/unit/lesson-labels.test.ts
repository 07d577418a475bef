import { describe, expect, it } from "vitest";
import { insideDepth, labelSpot } from "../../src/lesson/label-place.js";

// Section ④'s polygon ids sat at the vertex centroid, which sticks out of thin triangles; they
// now go to the pole of inaccessibility (src/lesson/label-place.ts).
describe("polygon id placement", () => {
  it("finds a thin triangle's incentre, as deep as its inscribed circle", () => {
    // Sides 3, 4, 5 scaled: the inradius of a 3-4-5 triangle is (3 + 4 - 5) / 2 = 1.
    const ring = new Float64Array([0, 0, 0, 4, 3, 0]);
    const spot = labelSpot(ring);
    expect(spot.x).toBeCloseTo(1, 9);
    expect(spot.z).toBeCloseTo(1, 9);
    expect(spot.depth).toBeCloseTo(1, 9);
    // A sliver: 10 long, 0.4 high at one end; the pole is inside, the vertex centroid far less deep.
    const sliver = new Float64Array([0, 0, 10, 0, 10, 0.4]);
    const s = labelSpot(sliver);
    expect(insideDepth(sliver, s.x, s.z)).toBeCloseTo(s.depth, 12);
    expect(s.depth).toBeGreaterThan(insideDepth(sliver, 20 / 3, 0.4 / 3) + 0.01);
  });

  it("keeps a rectangle's label at its centre (the middle of its deepest segment), either winding", () => {
    for (const ring of [
      new Float64Array([0, 0, 0, 1, 4, 1, 4, 0]),
      new Float64Array([0, 0, 4, 0, 4, 1, 0, 1]),
    ]) {
      expect(labelSpot(ring)).toEqual({ x: 2, z: 0.5, depth: 0.5 });
      expect(insideDepth(ring, 2, 0.5)).toBeCloseTo(0.5, 12);
      expect(insideDepth(ring, 5, 0.5)).toBeLessThan(0);
    }
  });
});
