import { describe, expect, it } from "vitest";
import { Crowd } from "../../src/crowd/crowd.js";
import { type DebugPrimitive, drawCrowd } from "../../src/debug/index.js";
import {
  AGENT_COLOUR,
  CORNER_COLOUR,
  DESIRED_VELOCITY_COLOUR,
  VELOCITY_COLOUR,
} from "../../src/navmesh/palette.js";
import { wallScene } from "../helpers/query-scenes.js";

const DT = 1 / 30;

/** Two agents walking round the wall, one removed slot between them (slot 1 free). */
function walkingCrowd(): Crowd {
  const crowd = new Crowd(wallScene(), { maxAgents: 4, maxAgentRadius: 0.5 });
  const a = crowd.addAgent([2, 0, 3], { radius: 0.4, height: 1.8 });
  const gone = crowd.addAgent([10, 0, 3], { radius: 0.4 });
  const b = crowd.addAgent([10, 0, 10], { radius: 0.5, height: 2 });
  crowd.removeAgent(gone);
  crowd.requestMoveTarget(a, [6, 0, 10]);
  crowd.requestMoveTarget(b, [2, 0, 2]);
  for (let s = 0; s < 10; s++) crowd.update(DT);
  expect([a, b]).toEqual([0, 2]);
  return crowd;
}

function vertices(p: DebugPrimitive): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < p.positions.length; i += 3)
    out.push(Array.from(p.positions.subarray(i, i + 3)));
  return out;
}

function colourOf(p: DebugPrimitive, i = 0): number[] {
  return Array.from(p.colours.subarray(i * 4, i * 4 + 4), (c) => Math.round(c * 255));
}

describe("meshway/debug: drawCrowd", () => {
  it("draws each active agent's circle, velocity, desired velocity and corner polyline, in the palette", () => {
    const crowd = walkingCrowd();
    const sets = drawCrowd(crowd, { segments: 12 });
    expect(sets.map((s) => `${s.kind}/${s.size}`)).toEqual([
      "lines/2", // circles
      "lines/2", // velocities
      "lines/2", // desired velocities
      "lines/2", // corner lines
      "points/6", // corners
    ]);
    const [rings, vel, dvel, cornerLines, corners] = sets as [
      DebugPrimitive,
      DebugPrimitive,
      DebugPrimitive,
      DebugPrimitive,
      DebugPrimitive,
    ];
    for (const s of sets) expect(s.colours.length).toBe((s.positions.length / 3) * 4);
    expect(rings.positions.length / 3).toBe(2 * 12 * 2);
    expect(colourOf(rings)).toEqual([...AGENT_COLOUR]);
    // Every circle vertex at the agent's radius from its position, 0.05 above its feet.
    for (const [k, id] of [0, 2].entries()) {
      const pos = crowd.position(id);
      for (const v of vertices(rings).slice(k * 24, k * 24 + 24)) {
        expect(Math.hypot(v[0]! - pos[0], v[2]! - pos[2])).toBeCloseTo(crowd.agentRadius(id), 5);
        expect(v[1]!).toBeCloseTo(pos[1] + 0.05, 5);
      }
    }
    // Velocity segments: from half the agent's height, by the crowd's velocity.
    expect(colourOf(vel)).toEqual([...VELOCITY_COLOUR]);
    expect(colourOf(dvel)).toEqual([...DESIRED_VELOCITY_COLOUR]);
    const vv = vertices(vel);
    const dv = vertices(dvel);
    expect(vv.length).toBe(4);
    for (const [k, id] of [0, 2].entries()) {
      const p = crowd.positions;
      const v = crowd.velocity(id);
      const d = crowd.desiredVelocity(id);
      const mid = p[id * 3 + 1]! + crowd.agentHeight(id) / 2;
      expect(vv[k * 2]).toEqual(Array.from(Float32Array.of(p[id * 3]!, mid, p[id * 3 + 2]!)));
      for (let c = 0; c < 3; c++) {
        expect(vv[k * 2 + 1]![c]! - vv[k * 2]![c]!).toBeCloseTo(v[c]!, 4);
        expect(dv[k * 2 + 1]![c]! - dv[k * 2]![c]!).toBeCloseTo(d[c]!, 4);
      }
      expect(Math.hypot(d[0], d[2])).toBeGreaterThan(0.1); // they are walking
    }
    // Corners: as many points as crowd.corners gives, and a segment leading to each.
    const expected = [0, 2].flatMap((id) => crowd.corners(id));
    expect(expected.length).toBeGreaterThan(2);
    expect(corners.positions.length / 3).toBe(expected.length);
    expect(cornerLines.positions.length / 3).toBe(expected.length * 2);
    expect(colourOf(corners)).toEqual([...CORNER_COLOUR]);
    vertices(corners).forEach((v, i) => {
      expect(v[0]).toBeCloseTo(expected[i]![0], 5);
      expect(v[1]).toBeCloseTo(expected[i]![1] + 0.05, 5);
      expect(v[2]).toBeCloseTo(expected[i]![2], 5);
    });
  });

  it("cylinders face outwards and up; corridors fill the corridor polygons; options switch sets off", () => {
    const crowd = walkingCrowd();
    const [cyl] = drawCrowd(crowd, {
      agents: "cylinders",
      segments: 8,
      velocities: false,
      desiredVelocities: false,
      corners: false,
    }) as [DebugPrimitive];
    expect(cyl.kind).toBe("triangles");
    expect(cyl.positions.length / 3).toBe(2 * 8 * 9); // per segment: cap + side quad
    const v = vertices(cyl);
    for (let t = 0; t < v.length / 3; t++) {
      const [a, b, c] = [v[t * 3]!, v[t * 3 + 1]!, v[t * 3 + 2]!];
      const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
      const w = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
      const n = [
        u[1]! * w[2]! - u[2]! * w[1]!,
        u[2]! * w[0]! - u[0]! * w[2]!,
        u[0]! * w[1]! - u[1]! * w[0]!,
      ];
      const id = t < v.length / 6 ? 0 : 2;
      const p = crowd.position(id);
      const cx = (a[0]! + b[0]! + c[0]!) / 3 - p[0];
      const cz = (a[2]! + b[2]! + c[2]!) / 3 - p[2];
      // Caps point up, sides away from the axis.
      if (Math.abs(n[1]!) > 1e-9) expect(n[1]!).toBeGreaterThan(0);
      else expect(n[0]! * cx + n[2]! * cz).toBeGreaterThan(0);
    }

    const withCorridors = drawCrowd(crowd, { agents: false, corridors: true, velocities: false });
    expect(withCorridors[0]!.kind).toBe("triangles");
    expect(withCorridors[0]!.positions.length).toBeGreaterThan(0);
    expect(
      drawCrowd(crowd, {
        agents: false,
        velocities: false,
        desiredVelocities: false,
        corners: false,
      }),
    ).toEqual([]);
    expect(drawCrowd(new Crowd(wallScene(), { maxAgents: 2, maxAgentRadius: 0.5 }))).toEqual([]);
  });

  it("is deterministic and leaves the crowd as it was", () => {
    const a = walkingCrowd();
    const b = walkingCrowd();
    const before = Array.from(a.positions);
    expect(drawCrowd(a, { corridors: true, agents: "cylinders" })).toEqual(
      drawCrowd(b, { corridors: true, agents: "cylinders" }),
    );
    expect(Array.from(a.positions)).toEqual(before);
  });
});
