/**
 * STAND-IN for src/crowd/orca.ts (branch crowd-avoidance), same interface; the lead swaps
 * the import in crowd.ts and deletes this file at merge. It plans nothing: the new velocity
 * is the desired one clamped to vmax.
 */
export interface OrcaParams {
  timeHorizon: number;
  obstacleTimeHorizon: number;
}

export const DEFAULT_ORCA_PARAMS: OrcaParams = { timeHorizon: 2, obstacleTimeHorizon: 1 };

export class OrcaPlanner {
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
  computeVelocity(
    _px: number,
    _pz: number,
    _radius: number,
    vmax: number,
    _vx: number,
    _vz: number,
    dvx: number,
    dvz: number,
    _dt: number,
    _params: OrcaParams,
    out: Float64Array,
  ): void {
    const len = Math.sqrt(dvx * dvx + dvz * dvz);
    const s = len > vmax && len > 0 ? vmax / len : 1;
    out[0] = dvx * s;
    out[1] = dvz * s;
  }
}
