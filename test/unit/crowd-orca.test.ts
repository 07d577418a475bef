import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_ORCA_PARAMS, type OrcaParams, OrcaPlanner } from "../../src/crowd/orca.js";
import { MeshwayError } from "../../src/errors.js";
import { mulberry32 } from "../../src/query/random-point.js";

const DT = 1 / 60;
const SPEED = 3.5;
const RADIUS = 0.4;

interface Agent {
  x: number;
  z: number;
  vx: number;
  vz: number;
  gx: number;
  gz: number;
}

/**
 * Agents heading for their goals, each choosing its velocity with ORCA from everyone else's
 * current state (all planned, then all moved, as a crowd update does). Walls optional.
 * Returns the smallest distance between any two agents seen, and the agents.
 */
function simulate(
  agents: Agent[],
  steps: number,
  walls: number[][] = [],
  params: OrcaParams = DEFAULT_ORCA_PARAMS,
): { closest: number; agents: Agent[]; trace: number[] } {
  const planner = new OrcaPlanner(agents.length, walls.length);
  const out = new Float64Array(2);
  const next = new Float64Array(agents.length * 2);
  const trace: number[] = [];
  let closest = Number.POSITIVE_INFINITY;
  for (let step = 0; step < steps; step++) {
    for (const [i, a] of agents.entries()) {
      planner.reset();
      for (const [j, b] of agents.entries()) {
        if (j !== i) planner.addCircle(b.x, b.z, RADIUS, b.vx, b.vz, 0, 0);
      }
      for (const w of walls) planner.addSegment(w[0]!, w[1]!, w[2]!, w[3]!);
      const dx = a.gx - a.x;
      const dz = a.gz - a.z;
      const d = Math.sqrt(dx * dx + dz * dz);
      const s = d > 1e-9 ? Math.min(SPEED, d / DT) / d : 0;
      planner.computeVelocity(a.x, a.z, RADIUS, SPEED, a.vx, a.vz, dx * s, dz * s, DT, params, out);
      next[i * 2] = out[0]!;
      next[i * 2 + 1] = out[1]!;
    }
    for (const [i, a] of agents.entries()) {
      a.vx = next[i * 2]!;
      a.vz = next[i * 2 + 1]!;
      a.x += a.vx * DT;
      a.z += a.vz * DT;
      trace.push(a.x, a.z);
    }
    for (let i = 0; i < agents.length; i++) {
      for (let j = i + 1; j < agents.length; j++) {
        const a = agents[i]!;
        const b = agents[j]!;
        closest = Math.min(closest, Math.sqrt((a.x - b.x) ** 2 + (a.z - b.z) ** 2));
      }
    }
  }
  return { closest, agents, trace };
}

const agent = (x: number, z: number, gx: number, gz: number): Agent => ({
  x,
  z,
  vx: 0,
  vz: 0,
  gx,
  gz,
});
const atGoal = (a: Agent) => Math.sqrt((a.x - a.gx) ** 2 + (a.z - a.gz) ** 2);

describe("OrcaPlanner (van den Berg et al. 2011)", () => {
  it("nothing around: the desired velocity, clamped to vmax", () => {
    const p = new OrcaPlanner(2, 2);
    const out = new Float64Array(2);
    p.computeVelocity(0, 0, RADIUS, SPEED, 0, 0, 1, 2, DT, DEFAULT_ORCA_PARAMS, out);
    expect([...out]).toEqual([1, 2]);
    p.computeVelocity(0, 0, RADIUS, SPEED, 0, 0, 30, 40, DT, DEFAULT_ORCA_PARAMS, out);
    expect(out[0]).toBeCloseTo(2.1, 12);
    expect(out[1]).toBeCloseTo(2.8, 12);
    expect(p.feasible).toBe(true);
  });

  it("maxSpeedChange: free walking approaches the desired velocity that fast, avoiding does not wait", () => {
    const p = new OrcaPlanner(1, 0);
    const out = new Float64Array(2);
    p.computeVelocity(0, 0, RADIUS, SPEED, 0, 0, 3, 0, DT, DEFAULT_ORCA_PARAMS, out, 0.1);
    expect(out[0]).toBeCloseTo(0.1, 12);
    expect(out[1]).toBe(0);
    // Walking at 3 m/s into one coming the other way, 1.2 m ahead: the step limited to 0.1 m/s
    // is not admitted, so the answer is ORCA's own, however far from the current velocity.
    p.addCircle(1.2, 0.1, RADIUS, -3, 0, 0, 0);
    p.computeVelocity(0, 0, RADIUS, SPEED, 3, 0, 3, 0, DT, DEFAULT_ORCA_PARAMS, out, 0.1);
    expect(Math.hypot(out[0]! - 3, out[1]!)).toBeGreaterThan(1);
    const l = p.lines;
    for (let k = 0; k < p.lineCount; k++) {
      expect(l[k * 3]! * out[0]! + l[k * 3 + 1]! * out[1]!).toBeGreaterThanOrEqual(
        l[k * 3 + 2]! - 1e-9,
      );
    }
    expect(() =>
      p.computeVelocity(0, 0, RADIUS, SPEED, 0, 0, 1, 0, DT, DEFAULT_ORCA_PARAMS, out, -1),
    ).toThrow(/maxSpeedChange/);
  });

  it("two agents head-on never overlap and both get through", () => {
    for (const offset of [0, 0.05, 0.3]) {
      const { closest, agents } = simulate([agent(-6, 0, 6, offset), agent(6, offset, -6, 0)], 400);
      expect(closest).toBeGreaterThanOrEqual(2 * RADIUS - 1e-6);
      for (const a of agents) expect(atGoal(a)).toBeLessThan(0.05);
    }
  });

  it("four agents crossing at a point never overlap and all arrive", () => {
    const agents = [agent(-5, 0, 5, 0), agent(5, 0, -5, 0), agent(0, -5, 0, 5), agent(0, 5, 0, -5)];
    const { closest } = simulate(agents, 600);
    expect(closest).toBeGreaterThanOrEqual(2 * RADIUS - 1e-6);
    for (const a of agents) expect(atGoal(a)).toBeLessThan(0.05);
  });

  it("eight agents on a circle swap places without overlapping", () => {
    const agents: Agent[] = [];
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      agents.push(agent(6 * Math.cos(a), 6 * Math.sin(a), -6 * Math.cos(a), -6 * Math.sin(a)));
    }
    const { closest } = simulate(agents, 900);
    expect(closest).toBeGreaterThanOrEqual(2 * RADIUS - 1e-6);
    for (const a of agents) expect(atGoal(a)).toBeLessThan(0.05);
  });

  it("a dense seeded crowd: once the overlapping starts are resolved no pair comes closer than 0.9 × the sum of radii, nearly all arrive", () => {
    const rand = mulberry32(3);
    const side = 14; // 40 agents of radius 0.4 in 14 × 14 m
    const agents: Agent[] = [];
    for (let i = 0; i < 40; i++)
      agents.push(agent(rand() * side, rand() * side, rand() * side, rand() * side));
    simulate(agents, 120); // 2 s: random starts may overlap; let them get apart
    const { closest } = simulate(agents, 900);
    expect(closest).toBeGreaterThan(0.9 * 2 * RADIUS);
    expect(agents.filter((a) => atGoal(a) < 1).length).toBeGreaterThanOrEqual(38);
  });

  it("an agent heading into a wall at a slant slides along it without crossing", () => {
    // Wall z = 1 from x = -10 to 10; goal beyond it, up and to the right. Given as Detour's
    // boundary gives it: walkable side to the right of p→q, (s.z, −s.x) = −z, where the agent is.
    const a = agent(0, 0, 8, 4);
    const walls = [[-10, 1, 10, 1]];
    const planner = new OrcaPlanner(0, 1);
    const out = new Float64Array(2);
    let maxZ = Number.NEGATIVE_INFINITY;
    for (let step = 0; step < 180; step++) {
      planner.reset();
      planner.addSegment(walls[0]![0]!, walls[0]![1]!, walls[0]![2]!, walls[0]![3]!);
      const dx = a.gx - a.x;
      const dz = a.gz - a.z;
      const d = Math.sqrt(dx * dx + dz * dz);
      planner.computeVelocity(
        a.x,
        a.z,
        RADIUS,
        SPEED,
        a.vx,
        a.vz,
        (dx / d) * SPEED,
        (dz / d) * SPEED,
        DT,
        DEFAULT_ORCA_PARAMS,
        out,
      );
      a.vx = out[0]!;
      a.vz = out[1]!;
      a.x += a.vx * DT;
      a.z += a.vz * DT;
      maxZ = Math.max(maxZ, a.z);
    }
    expect(maxZ).toBeLessThan(1);
    expect(a.z).toBeGreaterThan(0.95); // it went up to the wall
    expect(a.x).toBeGreaterThan(4); // and along it, not stuck
  });

  it("walls are hard even when agents crowd in (the 3D LP relaxes only agent constraints)", () => {
    const planner = new OrcaPlanner(4, 1);
    const out = new Float64Array(2);
    // Boxed in by three approaching agents, a wall behind: no velocity meets every line.
    planner.addCircle(0.85, 0, RADIUS, -3, 0, 0, 0);
    planner.addCircle(-0.85, 0, RADIUS, 3, 0, 0, 0);
    planner.addCircle(0, 0.85, RADIUS, 0, -3, 0, 0);
    planner.addSegment(5, -0.2, -5, -0.2);
    planner.computeVelocity(0, 0, RADIUS, SPEED, 0, 0, 0, 1, DT, DEFAULT_ORCA_PARAMS, out);
    expect(planner.feasible).toBe(false);
    const l = planner.lines;
    for (let k = 0; k < planner.wallLineCount; k++) {
      expect(l[k * 3]! * out[0]! + l[k * 3 + 1]! * out[1]!).toBeGreaterThanOrEqual(
        l[k * 3 + 2]! - 1e-9,
      );
    }
    expect(out[1]! * 0.4 + 0.2).toBeGreaterThanOrEqual(0); // not through the wall within its horizon
  });

  it("property: output meets every half-plane when feasible, |v| <= vmax, never NaN", () => {
    const num = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true });
    const circle = fc.tuple(num(-4, 4), num(-4, 4), num(0.1, 0.8), num(-4, 4), num(-4, 4));
    const segment = fc.tuple(num(-4, 4), num(-4, 4), num(-4, 4), num(-4, 4));
    fc.assert(
      fc.property(
        fc.array(circle, { maxLength: 8 }),
        fc.array(segment, { maxLength: 4 }),
        fc.tuple(num(-4, 4), num(-4, 4), num(-4, 4), num(-4, 4), num(0, 5)),
        (circles, segments, [vx, vz, dvx, dvz, vmax]) => {
          const p = new OrcaPlanner(8, 4);
          for (const c of circles) p.addCircle(c[0], c[1], c[2], c[3], c[4], 0, 0);
          for (const s of segments) p.addSegment(s[0], s[1], s[2], s[3]);
          const out = new Float64Array(2);
          p.computeVelocity(0, 0, 0.4, vmax, vx, vz, dvx, dvz, DT, DEFAULT_ORCA_PARAMS, out);
          expect(Number.isFinite(out[0]!) && Number.isFinite(out[1]!)).toBe(true);
          expect(Math.sqrt(out[0]! ** 2 + out[1]! ** 2)).toBeLessThanOrEqual(vmax + 1e-9);
          const l = p.lines;
          const meets = (x: number, z: number, tol: number) => {
            for (let k = 0; k < p.lineCount; k++) {
              if (l[k * 3]! * x + l[k * 3 + 1]! * z < l[k * 3 + 2]! - tol) return false;
            }
            return true;
          };
          // The walls alone always admit 0, and the fallback keeps them.
          expect(meets(0, 0, 1e-9) || p.wallLineCount < p.lineCount).toBe(true);
          for (let k = 0; k < p.wallLineCount; k++) {
            expect(l[k * 3]! * out[0]! + l[k * 3 + 1]! * out[1]!).toBeGreaterThanOrEqual(
              l[k * 3 + 2]! - 1e-7,
            );
          }
          if (p.feasible) expect(meets(out[0]!, out[1]!, 1e-7)).toBe(true);
          else {
            // Infeasible claimed: no point of a fine grid over the vmax disc meets every line.
            for (let i = 0; i <= 24; i++) {
              for (let j = 0; j <= 24; j++) {
                const x = -vmax + (2 * vmax * i) / 24;
                const z = -vmax + (2 * vmax * j) / 24;
                if (x * x + z * z <= vmax * vmax) expect(meets(x, z, -1e-6)).toBe(false);
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is deterministic: two runs give bit-identical trajectories", () => {
    const make = () => [
      agent(-5, 0.1, 5, 0),
      agent(5, 0, -5, 0),
      agent(0.2, -5, 0, 5),
      agent(0, 5, 0, -5),
    ];
    const a = simulate(make(), 200).trace;
    const b = simulate(make(), 200).trace;
    expect(new Float64Array(a)).toEqual(new Float64Array(b));
  });

  it("degenerate walls (a point, the agent on a wall's line or at its end) give no NaN", () => {
    const p = new OrcaPlanner(0, 4);
    const out = new Float64Array(2);
    p.addSegment(1, 1, 1, 1); // a point
    p.addSegment(2, 0, 5, 0); // the agent on its line, outside it
    p.addSegment(0, 0, 0, 3); // the agent at its end
    p.addSegment(-1, 0, 1, 0); // the agent on it
    p.computeVelocity(0, 0, RADIUS, SPEED, 1, 1, 2, 2, DT, DEFAULT_ORCA_PARAMS, out);
    expect(p.lineCount).toBe(1); // only the one it stands on
    // Standing on p→q = (−1,0)→(1,0), the walkable side is (s.z, −s.x) ∝ (0, −1): no +z.
    expect(out[0]).toBeCloseTo(2, 12);
    expect(out[1]).toBeCloseTo(0, 12);
  });

  it("bad arguments throw MeshwayError", () => {
    const p = new OrcaPlanner(1, 1);
    const out = new Float64Array(2);
    expect(() => p.addCircle(0, Number.NaN, 1, 0, 0, 0, 0)).toThrow(MeshwayError);
    p.addCircle(1, 0, 0.4, 0, 0, 0, 0);
    expect(() => p.addCircle(2, 0, 0.4, 0, 0, 0, 0)).toThrow(/maxNeighbours/);
    expect(() => p.computeVelocity(0, 0, 0.4, 1, 0, 0, 1, 0, 0, DEFAULT_ORCA_PARAMS, out)).toThrow(
      /dt/,
    );
    expect(() =>
      p.computeVelocity(
        0,
        0,
        0.4,
        1,
        0,
        0,
        1,
        0,
        DT,
        { timeHorizon: 0, obstacleTimeHorizon: 1 },
        out,
      ),
    ).toThrow(/timeHorizon/);
    expect(() => new OrcaPlanner(1.5, 0)).toThrow(/maxNeighbours/);
  });
});
