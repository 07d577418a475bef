import { describe, expect, it } from "vitest";
import { pointInPoly } from "../../bench/sample-points.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { pathOnSurface } from "../helpers/path-surface.js";
import { lengthXZ } from "../helpers/visibility-graph.js";

const PAIRS = 300;

/** Cross-tile portals that cover only part of their edge (T-junctions), of all cross-tile portals. */
function tJunctionPortals(navMesh: NavMesh): { partial: number; total: number } {
  let partial = 0;
  let total = 0;
  for (const s of navMesh.slots) {
    if (s.tile === null) continue;
    const l = s.links;
    for (let p = 0; p < s.tile.polyCount; p++) {
      for (let i = l.first[p]!; i >= 0; i = l.next[i]!) {
        if (l.side[i] === 0xff) continue;
        total++;
        if (l.bmin[i] !== 0 || l.bmax[i] !== 255) partial++;
      }
    }
  }
  return { partial, total };
}

function maxAbsCoordinate(navMesh: NavMesh): number {
  let m = 0;
  for (const t of navMesh.tiles) for (const v of t.vertices) m = Math.max(m, Math.abs(v));
  return m;
}

describe.each(SHARED_MESH_NAMES)(
  "findShortestPath on the tiled build (tile size 32) of %s",
  (name) => {
    it(`${PAIRS} seeded pairs: never longer than computePath in XZ, complete on exactly the same pairs, every sample on the surface`, async () => {
      const { navMesh } = await buildTiledNavMesh(loadSharedMesh(name), { tileSize: 32 });
      // meshway's tiles agree on their border vertices: no portal covers only part of an edge.
      expect(tJunctionPortals(navMesh).partial).toBe(0);
      // Each tile rounds its vertices to float32 from its own origin, so a border vertex can
      // differ by an ulp between the two tiles; computePath and findShortestPath may use either.
      const tol = 4 * 2 ** -23 * maxAbsCoordinate(navMesh);
      const query = new NavMeshQuery(navMesh);
      const tiles = navMesh.tiles;
      const rand = mulberry32(20261129);
      let complete = 0;
      const pick = () => {
        const t = tiles[Math.floor(rand() * tiles.length)]!;
        return pointInPoly(t, Math.floor(rand() * t.polyCount), rand);
      };
      for (let i = 0; i < PAIRS; i++) {
        const a = pick();
        const b = pick();
        const funnel = query.computePath(a, b);
        const exact = findShortestPath(query, a, b);
        expect(exact.status === "complete", `pair ${i}`).toBe(funnel.status === "complete");
        expect(pathOnSurface(query, exact.points), `pair ${i}`).toBe(true);
        if (funnel.status !== "complete") continue;
        complete++;
        expect(lengthXZ(exact.points), `pair ${i}`).toBeLessThanOrEqual(
          lengthXZ(funnel.points) * (1 + 1e-9) + tol,
        );
      }
      expect(complete).toBeGreaterThan(PAIRS / 5);
    });
  },
);
