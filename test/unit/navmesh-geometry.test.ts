import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import {
  closestPointOnPoly,
  closestPointOnPolyBoundary,
  distancePtSegSqrXZ,
  pointInPolyXZ,
  polyCenter,
  polyHeight,
  segmentParamXZ,
} from "../../src/navmesh/geometry.js";
import { polygonAreaXZ } from "../../src/navmesh/tile.js";
import { handTile } from "../helpers/hand-tile.js";
import { SceneBuilder } from "../helpers/scenes.js";

// ---------------------------------------------------------------------------------------------

/** A 4 × 4 square (x, z in 0..4) at height 1, split into a left and a right quad. */
const twoQuads = () =>
  handTile({
    verts: [0, 1, 0, 0, 1, 4, 2, 1, 4, 2, 1, 0, 4, 1, 4, 4, 1, 0],
    polys: [
      [0, 1, 2, 3],
      [3, 2, 4, 5],
    ],
  });

/** One triangle on a slope: y = x / 2 (vertices (0,0,0), (0,0,4), (4,2,0)). */
const slopeTri = () => handTile({ verts: [0, 0, 0, 0, 0, 4, 4, 2, 0], polys: [[0, 1, 2]] });

const out = new Float64Array(3);

describe("navmesh geometry", () => {
  it("hand-built polygons use the build's winding (negative polygonAreaXZ)", () => {
    const t = twoQuads();
    expect(polygonAreaXZ(t, 0)).toBe(-8);
    expect(polygonAreaXZ(t, 1)).toBe(-8);
    const { navMesh } = buildNavMesh(new SceneBuilder().floor(0, 0, 10, 10).build(), {
      cellSize: 0.25,
      cellHeight: 0.125,
    });
    const built = navMesh.tiles[0]!;
    for (let p = 0; p < built.polyCount; p++) expect(polygonAreaXZ(built, p)).toBeLessThan(0);
  });

  it("pointInPolyXZ tells inside from outside for each quad", () => {
    const t = twoQuads();
    expect(pointInPolyXZ(t, 0, 1, 2)).toBe(true);
    expect(pointInPolyXZ(t, 0, 3, 2)).toBe(false);
    expect(pointInPolyXZ(t, 1, 3, 2)).toBe(true);
    expect(pointInPolyXZ(t, 1, 1, 2)).toBe(false);
    expect(pointInPolyXZ(t, 0, -0.01, 2)).toBe(false);
    expect(pointInPolyXZ(t, 0, 1, 4.01)).toBe(false);
    expect(pointInPolyXZ(slopeTri(), 0, 1, 1)).toBe(true);
    expect(pointInPolyXZ(slopeTri(), 0, 3, 3)).toBe(false);
  });

  it("segmentParamXZ clamps to [0, 1] and distancePtSegSqrXZ measures to the clamped point", () => {
    expect(segmentParamXZ(1, 5, 0, 0, 4, 0)).toBe(0.25);
    expect(segmentParamXZ(-3, 1, 0, 0, 4, 0)).toBe(0);
    expect(segmentParamXZ(9, 1, 0, 0, 4, 0)).toBe(1);
    expect(distancePtSegSqrXZ(1, 5, 0, 0, 4, 0)).toBe(25);
    expect(distancePtSegSqrXZ(7, 4, 0, 0, 4, 0)).toBe(25);
    // Degenerate segment: distance to its point.
    expect(segmentParamXZ(3, 4, 0, 0, 0, 0)).toBe(0);
    expect(distancePtSegSqrXZ(3, 4, 0, 0, 0, 0)).toBe(25);
  });

  it("closestPointOnPolyBoundary keeps inside points and clamps outside ones to the nearest edge", () => {
    const t = twoQuads();
    closestPointOnPolyBoundary(t, 0, 1, 7, 2, out);
    expect([...out]).toEqual([1, 7, 2]);
    closestPointOnPolyBoundary(t, 0, 3, 7, 1, out);
    expect([...out]).toEqual([2, 1, 1]);
    closestPointOnPolyBoundary(t, 0, -1, 0, -1, out);
    expect([...out]).toEqual([0, 1, 0]);
    // y follows the edge on a slope.
    closestPointOnPolyBoundary(slopeTri(), 0, 2, 0, -3, out);
    expect(out[0]).toBeCloseTo(2, 12);
    expect(out[1]).toBeCloseTo(1, 12);
    expect(out[2]).toBeCloseTo(0, 12);
  });

  it("polyHeight interpolates the detail surface and is NaN outside the polygon", () => {
    expect(polyHeight(twoQuads(), 0, 1, 3)).toBeCloseTo(1, 6);
    expect(polyHeight(slopeTri(), 0, 1, 1)).toBeCloseTo(0.5, 6);
    expect(polyHeight(slopeTri(), 0, 2, 0.5)).toBeCloseTo(1, 6);
    expect(polyHeight(twoQuads(), 0, 3, 3)).toBeNaN();
    expect(polyHeight(slopeTri(), 0, 3, 3)).toBeNaN();
  });

  it("polyHeight uses interior detail vertices (a raised centre)", () => {
    // Square (0..2)² at y 0 with a detail vertex (1, 1, 1) in the middle: a pyramid.
    const t = handTile({ verts: [0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0], polys: [[0, 1, 2, 3]] });
    t.detailVertices = Float32Array.from([...t.detailVertices, 1, 1, 1]);
    t.detailMeshes = Uint32Array.from([0, 5, 0, 4]);
    // Triangles (i, i+1, centre): edge 0 on the boundary.
    t.detailTriangles = Uint8Array.from([0, 1, 4, 1, 1, 2, 4, 1, 2, 3, 4, 1, 3, 0, 4, 1]);
    expect(polyHeight(t, 0, 1, 1)).toBeCloseTo(1, 6);
    expect(polyHeight(t, 0, 0.5, 1)).toBeCloseTo(0.5, 6);
    expect(polyHeight(t, 0, 1, 1.5)).toBeCloseTo(0.5, 6);
    expect(polyHeight(t, 0, 1.9, 1)).toBeCloseTo(0.1, 6);
    // Outside: closest point on the boundary detail edges, at the boundary's height (0).
    expect(closestPointOnPoly(t, 0, 1, 5, -1, out)).toBe(false);
    expect([...out]).toEqual([1, 0, 0]);
  });

  it("polygons without detail triangles fall back to a fan of their vertices", () => {
    const t = slopeTri();
    t.detailMeshes = Uint32Array.from([0, 0, 0, 0]);
    expect(polyHeight(t, 0, 1, 1)).toBeCloseTo(0.5, 6);
    expect(closestPointOnPoly(t, 0, 2, 0, -3, out)).toBe(false);
    expect(out[0]).toBeCloseTo(2, 6);
    expect(out[1]).toBeCloseTo(1, 6);
  });

  it("closestPointOnPoly: over the polygon → (x, detail height, z) and true; else boundary point", () => {
    const t = twoQuads();
    expect(closestPointOnPoly(t, 1, 3, 9, 1, out)).toBe(true);
    expect([...out]).toEqual([3, 1, 1]);
    expect(closestPointOnPoly(t, 1, 5, 9, 6, out)).toBe(false);
    expect([...out]).toEqual([4, 1, 4]);
    // The shared edge x = 2 is on quad 1's boundary, so a point left of quad 1 snaps onto it.
    expect(closestPointOnPoly(t, 1, 1, 0, 3, out)).toBe(false);
    expect([...out]).toEqual([2, 1, 3]);
  });

  it("polyCenter averages the polygon's vertices", () => {
    polyCenter(twoQuads(), 1, out);
    expect([...out]).toEqual([3, 1, 2]);
    polyCenter(slopeTri(), 0, out);
    expect(out[0]).toBeCloseTo(4 / 3, 12);
    expect(out[1]).toBeCloseTo(2 / 3, 12);
    expect(out[2]).toBeCloseTo(4 / 3, 12);
  });

  it("on a built floor with a box, every sample point over the mesh lies in exactly one polygon at floor height", () => {
    const scene = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 2, 2, 2).build();
    const { navMesh } = buildNavMesh(scene, {
      cellSize: 0.25,
      cellHeight: 0.125,
      agentRadius: 0.5,
    });
    const t = navMesh.tiles[0]!;
    let covered = 0;
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 40; j++) {
        const x = 0.13 + i * 0.25;
        const z = 0.11 + j * 0.25;
        let hits = 0;
        for (let p = 0; p < t.polyCount; p++) {
          const h = polyHeight(t, p, x, z);
          if (Number.isNaN(h)) continue;
          hits++;
          // Polygon and detail vertices stand on span tops: up to two cell heights above y = 0.
          expect(h).toBeGreaterThanOrEqual(0);
          expect(h).toBeLessThanOrEqual(0.25 + 1e-6);
          expect(closestPointOnPoly(t, p, x, 3, z, out)).toBe(true);
          expect(out[1]).toBe(h);
        }
        expect(hits).toBeLessThanOrEqual(1);
        covered += hits;
      }
    }
    // 8.5 × 8.5 minus the box grown by the radius (3 × 3), sampled at 16 points per unit².
    expect(covered).toBeGreaterThan(0.9 * 16 * (72.25 - 9));
    expect(covered).toBeLessThan(1.1 * 16 * (72.25 - 9));
  });
});
