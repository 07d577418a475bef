import { beforeAll, describe, expect, it } from "vitest";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours, getPortalPoints } from "../../src/navmesh/neighbours.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { buildSlotGraph, CROSS_STATE, slotGraphCurrent } from "../../src/query/slot-graph.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { TILED_CONFIG, TILED_SCENE_SIZE, tiledScene } from "../helpers/tiled-scene.js";

let nm: NavMesh;

beforeAll(async () => {
  nm = (await buildTiledNavMesh(tiledScene(), TILED_CONFIG)).navMesh;
});

/** Seeded start/end pairs over the scene's floor (some miss the mesh: that is fine). */
function pairs(n: number, seed: number): [number, number, number][][] {
  const rand = mulberry32(seed);
  const p = (): [number, number, number] => [
    rand() * TILED_SCENE_SIZE,
    0.2,
    rand() * TILED_SCENE_SIZE,
  ];
  return Array.from({ length: n }, () => [p(), p()]);
}

function paths(q: NavMeshQuery, ps: [number, number, number][][]) {
  return ps.map(([a, b]) => q.computePath(a!, b!, { halfExtents: [1, 2, 1] }));
}

describe("SlotGraph", () => {
  it("lists each polygon's same-tile neighbours then its links, with the search's portal midpoints", () => {
    const l = new Float64Array(3);
    const r = new Float64Array(3);
    const refs = new Float64Array(64);
    const edges = new Int32Array(64);
    let portals = 0;
    for (let s = 1; s < nm.slots.length; s++) {
      const slot = nm.slots[s]!;
      const tile = slot.tile;
      if (!tile) continue;
      const g = buildSlotGraph(nm, s, slot.salt, tile, slot.links);
      expect(slotGraphCurrent(g, tile, slot.links)).toBe(true);
      for (let p = 0; p < tile.polyCount; p++) {
        const ref = nm.polyRef(s, p);
        const n = collectNeighbours(nm, ref, refs, edges);
        expect(g.first[p + 1]! - g.first[p]!).toBe(n);
        for (let i = 0; i < n; i++) {
          const k = g.first[p]! + i;
          expect(g.fast[k]).toBe(1);
          expect(g.ref[k]).toBe(refs[i]);
          expect(getPortalPoints(nm, ref, refs[i]!, l, r)).toBe(true);
          for (let c = 0; c < 3; c++) expect(g.mid[k * 3 + c]).toBe((l[c]! + r[c]!) * 0.5);
          if (g.slot[k] !== s) {
            portals++;
            expect(g.state[k]).toBe(CROSS_STATE[slot.links.side[g.link[k]!]!]);
          } else {
            expect(g.state[k]).toBe(0);
          }
        }
      }
    }
    expect(portals).toBeGreaterThan(100);
  });

  it("goes stale when a neighbouring tile is removed or added (the link version changes)", () => {
    const s = nm.tilesAt(5, 5)[0]!;
    const slot = nm.slots[s]!;
    const g = buildSlotGraph(nm, s, slot.salt, slot.tile!, slot.links);
    const west = nm.tilesAt(4, 5)[0]!;
    const westTile = nm.removeTile(nm.polyRef(west, 0));
    expect(slotGraphCurrent(g, slot.tile!, slot.links)).toBe(false);
    const g2 = buildSlotGraph(nm, s, slot.salt, slot.tile!, slot.links);
    expect(g2.first[g2.polyCount]).toBeLessThan(g.first[g.polyCount]!);
    nm.addTile(westTile);
    expect(slotGraphCurrent(g2, slot.tile!, slot.links)).toBe(false);
  });

  it("a query reused across tile removal and re-adding finds what a fresh query finds", () => {
    const ps = pairs(300, 11);
    const reused = new NavMeshQuery(nm, { maxNodes: 4096 });
    const before = paths(reused, ps);
    expect(before.filter((p) => p.status === "complete").length).toBeGreaterThan(150);
    // Cut a row of tiles out of the middle: paths reroute or end partial.
    const removed = [];
    for (let x = 3; x <= 8; x++) {
      for (const s of [...nm.tilesAt(x, 6)]) removed.push(nm.removeTile(nm.polyRef(s, 0)));
    }
    const cut = paths(reused, ps);
    expect(cut).toEqual(paths(new NavMeshQuery(nm, { maxNodes: 4096 }), ps));
    expect(cut).not.toEqual(before);
    for (const t of removed) nm.addTile(t);
    const again = paths(reused, ps);
    expect(again).toEqual(paths(new NavMeshQuery(nm, { maxNodes: 4096 }), ps));
    // Same geometry again (refs differ in salt where slots were reused).
    expect(again.map((p) => [p.status, p.points])).toEqual(before.map((p) => [p.status, p.points]));
  });
});
