/**
 * The query fast paths give the results of the plain rules they replace: findNearestPoly's
 * two passes (polygons the point is over first, the others only when a lower bound lets them
 * win) against a single pass over the candidates in queryPolygons order, and the A*'s
 * per-tile adjacency against a walk over the tile's polyNeighbours.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { closestPointOnPoly } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../../src/navmesh/tile.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { tileAdjacency } from "../../src/query/tile-adjacency.js";
import { loadSharedMesh } from "../helpers/meshes.js";

// nav_test has stacked floors, ramps and detailed slopes: many candidates per box.
const navMesh: NavMesh = buildNavMesh(loadSharedMesh("nav_test")).navMesh;

/** Detour's rule in one pass: the nearest candidate, the first in candidate order on ties. */
function nearestByRule(
  nm: NavMesh,
  c: readonly number[],
  ext: readonly number[],
  filter: QueryFilter,
): { ref: number; point: number[]; over: boolean } {
  const refs = new Float64Array(4096);
  const bmin = [c[0]! - ext[0]!, c[1]! - ext[1]!, c[2]! - ext[2]!];
  const bmax = [c[0]! + ext[0]!, c[1]! + ext[1]!, c[2]! + ext[2]!];
  const n = nm.queryPolygons(bmin, bmax, filter, refs);
  const p = new Float64Array(3);
  let best = { ref: 0, point: [c[0]!, c[1]!, c[2]!], over: false };
  let bestD = Infinity;
  for (let i = 0; i < n; i++) {
    const ref = refs[i]!;
    const tile = nm.tileInSlot(tileOfRef(ref))!;
    const over = closestPointOnPoly(tile, polyOfRef(ref), c[0]!, c[1]!, c[2]!, p);
    let d: number;
    if (over) {
      const dy = Math.abs(c[1]! - p[1]!) - nm.agentMaxClimb;
      d = dy > 0 ? dy * dy : 0;
    } else {
      d = (c[0]! - p[0]!) ** 2 + (c[1]! - p[1]!) ** 2 + (c[2]! - p[2]!) ** 2;
    }
    if (d < bestD) {
      bestD = d;
      best = { ref, point: [p[0]!, p[1]!, p[2]!], over };
    }
  }
  return best;
}

describe("findNearestPoly's two passes", () => {
  it("pick the polygon, point and over flag of the one-pass rule for any point and box", () => {
    const q = new NavMeshQuery(navMesh);
    const filter = new QueryFilter();
    const out = createNearestPolyResult();
    const [x0, y0, z0] = navMesh.bmin;
    const [x1, y1, z1] = navMesh.bmax;
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom([0.2, 0.5, 0.2], [1, 1, 1], [2, 4, 2], [6, 8, 6]),
        (u, v, w, ext) => {
          const c = [x0 + u * (x1 - x0), y0 - 1 + v * (y1 - y0 + 2), z0 + w * (z1 - z0)];
          const want = nearestByRule(navMesh, c, ext, filter);
          const ref = q.findNearestPoly(c, ext, filter, out);
          expect(ref).toBe(want.ref);
          expect(Array.from(out.point)).toEqual(want.point);
          expect(out.isOverPoly).toBe(want.over);
        },
      ),
      { numRuns: 3000, seed: 0x5eed },
    );
  });
});

describe("tileAdjacency", () => {
  it("lists each polygon's same-tile neighbours in edge order with bit-exact edge midpoints", () => {
    const tile = navMesh.tiles[0]!;
    const adj = tileAdjacency(tile);
    const nvp = tile.maxVertsPerPoly;
    const v = tile.vertices;
    let k = 0;
    for (let p = 0; p < tile.polyCount; p++) {
      expect(adj.first[p]).toBe(k);
      const n = tile.polyVertCount[p]!;
      for (let e = 0; e < n; e++) {
        const nb = tile.polyNeighbours[p * nvp + e]!;
        if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) continue;
        const a = tile.polyVerts[p * nvp + e]! * 3;
        const b = tile.polyVerts[p * nvp + ((e + 1) % n)]! * 3;
        expect(adj.poly[k]).toBe(nb - 1);
        expect(adj.mid[k * 3]).toBe((v[a]! + v[b]!) * 0.5);
        expect(adj.mid[k * 3 + 1]).toBe((v[a + 1]! + v[b + 1]!) * 0.5);
        expect(adj.mid[k * 3 + 2]).toBe((v[a + 2]! + v[b + 2]!) * 0.5);
        k++;
      }
    }
    expect(adj.first[tile.polyCount]).toBe(k);
    expect(k).toBeGreaterThan(tile.polyCount);
  });

  it("is built once per tile", () => {
    const tile = navMesh.tiles[0]!;
    expect(tileAdjacency(tile)).toBe(tileAdjacency(tile));
  });
});
