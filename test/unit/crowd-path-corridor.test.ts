import { describe, expect, it } from "vitest";
import {
  mergeCorridorEndMoved,
  mergeCorridorStartMoved,
  mergeCorridorStartShortcut,
  PathCorridor,
  refPassesFilter,
  refsPassFilter,
} from "../../src/crowd/path-corridor.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { setPolyFlags } from "../../src/navmesh/poly-state.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  findCorridorCorners,
  findStraightPath,
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  StraightPath,
} from "../../src/query/straight-path.js";
import { islands, polyAt, wallScene } from "../helpers/query-scenes.js";

const arr = (a: number[], cap = 16) => {
  const f = new Float64Array(cap);
  f.set(a);
  return f;
};

describe("corridor merges (Detour's dtMergeCorridor*)", () => {
  it("start moved forward, backward and outside the corridor", () => {
    let p = arr([1, 2, 3, 4]);
    expect(mergeCorridorStartMoved(p, 4, 16, [1, 2, 3], 3)).toBe(2);
    expect([...p.subarray(0, 2)]).toEqual([3, 4]);
    p = arr([1, 2, 3, 4]);
    expect(mergeCorridorStartMoved(p, 4, 16, [1, 9], 2)).toBe(5);
    expect([...p.subarray(0, 5)]).toEqual([9, 1, 2, 3, 4]);
    p = arr([1, 2, 3]);
    expect(mergeCorridorStartMoved(p, 3, 16, [7, 8], 2)).toBe(3);
    expect([...p.subarray(0, 3)]).toEqual([1, 2, 3]);
  });

  it("end moved and start shortcut", () => {
    const p = arr([1, 2, 3]);
    expect(mergeCorridorEndMoved(p, 3, 16, [3, 5, 6], 3)).toBe(5);
    expect([...p.subarray(0, 5)]).toEqual([1, 2, 3, 5, 6]);
    const q = arr([1, 2, 3, 4, 5]);
    expect(mergeCorridorStartShortcut(q, 5, 16, [1, 9, 4], 3)).toBe(4);
    expect([...q.subarray(0, 4)]).toEqual([1, 9, 4, 5]);
  });
});

describe("PathCorridor", () => {
  it("walks a corridor corner by corner, staying on its first polygon", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const start = [2, 0.25, 2];
    const end = [2, 0.25, 10];
    const s = q.findNearestPoly(start, [1, 1, 1]);
    const e = q.findNearestPoly(end, [1, 1, 1]);
    const path = q.findPath(s, e, start, end);
    expect(path.status).toBe("complete");
    const c = new PathCorridor(64);
    c.reset(s, start);
    c.setCorridor(end, path.polys, path.polyCount);
    const corners = {
      verts: new Float64Array(12),
      flags: new Uint8Array(4),
      polys: new Float64Array(4),
    };
    const f = q.defaultFilter;
    const on = new Float64Array(3);
    let steps = 0;
    for (; steps < 400; steps++) {
      const n = c.findCorners(corners, 0, 4, q);
      expect(n).toBeGreaterThan(0);
      const dx = corners.verts[0]! - c.pos[0]!;
      const dz = corners.verts[2]! - c.pos[2]!;
      const d = Math.hypot(dx, dz);
      if (d < 0.05 && (corners.flags[0]! & STRAIGHT_PATH_END) !== 0) break;
      const step = Math.min(0.1, d);
      c.movePosition([c.pos[0]! + (dx / d) * step, c.pos[1]!, c.pos[2]! + (dz / d) * step], q, f);
      // On the first polygon (or on its edge: sliding along a wall ends exactly on it).
      q.closestPointOnPolyBoundary(c.firstPoly, c.pos, on);
      expect(Math.hypot(on[0]! - c.pos[0]!, on[2]! - c.pos[2]!)).toBeLessThan(1e-6);
    }
    expect(steps).toBeLessThan(400);
    expect(c.firstPoly).toBe(e);
    expect(c.count).toBe(1);
  });

  it("reports stale refs and trims them instead of following them", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const s = polyAt(nm, 2, 2);
    const c = new PathCorridor(8);
    c.reset(s, [2, 0.25, 2]);
    expect(c.isValid(10, q, q.defaultFilter)).toBe(true);
    nm.removeTile(nm.tileRefAt(0, 0));
    expect(c.isValid(10, q, q.defaultFilter)).toBe(false);
    expect(c.movePosition([2.1, 0.25, 2], q, q.defaultFilter)).toBe(false);
    expect(
      c.findCorners(
        { verts: new Float64Array(12), flags: new Uint8Array(4), polys: new Float64Array(4) },
        0,
        4,
        q,
      ),
    ).toBe(0);
    c.trimInvalidPath(0, [2, 0.25, 2], q, q.defaultFilter);
    expect(c.count).toBe(0);
  });

  it("stops corners at an off-mesh connection and moves over it", () => {
    const nm = islands();
    const con = nm.addOffMeshConnection({
      start: [5, 0.25, 3],
      end: [9, 0.25, 3],
      radius: 0.5,
      bidirectional: false,
      area: 0,
      flags: 1,
    });
    const q = new NavMeshQuery(nm);
    const a = [2, 0.25, 3];
    const b = [12, 0.25, 3];
    const s = q.findNearestPoly(a, [1, 1, 1]);
    const e = q.findNearestPoly(b, [1, 1, 1]);
    const path = q.findPath(s, e, a, b);
    expect(path.status).toBe("complete");
    expect([...path.polys].slice(0, path.polyCount)).toContain(con);
    const c = new PathCorridor(16);
    c.reset(s, a);
    c.setCorridor(b, path.polys, path.polyCount);
    const corners = {
      verts: new Float64Array(12),
      flags: new Uint8Array(4),
      polys: new Float64Array(4),
    };
    const n = c.findCorners(corners, 0, 4, q);
    expect(corners.flags[n - 1]! & STRAIGHT_PATH_OFFMESH).toBeTruthy();
    expect(corners.polys[n - 1]).toBe(con);
    const refs = new Float64Array(2);
    const from = new Float64Array(3);
    const to = new Float64Array(3);
    expect(c.moveOverOffMeshConnection(con, refs, from, to, q)).toBe(true);
    expect(refs[1]).toBe(con);
    expect(from[0]).toBeCloseTo(5, 5);
    expect(to[0]).toBeCloseTo(9, 1);
    expect(c.firstPoly).toBe(e);
    expect([...c.pos]).toEqual([...to]);
  });
});

describe("corridor checks and corners share the query's code", () => {
  it("refsPassFilter agrees with refPassesFilter ref by ref (live, stale, filtered out, flags changed)", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const start = [2, 0.25, 2];
    const end = [2, 0.25, 10];
    const path = q.findPath(
      q.findNearestPoly(start, [1, 1, 1]),
      q.findNearestPoly(end, [1, 1, 1]),
      start,
      end,
    );
    const refs = Float64Array.from(path.polys).subarray(0, path.polyCount);
    const filter = new QueryFilter();
    const each = () => [...refs].every((r) => refPassesFilter(q, r, filter));
    expect(refsPassFilter(q, refs, refs.length, filter)).toBe(true);
    expect(each()).toBe(true);
    setPolyFlags(nm, refs[1]!, 0); // a door closes on the corridor
    expect(refsPassFilter(q, refs, refs.length, filter)).toBe(false);
    expect(refsPassFilter(q, refs, 1, filter)).toBe(true); // not among the first one
    setPolyFlags(nm, refs[1]!, 1);
    filter.passFilter = (ref) => ref !== refs[refs.length - 1];
    expect(refsPassFilter(q, refs, refs.length, filter)).toBe(each());
    expect(refsPassFilter(q, refs, refs.length, filter)).toBe(false);
    filter.passFilter = undefined;
    nm.removeTile(nm.tileRefAt(0, 0));
    expect(refsPassFilter(q, refs, refs.length, filter)).toBe(false);
    expect(each()).toBe(false);
  });

  it("findCorridorCorners gives findStraightPath's first points on a plain corridor", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const start = [2, 0.25, 2];
    const end = [2, 0.25, 10];
    const path = q.findPath(
      q.findNearestPoly(start, [1, 1, 1]),
      q.findNearestPoly(end, [1, 1, 1]),
      start,
      end,
    );
    const full = new StraightPath();
    findStraightPath(nm, start, end, path.polys, path.polyCount, full);
    expect(full.count).toBeGreaterThan(2);
    const polys = Float64Array.from(path.polys).subarray(0, path.polyCount);
    for (let max = 1; max <= full.count; max++) {
      const cut = new StraightPath(1);
      const status = findCorridorCorners(nm, start, end, polys, path.polyCount, max, cut);
      expect(status).toBe(max < full.count ? "partial" : "complete");
      expect(cut.count).toBe(max);
      expect([...cut.points.subarray(0, max * 3)]).toEqual([...full.points.subarray(0, max * 3)]);
      expect([...cut.flags.subarray(0, max)]).toEqual([...full.flags.subarray(0, max)]);
      expect([...cut.refs.subarray(0, max)]).toEqual([...full.refs.subarray(0, max)]);
    }
  });
});
