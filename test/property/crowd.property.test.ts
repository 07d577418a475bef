/**
 * Crowd invariants over seeded scenarios (random starts and targets) on the shared meshes and
 * a tiled navmesh (nav_test is walked by the Detour differential test): at every step every walking agent stands on its corridor's first polygon,
 * which is live and admitted by its filter; nothing is NaN; and two runs of the same calls
 * give bit-identical positions.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { getPolyFlags } from "../../src/navmesh/neighbours.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

const meshes: [string, NavMesh][] = [
  ["dungeon", buildNavMesh(loadSharedMesh("dungeon"), {}).navMesh],
  ["tiled", (await buildTiledNavMesh(tiledScene(), TILED_CONFIG)).navMesh],
];

/** A seeded scenario: agents, with sampled or ORCA avoidance, random starts and targets. */
function scenario(nm: NavMesh, seed: number, agents: number, orca: boolean): Crowd {
  const q = new NavMeshQuery(nm);
  const rng = mulberry32(seed);
  const crowd = new Crowd(nm, { maxAgents: agents, maxAgentRadius: 0.6 });
  for (let i = 0; i < agents; i++) {
    const p = q.findRandomPoint(q.defaultFilter, rng).point;
    const t = q.findRandomPoint(q.defaultFilter, rng).point;
    const id = crowd.addAgent(p, {
      radius: 0.4,
      avoidance: orca && i % 2 === 0 ? "orca" : "sampled",
    });
    expect(id).toBe(i);
    crowd.requestMoveTarget(id, t);
  }
  return crowd;
}

const on = new Float64Array(3);

function checkInvariants(crowd: Crowd, label: string): void {
  const q = crowd.query;
  const filter = crowd.defaultFilter;
  for (let id = 0; id < crowd.maxAgents; id++) {
    const p = crowd.position(id);
    expect(Number.isFinite(p[0] + p[1] + p[2]), `${label} agent ${id} finite`).toBe(true);
    if (crowd.agentState(id) !== "walking") continue;
    const ref = crowd.corridor(id).firstPoly;
    expect(crowd.navMesh.isValidPolyRef(ref), `${label} agent ${id} live`).toBe(true);
    expect(filter.passes(getPolyFlags(crowd.navMesh, ref))).toBe(true);
    // On its polygon (or on its edge: sliding along a wall ends exactly on it).
    q.closestPointOnPolyBoundary(ref, p, on);
    expect(Math.hypot(on[0]! - p[0], on[2]! - p[2]), `${label} agent ${id} on poly`).toBeLessThan(
      1e-5,
    );
  }
  for (const v of crowd.velocities) expect(Number.isNaN(v)).toBe(false);
}

describe("Crowd invariants over seeded scenarios", () => {
  it("every walking agent stays on a live admitted polygon, nothing is NaN", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: meshes.length - 1 }),
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 2, max: 24 }),
        fc.boolean(),
        (m, seed, agents, orca) => {
          const [name, nm] = meshes[m]!;
          const crowd = scenario(nm, seed, agents, orca);
          for (let s = 0; s < 120; s++) {
            crowd.update(1 / 30);
            checkInvariants(crowd, `${name} seed ${seed} step ${s}`);
          }
        },
      ),
      { numRuns: 6, seed: 1313 },
    );
  });

  it("is deterministic: two runs give identical bytes of crowd.positions", () => {
    for (const [, nm] of meshes) {
      const a = scenario(nm, 99, 20, true);
      const b = scenario(nm, 99, 20, true);
      for (let s = 0; s < 90; s++) {
        a.update(1 / 60);
        b.update(1 / 60);
      }
      expect(Buffer.from(a.positions.buffer)).toEqual(Buffer.from(b.positions.buffer));
      expect(Buffer.from(a.velocities.buffer)).toEqual(Buffer.from(b.velocities.buffer));
    }
  });

  it("agents keep to their filter: excluded polygons are never walked on", () => {
    const [, nm] = meshes[0]!;
    // Mark a band of polygons with flag 2 and exclude it.
    const tile = nm.tileInSlot(1)!;
    const saved = tile.polyFlags.slice();
    for (let p = 0; p < tile.polyCount; p += 5) tile.polyFlags[p] = 2;
    try {
      const filter = new QueryFilter();
      filter.excludeFlags = 2;
      const q = new NavMeshQuery(nm);
      const rng = mulberry32(3);
      const crowd = new Crowd(nm, { maxAgents: 12, maxAgentRadius: 0.6, filter });
      for (let i = 0; i < 12; i++) {
        const p = q.findRandomPoint(filter, rng).point;
        const t = q.findRandomPoint(filter, rng).point;
        const id = crowd.addAgent(p, { radius: 0.4 });
        expect(id).toBe(i);
        crowd.requestMoveTarget(id, t);
      }
      for (let s = 0; s < 150; s++) {
        crowd.update(1 / 30);
        checkInvariants(crowd, `filtered step ${s}`);
      }
    } finally {
      tile.polyFlags.set(saved);
    }
  });
});
