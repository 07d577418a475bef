import type { QueryFilter } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import type { FindPathResult } from "../query/find-path.js";
import { NavMeshQuery } from "../query/nav-mesh-query.js";

/**
 * Time-sliced path requests, Detour's dtPathQueue (Mononen): up to MAX_QUEUE searches wait
 * in a ring; each update spends at most `maxIterations` A* expansions on them, front first,
 * so one long path cannot stall a frame. A finished request keeps its corridor for
 * KEEP_ALIVE updates, then its slot is recycled. The queue owns its NavMeshQuery (its own
 * node pool), so the crowd's other queries may run between slices.
 */

/** Requests in flight at once (Detour's MAX_QUEUE). */
export const PATH_QUEUE_SIZE = 8;
/** Updates a finished request is kept for its owner (Detour's MAX_KEEP_ALIVE). */
const KEEP_ALIVE = 2;

/** A request handle; 0 is never a request. */
export type PathQueueRef = number;
export const PATH_QUEUE_INVALID = 0;

/** Request status: waiting / running, or finished. */
export type PathRequestStatus = "inProgress" | "complete" | "partial" | "failed";

// Slot states.
const IDLE = 0;
const PENDING = 1;
const RUNNING = 2;
const COMPLETE = 3;
const PARTIAL = 4;
const FAILED = 5;

export class PathQueue {
  readonly query: NavMeshQuery;
  readonly maxPath: number;
  private readonly handle = new Float64Array(PATH_QUEUE_SIZE);
  private readonly state = new Uint8Array(PATH_QUEUE_SIZE);
  private readonly startRef = new Float64Array(PATH_QUEUE_SIZE);
  private readonly endRef = new Float64Array(PATH_QUEUE_SIZE);
  private readonly startPos = new Float64Array(PATH_QUEUE_SIZE * 3);
  private readonly endPos = new Float64Array(PATH_QUEUE_SIZE * 3);
  private readonly filters: (QueryFilter | null)[] = new Array(PATH_QUEUE_SIZE).fill(null);
  private readonly keepAlive = new Uint8Array(PATH_QUEUE_SIZE);
  private readonly paths: Float64Array[] = [];
  private readonly counts = new Int32Array(PATH_QUEUE_SIZE);
  private readonly startView: Float64Array[] = [];
  private readonly endView: Float64Array[] = [];
  private nextHandle = 1;
  private head = 0;
  private readonly result: FindPathResult = { status: "noStart", polyCount: 0, polys: [] };
  /** finalize's output (grows once to the longest corridor seen). */
  private scratch: Float64Array = new Float64Array(512);

  /** Corridors of at most `maxPath` polygons, searches of at most `maxNodes` nodes. */
  constructor(navMesh: NavMesh, maxPath = 256, maxNodes = 4096) {
    this.query = new NavMeshQuery(navMesh, { maxNodes });
    this.maxPath = maxPath;
    for (let i = 0; i < PATH_QUEUE_SIZE; i++) {
      this.paths.push(new Float64Array(maxPath));
      this.startView.push(this.startPos.subarray(i * 3, i * 3 + 3));
      this.endView.push(this.endPos.subarray(i * 3, i * 3 + 3));
    }
  }

  /** Queues a search; PATH_QUEUE_INVALID when all slots are busy. */
  request(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
  ): PathQueueRef {
    let slot = -1;
    for (let i = 0; i < PATH_QUEUE_SIZE; i++) {
      if (this.state[i] === IDLE) {
        slot = i;
        break;
      }
    }
    if (slot < 0) return PATH_QUEUE_INVALID;
    const ref = this.nextHandle++;
    this.handle[slot] = ref;
    this.state[slot] = PENDING;
    this.startRef[slot] = startRef;
    this.endRef[slot] = endRef;
    for (let k = 0; k < 3; k++) {
      this.startPos[slot * 3 + k] = startPos[k]!;
      this.endPos[slot * 3 + k] = endPos[k]!;
    }
    this.filters[slot] = filter;
    this.keepAlive[slot] = 0;
    this.counts[slot] = 0;
    return ref;
  }

  /** Runs the queued searches for at most `maxIterations` node expansions in total. */
  update(maxIterations: number): void {
    let budget = maxIterations;
    const q = this.query;
    for (let n = 0; n < PATH_QUEUE_SIZE; n++) {
      const i = this.head % PATH_QUEUE_SIZE;
      const st = this.state[i]!;
      if (st === IDLE) {
        this.head++;
        continue;
      }
      if (st >= COMPLETE) {
        // Finished and not collected: recycled after KEEP_ALIVE updates.
        this.keepAlive[i] = this.keepAlive[i]! + 1;
        if (this.keepAlive[i]! > KEEP_ALIVE) this.state[i] = IDLE;
        this.head++;
        continue;
      }
      let s: string;
      if (st === PENDING) {
        s = q.initSlicedFindPath(
          this.startRef[i]!,
          this.endRef[i]!,
          this.startView[i]!,
          this.endView[i]!,
          this.filters[i]!,
        );
        this.state[i] = RUNNING;
      } else {
        s = "inProgress";
      }
      if (s === "inProgress") {
        s = q.updateSlicedFindPath(budget);
        budget -= q.slicedIterations;
      }
      if (s !== "inProgress") {
        const r = q.finalizeSlicedFindPath(this.scratch, this.result);
        this.scratch = r.polys as Float64Array;
        // Longer corridors keep their first maxPath polygons (the crowd replans later).
        const n = Math.min(r.polyCount, this.maxPath);
        const p = this.paths[i]!;
        for (let k = 0; k < n; k++) p[k] = this.scratch[k]!;
        this.counts[i] = n;
        this.state[i] =
          r.status === "complete" && n === r.polyCount
            ? COMPLETE
            : n > 0 && r.status !== "invalidRef"
              ? PARTIAL
              : FAILED;
      }
      if (budget <= 0) break;
      this.head++;
    }
  }

  /** Status of request `ref`; "failed" for an unknown or recycled handle. */
  getRequestStatus(ref: PathQueueRef): PathRequestStatus {
    for (let i = 0; i < PATH_QUEUE_SIZE; i++) {
      if (this.handle[i] !== ref || this.state[i] === IDLE) continue;
      const st = this.state[i]!;
      if (st === COMPLETE) return "complete";
      if (st === PARTIAL) return "partial";
      if (st === FAILED) return "failed";
      return "inProgress";
    }
    return "failed";
  }

  /**
   * Copies finished request `ref`'s corridor to `out` (at most its length) and frees the
   * slot; returns the count, or -1 when the request is unknown or not finished.
   */
  getPathResult(ref: PathQueueRef, out: Float64Array): number {
    for (let i = 0; i < PATH_QUEUE_SIZE; i++) {
      if (this.handle[i] !== ref || this.state[i]! < COMPLETE) continue;
      const n = Math.min(this.counts[i]!, out.length);
      const p = this.paths[i]!;
      for (let k = 0; k < n; k++) out[k] = p[k]!;
      this.state[i] = IDLE;
      this.filters[i] = null;
      return n;
    }
    return -1;
  }
}
