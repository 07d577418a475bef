/**
 * Stale vs malformed polygon refs at every ref-taking query (DESIGN.md "Errors and statuses"):
 * a ref into a tile removed or replaced since is a run-time condition — status "invalidRef",
 * empty outputs, no throw; a ref that could never have been valid is a programmer error —
 * MeshwayError("INVALID_ARGUMENT") naming the argument; a live ref behaves as before.
 */
import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { classifyRef, encodePolyRef, polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { DistanceToWallResult, findDistanceToWall } from "../../src/query/distance-to-wall.js";
import { MoveAlongSurfaceResult, moveAlongSurface } from "../../src/query/move-along-surface.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  findPolysAroundCircle,
  PolysAroundCircleResult,
} from "../../src/query/polys-around-circle.js";
import {
  findRandomPointAroundCircle,
  mulberry32,
  RandomPointResult,
} from "../../src/query/random-point.js";
import { RaycastHit, raycast } from "../../src/query/raycast.js";
import { ShortestPath } from "../../src/query/shortest-path/reconstruct.js";
import { ShortestPathFinder } from "../../src/query/shortest-path/search.js";
import { findStraightPath, StraightPath } from "../../src/query/straight-path.js";
import { polyAt, wallScene } from "../helpers/query-scenes.js";

const Y = 0.25;
const SOUTH: [number, number, number] = [2, Y, 3];
const NORTH: [number, number, number] = [2, Y, 9];

/**
 * One ref-taking query: runs it from `ref` (and `other`, a live ref, where it needs two) and
 * returns its status plus its outputs with refs reduced to polygon indices (salts differ
 * after replaceTile).
 */
interface Case {
  name: string;
  /** The argument name the error message must mention for a malformed ref. */
  arg: RegExp;
  run(q: NavMeshQuery, ref: number, other: number): { status: string; out: unknown };
  /** The outputs a stale ref must leave: well-formed and empty. */
  emptyOut: unknown;
}

const polys = (a: ArrayLike<number>, n: number) => Array.from(a).slice(0, n).map(polyOfRef);
const round = (a: ArrayLike<number>, n = a.length) =>
  Array.from(a)
    .slice(0, n)
    .map((v) => Math.round(v * 1e9) / 1e9);

const CASES: Case[] = [
  {
    name: "findPath (start)",
    arg: /findPath startRef/,
    run(q, ref, other) {
      const r = q.findPath(ref, other, SOUTH, NORTH);
      return { status: r.status, out: polys(r.polys, r.polyCount) };
    },
    emptyOut: [],
  },
  {
    name: "findPath (end)",
    arg: /findPath endRef/,
    run(q, ref, other) {
      const r = q.findPath(other, ref, SOUTH, NORTH);
      return { status: r.status, out: polys(r.polys, r.polyCount) };
    },
    emptyOut: [],
  },
  {
    name: "sliced findPath",
    arg: /findPath startRef/,
    run(q, ref, other) {
      const s = q.initSlicedFindPath(ref, other, SOUTH, NORTH);
      if (s === "inProgress") q.updateSlicedFindPath(1000);
      const r = q.finalizeSlicedFindPath();
      return { status: s === "invalidRef" ? s : r.status, out: polys(r.polys, r.polyCount) };
    },
    emptyOut: [],
  },
  {
    name: "NavMeshQuery.findStraightPath",
    arg: /findStraightPath polys\[1\]/,
    run(q, ref, other) {
      const out = new StraightPath();
      const status = q.findStraightPath(NORTH, SOUTH, [other, ref], 2, out);
      return { status, out: round(out.points, out.count * 3) };
    },
    emptyOut: [],
  },
  {
    name: "findStraightPath",
    arg: /findStraightPath polys\[0\]/,
    run(q, ref) {
      const out = new StraightPath();
      const status = findStraightPath(q.navMesh, SOUTH, [3, Y, 3], [ref], 1, out);
      return { status, out: round(out.points, out.count * 3) };
    },
    emptyOut: [],
  },
  {
    name: "raycast",
    arg: /raycast startRef/,
    run(q, ref) {
      const h = raycast(q, ref, SOUTH, NORTH, q.defaultFilter, undefined, new RaycastHit());
      return {
        status: h.status,
        out: [h.t, h.hitEdgeIndex, round(h.hitNormal), polys(h.path, h.pathCount)],
      };
    },
    emptyOut: [0, -1, [0, 0, 0], []],
  },
  {
    name: "moveAlongSurface",
    arg: /moveAlongSurface startRef/,
    run(q, ref) {
      const m = moveAlongSurface(
        q,
        ref,
        SOUTH,
        NORTH,
        q.defaultFilter,
        new MoveAlongSurfaceResult(),
      );
      return { status: m.status, out: [round(m.resultPos), polys(m.visited, m.visitedCount)] };
    },
    emptyOut: [SOUTH, []],
  },
  {
    name: "findDistanceToWall",
    arg: /findDistanceToWall startRef/,
    run(q, ref) {
      const d = findDistanceToWall(q, ref, SOUTH, 5, q.defaultFilter, new DistanceToWallResult());
      return { status: d.status, out: [d.hit, d.hitDist, round(d.hitPos), round(d.hitNormal)] };
    },
    emptyOut: [false, 0, SOUTH, [0, 0, 0]],
  },
  {
    name: "findPolysAroundCircle",
    arg: /findPolysAroundCircle startRef/,
    run(q, ref) {
      const c = findPolysAroundCircle(
        q,
        ref,
        SOUTH,
        3,
        q.defaultFilter,
        new PolysAroundCircleResult(),
      );
      return { status: c.status, out: polys(c.refs, c.count) };
    },
    emptyOut: [],
  },
  {
    name: "findRandomPointAroundCircle",
    arg: /findRandomPointAroundCircle startRef/,
    run(q, ref) {
      const r = findRandomPointAroundCircle(
        q,
        ref,
        SOUTH,
        3,
        q.defaultFilter,
        mulberry32(7),
        new RandomPointResult(),
      );
      return { status: r.status, out: r.ref === 0 ? 0 : [polyOfRef(r.ref), round(r.point)] };
    },
    emptyOut: 0,
  },
  {
    name: "closestPointOnPoly",
    arg: /closestPointOnPoly ref/,
    run(q, ref) {
      const p = new Float64Array(3);
      const over = q.closestPointOnPoly(ref, [2, 1, 3], p);
      return { status: q.refStatus, out: [over, round(p)] };
    },
    emptyOut: [false, [2, 1, 3]],
  },
  {
    name: "closestPointOnPolyBoundary",
    arg: /closestPointOnPolyBoundary ref/,
    run(q, ref) {
      const p = new Float64Array(3);
      const status = q.closestPointOnPolyBoundary(ref, [2, 1, 3], p);
      expect(q.refStatus).toBe(status);
      return { status, out: round(p) };
    },
    emptyOut: [2, 1, 3],
  },
  {
    name: "getPolyHeight",
    arg: /getPolyHeight ref/,
    run(q, ref) {
      const h = q.getPolyHeight(ref, [2, 1, 3]);
      return { status: q.refStatus, out: Number.isNaN(h) ? "NaN" : h };
    },
    emptyOut: "NaN",
  },
  {
    name: "ShortestPathFinder.findPath",
    arg: /findShortestPath startRef/,
    run(q, ref, other) {
      const out = new ShortestPath();
      const status = new ShortestPathFinder(q.navMesh).findPath(
        ref,
        SOUTH,
        other,
        NORTH,
        q.defaultFilter,
        out,
      );
      expect(out.status).toBe(status);
      return {
        status,
        out: [round(out.points, out.pointCount * 3), polys(out.polys, out.polyCount), out.length3D],
      };
    },
    emptyOut: [[], [], 0],
  },
];

/** The scene, a live ref in its south polygon and the tile's slot. */
function scene(): { nm: NavMesh; q: NavMeshQuery; south: number; north: number } {
  const nm = wallScene();
  return { nm, q: new NavMeshQuery(nm), south: polyAt(nm, 2, 3), north: polyAt(nm, 2, 9) };
}

/** Malformed refs for the wall scene (one ground tile, in slot 1, polygons 0..3). */
function malformedRefs(nm: NavMesh): number[] {
  return [
    0,
    -1,
    1.5,
    Number.NaN,
    2 ** 52,
    encodePolyRef(0, 1, 0), // salt 0: never handed out
    encodePolyRef(1, 7, 0), // slot beyond the navmesh's slots
    nm.polyRef(1, 999), // polygon beyond the live tile's count, current salt
    encodePolyRef(1, 0, 3), // off-mesh index never allocated
  ];
}

describe("classifyRef", () => {
  it("tells live, stale (tile removed or replaced, connection removed) and malformed refs apart", () => {
    const { nm, south } = scene();
    expect(classifyRef(nm, south)).toBe("live");
    for (const bad of malformedRefs(nm)) expect(classifyRef(nm, bad)).toBe("malformed");
    const link = nm.addOffMeshConnection({
      start: [2, Y, 3],
      end: [2, Y, 9],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    expect(classifyRef(nm, link)).toBe("live");
    nm.removeOffMeshConnection(link);
    expect(classifyRef(nm, link)).toBe("stale");
    const newTile = nm.replaceTile(south, nm.tileInSlot(1)!);
    expect(classifyRef(nm, south)).toBe("stale");
    expect(classifyRef(nm, newTile)).toBe("live");
    // Polygon index beyond the tile under an old salt: it may have been valid in the old tile.
    expect(classifyRef(nm, encodePolyRef(1, 1, 999))).toBe("stale");
    nm.removeTile(newTile);
    expect(classifyRef(nm, newTile)).toBe("stale");
    // An empty slot: every ref into it is stale, whatever its salt.
    expect(classifyRef(nm, nm.polyRef(1, 0))).toBe("stale");
  });
});

describe("off-mesh connections", () => {
  it("a removed connection's ref gives invalidRef in findPolysAroundCircle", () => {
    const { nm, q } = scene();
    const link = nm.addOffMeshConnection({
      start: [2, Y, 3],
      end: [2, Y, 9],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    const out = new PolysAroundCircleResult();
    findPolysAroundCircle(q, link, SOUTH, 1, q.defaultFilter, out);
    expect(out.status).toBe("complete");
    expect(out.count).toBeGreaterThan(0);
    nm.removeOffMeshConnection(link);
    findPolysAroundCircle(q, link, SOUTH, 1, q.defaultFilter, out);
    expect(out.status).toBe("invalidRef");
    expect(out.count).toBe(0);
  });
});

describe("findStraightPath corridors", () => {
  it("one stale polygon inside an otherwise live corridor gives invalidRef; a made-up one throws", () => {
    const { nm, q, south, north } = scene();
    const corridor = q.findPath(south, north, SOUTH, NORTH);
    expect(corridor.polyCount).toBe(4);
    const old = Array.from(corridor.polys);
    const newTile = nm.replaceTile(south, nm.tileInSlot(1)!);
    const fresh = old.map((r) => nm.polyRef(tileOfRef(newTile), polyOfRef(r)));
    const out = new StraightPath();
    expect(q.findStraightPath(SOUTH, NORTH, fresh, 4, out)).toBe("complete");
    const complete = round(out.points, out.count * 3);
    // The same geometry under the old salt in the middle: still stale, never "complete".
    const mixed = [fresh[0]!, old[1]!, fresh[2]!, fresh[3]!];
    expect(q.findStraightPath(SOUTH, NORTH, mixed, 4, out)).toBe("invalidRef");
    expect(out.count).toBe(0);
    expect(() =>
      q.findStraightPath(
        SOUTH,
        NORTH,
        [fresh[0]!, fresh[1]!, nm.polyRef(1, 99), fresh[3]!],
        4,
        out,
      ),
    ).toThrow(/findStraightPath polys\[2\]/);
    expect(q.findStraightPath(SOUTH, NORTH, fresh, 4, out)).toBe("complete");
    expect(round(out.points, out.count * 3)).toEqual(complete);
  });
});

describe.each(CASES)("$name", (c) => {
  it("a ref into a removed tile gives invalidRef and empty outputs, without throwing", () => {
    const { nm, q, south } = scene();
    // The scene is one tile, so both refs of the two-ref queries go stale here.
    nm.removeTile(south);
    const r = c.run(q, south, south);
    expect(r.status).toBe("invalidRef");
    expect(r.out).toEqual(c.emptyOut);
  });

  it("a ref into a replaced tile gives invalidRef; the new tile's ref behaves as before", () => {
    const { nm, q, south, north } = scene();
    const before = c.run(q, south, north);
    expect(before.status).not.toBe("invalidRef");
    const newTile = nm.replaceTile(south, nm.tileInSlot(1)!);
    const fresh = (ref: number) => nm.polyRef(tileOfRef(newTile), polyOfRef(ref));
    // Only the ref under test is stale (the other one is re-salted): it alone decides.
    const stale = c.run(q, south, fresh(north));
    expect(stale.status).toBe("invalidRef");
    expect(stale.out).toEqual(c.emptyOut);
    expect(c.run(q, fresh(south), fresh(north))).toEqual(before);
  });

  it("a malformed ref throws INVALID_ARGUMENT naming the argument", () => {
    const { nm, q, north } = scene();
    for (const bad of malformedRefs(nm)) {
      let thrown: unknown;
      try {
        c.run(q, bad, north);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, `ref ${bad}`).toBeInstanceOf(MeshwayError);
      expect((thrown as MeshwayError).code).toBe("INVALID_ARGUMENT");
      expect((thrown as MeshwayError).message).toMatch(c.arg);
    }
  });
});
