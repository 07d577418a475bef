import type { QueryFilter } from "../navmesh/filter.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { LocalNeighbourhoodResult } from "../query/local-neighbourhood.js";
import type { NavMeshQuery } from "../query/nav-mesh-query.js";
import { WallSegmentsResult } from "../query/wall-segments.js";
import { refsPassFilter } from "./path-corridor.js";

/** Wall segments kept per agent, nearest first (Detour's MAX_LOCAL_SEGS). */
export const MAX_LOCAL_SEGS = 8;
/** Polygons of the neighbourhood remembered for the validity check (MAX_LOCAL_POLYS). */
export const MAX_LOCAL_POLYS = 16;

// Scratch shared by every boundary, made on first use (not on import: issue 17).
let neighbourhood: LocalNeighbourhoodResult | null = null;
let walls: WallSegmentsResult | null = null;

/**
 * The walls near an agent, Detour's dtLocalBoundary (Mononen): the wall segments of the
 * local neighbourhood (findLocalNeighbourhood within collisionQueryRange) that lie within
 * that range, the nearest MAX_LOCAL_SEGS kept, sorted by distance. The crowd refreshes it
 * when the agent moved more than a quarter of the range from `center` or a polygon went
 * stale (isValid). Storage may be views into the crowd's per-agent arrays.
 */
export class LocalBoundary {
  /** Where the segments were collected; +Infinity when empty (forces an update). */
  readonly center: Float64Array;
  /** 6 numbers per segment (start xyz, end xyz). */
  readonly segments: Float64Array;
  /** Squared XZ distance from center per segment (sort key). */
  readonly segmentDistSqr: Float64Array;
  readonly polys: Float64Array;
  segmentCount = 0;
  polyCount = 0;

  constructor(
    center: Float64Array = new Float64Array(3),
    segments: Float64Array = new Float64Array(MAX_LOCAL_SEGS * 6),
    segmentDistSqr: Float64Array = new Float64Array(MAX_LOCAL_SEGS),
    polys: Float64Array = new Float64Array(MAX_LOCAL_POLYS),
  ) {
    this.center = center;
    this.segments = segments;
    this.segmentDistSqr = segmentDistSqr;
    this.polys = polys;
    this.reset();
  }

  reset(): void {
    this.center.fill(Number.POSITIVE_INFINITY);
    this.segmentCount = 0;
    this.polyCount = 0;
  }

  /** Inserts a segment by distance (the farthest falls off when full). */
  private addSegment(distSqr: number, s: Float64Array, o: number): void {
    const n = this.segmentCount;
    let i = n;
    if (n > 0 && distSqr >= this.segmentDistSqr[n - 1]!) {
      if (n >= MAX_LOCAL_SEGS) return;
    } else {
      i = 0;
      while (i < n && distSqr > this.segmentDistSqr[i]!) i++;
    }
    const last = Math.min(n, MAX_LOCAL_SEGS - 1);
    const segs = this.segments;
    for (let k = last; k > i; k--) {
      this.segmentDistSqr[k] = this.segmentDistSqr[k - 1]!;
      // Six numbers by hand: copyWithin is a builtin call per segment shifted.
      for (let e = k * 6; e < k * 6 + 6; e++) segs[e] = segs[e - 6]!;
    }
    this.segmentDistSqr[i] = distSqr;
    for (let k = 0; k < 6; k++) segs[i * 6 + k] = s[o + k]!;
    if (n < MAX_LOCAL_SEGS) this.segmentCount = n + 1;
  }

  /** Collects the walls within collisionQueryRange of pos, starting from polygon `ref`. */
  update(
    ref: PolyRef,
    pos: ArrayLike<number>,
    collisionQueryRange: number,
    query: NavMeshQuery,
    filter: QueryFilter,
  ): void {
    if (ref === 0) {
      this.reset();
      return;
    }
    if (neighbourhood === null || walls === null) {
      neighbourhood = new LocalNeighbourhoodResult(32);
      walls = new WallSegmentsResult(32);
    }
    const nb = neighbourhood;
    const ws = walls;
    query.findLocalNeighbourhood(ref, pos, collisionQueryRange, filter, nb);
    if (nb.status === "invalidRef") {
      this.reset();
      return;
    }
    this.center[0] = pos[0]!;
    this.center[1] = pos[1]!;
    this.center[2] = pos[2]!;
    const np = Math.min(nb.count, MAX_LOCAL_POLYS);
    for (let i = 0; i < np; i++) this.polys[i] = nb.refs[i]!;
    this.polyCount = np;
    this.segmentCount = 0;
    const px = pos[0]!;
    const pz = pos[2]!;
    const rangeSqr = collisionQueryRange * collisionQueryRange;
    for (let j = 0; j < np; j++) {
      query.getPolyWallSegments(this.polys[j]!, filter, ws);
      const s = ws.segments;
      for (let k = 0; k < ws.count; k++) {
        const o = k * 6;
        const d = distancePtSegSqrXZ(px, pz, s[o]!, s[o + 2]!, s[o + 3]!, s[o + 5]!);
        if (d > rangeSqr) continue;
        this.addSegment(d, s, o);
      }
    }
  }

  /** False when empty or a remembered polygon went stale or fails the filter now. */
  isValid(query: NavMeshQuery, filter: QueryFilter): boolean {
    return this.polyCount > 0 && refsPassFilter(query, this.polys, this.polyCount, filter);
  }
}
