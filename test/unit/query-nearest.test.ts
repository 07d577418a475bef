import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { QUERY_CONFIG } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

// Binary-exact cells; agent radius 0.5 erodes 0.75 off open edges (ledge cell + 2 cells).
const build = (b: SceneBuilder): NavMesh => buildNavMesh(b.build(), QUERY_CONFIG).navMesh;

/** A 10 × 10 floor: one polygon (0.75..9.25)², flat. */
const floor = build(new SceneBuilder().floor(0, 0, 10, 10));
/** Surface height of every floor in these tests (the height of the floor's polygon vertices). */
const Y = floor.tiles[0]!.vertices[1]!;
/** The floor plus a 6 × 6 platform (top at 3) whose polygon 1 hangs over its middle. */
const storeys = build(new SceneBuilder().floor(0, 0, 10, 10).box(5, 2.75, 5, 6, 0.25, 6));
/** Surface height of the platform polygon (its first vertex; it is flat). */
const P = (() => {
  const t = storeys.tiles[0]!;
  return t.vertices[t.polyVerts[t.maxVertsPerPoly]! * 3 + 1]!;
})();

function expectThrowsArgument(f: () => unknown, message: RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(MeshwayError);
  expect((err as MeshwayError).code).toBe("INVALID_ARGUMENT");
  expect((err as MeshwayError).message).toMatch(message);
}

describe("findNearestPoly", () => {
  it("snaps a point above a polygon straight down onto its surface", () => {
    const q = new NavMeshQuery(floor);
    const out = createNearestPolyResult();
    const ref = q.findNearestPoly([4, 1, 6], [1, 2, 1], q.defaultFilter, out);
    expect(ref).toBe(floor.polyRef(1, 0));
    expect(out.ref).toBe(ref);
    expect(out.isOverPoly).toBe(true);
    expect(Array.from(out.point)).toEqual([4, Y, 6]);
  });

  it("finds the closest boundary point when the point is beside the mesh", () => {
    const q = new NavMeshQuery(floor);
    const out = createNearestPolyResult();
    expect(q.findNearestPoly([0.25, Y, 5], [1, 1, 1], q.defaultFilter, out)).not.toBe(0);
    expect(out.isOverPoly).toBe(false);
    expect(Array.from(out.point)).toEqual([0.75, Y, 5]);
  });

  it("returns ref 0 and leaves the point at the centre when no polygon is in the box", () => {
    const q = new NavMeshQuery(floor);
    const out = createNearestPolyResult();
    expect(q.findNearestPoly([5, 10, 5], [1, 1, 1], q.defaultFilter, out)).toBe(0);
    expect(out.ref).toBe(0);
    expect(Array.from(out.point)).toEqual([5, 10, 5]);
  });

  it("accepts zero half extents (a point box touching the surface)", () => {
    const q = new NavMeshQuery(floor);
    expect(q.findNearestPoly([5, Y, 5], [0, 0, 0])).toBe(floor.polyRef(1, 0));
  });

  it("prefers the storey the point stands on, within a climb, over the one below or above", () => {
    const q = new NavMeshQuery(storeys);
    const ext = [1, 4, 1];
    expect(P - Y).toBeCloseTo(3, 6);
    expect(q.findNearestPoly([5, Y + 0.05, 5], ext)).toBe(storeys.polyRef(1, 0));
    expect(q.findNearestPoly([5, P + 0.05, 5], ext)).toBe(storeys.polyRef(1, 1));
    // 1.75 above the floor, 1.25 below the platform: beyond a climb (0.9) the gap decides.
    expect(q.findNearestPoly([5, Y + 1.75, 5], ext)).toBe(storeys.polyRef(1, 1));
    // 0.85 above the floor (within a climb), 2.15 below the platform.
    expect(q.findNearestPoly([5, Y + 0.85, 5], ext)).toBe(storeys.polyRef(1, 0));
  });

  it("skips polygons the filter rejects", () => {
    const q = new NavMeshQuery(floor);
    const none = new QueryFilter();
    none.includeFlags = 0;
    expect(q.findNearestPoly([5, Y, 5], [1, 1, 1], none)).toBe(0);
  });

  it("throws INVALID_ARGUMENT for NaN coordinates and negative half extents", () => {
    const q = new NavMeshQuery(floor);
    expectThrowsArgument(() => q.findNearestPoly([Number.NaN, 0, 0], [1, 1, 1]), /center/);
    expectThrowsArgument(() => q.findNearestPoly([0, 0, 0], [1, -1, 1]), /negative/);
  });
});

describe("closestPointOnPoly, closestPointOnPolyBoundary, getPolyHeight", () => {
  const q = new NavMeshQuery(storeys);
  const platform = storeys.polyRef(1, 1);
  const out = new Float64Array(3);

  it("closestPointOnPoly keeps x/z and takes the surface height when over the polygon", () => {
    expect(q.closestPointOnPoly(platform, [4, 0, 6], out)).toBe(true);
    expect(Array.from(out)).toEqual([4, P, 6]);
  });

  it("closestPointOnPoly clamps to the edge when beside the polygon", () => {
    expect(q.closestPointOnPoly(platform, [1, P, 5], out)).toBe(false);
    expect(Array.from(out)).toEqual([2.75, P, 5]);
  });

  it("closestPointOnPolyBoundary returns the point itself (its own y) when inside", () => {
    q.closestPointOnPolyBoundary(platform, [4, 9, 6], out);
    expect(Array.from(out)).toEqual([4, 9, 6]);
    q.closestPointOnPolyBoundary(platform, [9, 9, 9], out);
    expect(Array.from(out)).toEqual([7.5, P, 7.5]);
  });

  it("getPolyHeight gives the surface height inside and NaN outside", () => {
    expect(q.getPolyHeight(platform, [5, 0, 5])).toBe(P);
    expect(q.getPolyHeight(storeys.polyRef(1, 0), [5, 0, 5])).toBe(Y);
    expect(q.getPolyHeight(platform, [1, 0, 1])).toBeNaN();
  });

  it("throws INVALID_ARGUMENT for a made-up ref (polygon index beyond the tile, or 0)", () => {
    expectThrowsArgument(
      () => q.getPolyHeight(storeys.polyRef(1, 7), [5, 0, 5]),
      /getPolyHeight ref \d+ is not a polygon reference/,
    );
    expectThrowsArgument(
      () => q.closestPointOnPoly(0, [5, 0, 5], out),
      /closestPointOnPoly ref 0 is not a polygon reference/,
    );
  });
});

describe("queryPolygons", () => {
  it("returns the polygons whose bounds overlap the box and pass the filter", () => {
    const q = new NavMeshQuery(storeys);
    const refs = new Float64Array(8);
    expect(q.queryPolygons([5, 2, 5], [5, 2, 5], q.defaultFilter, refs)).toBe(2);
    expect([...refs.subarray(0, 2)].sort()).toEqual([storeys.polyRef(1, 0), storeys.polyRef(1, 1)]);
    // A box around the floor only (below the platform's height).
    expect(q.queryPolygons([5, Y, 5], [1, 0.5, 1], q.defaultFilter, refs)).toBe(1);
    expect(refs[0]).toBe(storeys.polyRef(1, 0));
    // Off to the side of the platform: the floor only.
    expect(q.queryPolygons([1, 3, 1], [0.5, 3, 0.5], q.defaultFilter, refs)).toBe(1);
  });
});

describe("NavMeshQuery forwarding and package exports", () => {
  it("exposes the module queries as methods and the API from the package index", async () => {
    const index = await import("../../src/index.js");
    expect(index.NavMeshQuery).toBe(NavMeshQuery);
    expect(typeof index.StraightPath).toBe("function");
    const q = new index.NavMeshQuery(floor);
    const ref = floor.polyRef(1, 0);
    expect(q.raycast(ref, [2, Y, 5], [8, Y, 5]).hit).toBe(false);
    const hit = q.raycast(ref, [2, Y, 5], [20, Y, 5]);
    expect(hit.hit).toBe(true);
    expect(hit.t).toBeCloseTo((9.25 - 2) / 18, 9);
    expect(q.findPolysAroundCircle(ref, [5, Y, 5], 1).count).toBe(1);
    const moved = q.moveAlongSurface(ref, [5, Y, 5], [20, Y, 5]);
    expect(moved.resultPos[0]).toBeCloseTo(9.25, 9);
    expect(q.findDistanceToWall(ref, [5, Y, 5], 10).hitDist).toBeCloseTo(4.25, 9);
    const p = q.findRandomPoint(q.defaultFilter, index.mulberry32(7));
    expect(p.ref).toBe(ref);
  });
});
