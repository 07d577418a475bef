import { beforeAll, describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { floodFillNavMesh, isReachable, pruneUnreachable } from "../../src/navmesh/flood-fill.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours, getPolyFlags } from "../../src/navmesh/neighbours.js";
import type { PolyRef } from "../../src/navmesh/poly-ref.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { doorsScene, groundRefs } from "../helpers/doors-scene.js";
import { islands, polyAt } from "../helpers/query-scenes.js";

/** Reference: breadth-first over collectNeighbours, a Set of refs. */
function bfs(nm: NavMesh, seeds: PolyRef[], filter: QueryFilter): Set<PolyRef> {
  const out = new Set<PolyRef>();
  const queue: PolyRef[] = [];
  const refs = new Float64Array(64);
  const edges = new Int32Array(64);
  for (const s of seeds) {
    if (nm.isValidPolyRef(s) && filter.passes(getPolyFlags(nm, s)) && !out.has(s)) {
      out.add(s);
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    const r = queue.shift()!;
    const n = collectNeighbours(nm, r, refs, edges);
    for (let i = 0; i < n; i++) {
      const nb = refs[i]!;
      if (out.has(nb) || !filter.passes(getPolyFlags(nm, nb))) continue;
      out.add(nb);
      queue.push(nb);
    }
  }
  return out;
}

function flooded(nm: NavMesh, seeds: PolyRef[], filter: QueryFilter): Set<PolyRef> {
  const r = floodFillNavMesh(nm, seeds, filter);
  const out = new Set<PolyRef>();
  for (const ref of [...groundRefs(nm), ...nm.offMeshConnectionRefs()]) {
    if (isReachable(r, ref)) out.add(ref);
  }
  expect(r.polyCount + r.offMeshCount).toBe(out.size);
  return out;
}

let nm: NavMesh;
beforeAll(async () => {
  nm = await doorsScene();
});

describe("floodFillNavMesh", () => {
  it("equals a BFS over polygon links on a tiled mesh with cross-tile off-mesh links, under random closures", () => {
    const ground = groundRefs(nm);
    expect(nm.tiles.length).toBeGreaterThan(4);
    const rand = mulberry32(3);
    const filter = new QueryFilter();
    filter.excludeFlags = 2;
    for (let round = 0; round < 20; round++) {
      for (const r of ground) nm.setPolyFlags(r, rand() < 0.2 ? (rand() < 0.5 ? 0 : 3) : 1);
      const seeds = [
        ground[Math.floor(rand() * ground.length)]!,
        ground[Math.floor(rand() * ground.length)]!,
      ];
      expect(flooded(nm, seeds, filter)).toEqual(bfs(nm, seeds, filter));
    }
    for (const r of ground) nm.setPolyFlags(r, 1);
  });

  it("crosses a one-way link only from its start, and a two-way link both ways", () => {
    const f = new QueryFilter();
    const [twoWay] = nm.offMeshConnectionRefs();
    const island = polyAt(nm, 28, 11);
    const mainland = polyAt(nm, 2, 2);
    expect(island).not.toBe(0);
    // From the island: over the two-way link to the mainland, and everything there.
    const fromIsland = floodFillNavMesh(nm, [island], f);
    expect(isReachable(fromIsland, mainland)).toBe(true);
    expect(isReachable(fromIsland, twoWay!)).toBe(true);
    nm.setOffMeshConnectionEnabled(twoWay!, false);
    const cut = floodFillNavMesh(nm, [island], f);
    expect(isReachable(cut, mainland)).toBe(false);
    expect(cut.offMeshCount).toBe(0);
    nm.setOffMeshConnectionEnabled(twoWay!, true);
    // One way: from the start island to the other, not back.
    const two = islands();
    const link = two.addOffMeshConnection({
      start: [5, 0.25, 3],
      end: [9, 0.25, 3],
      radius: 0.5,
      bidirectional: false,
      area: 0,
      flags: 1,
    });
    const a = polyAt(two, 2, 3);
    const b = polyAt(two, 11, 3);
    expect(isReachable(floodFillNavMesh(two, [a]), b)).toBe(true);
    const back = floodFillNavMesh(two, [b]);
    expect([isReachable(back, a), isReachable(back, link), back.polyCount]).toEqual([
      false,
      false,
      1,
    ]);
  });

  it("throws for a malformed seed and reaches nothing from a stale or filtered one", () => {
    expect(() => floodFillNavMesh(nm, [0.5])).toThrow(/seed 0/);
    const ref = polyAt(nm, 2, 2);
    const f = new QueryFilter();
    f.includeFlags = 0x8000;
    expect(floodFillNavMesh(nm, [ref], f).polyCount).toBe(0);
  });
});

describe("pruneUnreachable", () => {
  it("sets flags 0 on what the seeds cannot reach, seen by a long-lived query", async () => {
    const m = await doorsScene();
    const q = new NavMeshQuery(m);
    const twoWay = m.offMeshConnectionRefs()[0]!;
    const island = polyAt(m, 28, 11);
    expect(q.findNearestPoly([28, 0.25, 11], [1, 1, 1])).toBe(island);
    m.setOffMeshConnectionEnabled(twoWay, false);
    const pruned = pruneUnreachable(m, [polyAt(m, 2, 2)]);
    expect(pruned).toBeGreaterThan(0);
    expect(m.getPolyFlags(island)).toBe(0);
    expect(m.getPolyFlags(polyAt(m, 2, 2))).toBe(1);
    expect(q.findNearestPoly([28, 0.25, 11], [1, 1, 1])).toBe(0);
    expect(pruneUnreachable(m, [polyAt(m, 2, 2)])).toBe(0);
  });
});
