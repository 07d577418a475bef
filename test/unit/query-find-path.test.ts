import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { getPolyArea, getPortalPoints } from "../../src/navmesh/neighbours.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { islands, QUERY_CONFIG, wallScene } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

/** 12 × 12 floor with a 2 × 6 patch of area 2 in the middle (x 5..7, z 3..9). */
const patchScene = () =>
  buildNavMesh(new SceneBuilder().floor(0, 0, 12, 12).build(), QUERY_CONFIG, {
    areaVolumes: [{ kind: "box", min: [5, -1, 3], max: [7, 1, 9], area: 2 }],
  }).navMesh;
/** Surface height of the flat floors (their polygon vertices' height). */
const Y = wallScene().tiles[0]!.vertices[1]!;

function snap(q: NavMeshQuery, p: number[]) {
  const r = createNearestPolyResult();
  q.findNearestPoly(p, [1, 1, 1], q.defaultFilter, r);
  return r;
}

function expectAdjacentChain(navMesh: NavMesh, polys: ArrayLike<number>, n: number): void {
  const l = new Float64Array(3);
  const r = new Float64Array(3);
  for (let i = 0; i + 1 < n; i++)
    expect(getPortalPoints(navMesh, polys[i]!, polys[i + 1]!, l, r)).toBe(true);
}

describe("findPath", () => {
  it("returns the start polygon alone, complete, when start and end share it", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const a = nm.polyRef(1, 0);
    const res = q.findPath(a, a, [1, Y, 1], [5, Y, 5]);
    expect(res.status).toBe("complete");
    expect(res.polyCount).toBe(1);
    expect(res.polys).toEqual([a]);
  });

  it("finds the corridor around a wall: south, connector, north polygons", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    const res = q.findPath(s.ref, e.ref, s.point, e.point);
    expect(res.status).toBe("complete");
    expect(res.polys).toEqual([1, 0, 2, 3].map((p) => nm.polyRef(1, p)));
    expectAdjacentChain(nm, res.polys, res.polyCount);
  });

  it("returns a partial corridor to the polygon nearest the end when the end is unreachable", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const res = q.findPath(nm.polyRef(1, 0), nm.polyRef(1, 1), [3, Y, 3], [11, Y, 3]);
    expect(res.status).toBe("partial");
    expect(res.polys).toEqual([nm.polyRef(1, 0)]);
  });

  it("reports outOfNodes with the best corridor so far when the node limit is hit", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm, { maxNodes: 2 });
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    const res = q.findPath(s.ref, e.ref, s.point, e.point);
    expect(res.status).toBe("outOfNodes");
    expect(res.polys[0]).toBe(s.ref);
    expect(res.polyCount).toBeLessThanOrEqual(2);
    // The same query with room for every node completes.
    expect(new NavMeshQuery(nm).findPath(s.ref, e.ref, s.point, e.point).status).toBe("complete");
  });

  it("a per-call maxNodes limits the search, and a larger one grows the pool", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm, { maxNodes: 2 });
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    expect(
      q.findPath(s.ref, e.ref, s.point, e.point, q.defaultFilter, [], undefined, 64).status,
    ).toBe("complete");
    expect(q.nodePool.maxNodes).toBe(64);
    expect(
      q.findPath(s.ref, e.ref, s.point, e.point, q.defaultFilter, [], undefined, 2).status,
    ).toBe("outOfNodes");
  });

  it("avoids an expensive area when a cheaper way around exists, and crosses it when cheap", () => {
    const nm = patchScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 6]);
    const e = snap(q, [10, Y, 6]);
    const areas = (polys: ArrayLike<number>, n: number) =>
      Array.from({ length: n }, (_, i) => getPolyArea(nm, polys[i]!));
    const cheap = q.findPath(s.ref, e.ref, s.point, e.point);
    expect(cheap.status).toBe("complete");
    expect(areas(cheap.polys, cheap.polyCount)).toContain(2);
    const filter = new QueryFilter().setAreaCost(2, 10);
    const dear = q.findPath(s.ref, e.ref, s.point, e.point, filter);
    expect(dear.status).toBe("complete");
    expect(areas(dear.polys, dear.polyCount)).not.toContain(2);
    expectAdjacentChain(nm, dear.polys, dear.polyCount);
  });

  it("never enters polygons the filter excludes (partial at the start)", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    const none = new QueryFilter();
    none.excludeFlags = 0xffff;
    const res = q.findPath(s.ref, e.ref, s.point, e.point, none);
    expect(res.status).toBe("partial");
    expect(res.polys).toEqual([s.ref]);
  });

  it("never truncates: a number[] is resized, a short Float64Array replaced by a larger one", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    const list = [7, 7, 7, 7, 7, 7, 7, 7];
    expect(q.findPath(s.ref, e.ref, s.point, e.point, q.defaultFilter, list).polys).toBe(list);
    expect(list.length).toBe(4);
    const small = new Float64Array(2);
    const res = q.findPath(s.ref, e.ref, s.point, e.point, q.defaultFilter, small);
    expect(res.polys).not.toBe(small);
    expect(res.polyCount).toBe(4);
    expect(Array.from(res.polys.slice(0, 4))).toEqual(list);
    const big = new Float64Array(16);
    expect(q.findPath(s.ref, e.ref, s.point, e.point, q.defaultFilter, big).polys).toBe(big);
  });

  it("throws INVALID_ARGUMENT for made-up refs and non-finite positions", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const a = nm.polyRef(1, 0);
    const madeUp = nm.polyRef(1, 5);
    expect(() => q.findPath(a, madeUp, [1, 0, 1], [1, 0, 1])).toThrow(MeshwayError);
    expect(() => q.findPath(a, madeUp, [1, 0, 1], [1, 0, 1])).toThrow(/findPath endRef/);
    expect(() => q.findPath(a, a, [1, Number.NaN, 1], [1, 0, 1])).toThrow(/not finite/);
  });

  it("reports invalidRef with an empty corridor for a ref into a removed tile", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const a = nm.polyRef(1, 0);
    nm.removeTile(nm.polyRef(1, 0));
    const res = q.findPath(a, a, [1, 0, 1], [1, 0, 1], q.defaultFilter, [7, 8]);
    expect(res.status).toBe("invalidRef");
    expect(res.polyCount).toBe(0);
    expect(res.polys).toEqual([]);
  });
});

describe("sliced findPath", () => {
  it("runs a slice at a time and ends with the findPath corridor", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    expect(q.initSlicedFindPath(s.ref, e.ref, s.point, e.point)).toBe("inProgress");
    expect(q.updateSlicedFindPath(1)).toBe("inProgress");
    expect(q.slicedIterations).toBe(1);
    let status = q.updateSlicedFindPath(1);
    let steps = 2;
    while (status === "inProgress") {
      status = q.updateSlicedFindPath(1);
      steps++;
    }
    expect(status).toBe("complete");
    expect(steps).toBeGreaterThan(2);
    const res = q.finalizeSlicedFindPath();
    expect(res.status).toBe("complete");
    expect(res.polys).toEqual(q.findPath(s.ref, e.ref, s.point, e.point).polys);
  });

  it("is not disturbed by other queries between slices", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    const whole = q.findPath(s.ref, e.ref, s.point, e.point).polys;
    q.initSlicedFindPath(s.ref, e.ref, s.point, e.point);
    q.updateSlicedFindPath(1);
    q.findPath(e.ref, s.ref, e.point, s.point);
    while (q.updateSlicedFindPath(1) === "inProgress");
    expect(q.finalizeSlicedFindPath().polys).toEqual(whole);
  });

  it("finalizing early gives the best partial corridor and ends the search", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    q.initSlicedFindPath(s.ref, e.ref, s.point, e.point);
    q.updateSlicedFindPath(1);
    const res = q.finalizeSlicedFindPath();
    expect(res.status).toBe("partial");
    expect(res.polys[0]).toBe(s.ref);
    expect(q.updateSlicedFindPath(10)).toBe("partial");
  });

  it("ends with invalidRef when the tile is removed between slices", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = snap(q, [2, Y, 3]);
    const e = snap(q, [2, Y, 9]);
    q.initSlicedFindPath(s.ref, e.ref, s.point, e.point);
    q.updateSlicedFindPath(1);
    nm.removeTile(nm.polyRef(1, 0));
    expect(q.updateSlicedFindPath(10)).toBe("invalidRef");
    const res = q.finalizeSlicedFindPath([1, 2, 3]);
    expect(res.status).toBe("invalidRef");
    expect(res.polyCount).toBe(0);
    expect(res.polys).toEqual([]);
  });

  it("reports noStart before any init", () => {
    const q = new NavMeshQuery(islands());
    expect(q.updateSlicedFindPath(1)).toBe("noStart");
    expect(q.finalizeSlicedFindPath().status).toBe("noStart");
  });
});

describe("partial corridors (partial-path-loop)", () => {
  it("never walk a loop back into a polygon they already crossed (nav_test tiled 32)", async () => {
    const { buildTiledNavMesh } = await import("../../src/tiles/build-tiled.js");
    const { loadSharedMesh } = await import("../helpers/meshes.js");
    const { navMesh } = await buildTiledNavMesh(loadSharedMesh("nav_test"), { tileSize: 32 });
    const q = new NavMeshQuery(navMesh);
    // Was: a 6-polygon corridor starting and ending on the start polygon (Detour: no loop).
    const r = q.computePath([-8.636, 8.13, 2.441], [13.15, -2.07, -17.062]);
    expect(r.status).toBe("partial");
    expect(new Set(r.polys).size).toBe(r.polys.length);
    // And over many seeded partial pairs: every corridor is loop-free and linked.
    let partials = 0;
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 4294967296;
    };
    for (let i = 0; i < 300; i++) {
      const a = [-28 + rnd() * 56, -4 + rnd() * 12, -26 + rnd() * 48];
      const b = [-28 + rnd() * 56, -4 + rnd() * 12, -26 + rnd() * 48];
      const p = q.computePath(a, b);
      if (p.status !== "partial") continue;
      partials++;
      expect(new Set(p.polys).size).toBe(p.polys.length);
    }
    expect(partials).toBeGreaterThan(10);
  });
});
