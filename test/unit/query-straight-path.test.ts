import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { getPortalPoints } from "../../src/navmesh/neighbours.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  STRAIGHT_PATH_START,
  StraightPath,
} from "../../src/query/straight-path.js";
import { QUERY_CONFIG } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

/** 12 × 12 floor split by a wall (x 0..8, z 5.5..6.5) with a gap in the east. */
const wallScene = () =>
  buildNavMesh(new SceneBuilder().floor(0, 0, 12, 12).box(4, 0, 6, 8, 2, 1).build(), QUERY_CONFIG)
    .navMesh;
/** 12 × 6 floor with a strip of area 2 across it (x 5..7.25): polygons 0 | 1 (area 2) | 2. */
const stripScene = () =>
  buildNavMesh(new SceneBuilder().floor(0, 0, 12, 6).build(), QUERY_CONFIG, {
    areaVolumes: [{ kind: "box", min: [5, -1, -1], max: [7, 1, 7], area: 2 }],
  }).navMesh;
/** Two 6 × 6 floors 2 apart: polygon 0 (0.75..5.25)², polygon 1 x 8.75..13.25. */
const islands = () =>
  buildNavMesh(new SceneBuilder().floor(0, 0, 6, 6).floor(8, 0, 14, 6).build(), QUERY_CONFIG)
    .navMesh;
/** Surface height of the flat floors (their polygon vertices' height). */
const Y = wallScene().tiles[0]!.vertices[1]!;

const points = (sp: StraightPath) =>
  Array.from({ length: sp.count }, (_, i) => Array.from(sp.points.subarray(i * 3, i * 3 + 3)));
const flags = (sp: StraightPath) => Array.from(sp.flags.subarray(0, sp.count));
const refs = (sp: StraightPath) => Array.from(sp.refs.subarray(0, sp.count));

function corridor(q: NavMeshQuery, a: number[], b: number[]) {
  const s = createNearestPolyResult();
  const e = createNearestPolyResult();
  q.findNearestPoly(a, [1, 1, 1], q.defaultFilter, s);
  q.findNearestPoly(b, [1, 1, 1], q.defaultFilter, e);
  const res = q.findPath(s.ref, e.ref, s.point, e.point);
  return { s, e, polys: Array.from(res.polys.slice(0, res.polyCount)) };
}

describe("findStraightPath", () => {
  it("is start and end only, flagged START / END, inside one polygon", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const sp = new StraightPath();
    const a = nm.polyRef(1, 0);
    expect(q.findStraightPath([1, Y, 1], [5, Y, 4], [a], 1, sp)).toBe("complete");
    expect(points(sp)).toEqual([
      [1, Y, 1],
      [5, Y, 4],
    ]);
    expect(flags(sp)).toEqual([STRAIGHT_PATH_START, STRAIGHT_PATH_END]);
    expect(refs(sp)).toEqual([a, 0]);
  });

  it("clamps start and end onto the first and last polygons", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const sp = new StraightPath();
    q.findStraightPath([0, 5, 3], [9, 5, 3], [nm.polyRef(1, 0)], 1, sp);
    expect(points(sp)).toEqual([
      [0.75, Y, 3],
      [5.25, Y, 3],
    ]);
  });

  it("turns exactly at the wall's corner vertices", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const { s, e, polys } = corridor(q, [2, Y, 3], [2, Y, 9]);
    const sp = new StraightPath(2); // grows as needed
    expect(q.findStraightPath(s.point, e.point, polys, polys.length, sp)).toBe("complete");
    expect(points(sp)).toEqual([
      [2, Y, 3],
      [8.5, Y, 5],
      [8.75, Y, 6],
      [8.25, Y, 7.25],
      [2, Y, 9],
    ]);
    expect(flags(sp)).toEqual([STRAIGHT_PATH_START, 0, 0, 0, STRAIGHT_PATH_END]);
    // Each corner carries the polygon entered there.
    expect(refs(sp)).toEqual([polys[0], polys[1], polys[2], polys[3], 0]);
  });

  it("allCrossings adds a point on every portal, in order", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const { s, e, polys } = corridor(q, [2, Y, 3], [2, Y, 9]);
    const sp = new StraightPath();
    q.findStraightPath(s.point, e.point, polys, polys.length, sp, { allCrossings: true });
    const pts = points(sp);
    const l = new Float64Array(3);
    const r = new Float64Array(3);
    let k = 0;
    for (let i = 0; i + 1 < polys.length; i++) {
      getPortalPoints(nm, polys[i]!, polys[i + 1]!, l, r);
      // Some later point lies on this portal (XZ distance to the segment ~ 0).
      let found = false;
      while (!found && ++k < pts.length) {
        const [x, , z] = pts[k]!;
        const cross = (r[0]! - l[0]!) * (z! - l[2]!) - (r[2]! - l[2]!) * (x! - l[0]!);
        found = Math.abs(cross) < 1e-9;
      }
      expect(found).toBe(true);
    }
    expect(pts[pts.length - 1]).toEqual([2, Y, 9]);
  });

  it("areaCrossings adds points only where the area changes", () => {
    const nm = stripScene();
    const q = new NavMeshQuery(nm);
    const { s, e, polys } = corridor(q, [2, Y, 3], [10, Y, 3]);
    const sp = new StraightPath();
    q.findStraightPath(s.point, e.point, polys, polys.length, sp);
    expect(sp.count).toBe(2);
    q.findStraightPath(s.point, e.point, polys, polys.length, sp, { areaCrossings: true });
    expect(points(sp)).toEqual([
      [2, Y, 3],
      [5, Y, 3],
      [7.25, Y, 3],
      [10, Y, 3],
    ]);
    expect(flags(sp)).toEqual([STRAIGHT_PATH_START, 0, 0, STRAIGHT_PATH_END]);
    expect(refs(sp)).toEqual([polys[0], polys[1], polys[2], 0]);
  });

  it("maxPoints cuts the path short with status partial", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const { s, e, polys } = corridor(q, [2, Y, 3], [2, Y, 9]);
    const sp = new StraightPath();
    expect(q.findStraightPath(s.point, e.point, polys, polys.length, sp, { maxPoints: 2 })).toBe(
      "partial",
    );
    expect(points(sp)).toEqual([
      [2, Y, 3],
      [8.5, Y, 5],
    ]);
  });

  it("a broken corridor ends partial on the last reachable polygon, nearest the end", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const sp = new StraightPath();
    const polys = [nm.polyRef(1, 0), nm.polyRef(1, 1)];
    expect(q.findStraightPath([2, Y, 3], [11, Y, 3], polys, 2, sp)).toBe("partial");
    expect(points(sp)).toEqual([
      [2, Y, 3],
      [5.25, Y, 3],
    ]);
    expect(flags(sp)).toEqual([STRAIGHT_PATH_START, 0]);
  });

  it("an empty corridor gives no points and status noStart", () => {
    const q = new NavMeshQuery(islands());
    const sp = new StraightPath();
    expect(q.findStraightPath([0, 0, 0], [1, 0, 1], [], 0, sp)).toBe("noStart");
    expect(sp.count).toBe(0);
  });

  it("flags the start of an off-mesh connection, its ref being the connection", () => {
    const nm = islands();
    const con = nm.addOffMeshConnection({
      start: [5, Y, 3],
      end: [9, Y, 3],
      radius: 0.5,
      bidirectional: false,
      area: 1,
      flags: 1,
    });
    const q = new NavMeshQuery(nm);
    const r = q.computePath([2, Y, 1.5], [11, Y, 4.5]);
    expect(r.status).toBe("complete");
    expect(r.polys).toEqual([nm.polyRef(1, 0), con, nm.polyRef(1, 1)]);
    expect(r.points).toEqual([
      [2, Y, 1.5],
      [5, Y, 3],
      [9, Y, 3],
      [11, Y, 4.5],
    ]);
    const sp = new StraightPath();
    q.findStraightPath([2, Y, 1.5], [11, Y, 4.5], r.polys, r.polys.length, sp);
    expect(flags(sp)).toEqual([STRAIGHT_PATH_START, STRAIGHT_PATH_OFFMESH, 0, STRAIGHT_PATH_END]);
    expect(refs(sp)).toEqual([r.polys[0], con, r.polys[2], 0]);
    // One-way: the way back has no path.
    expect(q.computePath([11, Y, 4.5], [2, Y, 1.5]).status).toBe("partial");
  });
});
