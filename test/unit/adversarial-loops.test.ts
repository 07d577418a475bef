import { describe, expect, it } from "vitest";
import { deserializeNavMesh, serializeNavMesh } from "../../src/format/navmesh-file.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polygonAreaXZ } from "../../src/navmesh/tile.js";
import { MAX_EXPANSIONS_PER_NODE } from "../../src/query/find-path.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { RAYCAST_MAX_POLYS } from "../../src/query/raycast.js";
import { StraightPath } from "../../src/query/straight-path.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

// Loops over data stop on adversarial input by their own bounds (iteration caps, visited
// marks, strictly shrinking work), not by time limits: each test feeds data that would make an
// unbounded loop run forever and checks the answer it gets instead.

/**
 * Three copies of one 10 × 10 square whose every edge links to the next copy (0 → 1 → 2 → 0):
 * links that contradict the geometry, as only a crafted file can hold. Saved and loaded
 * through the `.navmesh` format, so the loader's checks (indices in range) accept it.
 */
function loopedSquares(withIsland = false): NavMesh {
  const verts = [0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0];
  let square = [0, 1, 2, 3];
  const probe = handTile({ verts, polys: [square] });
  if (polygonAreaXZ(probe, 0) > 0) square = [3, 2, 1, 0];
  const polys = [square, square, square];
  if (withIsland) {
    // A fourth square, linked to nothing: an end the search can never reach.
    verts.push(20, 0, 0, 20, 0, 10, 30, 0, 10, 30, 0, 0);
    polys.push(square.map((i) => i + 4));
  }
  const tile = handTile({ verts, polys });
  for (let p = 0; p < 3; p++) {
    for (let e = 0; e < 4; e++)
      tile.polyNeighbours[p * tile.maxVertsPerPoly + e] = ((p + 1) % 3) + 1;
  }
  const built = navMeshFor(40, 40);
  built.addTile(tile);
  return deserializeNavMesh(serializeNavMesh(built, null), "looped.navmesh").navMesh;
}

describe("loops over adversarial navmesh data stop by their bounds", () => {
  const navMesh = loopedSquares();
  const q = new NavMeshQuery(navMesh, { maxNodes: 8 });
  const start = q.findNearestPoly([5, 0, 5], [1, 1, 1]);

  it("a file whose links loop loads (its indices are all in range)", () => {
    expect(navMesh.tiles[0]!.polyCount).toBe(3);
    expect(start).not.toBe(0);
  });

  it("raycast through looping links stops after RAYCAST_MAX_POLYS polygons, as a miss", () => {
    const hit = q.raycast(start, [5, 0, 5], [50, 0, 5]);
    expect(hit.pathCount).toBe(RAYCAST_MAX_POLYS);
    expect(hit.hitEdgeIndex).toBe(-1);
    expect(Array.from(hit.hitNormal)).toEqual([0, 0, 0]);
    expect(hit.t).toBeGreaterThanOrEqual(0);
    expect(hit.t).toBeLessThanOrEqual(1);
  });

  it("moveAlongSurface, findPath, the circle searches and the funnel end on looping links", () => {
    const m = q.moveAlongSurface(start, [5, 0, 5], [50, 0, 5]);
    expect(m.visitedCount).toBeLessThanOrEqual(64);
    const path = q.findPath(start, start + 2, [5, 0, 5], [6, 0, 6]);
    expect(["complete", "partial", "outOfNodes"]).toContain(path.status);
    expect(path.polyCount).toBeLessThanOrEqual(3);
    expect(q.findPolysAroundCircle(start, [5, 0, 5], 100).count).toBe(3);
    q.findDistanceToWall(start, [5, 0, 5], 100);
    // A corridor that goes round the loop many times: the funnel walks it once.
    const corridor = Array.from({ length: 300 }, (_, i) => start + (i % 3));
    const out = new StraightPath(4);
    const status = q.findStraightPath([5, 0, 5], [6, 0, 6], corridor, corridor.length, out);
    expect(["complete", "partial"]).toContain(status);
    expect(out.count).toBeLessThanOrEqual(corridor.length + 2);
  });
});

describe("A* stops on costs that would reopen nodes forever", () => {
  const navMesh = loopedSquares();

  it("refuses NaN and negative area costs before searching, naming the area", () => {
    const q = new NavMeshQuery(navMesh);
    const start = q.findNearestPoly([5, 0, 5], [1, 1, 1]);
    for (const cost of [Number.NaN, -1, -Infinity]) {
      const filter = new QueryFilter().setAreaCost(63, cost);
      const e = thrownMeshwayError(() =>
        q.findPath(start, start + 1, [5, 0, 5], [6, 0, 6], filter),
      );
      expect(e.code).toBe("INVALID_ARGUMENT");
      expect(e.message).toContain(`filter cost of area 63 is ${cost}`);
      expect(() => q.computePath([5, 0, 5], [6, 0, 6], { filter })).toThrow(/area 63/);
      expect(() => q.findPolysAroundCircle(start, [5, 0, 5], 3, filter)).toThrow(/area 63/);
    }
    // Infinity is allowed: it makes the area unreachable.
    const blocked = new QueryFilter().setAreaCost(63, Infinity);
    expect(q.findPath(start, start + 1, [5, 0, 5], [6, 0, 6], blocked).status).toBeDefined();
  });

  it("a start point near the float limit with zero area costs (NaN steps) still ends", () => {
    const q = new NavMeshQuery(navMesh, { maxNodes: 4 });
    const start = q.findNearestPoly([5, 0, 5], [1, 1, 1]);
    const free = new QueryFilter().setAreaCost(63, 0);
    const r = q.findPath(start, start + 2, [1e308, 0, 5], [6, 0, 6], free);
    expect(["complete", "partial", "outOfNodes"]).toContain(r.status);
    expect(r.polyCount).toBeLessThanOrEqual(4);
  });

  it("a search whose costs turn negative after init stops after its expansion cap", () => {
    // The filter is checked at init; changing it during a sliced search bypasses that, and a
    // negative cost around the loop lowers every node's cost on every lap, reopening it.
    const island = loopedSquares(true);
    const q = new NavMeshQuery(island, { maxNodes: 8 });
    const start = q.findNearestPoly([5, 0, 5], [1, 1, 1]);
    const end = q.findNearestPoly([25, 0, 5], [1, 1, 1]);
    const filter = new QueryFilter();
    expect(q.initSlicedFindPath(start, end, [5, 0, 5], [25, 0, 5], filter)).toBe("inProgress");
    filter.setAreaCost(63, -1);
    expect(q.updateSlicedFindPath(1e9)).toBe("outOfNodes");
    expect(q.slicedIterations).toBe(8 * MAX_EXPANSIONS_PER_NODE + 64);
    // The costs looped the parent chain: the corridor falls back to the start polygon.
    const corridor = q.finalizeSlicedFindPath();
    expect(corridor.status).toBe("outOfNodes");
    expect(Array.from(corridor.polys).slice(0, corridor.polyCount)).toEqual([start]);
  });
});
