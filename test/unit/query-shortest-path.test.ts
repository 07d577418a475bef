import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { LESSON_SCENE } from "../../src/lesson/scene.js";
import { cellNavMesh } from "../../src/lesson/simple-navmesh.js";
import { toyFilter } from "../../src/lesson/surface.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef } from "../../src/navmesh/poly-ref.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { ShortestPath } from "../../src/query/shortest-path/reconstruct.js";
import { ShortestPathFinder } from "../../src/query/shortest-path/search.js";
import { tileTopology } from "../../src/query/shortest-path/topology.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { distanceToPolyXZ, lengthXZ, VisibilityGraph } from "../helpers/visibility-graph.js";

/**
 * A navmesh of unit squares from a character grid: row r is z in [r, r + 1], column c is x
 * in [c, c + 1]; '.' is a walkable cell (one polygon), '#' a hole, 'x' a walkable cell with
 * flags 2 (for excluding). With `split`, columns >= split go to a second tile (tileX 1).
 */
function gridNavMesh(rows: string[], split = 0): NavMesh {
  const h = rows.length;
  const w = rows[0]!.length;
  const nm = navMeshFor(split > 0 ? split : w, h);
  const ranges =
    split > 0
      ? [
          [0, split],
          [split, w],
        ]
      : [[0, w]];
  ranges.forEach(([c0, c1], t) => {
    const verts: number[] = [];
    const index = (x: number, z: number) => z * (w + 1) + x;
    for (let z = 0; z <= h; z++) for (let x = 0; x <= w; x++) verts.push(x, 0, z);
    const polys: number[][] = [];
    const flags: number[] = [];
    for (let z = 0; z < h; z++) {
      for (let x = c0!; x < c1!; x++) {
        const c = rows[z]![x];
        if (c === "#") continue;
        // Wound like the build: clockwise seen from +Y with x right and z down.
        polys.push([index(x, z), index(x, z + 1), index(x + 1, z + 1), index(x + 1, z)]);
        flags.push(c === "x" ? 2 : 1);
      }
    }
    nm.addTile(
      handTile({
        verts,
        polys,
        flags,
        tileX: t,
        tileZ: 0,
        bmin: [c0!, 0, 0],
        bmax: [c1!, 0, h],
      }),
    );
  });
  return nm;
}

const EXT = [0.1, 1, 0.1];

function shortest(
  nm: NavMesh,
  from: number[],
  to: number[],
  filter?: QueryFilter,
  maxNodes?: number,
) {
  const q = new NavMeshQuery(nm);
  return findShortestPath(q, from, to, {
    halfExtents: EXT,
    ...(filter ? { filter } : {}),
    ...(maxNodes ? { maxNodes } : {}),
  });
}

const ROOM = ["......", "......", "......", "......"];
const PILLARS = ["..........", "..#....#..", "..#.##.#..", "..#.##.#..", ".........."];

describe("findShortestPath on hand-built tiles", () => {
  it("returns the start twice, length 0, when start and end are the same point", () => {
    const r = shortest(gridNavMesh(ROOM), [2.5, 0, 1.5], [2.5, 0, 1.5]);
    expect(r.status).toBe("complete");
    expect(r.points).toEqual([
      [2.5, 0, 1.5],
      [2.5, 0, 1.5],
    ]);
    expect(r.length).toBe(0);
    expect(r.polys.length).toBe(1);
  });

  it("goes straight inside one polygon", () => {
    const r = shortest(gridNavMesh(ROOM), [2.1, 0, 1.2], [2.9, 0, 1.7]);
    expect(r.points).toEqual([
      [2.1, 0, 1.2],
      [2.9, 0, 1.7],
    ]);
    expect(r.length).toBeCloseTo(Math.hypot(0.8, 0.5), 12);
  });

  it("goes straight across many polygons of an open room, through their shared vertices", () => {
    // The segment passes exactly through grid vertices (1,1), (2,2), ...
    const r = shortest(gridNavMesh(ROOM), [0.5, 0, 0.5], [5.5, 0, 3.5]);
    expect(r.status).toBe("complete");
    expect(r.points.length).toBe(2);
    expect(r.length).toBeCloseTo(Math.hypot(5, 3), 12);
    const diag = shortest(gridNavMesh(ROOM), [0, 0, 0], [4, 0, 4]);
    expect(diag.points.length).toBe(2);
  });

  it("bends exactly at the corners around a wall, with the corners as points", () => {
    const nm = gridNavMesh(["......", "..##..", "..##..", "......"]);
    const r = shortest(nm, [0.5, 0, 1.5], [5.5, 0, 2.5]);
    expect(r.status).toBe("complete");
    expect(r.points.map((p) => [p[0], p[2]])).toEqual([
      [0.5, 1.5],
      [2, 1],
      [4, 1],
      [5.5, 2.5],
    ]);
    expect(r.length).toBeCloseTo(Math.hypot(1.5, 0.5) + 2 + Math.hypot(1.5, 1.5), 12);
  });

  it("ends on a wall corner vertex exactly", () => {
    const nm = gridNavMesh(["......", "..##..", "..##..", "......"]);
    const r = shortest(nm, [0.5, 0, 2.5], [4, 0, 1]);
    expect(r.status).toBe("complete");
    expect(r.points.map((p) => [p[0], p[2]])).toEqual([
      [0.5, 2.5],
      [2, 1],
      [4, 1],
    ]);
  });

  it("hugs collinear corners without extra points and matches the visibility graph", () => {
    // Three obstacles whose top corners lie on z = 1: one straight segment along them.
    const nm = gridNavMesh(["..........", ".#..#..#..", ".#..#..#..", ".........."]);
    const graph = new VisibilityGraph(nm);
    const r = shortest(nm, [0.5, 0, 2.5], [9.5, 0, 2.5]);
    expect(r.status).toBe("complete");
    const ref = graph.shortest(0.5, 2.5, 9.5, 2.5);
    expect(lengthXZ(r.points)).toBeCloseTo(ref, 9);
    expect(r.points.map((p) => [p[0], p[2]])).toEqual([
      [0.5, 2.5],
      [1, 3],
      [8, 3],
      [9.5, 2.5],
    ]);
  });

  it("reports no point where the path only grazes a wall corner on its line (lesson cell grid)", () => {
    // The lesson's grid of square cells: at these radii the shortest path runs straight
    // through the cell corner (17.5, 7) that the search takes as a root; it is not a bend.
    const { start, goal } = LESSON_SCENE;
    for (const radius of [0.8, 0.9, 1.05]) {
      const nm = cellNavMesh(toyFilter(radius));
      const q = new NavMeshQuery(nm);
      const r = findShortestPath(q, [start[0], 0, start[1]], [goal[0], 0, goal[1]], {
        halfExtents: [1, 1, 1],
      });
      expect(r.status).toBe("complete");
      expect(r.points.some((p) => p[0] === 17.5 && p[2] === 7)).toBe(false);
      for (let i = 1; i + 1 < r.points.length; i++) {
        const [px, , pz] = r.points[i - 1]!;
        const [x, , z] = r.points[i]!;
        const [nx, , nz] = r.points[i + 1]!;
        const cross = (x - px) * (nz - z) - (z - pz) * (nx - x);
        expect(Math.abs(cross)).toBeGreaterThan(
          1e-9 * Math.hypot(x - px, z - pz) * Math.hypot(nx - x, nz - z),
        );
      }
      if (radius === 0.8) {
        const ref = new VisibilityGraph(nm).shortest(start[0], start[1], goal[0], goal[1]);
        expect(lengthXZ(r.points)).toBeCloseTo(ref, 9);
      }
      expect(r.length).toBeCloseTo(lengthXZ(r.points), 12);
    }
  });

  it("hugs several corners in a winding corridor, as short as the visibility graph", () => {
    const nm = gridNavMesh([
      "....#.....",
      ".##.#.###.",
      ".#..#...#.",
      ".#.####.#.",
      ".#......#.",
      ".########.",
      "..........",
    ]);
    const graph = new VisibilityGraph(nm);
    const cases = [
      [2.5, 2.5, 5.5, 0.5],
      [0.5, 0.5, 9.5, 0.5],
      [2.5, 4.5, 9.5, 6.5],
      [3.5, 0.5, 6.2, 2.7],
    ];
    for (const [sx, sz, tx, tz] of cases) {
      const r = shortest(nm, [sx!, 0, sz!], [tx!, 0, tz!]);
      expect(r.status).toBe("complete");
      expect(lengthXZ(r.points)).toBeCloseTo(graph.shortest(sx!, sz!, tx!, tz!), 9);
      expect(r.points.length).toBeGreaterThan(2);
    }
  });

  it("treats excluded polygons as walls", () => {
    const nm = gridNavMesh(["......", "..xx..", "..xx..", "......"]);
    const filter = new QueryFilter();
    filter.excludeFlags = 2;
    const open = shortest(nm, [0.5, 0, 1.5], [5.5, 0, 2.5]);
    expect(open.points.length).toBe(2);
    const walled = shortest(nm, [0.5, 0, 1.5], [5.5, 0, 2.5], filter);
    expect(walled.status).toBe("complete");
    expect(walled.points.map((p) => [p[0], p[2]])).toEqual([
      [0.5, 1.5],
      [2, 1],
      [4, 1],
      [5.5, 2.5],
    ]);
    expect(lengthXZ(walled.points)).toBeCloseTo(
      new VisibilityGraph(nm, filter).shortest(0.5, 1.5, 5.5, 2.5),
      9,
    );
    for (const ref of walled.polys) {
      const tile = nm.tiles[0]!;
      expect(tile.polyFlags[polyOfRef(ref)]).toBe(1);
    }
  });

  it("goes to the closest reachable point when the end is unreachable (partial)", () => {
    const nm = gridNavMesh(["...#...", "...#...", "...#..."]);
    const r = shortest(nm, [0.5, 0, 0.5], [6.5, 0, 2.5]);
    expect(r.status).toBe("partial");
    const last = r.points[r.points.length - 1]!;
    expect(last[0]).toBeCloseTo(3, 9);
    expect(last[2]).toBeCloseTo(2.5, 9);
    expect(r.points.length).toBe(2);
  });

  it("reports outOfNodes with a path towards the end when the node limit is too small", () => {
    const nm = gridNavMesh(PILLARS);
    const r = shortest(nm, [0.5, 0, 2.5], [9.5, 0, 2.5], undefined, 3);
    expect(r.status).toBe("outOfNodes");
    expect(r.points.length).toBeGreaterThanOrEqual(2);
    expect(r.points[0]).toEqual([0.5, 0, 2.5]);
    const full = shortest(nm, [0.5, 0, 2.5], [9.5, 0, 2.5]);
    expect(full.status).toBe("complete");
  });

  it("crosses tile borders like a single tile", () => {
    const one = gridNavMesh(PILLARS);
    const two = gridNavMesh(PILLARS, 5);
    for (const [sx, sz, tx, tz] of [
      [0.5, 2.5, 9.5, 2.5],
      [3.5, 2.5, 6.5, 1.2],
      [0.2, 0.2, 9.8, 4.8],
    ]) {
      const a = shortest(one, [sx!, 0, sz!], [tx!, 0, tz!]);
      const b = shortest(two, [sx!, 0, sz!], [tx!, 0, tz!]);
      expect(b.status).toBe("complete");
      expect(lengthXZ(b.points)).toBeCloseTo(lengthXZ(a.points), 9);
    }
  });

  it("takes a one-way off-mesh connection forwards only", () => {
    const nm = gridNavMesh(["...#...", "...#...", "...#..."]);
    nm.addOffMeshConnection({
      start: [2.5, 0, 1.5],
      end: [4.5, 0, 1.5],
      radius: 0.2,
      bidirectional: false,
      area: 0,
      flags: 1,
    });
    const there = shortest(nm, [0.5, 0, 0.5], [6.5, 0, 2.5]);
    expect(there.status).toBe("complete");
    expect(there.points.map((p) => [p[0], p[2]])).toEqual([
      [0.5, 0.5],
      [2.5, 1.5],
      [4.5, 1.5],
      [6.5, 2.5],
    ]);
    expect(there.length).toBeCloseTo(Math.hypot(2, 1) * 2 + 2, 9);
    expect(there.polys).toContain(nm.offMeshConnectionRefs()[0]);
    const back = shortest(nm, [6.5, 0, 2.5], [0.5, 0, 0.5]);
    expect(back.status).toBe("partial");
  });

  it("sees components joined by a connection added after a query (cached components refresh)", () => {
    const nm = gridNavMesh(["...#...", "...#...", "...#..."]);
    const q = new NavMeshQuery(nm);
    const opts = { halfExtents: EXT };
    expect(findShortestPath(q, [0.5, 0, 0.5], [6.5, 0, 2.5], opts).status).toBe("partial");
    const ref = nm.addOffMeshConnection({
      start: [2.5, 0, 1.5],
      end: [4.5, 0, 1.5],
      radius: 0.2,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    expect(findShortestPath(q, [0.5, 0, 0.5], [6.5, 0, 2.5], opts).status).toBe("complete");
    expect(findShortestPath(q, [6.5, 0, 2.5], [0.5, 0, 0.5], opts).status).toBe("complete");
    nm.removeOffMeshConnection(ref);
    expect(findShortestPath(q, [0.5, 0, 0.5], [6.5, 0, 2.5], opts).status).toBe("partial");
  });

  it("uses an off-mesh connection only when it is shorter than walking", () => {
    const nm = gridNavMesh(["......", "......", "......"]);
    nm.addOffMeshConnection({
      start: [0.5, 0, 0.5],
      end: [5.5, 0, 0.5],
      radius: 0.2,
      bidirectional: true,
      area: 0,
      flags: 1,
      cost: 1,
    });
    const r = shortest(nm, [0.5, 0, 0.6], [5.5, 0, 0.6]);
    expect(r.points.length).toBe(4);
    expect(lengthXZ(r.points)).toBeCloseTo(5.2, 9);
    const walk = shortest(nm, [0.5, 0, 2.5], [1.5, 0, 2.5]);
    expect(walk.points.length).toBe(2);
  });

  it("keeps every sample of the path on its corridor", () => {
    const nm = gridNavMesh(PILLARS);
    const r = shortest(nm, [0.5, 0, 4.5], [9.5, 0, 0.5]);
    for (let i = 1; i < r.points.length; i++) {
      const p = r.points[i - 1]!;
      const q = r.points[i]!;
      for (let k = 0; k <= 20; k++) {
        const x = p[0] + ((q[0] - p[0]) * k) / 20;
        const z = p[2] + ((q[2] - p[2]) * k) / 20;
        expect(
          Math.min(...r.polys.map((ref) => distanceToPolyXZ(nm, ref, x, z))),
        ).toBeLessThanOrEqual(1e-9);
      }
    }
  });

  it("falls back to computePath when the filter has area costs", () => {
    const nm = gridNavMesh(ROOM);
    const q = new NavMeshQuery(nm);
    const filter = new QueryFilter().setAreaCost(63, 2);
    const a = findShortestPath(q, [0.5, 0, 0.5], [5.5, 0, 3.5], { filter, halfExtents: EXT });
    const b = q.computePath([0.5, 0, 0.5], [5.5, 0, 3.5], { filter, halfExtents: EXT });
    expect(a).toEqual(b);
  });

  it("reports noStart / noEnd off the mesh, and throws on bad input", () => {
    const nm = gridNavMesh(ROOM);
    const q = new NavMeshQuery(nm);
    expect(findShortestPath(q, [50, 0, 50], [1, 0, 1]).status).toBe("noStart");
    expect(findShortestPath(q, [1, 0, 1], [50, 0, 50]).status).toBe("noEnd");
    expect(() => findShortestPath(q, [Number.NaN, 0, 0], [1, 0, 1])).toThrow(MeshwayError);
    expect(() => findShortestPath(q, [1, 0, 1], [2, 0, 2], { maxNodes: 0 })).toThrow(MeshwayError);
    const finder = new ShortestPathFinder(nm);
    const out = new ShortestPath();
    expect(() => finder.findPath(12345, [1, 0, 1], 1, [1, 0, 1], new QueryFilter(), out)).toThrow(
      MeshwayError,
    );
  });

  it("lower-level finder writes the same path into a reused output", () => {
    const nm = gridNavMesh(PILLARS);
    const q = new NavMeshQuery(nm);
    const finder = new ShortestPathFinder(nm);
    const out = new ShortestPath();
    const s = q.findNearestPoly([0.5, 0, 2.5], EXT);
    const sp = [0.5, 0, 2.5];
    const e = q.findNearestPoly([9.5, 0, 2.5], EXT);
    for (let k = 0; k < 2; k++) {
      expect(finder.findPath(s, sp, e, [9.5, 0, 2.5], new QueryFilter(), out)).toBe("complete");
      const r = findShortestPath(q, [0.5, 0, 2.5], [9.5, 0, 2.5], { halfExtents: EXT });
      expect(out.pointCount).toBe(r.points.length);
      expect(out.length3D).toBeCloseTo(r.length, 12);
      expect(out.lengthXZ).toBeCloseTo(lengthXZ(r.points), 12);
    }
  });
});

// A two-cell-wide spine (its 2 x 2 blocks make cycles, so it stays) with five one-cell teeth
// hanging off it (trees: peeled by the topology, entered only on the way to or from an end).
// Walled all round: cells on the grid's bounds would have tile-border edges, never peeled.
const COMB = [
  "###########",
  "#.........#",
  "#.........#",
  "#.#.#.#.#.#",
  "#.#.#.#.#.#",
  "#.#.#.#.#.#",
  "#.#.#.#.#.#",
  "#.#.#.#.#.#",
  "###########",
];

/** Polygon index of grid cell (column c, row r) as gridNavMesh numbers them (row-major, '#' skipped). */
function cellPoly(rows: string[], c: number, r: number): number {
  let i = 0;
  for (let z = 0; z < rows.length; z++) {
    for (let x = 0; x < rows[z]!.length; x++) {
      if (rows[z]![x] === "#") continue;
      if (x === c && z === r) return i;
      i++;
    }
  }
  throw new Error("not a cell");
}

describe("findShortestPath and peeled polygon trees", () => {
  it("peels the teeth, keeps the spine, and the exits of a tooth lead to the spine", () => {
    const nm = gridNavMesh(COMB);
    const topo = tileTopology(nm.tiles[0]!);
    for (let c = 1; c <= 9; c++) {
      for (let r = 1; r <= 2; r++) expect(topo.deadTree[cellPoly(COMB, c, r)]).not.toBe(1);
      if (c % 2 === 0) continue;
      for (let r = 3; r <= 7; r++) expect(topo.deadTree[cellPoly(COMB, c, r)]).toBe(1);
      let p = cellPoly(COMB, c, 7);
      const walk = [p];
      while (topo.deadTree[p] === 1) {
        p = topo.treeExit[p]!;
        walk.push(p);
      }
      expect(walk).toEqual([7, 6, 5, 4, 3, 2].map((r) => cellPoly(COMB, c, r)));
    }
  });

  it("reaches ends inside peeled trees (tooth to tooth, within a tooth, spine to tip) as short as the visibility graph", () => {
    const nm = gridNavMesh(COMB);
    const graph = new VisibilityGraph(nm);
    const cases = [
      [1.5, 7.5, 9.5, 7.5],
      [5.5, 7.5, 5.5, 3.2],
      [5.5, 3.2, 5.5, 7.5],
      [1.5, 1.5, 7.5, 6.5],
      [7.5, 6.5, 1.5, 1.5],
      [3.5, 7.5, 3.5, 7.5],
    ];
    for (const [sx, sz, tx, tz] of cases) {
      const r = shortest(nm, [sx!, 0, sz!], [tx!, 0, tz!]);
      expect(r.status).toBe("complete");
      expect(lengthXZ(r.points)).toBeCloseTo(graph.shortest(sx!, sz!, tx!, tz!), 9);
    }
  });

  it("does not search teeth it passes on the way between two tips", () => {
    // The same comb without the middle teeth: with them peeled, the search does no more.
    const plain = COMB.map((row, r) => (r < 3 ? row : "#.#######.#"));
    const run = (rows: string[]) => {
      const nm = gridNavMesh(rows);
      const q = new NavMeshQuery(nm);
      const finder = new ShortestPathFinder(nm);
      const out = new ShortestPath();
      const s = q.findNearestPoly([1.5, 0, 7.5], EXT);
      const e = q.findNearestPoly([9.5, 0, 7.5], EXT);
      expect(finder.findPath(s, [1.5, 0, 7.5], e, [9.5, 0, 7.5], new QueryFilter(), out)).toBe(
        "complete",
      );
      return { expansions: finder.expansions, nodes: finder.nodesCreated, length: out.lengthXZ };
    };
    const comb = run(COMB);
    const without = run(plain);
    expect(comb.length).toBeCloseTo(without.length, 12);
    // Without peeling, the search also walks down the middle teeth (49 expansions vs 39).
    expect(comb.expansions).toBeLessThanOrEqual(without.expansions);
  });
});
