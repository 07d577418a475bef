/**
 * STAND-IN for src/crowd/obstacle-avoidance.ts (branch crowd-avoidance), same interface; the
 * lead swaps the import in crowd.ts and deletes this file at merge. It samples nothing: the
 * chosen velocity is the desired one clamped to vmax.
 */
export interface ObstacleAvoidanceParams {
  velBias: number;
  weightDesVel: number;
  weightCurVel: number;
  weightSide: number;
  weightToi: number;
  horizTime: number;
  gridSize: number;
  adaptiveDivs: number;
  adaptiveRings: number;
  adaptiveDepth: number;
}

const base = {
  velBias: 0.5,
  weightDesVel: 2,
  weightCurVel: 0.75,
  weightSide: 0.75,
  weightToi: 2.5,
  horizTime: 2.5,
  gridSize: 33,
};

export const AVOIDANCE_PRESETS: Record<
  "low" | "medium" | "good" | "high",
  ObstacleAvoidanceParams
> = {
  low: { ...base, adaptiveDivs: 5, adaptiveRings: 2, adaptiveDepth: 1 },
  medium: { ...base, adaptiveDivs: 5, adaptiveRings: 2, adaptiveDepth: 2 },
  good: { ...base, adaptiveDivs: 7, adaptiveRings: 2, adaptiveDepth: 3 },
  high: { ...base, adaptiveDivs: 7, adaptiveRings: 3, adaptiveDepth: 3 },
};

export class ObstacleAvoidanceQuery {
  readonly maxCircles: number;
  readonly maxSegments: number;
  constructor(maxCircles: number, maxSegments: number) {
    this.maxCircles = maxCircles;
    this.maxSegments = maxSegments;
  }
  reset(): void {}
  addCircle(
    _px: number,
    _pz: number,
    _radius: number,
    _vx: number,
    _vz: number,
    _dvx: number,
    _dvz: number,
  ): void {}
  addSegment(_px: number, _pz: number, _qx: number, _qz: number): void {}
  sampleVelocityAdaptive(
    _px: number,
    _pz: number,
    _radius: number,
    vmax: number,
    _vx: number,
    _vz: number,
    dvx: number,
    dvz: number,
    _params: ObstacleAvoidanceParams,
    out: Float64Array,
  ): number {
    const len = Math.sqrt(dvx * dvx + dvz * dvz);
    const s = len > vmax && len > 0 ? vmax / len : 1;
    out[0] = dvx * s;
    out[1] = dvz * s;
    return 0;
  }
  sampleVelocityGrid(
    px: number,
    pz: number,
    radius: number,
    vmax: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
    params: ObstacleAvoidanceParams,
    out: Float64Array,
  ): number {
    return this.sampleVelocityAdaptive(px, pz, radius, vmax, vx, vz, dvx, dvz, params, out);
  }
}
