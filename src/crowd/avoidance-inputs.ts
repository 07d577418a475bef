import { MeshwayError } from "../errors.js";

/**
 * What both avoidance planners (ObstacleAvoidanceQuery, OrcaPlanner) are given each call:
 * neighbour circles and wall segments in fixed-capacity Float64Arrays. A circle record starts
 * with p(2), radius, velocity(2), desired velocity(2) and a segment record with p(2), q(2); a
 * planner may ask for longer records (`circleStride`, `segmentStride`) to keep per-call
 * values beside what was added. Exceeding a capacity throws (Detour drops silently).
 */
export class AvoidanceInputs {
  readonly circles: Float64Array;
  readonly segments: Float64Array;
  circleCount = 0;
  segmentCount = 0;

  constructor(
    /** Owner's name for messages, e.g. "OrcaPlanner". */
    private readonly owner: string,
    /** The owner's name of the circle capacity, e.g. "maxNeighbours". */
    private readonly circleCapacityName: string,
    readonly maxCircles: number,
    private readonly circleStride: number,
    readonly maxSegments: number,
    private readonly segmentStride: number,
  ) {
    checkCapacity(owner, circleCapacityName, maxCircles);
    checkCapacity(owner, "maxSegments", maxSegments);
    this.circles = new Float64Array(maxCircles * circleStride);
    this.segments = new Float64Array(maxSegments * segmentStride);
  }

  reset(): void {
    this.circleCount = 0;
    this.segmentCount = 0;
  }

  addCircle(
    px: number,
    pz: number,
    radius: number,
    vx: number,
    vz: number,
    dvx: number,
    dvz: number,
  ): void {
    if (this.circleCount >= this.maxCircles) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `${this.owner}.addCircle: more than ${this.circleCapacityName} = ${this.maxCircles} since reset()`,
      );
    }
    const sum = px + pz + radius + vx + vz + dvx + dvz;
    if (!Number.isFinite(sum)) this.checkFinite("addCircle", sum); // (a call boxes the sum)
    const o = this.circleCount++ * this.circleStride;
    const c = this.circles;
    c[o] = px;
    c[o + 1] = pz;
    c[o + 2] = radius;
    c[o + 3] = vx;
    c[o + 4] = vz;
    c[o + 5] = dvx;
    c[o + 6] = dvz;
  }

  addSegment(px: number, pz: number, qx: number, qz: number): void {
    if (this.segmentCount >= this.maxSegments) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `${this.owner}.addSegment: more than maxSegments = ${this.maxSegments} since reset()`,
      );
    }
    const sum = px + pz + qx + qz;
    if (!Number.isFinite(sum)) this.checkFinite("addSegment", sum);
    const o = this.segmentCount++ * this.segmentStride;
    const s = this.segments;
    s[o] = px;
    s[o + 1] = pz;
    s[o + 2] = qx;
    s[o + 3] = qz;
  }

  /** One test for all arguments: a sum is finite only when every term is. */
  checkFinite(where: string, sum: number): void {
    if (!Number.isFinite(sum)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `${this.owner}.${where}: every argument must be a finite number`,
      );
    }
  }
}

function checkCapacity(owner: string, name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0 || n > 1 << 20) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${owner}: ${name} must be an integer in [0, 2^20], got ${n}`,
    );
  }
}
