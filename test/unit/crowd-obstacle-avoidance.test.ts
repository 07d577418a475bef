import { describe, expect, it } from "vitest";
import { detSinCos } from "../../src/crowd/det-trig.js";
import {
  AVOIDANCE_PRESETS,
  DEFAULT_AVOIDANCE_PARAMS,
  type ObstacleAvoidanceParams,
  ObstacleAvoidanceQuery,
} from "../../src/crowd/obstacle-avoidance.js";
import { MeshwayError } from "../../src/errors.js";

const out = new Float64Array(2);
const PRESETS = ["low", "medium", "good", "high"] as const;

/** Two agents walking at each other, each steering with the query; returns the closest approach. */
function headOn(params: ObstacleAvoidanceParams, zOffset = 0) {
  const q = new ObstacleAvoidanceQuery(6, 8);
  const a = { x: 0, z: 0, vx: 3.5, vz: 0 };
  const b = { x: 8, z: zOffset, vx: -3.5, vz: 0 };
  let closest = Number.POSITIVE_INFINITY;
  for (let step = 0; step < 120; step++) {
    q.reset();
    q.addCircle(b.x, b.z, 0.4, b.vx, b.vz, -3.5, 0);
    q.sampleVelocityAdaptive(a.x, a.z, 0.4, 3.5, a.vx, a.vz, 3.5, 0, params, out);
    const [ax, az] = [out[0]!, out[1]!];
    q.reset();
    q.addCircle(a.x, a.z, 0.4, a.vx, a.vz, 3.5, 0);
    q.sampleVelocityAdaptive(b.x, b.z, 0.4, 3.5, b.vx, b.vz, -3.5, 0, params, out);
    const [bx, bz] = [out[0]!, out[1]!];
    Object.assign(a, { x: a.x + ax / 30, z: a.z + az / 30, vx: ax, vz: az });
    Object.assign(b, { x: b.x + bx / 30, z: b.z + bz / 30, vx: bx, vz: bz });
    closest = Math.min(closest, Math.sqrt((a.x - b.x) ** 2 + (a.z - b.z) ** 2));
  }
  return { closest, a, b };
}

/** One agent heading for (6, 0) past a wall x = 2, |z| <= half; whether it ever crosses it. */
function pastWall(half: number, params: ObstacleAvoidanceParams) {
  const q = new ObstacleAvoidanceQuery(6, 8);
  let [x, z, vx, vz] = [0, 0.05, 3.5, 0];
  let crossed = false;
  for (let step = 0; step < 300; step++) {
    q.reset();
    q.addSegment(2, half, 2, -half);
    const gx = 6 - x;
    const gz = -z;
    const gl = Math.sqrt(gx * gx + gz * gz);
    const s = gl > 1e-9 ? Math.min(3.5, gl * 4) / gl : 0;
    q.sampleVelocityAdaptive(x, z, 0.4, 3.5, vx, vz, gx * s, gz * s, params, out);
    const nx = x + out[0]! / 60;
    const nz = z + out[1]! / 60;
    if (x < 2 !== nx < 2 && Math.abs(nz) <= half) crossed = true;
    [x, z, vx, vz] = [nx, nz, out[0]!, out[1]!];
  }
  return { crossed, x, z };
}

describe("ObstacleAvoidanceQuery (Detour's sampled velocity obstacles)", () => {
  it("presets are RecastDemo's", () => {
    expect(AVOIDANCE_PRESETS.low).toMatchObject({
      velBias: 0.5,
      adaptiveDivs: 5,
      adaptiveRings: 2,
      adaptiveDepth: 1,
    });
    expect(AVOIDANCE_PRESETS.medium).toMatchObject({
      adaptiveDivs: 5,
      adaptiveRings: 2,
      adaptiveDepth: 2,
    });
    expect(AVOIDANCE_PRESETS.good).toMatchObject({
      adaptiveDivs: 7,
      adaptiveRings: 2,
      adaptiveDepth: 3,
    });
    expect(AVOIDANCE_PRESETS.high).toMatchObject({
      adaptiveDivs: 7,
      adaptiveRings: 3,
      adaptiveDepth: 3,
    });
    for (const p of PRESETS) {
      expect(AVOIDANCE_PRESETS[p]).toMatchObject({
        weightDesVel: 2,
        weightCurVel: 0.75,
        weightSide: 0.75,
        weightToi: 2.5,
        horizTime: 2.5,
        gridSize: 33,
      });
    }
    expect(DEFAULT_AVOIDANCE_PARAMS).toMatchObject({ velBias: 0.4, adaptiveDepth: 5 });
  });

  it("adaptive sample counts follow Detour's pattern (1 + divs × rings per pass, points beyond vmax skipped)", () => {
    const q = new ObstacleAvoidanceQuery(1, 0);
    q.addCircle(30, 30, 0.4, 0, 0, 0, 0); // far away: affects penalties only, not the count
    const counts = PRESETS.map((p) =>
      q.sampleVelocityAdaptive(0, 0, 0.4, 3.5, 0, 0, 3.5, 0, AVOIDANCE_PRESETS[p], out),
    );
    // One pass of the low pattern fits the vmax disc; later passes lose points outside it.
    expect(counts[0]).toBe(11);
    const nominal = [11, 22, 45, 66];
    for (const [i, c] of counts.entries()) {
      expect(c).toBeLessThanOrEqual(nominal[i]!);
      expect(c).toBeGreaterThan(nominal[i]! * 0.45);
    }
    expect(
      q.sampleVelocityGrid(0, 0, 0.4, 3.5, 0, 0, 3.5, 0, DEFAULT_AVOIDANCE_PARAMS, out),
    ).toBeGreaterThan(33 * 33 * 0.7);
  });

  it("no neighbours: the desired velocity, clamped to vmax", () => {
    const q = new ObstacleAvoidanceQuery(4, 4);
    q.sampleVelocityAdaptive(0, 0, 0.4, 3.5, 0, 0, 1, -2, AVOIDANCE_PRESETS.good, out);
    expect([...out]).toEqual([1, -2]);
    q.sampleVelocityGrid(0, 0, 0.4, 3.5, 0, 0, 6, 8, AVOIDANCE_PRESETS.good, out);
    expect(out[0]).toBeCloseTo(2.1, 12);
    expect(out[1]).toBeCloseTo(2.8, 12);
    q.sampleVelocityAdaptive(0, 0, 0.4, 0, 0, 0, 1, 1, AVOIDANCE_PRESETS.good, out);
    expect([...out]).toEqual([0, 0]);
  });

  it("head-on pair: each turns to the same hand, mirror images, and they do not overlap", () => {
    for (const p of PRESETS) {
      const q = new ObstacleAvoidanceQuery(1, 0);
      q.addCircle(3, 0, 0.4, -3.5, 0, -3.5, 0);
      q.sampleVelocityAdaptive(0, 0, 0.4, 3.5, 3.5, 0, 3.5, 0, AVOIDANCE_PRESETS[p], out);
      const [ax, az] = [out[0]!, out[1]!];
      q.reset();
      q.addCircle(0, 0, 0.4, 3.5, 0, 3.5, 0);
      q.sampleVelocityAdaptive(3, 0, 0.4, 3.5, -3.5, 0, -3.5, 0, AVOIDANCE_PRESETS[p], out);
      expect(az).toBeLessThan(-0.5); // a side is chosen, not a stop
      expect(ax).toBeGreaterThan(1.5);
      expect(out[0]).toBeCloseTo(-ax, 12);
      expect(out[1]).toBeCloseTo(-az, 12);
    }
    for (const p of ["good", "high"] as const) {
      const { closest, a, b } = headOn(AVOIDANCE_PRESETS[p]);
      expect(closest).toBeGreaterThan(0.8); // sum of radii
      expect(a.x).toBeGreaterThan(10); // and they got past each other
      expect(b.x).toBeLessThan(-2);
    }
  });

  it("a wall ahead is avoided: never crossed, and a short one is walked around", () => {
    for (const params of [
      AVOIDANCE_PRESETS.good,
      AVOIDANCE_PRESETS.high,
      DEFAULT_AVOIDANCE_PARAMS,
    ]) {
      const long = pastWall(5, params);
      expect(long.crossed).toBe(false);
      expect(long.x).toBeGreaterThan(1.5); // it walked up to the wall, then held
    }
    // Like Detour, sampling may clip a wall's end (the crowd's moveAlongSurface stops it);
    // with the crowd's default pattern it goes round.
    const short = pastWall(1, DEFAULT_AVOIDANCE_PARAMS);
    expect(Math.abs(short.x - 6) + Math.abs(short.z)).toBeLessThan(0.2);
  });

  it("is deterministic: the same inputs give bit-identical velocities", () => {
    const run = () => {
      const r: number[] = [];
      for (const p of PRESETS) {
        const h = headOn(AVOIDANCE_PRESETS[p], 0.1);
        r.push(h.a.x, h.a.z, h.b.x, h.b.z, h.closest);
      }
      return r;
    };
    expect(run()).toEqual(run());
  });

  it("bad arguments throw MeshwayError", () => {
    const q = new ObstacleAvoidanceQuery(1, 1);
    expect(() => q.addCircle(Number.NaN, 0, 1, 0, 0, 0, 0)).toThrow(MeshwayError);
    q.addCircle(1, 0, 1, 0, 0, 0, 0);
    expect(() => q.addCircle(1, 0, 1, 0, 0, 0, 0)).toThrow(/maxCircles/);
    expect(() => q.addSegment(0, 0, Number.POSITIVE_INFINITY, 0)).toThrow(/finite/);
    const bad = { ...DEFAULT_AVOIDANCE_PARAMS, gridSize: 1 };
    expect(() => q.sampleVelocityGrid(0, 0, 1, 1, 0, 0, 1, 0, bad, out)).toThrow(/gridSize/);
    const noHorizon = { ...DEFAULT_AVOIDANCE_PARAMS, horizTime: 0 };
    expect(() => q.sampleVelocityAdaptive(0, 0, 1, 1, 0, 0, 1, 0, noHorizon, out)).toThrow(
      /horizTime/,
    );
    expect(() => new ObstacleAvoidanceQuery(-1, 0)).toThrow(/maxCircles/);
  });
});

describe("detSinCos", () => {
  it("agrees with Math.sin/cos to 1e-14 over several turns", () => {
    const sc = new Float64Array(2);
    for (let a = -20; a <= 20; a += 0.0137) {
      detSinCos(a, sc);
      expect(Math.abs(sc[0]! - Math.sin(a))).toBeLessThan(1e-14);
      expect(Math.abs(sc[1]! - Math.cos(a))).toBeLessThan(1e-14);
    }
  });
});

describe("sampled avoidance shortcuts (results as if sampled)", () => {
  it("walls beyond every candidate's reach and no neighbour: the desired velocity, as with nothing", () => {
    const q = new ObstacleAvoidanceQuery(6, 8);
    const params = AVOIDANCE_PRESETS.good;
    q.reset();
    q.sampleVelocityAdaptive(0, 0, 0.4, 3.5, 1, 0, 3, 1, params, out);
    const none = [out[0]!, out[1]!];
    q.reset();
    q.addSegment(-10, 4, 10, 4); // 4 m away: a candidate (|v| <= 3.501) cannot reach it
    q.addSegment(10, -4, -10, -4);
    const samples = q.sampleVelocityAdaptive(0, 0, 0.4, 3.5, 1, 0, 3, 1, params, out);
    expect(samples).toBe(0);
    expect([out[0]!, out[1]!]).toEqual(none);
    expect(none).toEqual([3, 1]);
  });

  it("grid sampling past the candidate buffer (33 × 33) still picks the desired velocity in the open", () => {
    const q = new ObstacleAvoidanceQuery(6, 8);
    q.reset();
    // A wall within reach forces sampling; it is behind the agent (the desired velocity is free).
    q.addSegment(-1, -1, -1, 1);
    const n = q.sampleVelocityGrid(0, 0, 0.4, 3.5, 3.5, 0, 3.5, 0, DEFAULT_AVOIDANCE_PARAMS, out);
    expect(n).toBeGreaterThan(129); // more than one batch of candidates
    expect(out[0]!).toBeGreaterThan(3);
    expect(Math.abs(out[1]!)).toBeLessThan(0.3);
  });
});
