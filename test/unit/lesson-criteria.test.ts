import { describe, expect, it } from "vitest";
import {
  CONVEX_PAIRS,
  LESSON_SHAPES_XZ,
  lShapeRing,
  samplePairs,
  segmentLeavesSampled,
} from "../../src/lesson/convex.js";
import {
  CELL_WALKABLE,
  LESSON_SCENE,
  type LessonResult,
  lessonRadii,
  runLesson,
} from "../../src/lesson/index.js";
import { LESSON_CORNER } from "../../src/lesson/settings.js";
import { cellCentreDistance } from "../../src/lesson/surface.js";

// Every slider position, both methods (the radius-dependent work is cached per radius).
const radii = lessonRadii();
const results = new Map<string, LessonResult>();
function lesson(
  radius: number,
  method: "simple" | "meshway",
  shape: "square" | "L" = "square",
): LessonResult {
  const key = `${radius}/${method}/${shape}`;
  let r = results.get(key);
  if (!r) {
    r = runLesson({ radius, method, shape, view: "straight" });
    results.set(key, r);
  }
  return r;
}

describe("lesson criteria at every radius 0.25 → 1.50", () => {
  it("has 26 slider radii from 0.25 to 1.5 in steps of 0.05", () => {
    expect(radii.length).toBe(26);
    expect(radii[0]).toBe(0.25);
    expect(radii[25]).toBe(1.5);
    for (let i = 1; i < radii.length; i++) expect(radii[i]! - radii[i - 1]!).toBeCloseTo(0.05, 12);
  });

  it.each(radii)("r = %s: the rectangles conserve the walkable area exactly", (r) => {
    const p = lesson(r, "simple").partition.simple;
    expect(p.area).toBe(p.walkableCells * 0.25);
    // Every walkable cell in exactly one rectangle.
    const owner = p.rectangles!.owner;
    const state = lesson(r, "simple").surface.simple.state;
    for (let c = 0; c < state.length; c++) expect(owner[c]! >= 0).toBe(state[c] === CELL_WALKABLE);
  });

  it.each(radii)(
    "r = %s: no pair of polygons touches at a single point only (rectangles), no pinches (both)",
    (r) => {
      const res = lesson(r, "simple");
      expect(res.partition.simple.adjacency.pointPairs.length).toBe(0);
      expect(res.partition.simple.adjacency.pinchPairs).toBe(0);
      expect(res.partition.meshway.adjacency.pinchPairs).toBe(0);
    },
  );

  it.each(radii)("r = %s: every polygon of both partitions is convex by both criteria", (r) => {
    const res = lesson(r, "simple");
    for (const m of ["simple", "meshway"] as const) {
      const c = res.partition[m].convexity;
      expect(c.polygons).toBeGreaterThan(0);
      expect(c.crossConvex).toBe(c.polygons);
      expect(c.leaving).toBe(0);
    }
  });

  it.each(radii)(
    "r = %s: both methods' straightened paths reach the goal, keep 0 removable points and stay on the surface",
    (r) => {
      for (const m of ["simple", "meshway"] as const) {
        const p = lesson(r, m).path;
        expect(p.status).toBe("complete");
        const final = p.final === "funnel" ? p.funnel! : p.dropped;
        expect(final.removable).toBe(0);
        expect(p.dropped.removable).toBe(0);
        expect(p.samples).toBeGreaterThan(0);
        expect(p.samplesOnSurface).toBe(p.samples);
        expect(final.count - 2).toBeGreaterThanOrEqual(3);
        expect(final.length).toBeLessThanOrEqual(p.midpoint.length + 1e-9);
      }
    },
  );

  it.each(radii)(
    "r = %s: the exact shortest path is complete, never longer than the funnel (≤ midpoints) nor the drop-straightened path, on the surface, with 0 removable points",
    (r) => {
      for (const m of ["simple", "meshway"] as const) {
        const p = lesson(r, m).path;
        const exact = p.exact!;
        expect(exact).not.toBeNull();
        expect(p.exactStatus).toBe("complete");
        if (m === "meshway") {
          expect(exact.length).toBeLessThanOrEqual(p.funnel!.length + 1e-9);
          expect(p.funnel!.length).toBeLessThanOrEqual(p.midpoint.length + 1e-9);
        }
        expect(exact.length).toBeLessThanOrEqual(p.dropped.length + 1e-9);
        expect(exact.length).toBeLessThanOrEqual(p.midpoint.length + 1e-9);
        expect(exact.removable).toBe(0);
        expect(p.exactSamples).toBeGreaterThan(0);
        expect(p.exactSamplesOnSurface).toBe(p.exactSamples);
        // Same ends as the method's other polylines.
        const n = exact.points.length;
        expect(Array.from(exact.points.subarray(0, 2))).toEqual(
          Array.from(p.midpoint.points.subarray(0, 2)),
        );
        expect(Array.from(exact.points.subarray(n - 2))).toEqual(
          Array.from(p.midpoint.points.subarray(p.midpoint.points.length - 2)),
        );
      }
    },
  );

  it.each(radii)(
    "r = %s: the filtered surface keeps every centre at least r from obstacles and removed == cross-check",
    (r) => {
      const s = lesson(r, "simple").surface;
      expect(s.simple.minDistance).toBeGreaterThanOrEqual(r);
      expect(s.simple.removed).toBe(s.crossCheck);
      const { cols, rows } = LESSON_SCENE;
      for (let j = 0; j < rows; j++) {
        for (let i = 0; i < cols; i++) {
          if (s.simple.state[i + j * cols] === CELL_WALKABLE)
            expect(cellCentreDistance(i, j)).toBeGreaterThanOrEqual(r);
        }
      }
    },
  );

  it.each(radii)("r = %s: every self-check passes for both methods", (r) => {
    for (const m of ["simple", "meshway"] as const) {
      const failed = lesson(r, m).checks.filter((c) => !c.pass);
      expect(failed).toEqual([]);
    }
  });

  it("the square's sampled pairs never leave it, the L's do; criterion ① agrees", () => {
    const res = lesson(0.75, "meshway");
    expect(res.convex.square.leaving).toBe(0);
    expect(res.convex.square.crossConvex).toBe(true);
    expect(res.convex.square.pairs).toBe(1000);
    expect(res.convex.L.leaving).toBeGreaterThan(0);
    expect(res.convex.L.crossConvex).toBe(false);
    expect(res.convex.L.drawnLeaves.length).toBe(60);
    expect(Array.from(res.convex.L.drawnLeaves).some((f) => f === 1)).toBe(true);
    expect(Array.from(res.convex.square.drawnLeaves).every((f) => f === 0)).toBe(true);
  });

  it("the narrow passage is open at small radii and closed by 1.5, so the path detours", () => {
    for (const m of ["simple", "meshway"] as const) {
      const small = lesson(0.25, m).path;
      const large = lesson(1.5, m).path;
      expect(large.status).toBe("complete");
      expect(large.midpoint.length).toBeGreaterThan(small.midpoint.length + 10);
    }
  });

  it("toy and meshway voxelize the scene identically", () => {
    for (const r of radii) expect(lesson(r, "meshway").surface.differingVoxel).toBe(0);
    // r = 1.0 is a whole number of cells: both methods keep the same cells here.
    expect(lesson(1, "meshway").surface.differing).toBe(0);
  });
});

describe("criterion ② with the clear-of-edges shortcut equals sampling every segment", () => {
  const same = (ring: Float64Array, pairs: number, seed: number) => {
    const fast = new Uint8Array(pairs);
    const slow = new Uint8Array(pairs);
    const d = new Float64Array(pairs * 4);
    const a = samplePairs(ring, pairs, seed, d, fast);
    const b = samplePairs(ring, pairs, seed, d.slice(), slow, segmentLeavesSampled);
    expect(a).toBe(b);
    expect(fast).toEqual(slow);
  };

  it("on the square and on the L at inner corners across the notch", () => {
    same(LESSON_SHAPES_XZ.square, CONVEX_PAIRS, 0x5eed01);
    const C = LESSON_CORNER;
    for (let x = C.minX; x <= C.maxX; x += 1.25)
      for (let z = C.minZ; z <= C.maxZ; z += 1.25) same(lShapeRing([x, z]), 400, 0x5eed02);
    // On and next to the diagonal, where the L turns convex.
    for (const c of [
      [14.5, 5.5],
      [14.75, 5.5],
      [14.5, 5.75],
      [17, 3],
    ] as const)
      same(lShapeRing(c), 400, 0x5eed02);
  });

  it("on every polygon of both partitions at every radius", () => {
    for (const r of radii) {
      const p = lesson(r, "simple").partition;
      for (const part of [p.simple, p.meshway])
        part.polygons.forEach((ring, k) => {
          same(ring, 16, 0x9a17 + k);
        });
    }
  });
});
