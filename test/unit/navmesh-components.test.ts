import { beforeAll, describe, expect, it } from "vitest";
import {
  countConnectedComponents,
  labelConnectedComponents,
} from "../../src/navmesh/components.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours, MAX_NEIGHBOURS } from "../../src/navmesh/neighbours.js";
import { isOffMeshRef, type PolyRef } from "../../src/navmesh/poly-ref.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";
import { TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

/** One 10 × 10 quad at height y in tile (tx, tz) of a 10-unit grid. */
function quadTile(tx: number, tz: number, y = 0): NavMeshTile {
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

/**
 * Reference count: breadth-first search over collectNeighbours (same-tile edges, tile portals,
 * off-mesh connections as graph nodes), every step taken both ways; components counted over
 * the ground polygons.
 */
function bfsComponents(nm: NavMesh): number {
  const adjacency = new Map<PolyRef, PolyRef[]>();
  const link = (a: PolyRef, b: PolyRef) => {
    if (!adjacency.has(a)) adjacency.set(a, []);
    adjacency.get(a)!.push(b);
  };
  const ground: PolyRef[] = [];
  for (let s = 0; s < nm.slotCount; s++) {
    const tile = nm.tileInSlot(s);
    if (tile === null) continue;
    for (let p = 0; p < tile.polyCount; p++) ground.push(nm.polyRef(s, p));
  }
  for (const r of [...ground, ...nm.offMeshConnectionRefs()]) {
    const n = collectNeighbours(nm, r, refs, edges);
    for (let i = 0; i < n; i++) {
      link(r, refs[i]!);
      link(refs[i]!, r);
    }
  }
  const seen = new Set<PolyRef>();
  let components = 0;
  for (const start of ground) {
    if (seen.has(start)) continue;
    components++;
    const queue = [start];
    seen.add(start);
    while (queue.length > 0) {
      const r = queue.shift()!;
      for (const o of adjacency.get(r) ?? []) {
        if (!seen.has(o)) {
          seen.add(o);
          queue.push(o);
        }
      }
    }
  }
  return components;
}

describe("countConnectedComponents", () => {
  it("follows tile portals: a 3 × 1 row of tiles is one component, not three", () => {
    const nm = navMeshFor(10, 10);
    for (let x = 0; x < 3; x++) nm.addTile(quadTile(x, 0));
    expect(countConnectedComponents(nm)).toBe(1);
    expect(bfsComponents(nm)).toBe(1);
  });

  it("follows off-mesh connections: two islands joined by a jump are one component", () => {
    const nm = navMeshFor(10, 10);
    nm.addTile(quadTile(0, 0));
    nm.addTile(quadTile(3, 0));
    expect(countConnectedComponents(nm)).toBe(2);
    const jump = nm.addOffMeshConnection({
      start: [9, 0, 5],
      end: [31, 0, 5],
      radius: 0.5,
      bidirectional: false,
      area: 0,
      flags: 1,
    });
    expect(countConnectedComponents(nm)).toBe(1);
    nm.removeOffMeshConnection(jump);
    expect(countConnectedComponents(nm)).toBe(2);
  });

  it("counts islands and drops a removed tile's polygons", () => {
    const nm = navMeshFor(10, 10);
    const a = nm.addTile(quadTile(0, 0));
    nm.addTile(quadTile(1, 0));
    nm.addTile(quadTile(5, 5));
    expect(countConnectedComponents(nm)).toBe(2);
    nm.removeTile(a);
    expect(countConnectedComponents(nm)).toBe(2);
    expect(countConnectedComponents(navMeshFor(10, 10))).toBe(0);
  });

  it("leaves out flags-0 polygons only when asked (enabledOnly: the shortest-path pruning)", () => {
    const nm = navMeshFor(10, 10);
    for (let x = 0; x < 3; x++) nm.addTile(quadTile(x, 0));
    nm.tileInSlot(2)!.polyFlags[0] = 0;
    expect(countConnectedComponents(nm)).toBe(1);
    const enabled = labelConnectedComponents(nm, true);
    expect(enabled.count).toBe(2);
    expect(enabled.labels[2]![0]).toBe(-1);
    expect(enabled.labels[1]![0]).not.toBe(enabled.labels[3]![0]);
  });

  describe("on a tiled build (96 m scene, 32-cell tiles)", () => {
    let nm: NavMesh;
    beforeAll(async () => {
      nm = (await buildTiledNavMesh(tiledScene(), TILED_CONFIG)).navMesh;
    });

    it("equals a breadth-first search over the neighbour links, with and without off-mesh links", () => {
      expect(nm.tiles.length).toBeGreaterThan(9);
      const expected = bfsComponents(nm);
      expect(countConnectedComponents(nm)).toBe(expected);
      // Per-tile counting (the old behaviour) would count at least one component per tile.
      expect(expected).toBeLessThan(nm.tiles.length);
      // A jump from the floor onto the deck, and one between two far corners.
      nm.addOffMeshConnection({
        start: [64, 0, 80],
        end: [68, 3, 80],
        radius: 1,
        bidirectional: true,
        area: 0,
        flags: 1,
      });
      nm.addOffMeshConnection({
        start: [2, 0, 2],
        end: [94, 0, 2],
        radius: 1,
        bidirectional: false,
        area: 0,
        flags: 1,
      });
      expect(nm.offMeshConnectionRefs().every(isOffMeshRef)).toBe(true);
      expect(countConnectedComponents(nm)).toBe(bfsComponents(nm));
    });
  });
});
