import { describe, expect, it } from "vitest";
import { pointInPoly } from "../../bench/sample-points.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { lengthXZ } from "../helpers/visibility-graph.js";

// findShortestPath against computePath (A* + funnel) on the shared meshes, same seeded pairs.
// Both are compared in the metric findShortestPath minimises: length in the XZ projection.
const PAIRS = 500;
const nearest = createNearestPolyResult();

describe.each(SHARED_MESH_NAMES)("findShortestPath vs computePath on %s", (name) => {
  it("is never longer in XZ, agrees on which pairs are complete, ends no farther from the end", () => {
    const { navMesh } = buildNavMesh(loadSharedMesh(name), {});
    const query = new NavMeshQuery(navMesh);
    const tile = navMesh.tiles[0]!;
    const rand = mulberry32(20261129);
    let complete = 0;
    let longerFunnel = 0;
    for (let i = 0; i < PAIRS; i++) {
      const a = pointInPoly(tile, Math.floor(rand() * tile.polyCount), rand);
      const b = pointInPoly(tile, Math.floor(rand() * tile.polyCount), rand);
      const funnel = query.computePath(a, b);
      const exact = findShortestPath(query, a, b);
      expect(exact.status === "complete", `pair ${i}`).toBe(funnel.status === "complete");
      // Same snapped start; the same end, or when partial one at least as close to the end.
      expect(exact.points[0]).toEqual(funnel.points[0]);
      if (funnel.status !== "complete") {
        query.findNearestPoly(b, [1, 1, 1], undefined, nearest);
        const e = nearest.point;
        const gap = (p: readonly number[]) =>
          Math.hypot(p[0]! - e[0]!, p[1]! - e[1]!, p[2]! - e[2]!);
        expect(gap(exact.points.at(-1)!), `pair ${i}`).toBeLessThanOrEqual(
          gap(funnel.points.at(-1)!) + 1e-9,
        );
        continue;
      }
      expect(exact.points.at(-1), `pair ${i}`).toEqual(funnel.points.at(-1));
      complete++;
      const le = lengthXZ(exact.points);
      const lf = lengthXZ(funnel.points);
      expect(le, `pair ${i}`).toBeLessThanOrEqual(lf * (1 + 1e-9) + 1e-9);
      if (le < lf - 1e-6) longerFunnel++;
    }
    expect(complete).toBeGreaterThan(PAIRS / 4);
    expect(longerFunnel).toBeGreaterThan(0);
  });
});
