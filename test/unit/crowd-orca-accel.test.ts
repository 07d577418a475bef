/**
 * Regression: ORCA agents' avoiding velocities were passed through integrate's maxAcceleration
 * limit, so an agent walked a velocity lagging the one ORCA had found safe and ran into its
 * neighbours (dungeon, 1000 agents: 6.8 pairs per frame closer than 0.9 × the sum of radii).
 * Now the planner applies maxAcceleration to free walking only and avoidance is walked as
 * chosen.
 */
import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { SceneBuilder } from "../helpers/scenes.js";

const S = 30;
const nm = buildNavMesh(new SceneBuilder().floor(0, 0, S, S).build(), { agentRadius: 0.4 }).navMesh;
const DT = 1 / 60;

describe("Crowd: ORCA and maxAcceleration", () => {
  it("a lone agent still speeds up within maxAcceleration", () => {
    const crowd = new Crowd(nm, { maxAgents: 1, maxAgentRadius: 0.4 });
    const id = crowd.addAgent([5, 0, 15], { radius: 0.4, maxAcceleration: 8, avoidance: "orca" });
    crowd.requestMoveTarget(id, [25, 0, 15]);
    let last = 0;
    for (let step = 0; step < 60; step++) {
      crowd.update(DT);
      const v = crowd.velocity(id);
      const speed = Math.hypot(v[0]!, v[2]!);
      expect(speed - last).toBeLessThanOrEqual(8 * DT + 1e-9);
      last = speed;
    }
    expect(last).toBeCloseTo(3.5, 6);
  });

  it("sluggish agents crossing in a crowd keep apart (avoidance is not held back by it)", () => {
    const crowd = new Crowd(nm, { maxAgents: 32, maxAgentRadius: 0.4 });
    const c = S / 2;
    // Two blocks of 16 walking through each other, accelerating slowly.
    for (let side = 0; side < 2; side++) {
      for (let k = 0; k < 16; k++) {
        const x = side === 0 ? 4 + (k % 4) * 1.1 : S - 4 - (k % 4) * 1.1;
        const z = c - 1.65 + Math.floor(k / 4) * 1.1;
        const id = crowd.addAgent([x, 0, z], {
          radius: 0.4,
          maxAcceleration: 2,
          avoidance: "orca",
        });
        crowd.requestMoveTarget(id, [S - x, 0, z]);
      }
    }
    const p = crowd.positions;
    let closest = Number.POSITIVE_INFINITY;
    for (let step = 0; step < 900; step++) {
      crowd.update(DT);
      for (let i = 0; i < 32; i++) {
        for (let j = i + 1; j < 32; j++) {
          closest = Math.min(
            closest,
            Math.hypot(p[i * 3]! - p[j * 3]!, p[i * 3 + 2]! - p[j * 3 + 2]!),
          );
        }
      }
    }
    expect(closest).toBeGreaterThan(0.9 * 0.8);
  });
});
