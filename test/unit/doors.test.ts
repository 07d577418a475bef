import { describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { boxScene, islands, polyAt, wallScene } from "../helpers/query-scenes.js";

const Y = 0.25;
const SOUTH: [number, number, number] = [2, Y, 3];
const NORTH: [number, number, number] = [2, Y, 9];

/** Seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Every query of one long-lived NavMeshQuery, each asked whether it enters `door`. */
function answers(q: NavMeshQuery, door: number) {
  const nm = q.navMesh;
  const start = polyAt(nm, SOUTH[0], SOUTH[2]);
  const end = polyAt(nm, NORTH[0], NORTH[2]);
  const compute = q.computePath(SOUTH, NORTH);
  const find = q.findPath(start, end, SOUTH, NORTH);
  const findPolys = Array.from(find.polys).slice(0, find.polyCount);
  q.initSlicedFindPath(start, end, SOUTH, NORTH);
  while (q.updateSlicedFindPath(1) === "inProgress");
  const sliced = q.finalizeSlicedFindPath();
  const slicedPolys = Array.from(sliced.polys).slice(0, sliced.polyCount);
  const shortest = findShortestPath(q, SOUTH, NORTH);
  // East of the wall, straight north through the gap.
  const eastS = polyAt(nm, 10, 3);
  const ray = q.raycast(eastS, [10, Y, 3], [10, Y, 9]);
  const rayPolys = Array.from(ray.path).slice(0, ray.pathCount);
  const move = q.moveAlongSurface(eastS, [10, Y, 3], [10, Y, 9]);
  const movePolys = Array.from(move.visited).slice(0, move.visitedCount);
  const r = rng(7);
  const randomRefs: number[] = [];
  for (let i = 0; i < 200; i++) randomRefs.push(q.findRandomPoint(q.defaultFilter, r).ref);
  const circle = q.findPolysAroundCircle(start, SOUTH, 50);
  const circlePolys = Array.from(circle.refs).slice(0, circle.count);
  return {
    compute: { status: compute.status, door: compute.polys.includes(door) },
    find: { status: find.status, door: findPolys.includes(door) },
    sliced: { status: sliced.status, door: slicedPolys.includes(door) },
    shortest: { status: shortest.status, door: shortest.polys.includes(door) },
    ray: { hit: ray.t < 1, door: rayPolys.includes(door) },
    move: { door: movePolys.includes(door) },
    random: { door: randomRefs.includes(door) },
    circle: { door: circlePolys.includes(door), north: circlePolys.includes(end) },
  };
}

const OPEN = {
  compute: { status: "complete", door: true },
  find: { status: "complete", door: true },
  sliced: { status: "complete", door: true },
  shortest: { status: "complete", door: true },
  ray: { hit: false, door: true },
  move: { door: true },
  random: { door: true },
  circle: { door: true, north: true },
};
const CLOSED = {
  compute: { status: "partial", door: false },
  find: { status: "partial", door: false },
  sliced: { status: "partial", door: false },
  shortest: { status: "partial", door: false },
  ray: { hit: true, door: false },
  move: { door: false },
  random: { door: false },
  circle: { door: false, north: false },
};

describe("doors: run-time polygon flags", () => {
  it("a long-lived query sees a door closed with setPolyFlags and opened again (regression: the A* kept its own copy of the flags)", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const door = polyAt(nm, 10, 6);
    expect(door).not.toBe(0);
    expect(answers(q, door)).toEqual(OPEN);
    nm.setPolyFlags(door, 0);
    expect(nm.getPolyFlags(door)).toBe(0);
    expect(answers(q, door)).toEqual(CLOSED);
    nm.setPolyFlags(door, 1);
    expect(answers(q, door)).toEqual(OPEN);
  });

  it("a door flag excluded by the filter closes it for that filter only", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const door = polyAt(nm, 10, 6);
    q.computePath(SOUTH, NORTH);
    nm.setPolyFlags(door, 1 | 4);
    const team = new QueryFilter();
    team.excludeFlags = 4;
    expect(q.computePath(SOUTH, NORTH, { filter: team }).status).toBe("partial");
    expect(findShortestPath(q, SOUTH, NORTH, { filter: team }).status).toBe("partial");
    expect(q.computePath(SOUTH, NORTH).status).toBe("complete");
    expect(findShortestPath(q, SOUTH, NORTH).status).toBe("complete");
  });

  it("setPolyArea changes costs for a long-lived query and for findStraightPath's area crossings", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const door = polyAt(nm, 10, 6);
    const filter = new QueryFilter().setAreaCost(5, 1e6);
    expect(q.computePath(SOUTH, NORTH, { filter }).status).toBe("complete");
    nm.setPolyArea(door, 5);
    expect(nm.getPolyArea(door)).toBe(5);
    // Still the only way, so taken, at the new price.
    const r = q.computePath(SOUTH, NORTH, { filter });
    expect(r.polys).toContain(door);
    const f = q.findPath(r.polys[0]!, r.polys.at(-1)!, SOUTH, NORTH, filter);
    expect(f.status).toBe("complete");
    // A straight walk from polygon 1 into polygon 0: an area crossing only once 0's area differs.
    const east = polyAt(nm, 10.8, 2);
    const crossing = { areaCrossings: true };
    const a: [number, number, number] = [1, Y, 2];
    const b: [number, number, number] = [11, Y, 2];
    expect(q.computePath(a, b, { straightPath: crossing }).points.length).toBe(2);
    nm.setPolyArea(east, 7);
    const pts = q.computePath(a, b, { straightPath: crossing }).points;
    expect(pts.length).toBe(3);
    expect(pts[1]![0]).toBeCloseTo(11.25 - 2.75 * (1.25 / 4.25), 5);
  });

  it("setFlagsInVolume closes the door polygons inside a box and reports how many changed", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const door = polyAt(nm, 10, 6);
    q.computePath(SOUTH, NORTH);
    const box = {
      kind: "box" as const,
      min: [8.5, -1, 6.1] as [number, number, number],
      max: [11.2, 1, 9] as [number, number, number],
    };
    expect(nm.setFlagsInVolume(box, 2, 0)).toBe(1);
    expect(nm.getPolyFlags(door)).toBe(3);
    const f = new QueryFilter();
    f.excludeFlags = 2;
    expect(q.computePath(SOUTH, NORTH, { filter: f }).status).toBe("partial");
    expect(nm.setFlagsInVolume(box, 0, 2)).toBe(1);
    expect(nm.setFlagsInVolume(box, 0, 2)).toBe(0);
    expect(q.computePath(SOUTH, NORTH, { filter: f }).status).toBe("complete");
  });

  it("refuses bad flags, areas and refs with MeshwayError", () => {
    const nm = wallScene();
    const door = polyAt(nm, 10, 6);
    expect(() => nm.setPolyFlags(door, 0x10000)).toThrow(/flags 65536/);
    expect(() => nm.setPolyArea(door, 64)).toThrow(/area 64/);
    expect(() => nm.setPolyFlags(door + 1000, 0)).toThrow(/not a live polygon/);
    expect(() => nm.getPolyFlags(0)).toThrow(/not a live polygon/);
  });
});

describe("doors: off-mesh connections and save games", () => {
  it("disabling an off-mesh link closes it for a long-lived query; enabling restores its flags", () => {
    const nm = islands();
    const q = new NavMeshQuery(nm);
    const link = nm.addOffMeshConnection({
      start: [5, Y, 3],
      end: [9, Y, 3],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    const a: [number, number, number] = [2, Y, 3];
    const b: [number, number, number] = [11, Y, 3];
    expect(q.computePath(a, b).polys).toContain(link);
    nm.setOffMeshConnectionEnabled(link, false);
    expect(nm.isOffMeshConnectionEnabled(link)).toBe(false);
    expect(nm.getPolyFlags(link)).toBe(1);
    expect(q.computePath(a, b).status).toBe("partial");
    expect(findShortestPath(q, a, b).status).toBe("partial");
    nm.setPolyFlags(link, 3);
    nm.setOffMeshConnectionEnabled(link, true);
    expect(nm.getPolyFlags(link)).toBe(3);
    expect(q.computePath(a, b).polys).toContain(link);
    const f = new QueryFilter();
    f.excludeFlags = 2;
    expect(q.computePath(a, b, { filter: f }).status).toBe("partial");
    nm.setPolyArea(link, 9);
    expect(nm.getPolyArea(link)).toBe(9);
  });

  it("storeTileState / restoreTileState round-trip flags and areas and refuse another tile's state", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const tileRef = nm.tileRefAt(0, 0);
    const door = polyAt(nm, 10, 6);
    const saved = nm.storeTileState(tileRef);
    nm.setPolyFlags(door, 0);
    nm.setPolyArea(door, 3);
    expect(q.computePath(SOUTH, NORTH).status).toBe("partial");
    nm.restoreTileState(tileRef, saved);
    expect(nm.getPolyFlags(door)).toBe(1);
    expect(nm.getPolyArea(door)).toBe(63);
    expect(q.computePath(SOUTH, NORTH).status).toBe("complete");
    const other = boxScene();
    expect(() => other.restoreTileState(other.tileRefAt(0, 0), saved)).toThrow(/polygons|checksum/);
    const bad = saved.slice();
    bad[0] = 0;
    expect(() => nm.restoreTileState(tileRef, bad)).toThrow(/magic/);
    expect(() => nm.restoreTileState(tileRef, saved.subarray(0, saved.length - 1))).toThrow(
      /bytes/,
    );
    // A replaced tile (new salt) refuses the old tile's state.
    const newRef = nm.replaceTile(tileRef, nm.tileInSlot(1)!);
    expect(() => nm.restoreTileState(newRef, saved)).toThrow(/salt or slot/);
  });
});
