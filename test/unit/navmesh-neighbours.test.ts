import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import {
  collectNeighbours,
  getPolyArea,
  getPolyFlags,
  getPortalPoints,
  MAX_NEIGHBOURS,
} from "../../src/navmesh/neighbours.js";
import { encodePolyRef, polyOfRef } from "../../src/navmesh/poly-ref.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { SceneBuilder } from "../helpers/scenes.js";

// ---------------------------------------------------------------------------------------------

/**
 * Three polygons in one tile: quads Q0 (x 0..2) and Q1 (x 2..4) over z 0..4, and a triangle
 * T2 north of Q1 sharing Q1's edge z = 4 from x 2 to 4.
 */
function threePolys(): NavMeshTile {
  return handTile({
    verts: [0, 0, 0, 0, 0, 4, 2, 0, 4, 2, 0, 0, 4, 0, 4, 4, 0, 0, 3, 0, 6],
    polys: [
      [0, 1, 2, 3],
      [3, 2, 4, 5],
      [2, 6, 4],
    ],
    areas: [1, 2, 3],
    flags: [1, 2, 4],
    bmin: [-10, 0, -10],
    bmax: [10, 0, 10],
  });
}

const refs = new Float64Array(MAX_NEIGHBOURS);
const edges = new Int32Array(MAX_NEIGHBOURS);
const left = new Float64Array(3);
const right = new Float64Array(3);

describe("polygon neighbours", () => {
  it("collectNeighbours lists same-tile neighbours with the edge crossed", () => {
    const nm = navMeshFor(20, 20, [-10, 0, -10]);
    const base = nm.addTile(threePolys());
    const n0 = collectNeighbours(nm, base, refs, edges);
    expect([...refs.slice(0, n0)]).toEqual([base + 1]);
    expect([...edges.slice(0, n0)]).toEqual([2]);
    const n1 = collectNeighbours(nm, base + 1, refs, edges);
    expect([...refs.slice(0, n1)]).toEqual([base, base + 2]);
    expect([...edges.slice(0, n1)]).toEqual([0, 1]);
    const n2 = collectNeighbours(nm, base + 2, refs, edges);
    expect([...refs.slice(0, n2)]).toEqual([base + 1]);
    expect([...edges.slice(0, n2)]).toEqual([2]);
  });

  it("collectNeighbours stops at the buffers' length and returns 0 for a removed tile's refs", () => {
    const nm = navMeshFor(20, 20, [-10, 0, -10]);
    const base = nm.addTile(threePolys());
    expect(collectNeighbours(nm, base + 1, new Float64Array(1), new Int32Array(1))).toBe(1);
    nm.removeTile(base);
    expect(collectNeighbours(nm, base + 1, refs, edges)).toBe(0);
  });

  it("getPortalPoints returns the shared edge, left = its first vertex in the from-polygon's winding", () => {
    const nm = navMeshFor(20, 20, [-10, 0, -10]);
    const base = nm.addTile(threePolys());
    expect(getPortalPoints(nm, base, base + 1, left, right)).toBe(true);
    expect([...left]).toEqual([2, 0, 4]);
    expect([...right]).toEqual([2, 0, 0]);
    expect(getPortalPoints(nm, base + 1, base, left, right)).toBe(true);
    expect([...left]).toEqual([2, 0, 0]);
    expect([...right]).toEqual([2, 0, 4]);
    expect(getPortalPoints(nm, base + 1, base + 2, left, right)).toBe(true);
    expect([...left]).toEqual([2, 0, 4]);
    expect([...right]).toEqual([4, 0, 4]);
    // Not adjacent (Q0 and T2 only share a vertex), or not a polygon at all.
    expect(getPortalPoints(nm, base, base + 2, left, right)).toBe(false);
    expect(getPortalPoints(nm, base, encodePolyRef(1, 7, 0), left, right)).toBe(false);
  });

  it("getPolyArea and getPolyFlags read ground polygons and report dead refs", () => {
    const nm = navMeshFor(20, 20, [-10, 0, -10]);
    const base = nm.addTile(threePolys());
    expect([0, 1, 2].map((i) => getPolyArea(nm, base + i))).toEqual([1, 2, 3]);
    expect([0, 1, 2].map((i) => getPolyFlags(nm, base + i))).toEqual([1, 2, 4]);
    expect(getPolyArea(nm, base + 3)).toBe(-1);
    expect(getPolyFlags(nm, base + 3)).toBe(0);
  });

  it("on built scenes, adjacency is symmetric and each portal is the reverse of its twin", () => {
    const scene = new SceneBuilder()
      .floor(0, 0, 12, 12)
      .box(4, 0, 4, 2, 2, 2)
      .box(8, 0, 8, 2, 1, 3, 0.4)
      .ramp(12, 16, 0, 6, 0, 1)
      .build();
    const { navMesh } = buildNavMesh(scene, { cellSize: 0.2, cellHeight: 0.1, agentRadius: 0.3 });
    const tile = navMesh.tiles[0]!;
    const slot = 1; // slot 0 holds the off-mesh connections
    const back = new Float64Array(MAX_NEIGHBOURS);
    const backEdges = new Int32Array(MAX_NEIGHBOURS);
    const l2 = new Float64Array(3);
    const r2 = new Float64Array(3);
    let portals = 0;
    for (let p = 0; p < tile.polyCount; p++) {
      const ref = navMesh.polyRef(slot, p);
      const n = collectNeighbours(navMesh, ref, refs, edges);
      for (let i = 0; i < n; i++) {
        const other = refs[i]!;
        const m = collectNeighbours(navMesh, other, back, backEdges);
        expect([...back.slice(0, m)]).toContain(ref);
        expect(getPortalPoints(navMesh, ref, other, left, right)).toBe(true);
        expect(getPortalPoints(navMesh, other, ref, l2, r2)).toBe(true);
        expect([...left]).toEqual([...r2]);
        expect([...right]).toEqual([...l2]);
        // The portal is edge edges[i] of p.
        const nvp = tile.maxVertsPerPoly;
        const v = tile.polyVerts[p * nvp + edges[i]!]!;
        expect([...left]).toEqual([...tile.vertices.slice(v * 3, v * 3 + 3)]);
        expect(polyOfRef(other)).not.toBe(p);
        portals++;
      }
    }
    expect(portals).toBeGreaterThan(0);
    expect(portals % 2).toBe(0);
  });
});
