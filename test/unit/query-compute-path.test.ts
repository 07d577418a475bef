import { describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { islands, wallScene } from "../helpers/query-scenes.js";

/** Surface height of the flat floors (their polygon vertices' height). */
const Y = wallScene().tiles[0]!.vertices[1]!;

const segLength = (pts: number[][]) => {
  let l = 0;
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay, az] = pts[i - 1]!;
    const [bx, by, bz] = pts[i]!;
    l += Math.hypot(bx! - ax!, by! - ay!, bz! - az!);
  }
  return l;
};

describe("computePath", () => {
  it("snaps both ends and walks around the wall; length is the sum of the segments", () => {
    const q = new NavMeshQuery(wallScene());
    const r = q.computePath([2, 1, 3], [2, 1, 9]);
    expect(r.status).toBe("complete");
    expect(r.points).toEqual([
      [2, Y, 3],
      [8.5, Y, 5],
      [8.75, Y, 6],
      [8.25, Y, 7.25],
      [2, Y, 9],
    ]);
    expect(r.polys.length).toBe(4);
    expect(r.length).toBeCloseTo(segLength(r.points), 12);
  });

  it("reports noStart / noEnd (no points) when an end has no polygon in the search box", () => {
    const q = new NavMeshQuery(wallScene());
    expect(q.computePath([2, 9, 3], [2, Y, 9])).toEqual({
      status: "noStart",
      points: [],
      polys: [],
      length: 0,
    });
    expect(q.computePath([2, Y, 3], [30, Y, 9]).status).toBe("noEnd");
    // A larger search box reaches the mesh.
    expect(q.computePath([2, 9, 3], [2, Y, 9], { halfExtents: [1, 10, 1] }).status).toBe(
      "complete",
    );
  });

  it("ends a partial path at the point of the last polygon nearest the unreachable end", () => {
    const q = new NavMeshQuery(islands());
    const r = q.computePath([2, Y, 3], [11, Y, 4]);
    expect(r.status).toBe("partial");
    expect(r.points).toEqual([
      [2, Y, 3],
      [5.25, Y, 4],
    ]);
  });

  it("takes an off-mesh shortcut that saves distance, and not one priced above the detour", () => {
    const nm = wallScene();
    // A ladder over the wall's west part (cost = length unless priced).
    const con = nm.addOffMeshConnection({
      start: [2, Y, 4.5],
      end: [2, Y, 7.75],
      radius: 0.5,
      bidirectional: true,
      area: 1,
      flags: 1,
    });
    const q = new NavMeshQuery(nm);
    const r = q.computePath([2, Y, 3], [2, Y, 9]);
    expect(r.status).toBe("complete");
    expect(r.polys).toContain(con);
    expect(r.points).toEqual([
      [2, Y, 3],
      [2, Y, 4.5],
      [2, Y, 7.75],
      [2, Y, 9],
    ]);
    // Both ways (bidirectional).
    expect(q.computePath([2, Y, 9], [2, Y, 3]).polys).toContain(con);
    // Area cost 100 makes the 3.25-long link cost 325: the ~17-unit walk around wins.
    const dear = new QueryFilter().setAreaCost(1, 100);
    const around = q.computePath([2, Y, 3], [2, Y, 9], { filter: dear });
    expect(around.polys).not.toContain(con);
    expect(around.points.length).toBe(5);
  });

  it("uses the connection's own cost when it has one", () => {
    const nm = wallScene();
    const con = nm.addOffMeshConnection({
      start: [2, Y, 4.5],
      end: [2, Y, 7.75],
      radius: 0.5,
      bidirectional: true,
      area: 1,
      flags: 2,
      cost: 1000,
    });
    const q = new NavMeshQuery(nm);
    expect(q.computePath([2, Y, 3], [2, Y, 9]).polys).not.toContain(con);
  });

  it("excluded connection flags keep the search off the link", () => {
    const nm = wallScene();
    const con = nm.addOffMeshConnection({
      start: [2, Y, 4.5],
      end: [2, Y, 7.75],
      radius: 0.5,
      bidirectional: true,
      area: 1,
      flags: 2,
    });
    const q = new NavMeshQuery(nm);
    expect(q.computePath([2, Y, 3], [2, Y, 9]).polys).toContain(con);
    const filter = new QueryFilter();
    filter.excludeFlags = 2;
    expect(q.computePath([2, Y, 3], [2, Y, 9], { filter }).polys).not.toContain(con);
  });
});
