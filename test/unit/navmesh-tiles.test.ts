import { describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import {
  collectNeighbours,
  getPortalPoints,
  MAX_NEIGHBOURS,
} from "../../src/navmesh/neighbours.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../src/navmesh/tile.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";

// ---------------------------------------------------------------------------------------------

/** Tile (0, 0): one quad over x 0..10, z zmin..zmax (default the whole tile), at height y. */
function tileA(y = 0, zmin = 0, zmax = 10): NavMeshTile {
  return handTile({
    verts: [0, y, zmin, 0, y, zmax, 10, y, zmax, 10, y, zmin],
    polys: [[0, 1, 2, 3]],
    bmin: [0, y, 0],
    bmax: [10, y, 10],
  });
}

/** Tile (1, 0): two quads over x 10..20, z 0..5 and 5..10 (or only z 5..10 when `upperOnly`). */
function tileB(y = 0, upperOnly = false): NavMeshTile {
  const verts = [10, y, 0, 10, y, 5, 20, y, 5, 20, y, 0, 10, y, 10, 20, y, 10];
  return handTile({
    verts,
    polys: upperOnly
      ? [[1, 4, 5, 2]]
      : [
          [0, 1, 2, 3],
          [1, 4, 5, 2],
        ],
    tileX: 1,
    bmin: [10, y, 0],
    bmax: [20, y, 10],
  });
}

const refs = new Float64Array(MAX_NEIGHBOURS);
const edges = new Int32Array(MAX_NEIGHBOURS);

/** Neighbours of ref as [slot, poly, edge] triples, sorted. */
function neighbours(nm: NavMesh, ref: number): number[][] {
  const n = collectNeighbours(nm, ref, refs, edges);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) out.push([tileOfRef(refs[i]!), polyOfRef(refs[i]!), edges[i]!]);
  return out.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
}

/** Every link of every tile as "slot:poly→slot:poly@edge[bmin,bmax]", sorted. */
function linkSummary(nm: NavMesh): string[] {
  const out: string[] = [];
  nm.slots.forEach((s) => {
    if (!s.tile) return;
    for (let p = 0; p < s.tile.polyCount; p++) {
      for (let l = s.links.first[p]!; l >= 0; l = s.links.next[l]!) {
        const r = s.links.ref[l]!;
        const t = nm.tileInSlot(tileOfRef(r))!;
        out.push(
          `${s.tile.tileX}:${p}->${t.tileX}:${polyOfRef(r)}@${s.links.edge[l]}/${s.links.side[l]}[${s.links.bmin[l]},${s.links.bmax[l]}]`,
        );
      }
    }
  });
  return out.sort();
}

const left = new Float64Array(3);
const right = new Float64Array(3);

describe("cross-tile portals", () => {
  it("hand-built tiles flag their border edges with the Recast side (0 -x, 1 +z, 2 +x, 3 -z)", () => {
    const a = tileA();
    expect([...a.polyNeighbours.slice(0, 4)]).toEqual(
      [0, 1, 2, 3].map((s) => (EDGE_TILE_BORDER | s) >>> 0),
    );
    const b = tileB();
    // Quad 0: edge 0 on x = 10 (side 0), edge 1 shared with quad 1, edge 2 on x = 20, edge 3 on z = 0.
    expect([...b.polyNeighbours.slice(0, 4)]).toEqual([
      (EDGE_TILE_BORDER | 0) >>> 0,
      2,
      (EDGE_TILE_BORDER | 2) >>> 0,
      (EDGE_TILE_BORDER | 3) >>> 0,
    ]);
    expect(EDGE_WALL).toBe(0);
  });

  it("adding the second tile links matching border edges both ways, with portal sub-ranges", () => {
    const nm = navMeshFor(10, 10);
    const refA = nm.addTile(tileA());
    expect(linkSummary(nm)).toEqual([]);
    const refB = nm.addTile(tileB());
    expect(linkSummary(nm)).toEqual([
      // A's edge 2 runs from z = 10 to z = 0: quad B0 covers its second half, B1 its first.
      "0:0->1:0@2/2[128,255]",
      "0:0->1:1@2/2[0,128]",
      "1:0->0:0@0/0[0,255]",
      "1:1->0:0@0/0[0,255]",
    ]);
    const slotA = tileOfRef(refA);
    const slotB = tileOfRef(refB);
    expect(neighbours(nm, refA)).toEqual([
      [slotB, 0, 2],
      [slotB, 1, 2],
    ]);
    // B0 sees B1 through its shared edge 1 and A through edge 0.
    expect(neighbours(nm, refB)).toEqual([
      [slotA, 0, 0],
      [slotB, 1, 1],
    ]);
  });

  it("getPortalPoints clips a cross-tile portal to the part of the edge both polygons share", () => {
    const nm = navMeshFor(10, 10);
    const refA = nm.addTile(tileA());
    const refB0 = nm.addTile(tileB());
    const refB1 = refB0 + 1;
    expect(getPortalPoints(nm, refA, refB0, left, right)).toBe(true);
    // Walking A → B0 through A's edge (10,0,10) → (10,0,0), clipped to z in [0, 5] (1/255 steps).
    expect(left[0]).toBe(10);
    expect(left[2]).toBeCloseTo(5, 1);
    expect([...right]).toEqual([10, 0, 0]);
    expect(getPortalPoints(nm, refA, refB1, left, right)).toBe(true);
    expect([...left]).toEqual([10, 0, 10]);
    expect(right[2]).toBeCloseTo(5, 1);
    // From B0's side the whole edge (10,0,0) → (10,0,5) is the portal, wound the other way.
    expect(getPortalPoints(nm, refB0, refA, left, right)).toBe(true);
    expect([...left]).toEqual([10, 0, 0]);
    expect([...right]).toEqual([10, 0, 5]);
  });

  it("links the same way whichever tile comes first", () => {
    const ab = navMeshFor(10, 10);
    ab.addTile(tileA());
    ab.addTile(tileB());
    const ba = navMeshFor(10, 10);
    ba.addTile(tileB());
    ba.addTile(tileA());
    expect(linkSummary(ba)).toEqual(linkSummary(ab));
  });

  it("does not link edges that only touch at an end point", () => {
    const nm = navMeshFor(10, 10);
    nm.addTile(tileA(0, 0, 5));
    nm.addTile(tileB(0, true));
    expect(linkSummary(nm)).toEqual([]);
  });

  it("links across a height step up to twice the agent climb, not beyond", () => {
    // agentMaxClimb = 0.5: Detour's slab test accepts |dy| <= 2 * climb.
    for (const [dy, linked] of [
      [0.9, true],
      [1.1, false],
    ] as const) {
      const nm = navMeshFor(10, 10);
      nm.addTile(tileA(0));
      nm.addTile(tileB(dy));
      expect(linkSummary(nm).length > 0).toBe(linked);
    }
  });

  it("does not link tiles that are not grid neighbours", () => {
    const nm = navMeshFor(10, 10);
    nm.addTile(tileA());
    const far = tileB();
    far.tileX = 3; // same geometry, wrong grid cell
    nm.addTile(far);
    expect(linkSummary(nm)).toEqual([]);
  });

  it("removing a tile drops its neighbours' portals; re-adding restores them under a new salt", () => {
    const nm = navMeshFor(10, 10);
    const refA = nm.addTile(tileA());
    const refB = nm.addTile(tileB());
    const before = linkSummary(nm);
    const b = nm.removeTile(refB);
    expect(nm.isValidPolyRef(refB)).toBe(false);
    expect(linkSummary(nm)).toEqual([]);
    expect(neighbours(nm, refA)).toEqual([]);
    expect(getPortalPoints(nm, refA, refB, left, right)).toBe(false);
    const refB2 = nm.addTile(b);
    expect(refB2).not.toBe(refB);
    expect(tileOfRef(refB2)).toBe(tileOfRef(refB));
    expect(linkSummary(nm)).toEqual(before);
    expect(getPortalPoints(nm, refA, refB2, left, right)).toBe(true);
    expect(getPortalPoints(nm, refA, refB, left, right)).toBe(false);
  });

  it("queryPolygons finds polygons in every tile the box touches and applies the filter", () => {
    const nm = navMeshFor(10, 10);
    const refA = nm.addTile(tileA());
    const bTile = tileB();
    bTile.polyFlags[1] = 2;
    const refB = nm.addTile(bTile);
    const out = new Float64Array(16);
    const n = nm.queryPolygons([8, -1, 4], [12, 1, 6], null, out);
    expect([...out.slice(0, n)].sort()).toEqual([refA, refB, refB + 1].sort());
    const walkOnly = new QueryFilter();
    walkOnly.includeFlags = 1;
    const m = nm.queryPolygons([8, -1, 4], [12, 1, 6], walkOnly, out);
    expect([...out.slice(0, m)].sort()).toEqual([refA, refB].sort());
    // Only tile (1, 0) and only its lower quad.
    const k = nm.queryPolygons([15, -1, 1], [16, 1, 2], null, out);
    expect([...out.slice(0, k)]).toEqual([refB]);
    // Boxes outside the grid or above the surface find nothing.
    expect(nm.queryPolygons([-50, -1, -50], [-40, 1, -40], null, out)).toBe(0);
    expect(nm.queryPolygons([1, 5, 1], [19, 6, 9], null, out)).toBe(0);
    // Output capacity bounds the count.
    expect(nm.queryPolygons([0, -1, 0], [20, 1, 10], null, new Float64Array(2))).toBe(2);
  });
});
