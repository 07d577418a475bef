import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { pointInPolyXZ } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { DistanceToWallResult, findDistanceToWall } from "../../src/query/distance-to-wall.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CELL = 0.25;
const RADIUS = 0.5;
const CONFIG = { cellSize: CELL, cellHeight: 0.125, agentRadius: RADIUS };
const Y = 0.25;

/** A corridor along x between two long 2-high boxes: open floor z 3..7 (width 4), 20 long. */
function corridor(): NavMesh {
  const mesh = new SceneBuilder()
    .floor(0, 0, 20, 10)
    .box(10, 0, 1.5, 20, 2, 3) // z 0..3
    .box(10, 0, 8.5, 20, 2, 3) // z 7..10
    .build();
  return buildNavMesh(mesh, CONFIG).navMesh;
}

function polyAt(navMesh: NavMesh, x: number, z: number, y = Y): number {
  for (let s = 1; s < navMesh.slots.length; s++) {
    const tile = navMesh.tileInSlot(s);
    if (!tile) continue;
    for (let p = 0; p < tile.polyCount; p++) {
      // Skip the box tops (y 2.x) when looking for the corridor floor.
      const v = tile.polyVerts[p * tile.maxVertsPerPoly]! * 3;
      if (Math.abs(tile.vertices[v + 1]! - y) > 0.5) continue;
      if (pointInPolyXZ(tile, p, x, z)) return navMesh.polyRef(s, p);
    }
  }
  return 0;
}

describe("findDistanceToWall", () => {
  const navMesh = corridor();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();
  const halfWidth = 4 / 2;

  it("in the middle of a corridor the wall is half its width minus the agent radius away (within a cell)", () => {
    const out = new DistanceToWallResult();
    for (const x of [4, 7.5, 10, 13.25, 16]) {
      const ref = polyAt(navMesh, x, 5);
      expect(ref).not.toBe(0);
      findDistanceToWall(query, ref, [x, Y, 5], 10, filter, out);
      expect(out.hit).toBe(true);
      expect(out.status).toBe("complete");
      expect(Math.abs(out.hitDist - (halfWidth - RADIUS))).toBeLessThanOrEqual(CELL);
      // The nearest wall is one of the two long sides: hit z at 5 ± hitDist, same x.
      expect(Math.abs(out.hitPos[2]! - 5)).toBeCloseTo(out.hitDist, 9);
      expect(out.hitPos[0]).toBeCloseTo(x, 9);
      // The normal points from the wall back to the center.
      expect(Math.abs(out.hitNormal[2]!)).toBeCloseTo(1, 6);
      expect(Math.sign(out.hitNormal[2]!)).toBe(Math.sign(5 - out.hitPos[2]!));
    }
  });

  it("exact distances: the eroded walls sit at z = 3.75 and 6.5", () => {
    // The box faces z = 3 and z = 7 lie on cell boundaries; conservative rasterization also
    // blocks the floor cell touching the z = 3 face, so that side ends one cell earlier.
    const out = new DistanceToWallResult();
    findDistanceToWall(query, polyAt(navMesh, 10, 5), [10, Y, 5], 10, filter, out);
    expect(out.hitDist).toBeCloseTo(1.25, 9);
    expect(out.hitPos[2]).toBeCloseTo(3.75, 9);
    findDistanceToWall(query, polyAt(navMesh, 7, 4.5), [7, Y, 4.5], 10, filter, out);
    expect(out.hitDist).toBeCloseTo(0.75, 9);
    expect(out.hitPos[2]).toBeCloseTo(3.75, 9);
    expect(out.hitNormal[2]).toBeCloseTo(1, 6);
    findDistanceToWall(query, polyAt(navMesh, 12, 6.25), [12, Y, 6.25], 10, filter, out);
    expect(out.hitDist).toBeCloseTo(0.25, 9);
    expect(Array.from(out.hitPos)).toEqual([12, Y, 6.5]);
    expect(Array.from(out.hitNormal)).toEqual([0, 0, -1]);
  });

  it("near the corridor's open end the end wall (x = 19.25) is nearer", () => {
    const out = new DistanceToWallResult();
    findDistanceToWall(query, polyAt(navMesh, 19, 5), [19, Y, 5], 10, filter, out);
    expect(out.hitDist).toBeCloseTo(0.25, 9);
    expect(out.hitPos[0]).toBeCloseTo(19.25, 9);
    expect(out.hitNormal[0]).toBeCloseTo(-1, 6);
  });

  it("no wall within maxRadius: hitDist = maxRadius, hit false, hitPos = center, zero normal", () => {
    const out = findDistanceToWall(
      query,
      polyAt(navMesh, 10, 5),
      [10, Y, 5],
      1,
      filter,
      new DistanceToWallResult(),
    );
    expect(out.hit).toBe(false);
    expect(out.hitDist).toBe(1);
    expect(Array.from(out.hitPos)).toEqual([10, Y, 5]);
    expect(Array.from(out.hitNormal)).toEqual([0, 0, 0]);
  });

  it("the search crosses polygons: walls of neighbouring polygons count", () => {
    // The corridor floor is two polygons split at x = 10. Searching from the west one with a
    // center near the east end, the wall found belongs to the east polygon.
    const west = polyAt(navMesh, 9.5, 5);
    const east = polyAt(navMesh, 10.5, 5);
    expect(west).not.toBe(east);
    const out = new DistanceToWallResult();
    // Center 0.5 from the corridor's east end wall (19.25), searched from the west polygon.
    findDistanceToWall(query, west, [18.75, Y, 5], 10, filter, out);
    expect(out.hitDist).toBeCloseTo(0.5, 9);
    expect(out.hitPos[0]).toBeCloseTo(19.25, 9);
  });

  it("edges to polygons the filter rejects count as walls", () => {
    const nm = corridor();
    const q = new NavMeshQuery(nm);
    const startRef = polyAt(nm, 10, 5);
    const tile = nm.tileInSlot(tileOfRef(startRef))!;
    for (let p = 0; p < tile.polyCount; p++) if (p !== polyOfRef(startRef)) tile.polyFlags[p] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const open = findDistanceToWall(
      q,
      startRef,
      [10, Y, 5],
      10,
      filter,
      new DistanceToWallResult(),
    );
    const closed = findDistanceToWall(q, startRef, [10, Y, 5], 10, f, new DistanceToWallResult());
    expect(closed.hitDist).toBeLessThanOrEqual(open.hitDist);
    if (tile.polyCount > 1) expect(closed.hitDist).toBeLessThan(open.hitDist);
  });

  it("programmer errors throw INVALID_ARGUMENT", () => {
    const ref = polyAt(navMesh, 10, 5);
    const out = new DistanceToWallResult();
    expect(() => findDistanceToWall(query, ref, [10, Y, 5], -1, filter, out)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => findDistanceToWall(query, ref, [10, Y, 5], Number.NaN, filter, out)).toThrow(
      /maxRadius/,
    );
    expect(() => findDistanceToWall(query, ref, [10, Y, Number.NaN], 1, filter, out)).toThrow(
      /center/,
    );
    expect(() => findDistanceToWall(query, 7, [10, Y, 5], 1, filter, out)).toThrow(
      /startRef \d+ is not a polygon reference/,
    );
  });
});
