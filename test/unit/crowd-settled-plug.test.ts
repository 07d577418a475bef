/**
 * Regression: a settled ORCA agent (standing at its target) was an immovable obstacle — walkers
 * avoided it in full and the collision pass never moved it — so one standing in a corridor too
 * narrow to walk round it plugged the corridor for good. In the 1000-agent dungeon bench such
 * plugs held up a growing share of the crowd (mean walking speed 2.4 → 0.9 m/s over 20 s).
 * Now a walker held up for a while squeezes past (steering.ts SETTLED_SQUEEZE), the collision
 * pass pushes the settled agent aside, and it walks back to its target.
 */
import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { SceneBuilder } from "../helpers/scenes.js";

const L = 20;
// 2.7 m of floor: eroded (radius, border, 0.3 m cells), the agents' centres have a 0.9 m strip
// (z 0.9..1.8). Two 0.4 m agents fit side by side only at its edges, not past one in the middle.
const W = 2.7;
const nm = buildNavMesh(new SceneBuilder().floor(0, 0, L, W).build(), { agentRadius: 0.4 }).navMesh;

describe("Crowd: a settled ORCA agent in a narrow corridor", () => {
  it("lets a walker through and returns to its target", () => {
    const crowd = new Crowd(nm, { maxAgents: 4, maxAgentRadius: 0.4 });
    const z = 1.35; // the strip's middle
    const still = crowd.addAgent([L / 2, 0, z], { radius: 0.4, avoidance: "orca" });
    crowd.requestMoveTarget(still, [L / 2, 0, z]);
    const walker = crowd.addAgent([3, 0, z], { radius: 0.4, avoidance: "orca" });
    crowd.requestMoveTarget(walker, [L - 3, 0, z]);
    const p = crowd.positions;
    let passedAt = -1;
    let displaced = 0;
    for (let step = 0; step < 900; step++) {
      crowd.update(1 / 60);
      if (passedAt < 0 && p[walker * 3]! > L / 2 + 1) passedAt = step;
      displaced = Math.max(displaced, Math.hypot(p[still * 3]! - L / 2, p[still * 3 + 2]! - z));
    }
    expect(passedAt).toBeGreaterThan(0);
    // It made way (0.38 m seen) and walked back.
    expect(displaced).toBeGreaterThan(0.2);
    expect(Math.hypot(p[walker * 3]! - (L - 3), p[walker * 3 + 2]! - z)).toBeLessThan(1);
    expect(Math.hypot(p[still * 3]! - L / 2, p[still * 3 + 2]! - z)).toBeLessThan(0.5);
  });
});
