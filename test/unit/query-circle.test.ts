import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { closestPointOnPolyBoundary } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { getPolyArea, getPortalPoints } from "../../src/navmesh/neighbours.js";
import { OFF_MESH_SLOT, polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  findPolysAroundCircle,
  PolysAroundCircleResult,
} from "../../src/query/polys-around-circle.js";
import { polyAt, QUERY_CONFIG } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const Y = 0.25;

/** 16 × 16 floor with three boxes far apart (gaps between obstacles and the border ≥ 2.75
 * after erosion), so a disc of radius ≤ 1.3 never cuts the walkable area in two. */
function scene(): NavMesh {
  const mesh = new SceneBuilder()
    .floor(0, 0, 16, 16)
    .box(5, 0, 5, 2, 2, 2)
    .box(11, 0, 5, 2, 2, 2, 0.5)
    .box(8, 0, 11.5, 3, 2, 1.5)
    .build();
  return buildNavMesh(mesh, QUERY_CONFIG).navMesh;
}

const scratch = new Float64Array(3);
/** Ground polygons within distance r of (x, z) on XZ, by brute force. */
function polysWithin(navMesh: NavMesh, x: number, z: number, r: number): number[] {
  const out: number[] = [];
  for (let s = 1; s < navMesh.slots.length; s++) {
    const tile = navMesh.tileInSlot(s);
    if (!tile) continue;
    for (let p = 0; p < tile.polyCount; p++) {
      closestPointOnPolyBoundary(tile, p, x, 0, z, scratch);
      if (Math.hypot(scratch[0]! - x, scratch[2]! - z) <= r) out.push(navMesh.polyRef(s, p));
    }
  }
  return out.sort((a, b) => a - b);
}

describe("findPolysAroundCircle", () => {
  const navMesh = scene();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();

  it("radius 0 returns only the start polygon, with parent 0 and cost 0", () => {
    const ref = polyAt(navMesh, 2, 2);
    const out = findPolysAroundCircle(
      query,
      ref,
      [2, Y, 2],
      0,
      filter,
      new PolysAroundCircleResult(),
    );
    expect(out.count).toBe(1);
    expect(out.refs[0]).toBe(ref);
    expect(out.parents[0]).toBe(0);
    expect(out.costs[0]).toBe(0);
    expect(out.status).toBe("complete");
  });

  it("a radius covering the whole floor returns every polygon of it", () => {
    const out = findPolysAroundCircle(
      query,
      polyAt(navMesh, 2, 2),
      [8, Y, 8],
      100,
      filter,
      new PolysAroundCircleResult(1),
    );
    const all = polysWithin(navMesh, 8, 8, 100);
    expect(Array.from(out.refs.subarray(0, out.count)).sort((a, b) => a - b)).toEqual(all);
  });

  it("property: exactly the polygons within the radius, in cost order, along a consistent search tree", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 15.5, noNaN: true }),
        fc.double({ min: 0.5, max: 15.5, noNaN: true }),
        fc.double({ min: 0.05, max: 1.3, noNaN: true }),
        (x, z, r) => {
          const start = polyAt(navMesh, x, z);
          if (start === 0) return; // inside an obstacle or its margin
          const out = findPolysAroundCircle(
            query,
            start,
            [x, Y, z],
            r,
            filter,
            new PolysAroundCircleResult(2),
          );
          const got = Array.from(out.refs.subarray(0, out.count));
          expect(got[0]).toBe(start);
          expect(new Set(got).size).toBe(got.length);
          expect([...got].sort((a, b) => a - b)).toEqual(polysWithin(navMesh, x, z, r));
          // Settled in cost order; each parent settled earlier; the cost of reaching a
          // polygon is its parent's plus the walk between portal midpoints.
          const pos = new Map<number, number[]>([[start, [x, Y, z]]]);
          const cost = new Map<number, number>([[start, 0]]);
          const left = new Float64Array(3);
          const right = new Float64Array(3);
          for (let i = 1; i < out.count; i++) {
            expect(out.costs[i]).toBeGreaterThanOrEqual(out.costs[i - 1]!);
            const parent = out.parents[i]!;
            expect(pos.has(parent)).toBe(true);
            expect(getPortalPoints(navMesh, parent, got[i]!, left, right)).toBe(true);
            const mid = [0, 1, 2].map((k) => (left[k]! + right[k]!) / 2);
            const pp = pos.get(parent)!;
            const step = Math.hypot(mid[0]! - pp[0]!, mid[1]! - pp[1]!, mid[2]! - pp[2]!);
            expect(out.costs[i]).toBeCloseTo(cost.get(parent)! + step, 9);
            pos.set(got[i]!, mid);
            cost.set(got[i]!, out.costs[i]!);
          }
        },
      ),
      { numRuns: 300, seed: 77 },
    );
  });

  it("costs scale with the area cost of the polygons walked through", () => {
    const start = polyAt(navMesh, 2, 2);
    const plain = findPolysAroundCircle(
      query,
      start,
      [2, Y, 2],
      6,
      filter,
      new PolysAroundCircleResult(),
    );
    const f = new QueryFilter();
    f.areaCost.fill(2.5);
    const dear = findPolysAroundCircle(
      query,
      start,
      [2, Y, 2],
      6,
      f,
      new PolysAroundCircleResult(),
    );
    expect(dear.count).toBe(plain.count);
    expect(plain.count).toBeGreaterThan(2);
    for (let i = 0; i < plain.count; i++) {
      expect(dear.refs[i]).toBe(plain.refs[i]);
      expect(dear.costs[i]).toBeCloseTo(plain.costs[i]! * 2.5, 9);
    }
    // Sanity: area ids exist for every result.
    for (let i = 0; i < plain.count; i++)
      expect(getPolyArea(navMesh, plain.refs[i]!)).toBeGreaterThanOrEqual(0);
  });

  it("polygons the filter rejects are neither returned nor crossed", () => {
    const nm = scene();
    const q = new NavMeshQuery(nm);
    const start = polyAt(nm, 2, 2);
    const all = findPolysAroundCircle(
      q,
      start,
      [2, Y, 2],
      100,
      filter,
      new PolysAroundCircleResult(),
    );
    const banned = all.refs[1]!;
    nm.tileInSlot(tileOfRef(banned))!.polyFlags[polyOfRef(banned)] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const some = findPolysAroundCircle(q, start, [2, Y, 2], 100, f, new PolysAroundCircleResult());
    const got = Array.from(some.refs.subarray(0, some.count));
    expect(got).not.toContain(banned);
    expect(some.count).toBeLessThan(all.count);
  });

  it("an off-mesh connection whose end lies in the circle is returned (and its far end is not)", () => {
    const nm = scene();
    const q = new NavMeshQuery(nm);
    const con = nm.addOffMeshConnection({
      start: [1.5, Y, 1.5],
      end: [14.5, Y, 14.5],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    const start = polyAt(nm, 1.5, 1.5);
    const far = polyAt(nm, 14.5, 14.5);
    const out = findPolysAroundCircle(
      q,
      start,
      [1.4, Y, 1.4],
      0.5,
      filter,
      new PolysAroundCircleResult(),
    );
    const got = Array.from(out.refs.subarray(0, out.count));
    expect(got).toContain(con);
    expect(tileOfRef(con)).toBe(OFF_MESH_SLOT);
    if (far !== start) expect(got).not.toContain(far);
  });

  it("programmer errors throw INVALID_ARGUMENT", () => {
    const ref = polyAt(navMesh, 2, 2);
    const out = new PolysAroundCircleResult();
    expect(() => findPolysAroundCircle(query, ref, [2, Y, 2], -0.1, filter, out)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => findPolysAroundCircle(query, ref, [Number.NaN, Y, 2], 1, filter, out)).toThrow(
      /center/,
    );
    expect(() => findPolysAroundCircle(query, ref + 1e6, [2, Y, 2], 1, filter, out)).toThrow(
      /startRef \d+ is not a polygon reference/,
    );
  });
});
