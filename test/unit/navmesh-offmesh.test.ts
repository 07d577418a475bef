import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { polyHeight } from "../../src/navmesh/geometry.js";
import type { NavMesh, OffMeshConnection } from "../../src/navmesh/nav-mesh.js";
import {
  collectNeighbours,
  getPolyArea,
  getPolyFlags,
  getPortalPoints,
  MAX_NEIGHBOURS,
} from "../../src/navmesh/neighbours.js";
import { OFF_MESH_SLOT, polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { SceneBuilder } from "../helpers/scenes.js";

// ---------------------------------------------------------------------------------------------

/** One 10 × 10 quad at height y in tile (tx, tz) of a 10-unit grid. */
function quadTile(tx: number, tz: number, y: number): NavMeshTile {
  const x0 = tx * 10;
  const z0 = tz * 10;
  return handTile({
    verts: [x0, y, z0, x0, y, z0 + 10, x0 + 10, y, z0 + 10, x0 + 10, y, z0],
    polys: [[0, 1, 2, 3]],
    tileX: tx,
    tileZ: tz,
    bmin: [x0, y, z0],
    bmax: [x0 + 10, y, z0 + 10],
  });
}

const refs = new Float64Array(MAX_NEIGHBOURS);
const edges = new Int32Array(MAX_NEIGHBOURS);
function neighbours(nm: NavMesh, ref: number): [number, number][] {
  const n = collectNeighbours(nm, ref, refs, edges);
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) out.push([refs[i]!, edges[i]!]);
  return out;
}

const jump = (over: Partial<OffMeshConnection> = {}): OffMeshConnection => ({
  start: [5, 0, 5],
  end: [35, 2, 5],
  radius: 1,
  bidirectional: false,
  area: 5,
  flags: 4,
  ...over,
});

/** Tile A (0, 0) at y 0 and tile C (3, 0) at y 2: not grid neighbours. */
function twoIslands(): { nm: NavMesh; refA: number; refC: number } {
  const nm = navMeshFor(10, 10);
  const refA = nm.addTile(quadTile(0, 0, 0));
  const refC = nm.addTile(quadTile(3, 0, 2));
  return { nm, refA, refC };
}

const left = new Float64Array(3);
const right = new Float64Array(3);

describe("off-mesh connections", () => {
  it("link both ends to the ground polygon under them, across tiles that are not neighbours", () => {
    const { nm, refA, refC } = twoIslands();
    const ref = nm.addOffMeshConnection(jump());
    expect(tileOfRef(ref)).toBe(OFF_MESH_SLOT);
    expect(nm.isValidPolyRef(ref)).toBe(true);
    const info = nm.offMeshConnection(ref)!;
    expect(info.startPoly).toBe(refA);
    expect(info.endPoly).toBe(refC);
    expect(info.snappedStart).toEqual([5, 0, 5]);
    expect(info.snappedEnd).toEqual([35, 2, 5]);
    expect(info.area).toBe(5);
    expect(nm.offMeshConnectionRefs()).toEqual([ref]);
    expect(getPolyArea(nm, ref)).toBe(5);
    expect(getPolyFlags(nm, ref)).toBe(4);
    expect(getPolyArea(nm, refA)).toBe(63);
    expect(getPolyFlags(nm, refA)).toBe(1);
  });

  it("snap ends onto the surface: heights from the detail mesh, outside points to the nearest edge", () => {
    const { nm, refA } = twoIslands();
    const ref = nm.addOffMeshConnection(jump({ start: [-0.5, 0.3, 5], end: [35, 2.4, 5] }));
    const info = nm.offMeshConnection(ref)!;
    expect(info.startPoly).toBe(refA);
    expect(info.snappedStart).toEqual([0, 0, 5]);
    expect(info.snappedEnd).toEqual([35, 2, 5]);
  });

  it("leave an end unlinked when no polygon lies within radius on XZ or within climb in height", () => {
    const { nm } = twoIslands();
    const far = nm.offMeshConnection(
      nm.addOffMeshConnection(jump({ start: [-0.5, 0, 5], radius: 0.3 })),
    )!;
    expect(far.startPoly).toBe(0);
    expect(far.snappedStart).toEqual([-0.5, 0, 5]);
    expect(far.endPoly).not.toBe(0);
    // 1.5 above the ground with climb 0.5: out of the search box.
    const high = nm.offMeshConnection(nm.addOffMeshConnection(jump({ start: [5, 1.5, 5] })))!;
    expect(high.startPoly).toBe(0);
  });

  it("one-way connections are entered only at the start; bidirectional ones at both ends", () => {
    const { nm, refA, refC } = twoIslands();
    const oneWay = nm.addOffMeshConnection(jump());
    expect(neighbours(nm, refA)).toEqual([[oneWay, -1]]);
    expect(neighbours(nm, refC)).toEqual([]);
    // The connection itself leads to both landings (edges -1: off-mesh ends).
    expect(neighbours(nm, oneWay)).toEqual([
      [refA, -1],
      [refC, -1],
    ]);
    const both = nm.addOffMeshConnection(
      jump({ bidirectional: true, start: [6, 0, 6], end: [36, 2, 6] }),
    );
    expect(neighbours(nm, refA).map((n) => n[0])).toEqual([both, oneWay]);
    expect(neighbours(nm, refC)).toEqual([[both, -1]]);
  });

  it("portal points of a connection are its snapped end on the other polygon's side", () => {
    const { nm, refA, refC } = twoIslands();
    const ref = nm.addOffMeshConnection(jump({ start: [5, 0.2, 5] }));
    expect(getPortalPoints(nm, refA, ref, left, right)).toBe(true);
    expect([...left]).toEqual([5, 0, 5]);
    expect([...right]).toEqual([5, 0, 5]);
    expect(getPortalPoints(nm, ref, refC, left, right)).toBe(true);
    expect([...left]).toEqual([35, 2, 5]);
    expect([...right]).toEqual([35, 2, 5]);
    expect(getPortalPoints(nm, refC, refA, left, right)).toBe(false);
  });

  it("removal invalidates the ref and drops every link; refs are never reused", () => {
    const { nm, refA } = twoIslands();
    const ref = nm.addOffMeshConnection(jump({ bidirectional: true }));
    nm.removeOffMeshConnection(ref);
    expect(nm.isValidPolyRef(ref)).toBe(false);
    expect(nm.offMeshConnection(ref)).toBeNull();
    expect(neighbours(nm, refA)).toEqual([]);
    expect(getPortalPoints(nm, refA, ref, left, right)).toBe(false);
    expect(() => nm.removeOffMeshConnection(ref)).toThrow(MeshwayError);
    const again = nm.addOffMeshConnection(jump());
    expect(again).not.toBe(ref);
    expect(nm.offMeshConnectionRefs()).toEqual([again]);
  });

  it("re-land when tiles come and go", () => {
    const nm = navMeshFor(10, 10);
    const refA = nm.addTile(quadTile(0, 0, 0));
    // Added before its end tile exists: the end waits unlinked.
    const ref = nm.addOffMeshConnection(jump({ bidirectional: true }));
    expect(nm.offMeshConnection(ref)!.endPoly).toBe(0);
    const refC = nm.addTile(quadTile(3, 0, 2));
    expect(nm.offMeshConnection(ref)!.endPoly).toBe(refC);
    expect(neighbours(nm, refC)).toEqual([[ref, -1]]);
    const c = nm.removeTile(refC);
    const info = nm.offMeshConnection(ref)!;
    expect(info.endPoly).toBe(0);
    expect(info.startPoly).toBe(refA);
    expect(info.snappedEnd).toEqual([35, 2, 5]);
    expect(neighbours(nm, ref)).toEqual([[refA, -1]]);
    const refC2 = nm.addTile(c);
    expect(nm.offMeshConnection(ref)!.endPoly).toBe(refC2);
  });

  it("land on the nearest polygon over all tiles, preferring the layer the end stands on", () => {
    const nm = navMeshFor(10, 10);
    const low = nm.addTile(quadTile(0, 0, 0));
    const high = nm.addTile(quadTile(0, 0, 3)); // a second layer at the same grid cell
    const up = nm.offMeshConnection(
      nm.addOffMeshConnection(jump({ start: [5, 3.2, 5], end: [5, 0.1, 5] })),
    )!;
    expect(up.startPoly).toBe(high);
    expect(up.endPoly).toBe(low);
    expect(up.snappedStart).toEqual([5, 3, 5]);
    expect(up.snappedEnd).toEqual([5, 0, 5]);
    // Between two tiles side by side, the closer edge wins.
    const side = navMeshFor(10, 10);
    const west = side.addTile(quadTile(0, 0, 0));
    const east = side.addTile(quadTile(1, 1, 0)); // diagonal: x 10..20, z 10..20
    const toWest = side.offMeshConnection(
      side.addOffMeshConnection(jump({ end: [10.2, 0, 9.5] })),
    )!;
    expect(toWest.endPoly).toBe(west);
    expect(toWest.snappedEnd).toEqual([10, 0, 9.5]);
    const toEast = side.offMeshConnection(
      side.addOffMeshConnection(jump({ end: [10.6, 0, 9.8] })),
    )!;
    expect(toEast.endPoly).toBe(east);
    expect(toEast.snappedEnd[0]).toBeCloseTo(10.6, 6);
    expect(toEast.snappedEnd[2]).toBe(10);
  });

  it("are never returned by queryPolygons", () => {
    const { nm, refA } = twoIslands();
    nm.addOffMeshConnection(jump());
    const out = new Float64Array(8);
    const n = nm.queryPolygons([0, -1, 0], [10, 1, 10], null, out);
    expect([...out.slice(0, n)]).toEqual([refA]);
  });

  it("reject malformed connections with INVALID_ARGUMENT", () => {
    const { nm } = twoIslands();
    const bad: Partial<OffMeshConnection>[] = [
      { start: [Number.NaN, 0, 0] },
      { end: [1, 2] as unknown as [number, number, number] },
      { radius: -1 },
      { area: 64 },
      { area: 1.5 },
      { flags: 0x10000 },
      { cost: -2 },
    ];
    for (const b of bad) {
      let err: unknown;
      try {
        nm.addOffMeshConnection(jump(b));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MeshwayError);
      expect((err as MeshwayError).code).toBe("INVALID_ARGUMENT");
    }
    expect(nm.offMeshConnectionRefs()).toEqual([]);
  });

  it("on a built scene, a ladder from the floor to a box top lands on both surfaces", () => {
    const scene = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 4, 2, 4).build();
    const { navMesh } = buildNavMesh(scene, {
      cellSize: 0.25,
      cellHeight: 0.125,
      agentRadius: 0.25,
      agentMaxClimb: 0.5,
    });
    const ref = navMesh.addOffMeshConnection(
      jump({ start: [1.5, 0, 5], end: [4, 2, 5], radius: 0.5 }),
    );
    const info = navMesh.offMeshConnection(ref)!;
    expect(info.startPoly).not.toBe(0);
    expect(info.endPoly).not.toBe(0);
    for (const [poly, p] of [
      [info.startPoly, info.snappedStart],
      [info.endPoly, info.snappedEnd],
    ] as const) {
      const tile = navMesh.tileInSlot(tileOfRef(poly))!;
      expect(polyHeight(tile, polyOfRef(poly), p[0], p[2])).toBeCloseTo(p[1], 5);
    }
    expect(info.snappedEnd[1]).toBeGreaterThan(1.9);
    expect(info.snappedStart[1]).toBeLessThan(0.3);
  });
});
