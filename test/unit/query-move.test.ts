import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { closestPointOnPolyBoundary } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours } from "../../src/navmesh/neighbours.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { MoveAlongSurfaceResult, moveAlongSurface } from "../../src/query/move-along-surface.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findRandomPoint, mulberry32, RandomPointResult } from "../../src/query/random-point.js";
import { boxScene, polyAt, QUERY_CONFIG } from "../helpers/query-scenes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const Y = 0.25; // height of every vertex of the flat test floors

const scratch = new Float64Array(3);
/** XZ distance from (x, z) to polygon `ref` (0 inside). */
function distanceToPoly(navMesh: NavMesh, ref: number, x: number, z: number): number {
  const tile = navMesh.tileInSlot(tileOfRef(ref))!;
  closestPointOnPolyBoundary(tile, polyOfRef(ref), x, 0, z, scratch);
  return Math.hypot(scratch[0]! - x, scratch[2]! - z);
}

const nbRefs = new Float64Array(64);
const nbEdges = new Int32Array(64);
function adjacent(navMesh: NavMesh, a: number, b: number): boolean {
  const n = collectNeighbours(navMesh, a, nbRefs, nbEdges);
  for (let i = 0; i < n; i++) if (nbRefs[i] === b) return true;
  return false;
}

describe("moveAlongSurface", () => {
  const navMesh = boxScene();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();

  it("a move that stays on the floor reaches the end exactly", () => {
    const startRef = polyAt(navMesh, 1.5, 1.5);
    const out = moveAlongSurface(
      query,
      startRef,
      [1.5, Y, 1.5],
      [2.5, Y, 2],
      filter,
      new MoveAlongSurfaceResult(),
    );
    expect(Array.from(out.resultPos)).toEqual([2.5, Y, 2]);
    expect(out.visited[0]).toBe(startRef);
    expect(out.lastRef).toBe(polyAt(navMesh, 2.5, 2));
    expect(out.status).toBe("complete");
  });

  it("crossing polygons reports the corridor walked", () => {
    const startRef = polyAt(navMesh, 2, 8);
    const endRef = polyAt(navMesh, 2, 2);
    expect(startRef).not.toBe(endRef);
    const out = moveAlongSurface(
      query,
      startRef,
      [2, Y, 8],
      [2, Y, 2],
      filter,
      new MoveAlongSurfaceResult(1),
    );
    expect(Array.from(out.resultPos)).toEqual([2, Y, 2]);
    expect(out.visited[0]).toBe(startRef);
    expect(out.lastRef).toBe(endRef);
    for (let i = 1; i < out.visitedCount; i++) {
      expect(adjacent(navMesh, out.visited[i - 1]!, out.visited[i]!)).toBe(true);
    }
  });

  it("moving into the box slides along its face: x clamps to 3.5, z follows the end", () => {
    const out = moveAlongSurface(
      query,
      polyAt(navMesh, 2, 5),
      [2, Y, 5],
      [4.5, Y, 5.5],
      filter,
      new MoveAlongSurfaceResult(),
    );
    expect(out.resultPos[0]).toBe(3.5);
    expect(out.resultPos[2]).toBe(5.5);
    expect(out.resultPos[1]).toBe(Y);
  });

  it("moving past the border slides along it, and into a corner stops in the corner", () => {
    const out = new MoveAlongSurfaceResult();
    moveAlongSurface(query, polyAt(navMesh, 8.5, 2), [8.5, Y, 2], [10, Y, 1], filter, out);
    expect(out.resultPos[0]).toBe(9.25);
    expect(out.resultPos[2]).toBe(1);
    moveAlongSurface(query, polyAt(navMesh, 8.5, 1.5), [8.5, Y, 1.5], [10, Y, 0], filter, out);
    expect(out.resultPos[0]).toBe(9.25);
    expect(out.resultPos[2]).toBe(0.75);
  });

  it("a polygon the filter rejects acts as a wall", () => {
    const nm = boxScene();
    const q = new NavMeshQuery(nm);
    const startRef = polyAt(nm, 2, 8);
    const other = polyAt(nm, 2, 2);
    // Exclude every polygon but the start one.
    const tile = nm.tileInSlot(tileOfRef(startRef))!;
    for (let p = 0; p < tile.polyCount; p++) if (p !== polyOfRef(startRef)) tile.polyFlags[p] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const out = moveAlongSurface(
      q,
      startRef,
      [2, Y, 8],
      [2, Y, 2],
      f,
      new MoveAlongSurfaceResult(),
    );
    expect(out.lastRef).toBe(startRef);
    expect(out.lastRef).not.toBe(other);
    expect(distanceToPoly(nm, startRef, out.resultPos[0]!, out.resultPos[2]!)).toBeLessThan(1e-9);
    expect(out.resultPos[2]).toBeGreaterThan(2);
  });

  it("programmer errors throw INVALID_ARGUMENT", () => {
    const out = new MoveAlongSurfaceResult();
    const ref = polyAt(navMesh, 2, 2);
    expect(() => moveAlongSurface(query, ref, [2, Number.NaN, 2], [3, 0, 3], filter, out)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => moveAlongSurface(query, 12345, [2, 0, 2], [3, 0, 3], filter, out)).toThrow(
      /startRef \d+ is not a polygon reference/,
    );
  });

  // Generated scenes: a floor with boxes; random start points and moves.
  const sceneArb = fc.array(
    fc.record({
      x: fc.integer({ min: 2, max: 14 }),
      z: fc.integer({ min: 2, max: 14 }),
      sx: fc.integer({ min: 1, max: 4 }),
      sz: fc.integer({ min: 1, max: 4 }),
      angle: fc.constantFrom(0, 0.5),
    }),
    { minLength: 0, maxLength: 6 },
  );

  function buildScene(boxes: { x: number; z: number; sx: number; sz: number; angle: number }[]) {
    const b = new SceneBuilder().floor(0, 0, 16, 16);
    for (const box of boxes) b.box(box.x, 0, box.z, box.sx, 1.5, box.sz, box.angle);
    return buildNavMesh(b.build(), QUERY_CONFIG).navMesh;
  }

  it("property: the result always lies on the mesh, in the last visited polygon, along a walk of neighbours", () => {
    fc.assert(
      fc.property(
        sceneArb,
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(
          fc.tuple(
            fc.double({ min: -3, max: 3, noNaN: true }),
            fc.double({ min: -3, max: 3, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        (boxes, seed, moves) => {
          const nm = buildScene(boxes);
          const q = new NavMeshQuery(nm);
          const rnd = findRandomPoint(q, filter, mulberry32(seed), new RandomPointResult());
          if (rnd.status !== "complete") return;
          let ref = rnd.ref;
          const pos = Float64Array.from(rnd.point);
          const out = new MoveAlongSurfaceResult();
          // A chain of moves, each starting where the previous one ended (an agent's loop).
          for (const [dx, dz] of moves) {
            const end = [pos[0]! + dx, pos[1]!, pos[2]! + dz];
            moveAlongSurface(q, ref, pos, end, filter, out);
            expect(out.visitedCount).toBeGreaterThan(0);
            expect(out.visited[0]).toBe(ref);
            for (let i = 1; i < out.visitedCount; i++) {
              expect(adjacent(nm, out.visited[i - 1]!, out.visited[i]!)).toBe(true);
            }
            const x = out.resultPos[0]!;
            const z = out.resultPos[2]!;
            expect(distanceToPoly(nm, out.lastRef, x, z)).toBeLessThan(1e-9);
            // Never farther from the end than where it started (it moves towards the end or stays).
            const before = Math.hypot(end[0]! - pos[0]!, end[2]! - pos[2]!);
            const after = Math.hypot(end[0]! - x, end[2]! - z);
            expect(after).toBeLessThanOrEqual(before + 1e-9);
            ref = out.lastRef;
            pos.set(out.resultPos);
          }
        },
      ),
      { numRuns: 40, seed: 424242 },
    );
  });
});
