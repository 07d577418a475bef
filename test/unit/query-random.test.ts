import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import {
  closestPointOnPolyBoundary,
  pointInPolyXZ,
  polyHeight,
} from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { polygonAreaXZ } from "../../src/navmesh/tile.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  findPolysAroundCircle,
  PolysAroundCircleResult,
} from "../../src/query/polys-around-circle.js";
import {
  findRandomPoint,
  findRandomPointAroundCircle,
  mulberry32,
  RandomPointResult,
} from "../../src/query/random-point.js";
import { QUERY_CONFIG } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

/** Floor with a box, a ramp up to a platform (non-flat detail surface) and a step. */
function scene(): NavMesh {
  const mesh = new SceneBuilder()
    .floor(0, 0, 16, 16)
    .box(5, 0, 5, 2, 2, 2)
    .box(4, 2.75, 12, 6, 0.25, 6) // platform x 1..7, z 9..15, top at 3
    .ramp(7, 13, 9, 15, 3, 0)
    .build();
  return buildNavMesh(mesh, QUERY_CONFIG).navMesh;
}

/** The point lies in polygon `ref` on XZ and on its detail surface. */
function expectOnMesh(navMesh: NavMesh, ref: number, p: Float64Array): void {
  const tile = navMesh.tileInSlot(tileOfRef(ref))!;
  const poly = polyOfRef(ref);
  const h = polyHeight(tile, poly, p[0]!, p[2]!);
  expect(Number.isNaN(h)).toBe(false);
  expect(Math.abs(h - p[1]!)).toBeLessThan(1e-4);
}

describe("mulberry32", () => {
  it("is deterministic per seed, differs across seeds, and stays in [0, 1)", () => {
    const a = mulberry32(123);
    const b = mulberry32(123);
    const c = mulberry32(124);
    const sa = Array.from({ length: 1000 }, a);
    const sb = Array.from({ length: 1000 }, b);
    const sc = Array.from({ length: 1000 }, c);
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
    for (const v of sa) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
    const mean = sa.reduce((s, v) => s + v, 0) / sa.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });
});

describe("findRandomPoint", () => {
  const navMesh = scene();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();

  it("every point lies in its polygon on the detail surface", () => {
    const rng = mulberry32(1);
    const out = new RandomPointResult();
    for (let i = 0; i < 2000; i++) {
      findRandomPoint(query, filter, rng, out);
      expect(out.status).toBe("complete");
      expectOnMesh(navMesh, out.ref, out.point);
    }
  });

  it("the same seed gives the same points, another seed others", () => {
    const run = (seed: number) => {
      const rng = mulberry32(seed);
      const out = new RandomPointResult();
      const pts: number[] = [];
      for (let i = 0; i < 50; i++) {
        findRandomPoint(query, filter, rng, out);
        pts.push(out.ref, ...out.point);
      }
      return pts;
    };
    expect(run(99)).toEqual(run(99));
    expect(run(99)).not.toEqual(run(100));
  });

  it("points are spread by area: each polygon gets its share of the samples", () => {
    const tile = navMesh.tiles[0]!;
    let total = 0;
    for (let p = 0; p < tile.polyCount; p++) total += Math.abs(polygonAreaXZ(tile, p));
    const counts = new Float64Array(tile.polyCount);
    const rng = mulberry32(2024);
    const out = new RandomPointResult();
    const n = 20000;
    for (let i = 0; i < n; i++) {
      findRandomPoint(query, filter, rng, out);
      counts[polyOfRef(out.ref)]!++;
    }
    for (let p = 0; p < tile.polyCount; p++) {
      const expected = Math.abs(polygonAreaXZ(tile, p)) / total;
      // Binomial standard deviation at n = 20000 is at most 0.0036; allow ~4 sigma.
      expect(Math.abs(counts[p]! / n - expected)).toBeLessThan(0.015);
    }
  });

  it("points are uniform inside a polygon: both halves of the floor's quadrant get half", () => {
    const rng = mulberry32(5);
    const out = new RandomPointResult();
    let west = 0;
    let inside = 0;
    for (let i = 0; i < 20000; i++) {
      findRandomPoint(query, filter, rng, out);
      const x = out.point[0]!;
      const z = out.point[2]!;
      // The open square x 8.5..15.25, z 0.75..7 has no obstacle.
      if (x > 8.5 && x < 15.25 && z > 0.75 && z < 7) {
        inside++;
        if (x < (8.5 + 15.25) / 2) west++;
      }
    }
    expect(inside).toBeGreaterThan(1000);
    expect(Math.abs(west / inside - 0.5)).toBeLessThan(0.04);
  });

  it("only polygons passing the filter are picked; none passing gives noStart", () => {
    const nm = scene();
    const q = new NavMeshQuery(nm);
    const tile = nm.tiles[0]!;
    // Flag every other polygon 2 and exclude those.
    for (let p = 0; p < tile.polyCount; p += 2) tile.polyFlags[p] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const rng = mulberry32(3);
    const out = new RandomPointResult();
    for (let i = 0; i < 300; i++) {
      findRandomPoint(q, f, rng, out);
      expect(polyOfRef(out.ref) % 2).toBe(1);
    }
    f.includeFlags = 4;
    findRandomPoint(q, f, rng, out);
    expect(out.status).toBe("noStart");
    expect(out.ref).toBe(0);
  });

  it("an rng returning exactly 1 (or junk) still yields a point on the mesh", () => {
    const out = new RandomPointResult();
    const edge = new Float64Array(3);
    for (const r of [1, 0, 0.9999999999, -3, Number.NaN]) {
      findRandomPoint(query, filter, () => r, out);
      expect(out.status).toBe("complete");
      // Extreme numbers put the point on a polygon vertex or edge, where inside tests can go
      // either way: check it lies inside or on the outline (up to the float32 rounding of
      // detail vertices sampled along the edges).
      const tile = navMesh.tileInSlot(tileOfRef(out.ref))!;
      const poly = polyOfRef(out.ref);
      closestPointOnPolyBoundary(tile, poly, out.point[0]!, 0, out.point[2]!, edge);
      expect(Math.hypot(edge[0]! - out.point[0]!, edge[2]! - out.point[2]!)).toBeLessThan(1e-5);
      expect(Number.isFinite(out.point[1])).toBe(true);
    }
    expect(() => findRandomPoint(query, filter, 3 as unknown as () => number, out)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("findRandomPointAroundCircle", () => {
  const navMesh = scene();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();

  function polyAt(x: number, z: number): number {
    const tile = navMesh.tiles[0]!;
    for (let p = 0; p < tile.polyCount; p++) {
      if (pointInPolyXZ(tile, p, x, z)) return navMesh.polyRef(1, p);
    }
    return 0;
  }

  it("points lie on the mesh, in polygons findPolysAroundCircle returns", () => {
    const rng = mulberry32(11);
    const out = new RandomPointResult();
    const circle = new PolysAroundCircleResult();
    for (const [x, z, r] of [
      [2, 2, 1],
      [10, 4, 3],
      [12, 12, 0.5],
      [3, 7, 6],
    ] as const) {
      const start = polyAt(x, z);
      expect(start).not.toBe(0);
      findPolysAroundCircle(query, start, [x, 0, z], r, filter, circle);
      const allowed = new Set(Array.from(circle.refs.subarray(0, circle.count)));
      const seen = new Set<number>();
      for (let i = 0; i < 300; i++) {
        findRandomPointAroundCircle(query, start, [x, 0, z], r, filter, rng, out);
        expect(out.status).toBe("complete");
        expect(allowed.has(out.ref)).toBe(true);
        expectOnMesh(navMesh, out.ref, out.point);
        seen.add(out.ref);
      }
      // Every reachable polygon with area shows up eventually at these sample counts
      // when there are few of them.
      if (allowed.size <= 3) expect(seen.size).toBe(allowed.size);
    }
  });

  it("is deterministic for a seed", () => {
    const run = (seed: number) => {
      const rng = mulberry32(seed);
      const out = new RandomPointResult();
      const pts: number[] = [];
      for (let i = 0; i < 30; i++) {
        findRandomPointAroundCircle(query, polyAt(2, 2), [2, 0, 2], 5, filter, rng, out);
        pts.push(out.ref, ...out.point);
      }
      return pts;
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it("a start polygon the filter rejects gives noStart; bad arguments throw", () => {
    const nm = scene();
    const q = new NavMeshQuery(nm);
    const tile = nm.tiles[0]!;
    const start = polyAt(2, 2);
    tile.polyFlags[polyOfRef(start)] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const out = findRandomPointAroundCircle(
      q,
      start,
      [2, 0, 2],
      3,
      f,
      mulberry32(1),
      new RandomPointResult(),
    );
    expect(out.status).toBe("noStart");
    expect(out.ref).toBe(0);
    expect(() =>
      findRandomPointAroundCircle(query, start, [2, 0, 2], -1, filter, mulberry32(1), out),
    ).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() =>
      findRandomPointAroundCircle(query, 5, [2, 0, 2], 1, filter, mulberry32(1), out),
    ).toThrow(/startRef \d+ is not a polygon reference/);
  });
});
