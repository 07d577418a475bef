/**
 * ObstacleAvoidanceQuery against Detour's, as DetourCrowd (recast-navigation, WebAssembly) runs
 * it: agents on an open floor (no wall within reach) with only obstacle avoidance on; before
 * each crowd update we record every agent's position and velocity, after it Detour's desired
 * velocity (dvel) and its avoidance result (nvel). Fed the same inputs, sampleVelocityAdaptive
 * must choose the same velocity — up to float32 rounding, which can flip a near tie between two
 * samples now and then.
 */
import type * as CrowdApi from "@recast-navigation/core/dist/crowd.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import {
  AVOIDANCE_PRESETS,
  type ObstacleAvoidanceParams,
  ObstacleAvoidanceQuery,
} from "../../src/crowd/obstacle-avoidance.js";
import { buildDetourNavMesh, type DetourBuild } from "../helpers/detour.js";
import { initRecast, recast } from "../helpers/recast.js";
import { SceneBuilder } from "../helpers/scenes.js";

const core = recast as unknown as typeof recast & typeof CrowdApi;
const OBSTACLE_AVOIDANCE = 2;

let build: DetourBuild;
beforeAll(async () => {
  await initRecast();
  const floor = new SceneBuilder().floor(-30, -30, 30, 30).build();
  build = buildDetourNavMesh(floor, resolveConfig({ agentRadius: 0.4 }));
});
afterAll(() => build?.free());

type V = { x: number; y: number; z: number };

function compare(params: ObstacleAvoidanceParams, starts: number[][], targets: number[][]) {
  const crowd = new core.Crowd(build.navMesh, { maxAgents: starts.length, maxAgentRadius: 0.4 });
  const raw = new core.Raw.Module.dtObstacleAvoidanceParams();
  for (const k of Object.keys(params) as (keyof ObstacleAvoidanceParams)[]) raw[k] = params[k];
  crowd.raw.setObstacleAvoidanceParams(0, raw);
  const agents = starts.map((s, i) => {
    const a = crowd.addAgent(
      { x: s[0]!, y: 0, z: s[1]! },
      {
        radius: 0.4,
        height: 2,
        maxSpeed: 3.5,
        maxAcceleration: 8,
        collisionQueryRange: 4.8,
        separationWeight: 0,
        updateFlags: OBSTACLE_AVOIDANCE,
        obstacleAvoidanceType: 0,
      },
    );
    a.requestMoveTarget({ x: targets[i]![0]!, y: 0, z: targets[i]![1]! });
    return a;
  });
  const q = new ObstacleAvoidanceQuery(6, 8);
  const out = new Float64Array(2);
  const errors: number[] = [];
  let steered = 0; // samples where avoidance changed the desired velocity noticeably
  for (let step = 0; step < 150; step++) {
    const pos: V[] = agents.map((a) => a.position());
    const vel: V[] = agents.map((a) => a.velocity());
    crowd.update(1 / 60);
    const dvel: V[] = agents.map((a) => a.desiredVelocity());
    const nvel: V[] = agents.map((a) => a.desiredVelocityObstacleAdjusted());
    for (let i = 0; i < agents.length; i++) {
      const p = pos[i]!;
      q.reset();
      // Detour's neighbours: within collisionQueryRange, nearest first, at most 6.
      const neis = agents
        .map((_, j) => ({ j, d: Math.hypot(pos[j]!.x - p.x, pos[j]!.z - p.z) }))
        .filter(({ j, d }) => j !== i && d < 4.8)
        .sort((a, b) => a.d - b.d)
        .slice(0, 6);
      for (const { j } of neis) {
        q.addCircle(pos[j]!.x, pos[j]!.z, 0.4, vel[j]!.x, vel[j]!.z, dvel[j]!.x, dvel[j]!.z);
      }
      if (neis.length === 0) continue; // nothing to avoid: Detour samples, we return dvel exactly
      const d = dvel[i]!;
      q.sampleVelocityAdaptive(p.x, p.z, 0.4, 3.5, vel[i]!.x, vel[i]!.z, d.x, d.z, params, out);
      errors.push(Math.hypot(out[0]! - nvel[i]!.x, out[1]! - nvel[i]!.z));
      if (Math.hypot(nvel[i]!.x - d.x, nvel[i]!.z - d.z) > 0.1) steered++;
    }
  }
  crowd.destroy();
  raw.__destroy__?.();
  return { errors, steered };
}

describe("ObstacleAvoidanceQuery vs DetourCrowd's dtObstacleAvoidanceQuery", () => {
  const scenes: [string, number[][], number[][]][] = [
    [
      "head-on pair",
      [
        [-6, 0],
        [6, 0.1],
      ],
      [
        [8, 0.1],
        [-8, 0],
      ],
    ],
    [
      "four crossing",
      [
        [-6, 0],
        [6, 0.2],
        [0.1, -6],
        [0, 6],
      ],
      [
        [8, 0],
        [-8, 0],
        [0, 8],
        [0, -8],
      ],
    ],
    [
      "overtaking in a column",
      [
        [-8, 0],
        [-6.5, 0.05],
        [-5, 0],
        [-3.5, 0.1],
      ],
      [
        [12, 0],
        [12, 0.2],
        [12, -0.2],
        [12, 0],
      ],
    ],
  ];
  for (const [name, starts, targets] of scenes) {
    it(`${name}: the same chosen velocity (float32 tolerance) in nearly every sample`, () => {
      for (const preset of ["low", "good", "high"] as const) {
        const { errors, steered } = compare(AVOIDANCE_PRESETS[preset], starts, targets);
        expect(errors.length).toBeGreaterThan(100);
        expect(steered).toBeGreaterThan(errors.length * 0.15); // the samples do steer
        const close = errors.filter((e) => e < 1e-3).length;
        expect(close / errors.length, `${preset}: ${close} of ${errors.length}`).toBeGreaterThan(
          0.98,
        );
      }
    });
  }
});
