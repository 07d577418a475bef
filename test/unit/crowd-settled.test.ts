/**
 * Regression: an ORCA agent standing at its target was carried off it by a stream walking
 * past (its half-planes are relative to its own velocity, so once it moved with the stream it
 * could not stop without a follower "colliding" within the time horizon). In the dungeon
 * bench about half the agents that ever arrived were elsewhere at the end. Now a settled agent
 * is an obstacle the walkers avoid in full, and it ignores them.
 */
import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { SceneBuilder } from "../helpers/scenes.js";

const S = 30;
const nm = buildNavMesh(new SceneBuilder().floor(0, 0, S, S).build(), { agentRadius: 0.4 }).navMesh;

describe("Crowd: a settled ORCA agent", () => {
  it("stays on its target while a stream walks through it, and the stream gets by", () => {
    const crowd = new Crowd(nm, { maxAgents: 40, maxAgentRadius: 0.4 });
    const c = S / 2;
    const still = crowd.addAgent([c, 0, c], { radius: 0.4, avoidance: "orca" });
    crowd.requestMoveTarget(still, [c, 0, c]);
    const walkers: number[] = [];
    const targets: number[] = [];
    for (let row = 0; row < 3; row++) {
      for (let k = 0; k < 8; k++) {
        const z = c + (row - 1) * 0.9;
        const id = crowd.addAgent([4 + k * 0.9, 0, z], { radius: 0.4, avoidance: "orca" });
        crowd.requestMoveTarget(id, [18 + k * 0.9, 0, z]);
        walkers.push(id);
        targets.push(18 + k * 0.9, z);
      }
    }
    const p = crowd.positions;
    let furthest = 0;
    for (let step = 0; step < 600; step++) {
      crowd.update(1 / 60);
      furthest = Math.max(furthest, Math.hypot(p[still * 3]! - c, p[still * 3 + 2]! - c));
    }
    expect(furthest).toBeLessThan(1);
    const arrived = walkers.filter(
      (id, w) => Math.hypot(p[id * 3]! - targets[w * 2]!, p[id * 3 + 2]! - targets[w * 2 + 1]!) < 1,
    );
    expect(arrived.length).toBeGreaterThanOrEqual(20);
  });
});
