/**
 * Regression: in a crowd dense enough that a Detour-style neighbour query would overflow its 32
 * grid ids (Detour's getNeighbours keeps whichever 32 the grid yields first), the adjacent
 * agents must still be neighbours (the crowd's NeighbourGrid returns the true nearest), or
 * nothing keeps them apart: a 12 × 12 block of ORCA agents on an
 * open floor, each sent through the centre to the mirrored point, never comes closer than
 * 0.9 × the sum of radii.
 */
import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { SceneBuilder } from "../helpers/scenes.js";

const S = 30;
const nm = buildNavMesh(new SceneBuilder().floor(0, 0, S, S).build(), { agentRadius: 0.4 }).navMesh;

describe("Crowd: dense ORCA crowd", () => {
  it("keeps adjacent agents apart where a first-32-grid-hits neighbour query would overflow", () => {
    const crowd = new Crowd(nm, { maxAgents: 144, maxAgentRadius: 0.4 });
    const c = S / 2;
    for (let gz = 0; gz < 12; gz++) {
      for (let gx = 0; gx < 12; gx++) {
        const x = c + (gx - 5.5) * 0.9;
        const z = c + (gz - 5.5) * 0.9;
        const id = crowd.addAgent([x, 0, z], { radius: 0.4, avoidance: "orca" });
        expect(id).toBeGreaterThanOrEqual(0);
        crowd.requestMoveTarget(id, [2 * c - x, 0, 2 * c - z]);
      }
    }
    const p = crowd.positions;
    let closest = Number.POSITIVE_INFINITY;
    for (let step = 0; step < 90; step++) {
      crowd.update(1 / 30);
      if (step % 5 !== 4) continue;
      for (let i = 0; i < 144; i++) {
        for (let j = i + 1; j < 144; j++) {
          const d = Math.hypot(p[i * 3]! - p[j * 3]!, p[i * 3 + 2]! - p[j * 3 + 2]!);
          if (d < closest) closest = d;
        }
      }
    }
    expect(closest).toBeGreaterThanOrEqual(0.9 * 0.8);
  });
});
