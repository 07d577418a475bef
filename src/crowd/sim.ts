import { MeshwayError } from "../errors.js";
import { QueryFilter } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import type { FindPathResult } from "../query/find-path.js";
import {
  createFindPathResult,
  createNearestPolyResult,
  NavMeshQuery,
} from "../query/nav-mesh-query.js";
import type { CrowdOptions } from "./crowd.js";
import { LocalBoundary, MAX_LOCAL_POLYS, MAX_LOCAL_SEGS } from "./local-boundary.js";
import { NeighbourGrid } from "./neighbour-grid.js";
import {
  AVOIDANCE_PRESETS,
  type ObstacleAvoidanceParams,
  ObstacleAvoidanceQuery,
} from "./obstacle-avoidance.js";
import { DEFAULT_ORCA_PARAMS, type OrcaParams, OrcaPlanner } from "./orca.js";
import { PathCorridor } from "./path-corridor.js";
import { PATH_QUEUE_INVALID, PathQueue } from "./path-queue.js";

export type { ObstacleAvoidanceParams, OrcaParams };

// Agent states and target states (Detour's numbering).
export const S_INVALID = 0;
export const S_WALKING = 1;
export const S_OFFMESH = 2;
export const T_NONE = 0;
export const T_FAILED = 1;
export const T_VALID = 2;
export const T_REQUESTING = 3;
export const T_WAITING_FOR_QUEUE = 4;
export const T_WAITING_FOR_PATH = 5;
export const T_VELOCITY = 6;
/** Per-agent limits (Detour's DT_CROWDAGENT_MAX_NEIGHBOURS / _MAX_CORNERS). */
export const MAX_NEIGHBOURS = 6;
export const MAX_CORNERS = 4;
/** Corridor length (Detour's m_maxPathResult). */
export const MAX_PATH = 256;
/** Corridor polygons checked every update (CHECK_LOOKAHEAD). */
export const CHECK_LOOKAHEAD = 10;
/** A valid target whose corridor ends short is replanned after this. [Units: s] */
export const TARGET_REPLAN_DELAY = 1;
/** Topology optimisation period and agents per update. */
export const OPT_TIME_THR = 0.5;
export const OPT_MAX_AGENTS = 1;
/** Agents handed to the path queue per update. */
export const PATH_MAX_AGENTS = 8;
/** Result size of the quick search (MAX_RES). */
export const QUICK_MAX_RES = 32;
export const COLLISION_RESOLVE_FACTOR = 0.7;
/** An ORCA agent this close to the end of a complete corridor counts as settled. [Units: agent radii] */
export const SETTLE_RADII = 2;
/**
 * ORCA agents plan with radii this much smaller than their own: ORCA keeps planned circles
 * exactly apart, so at full radius a packed crowd has no room left and walks at half speed
 * through the 3D LP fallback; 5 % leaves that room while pairs stay beyond 0.9 × the sum of
 * radii (the overlap the crowd bench counts), and resolveCollisions still uses the full radii.
 */
export const ORCA_RADIUS_SCALE = 0.95;

/**
 * The crowd's state: struct-of-arrays agent data in typed arrays indexed by agent id (slot),
 * the queries and planners, and the scratch the update passes share (paths.ts,
 * perception.ts, steering.ts, motion.ts). Internal to the crowd: use Crowd.
 * @internal
 */
export class CrowdSim {
  readonly navMesh: NavMesh;
  readonly maxAgents: number;
  readonly maxAgentRadius: number;
  readonly query: NavMeshQuery;
  readonly pathQueue: PathQueue;
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  readonly defaultFilter: QueryFilter;
  readonly autoTraverseOffMeshConnections: boolean;
  readonly pathBudget: number;
  readonly quickSearch: number;
  readonly halfExtents: Float64Array;
  readonly avoidanceParams: Readonly<ObstacleAvoidanceParams>;
  readonly orcaParams: Readonly<OrcaParams>;
  readonly grid: NeighbourGrid;
  readonly sampler = new ObstacleAvoidanceQuery(MAX_NEIGHBOURS, MAX_LOCAL_SEGS);
  readonly orca = new OrcaPlanner(MAX_NEIGHBOURS, MAX_LOCAL_SEGS);

  // Struct-of-arrays agent state, indexed by slot.
  readonly active: Uint8Array;
  readonly state: Uint8Array;
  readonly tstate: Uint8Array;
  readonly partial: Uint8Array;
  readonly targetReplan: Uint8Array;
  readonly cornersStale: Uint8Array;
  readonly radius: Float64Array;
  readonly height: Float64Array;
  readonly maxSpeed: Float64Array;
  readonly maxAcceleration: Float64Array;
  readonly collisionQueryRange: Float64Array;
  readonly pathOptimizationRange: Float64Array;
  readonly separationWeight: Float64Array;
  readonly flags: Uint8Array;
  readonly useOrca: Uint8Array;
  /** ORCA agents standing at their target (set by steer): others walk around them (see avoid). */
  readonly settled: Uint8Array;
  /** Straight distance to the corridor's end when among the corners, else Infinity (set by steer). [Units: m] */
  readonly goalDist: Float64Array;
  /** How long a sampled agent has been held well below its desired speed (see avoid). [Units: s] */
  readonly blockedTime: Float64Array;
  readonly filters: QueryFilter[];
  readonly npos: Float64Array;
  readonly vel: Float64Array;
  readonly dvel: Float64Array;
  readonly nvel: Float64Array;
  readonly disp: Float64Array;
  readonly desiredSpeed: Float64Array;
  readonly targetRef: Float64Array;
  readonly targetPos: Float64Array;
  readonly targetPathqRef: Float64Array;
  readonly targetReplanTime: Float64Array;
  readonly topologyOptTime: Float64Array;
  readonly cornerBuffers: { verts: Float64Array; flags: Uint8Array; polys: Float64Array };
  readonly ncorners: Uint8Array;
  readonly neis: Int32Array;
  readonly neiDist: Float64Array;
  readonly nneis: Uint8Array;
  readonly corridors: PathCorridor[] = [];
  readonly boundaries: LocalBoundary[] = [];
  readonly animActive: Uint8Array;
  readonly animT: Float64Array;
  readonly animTmax: Float64Array;
  readonly animInit: Float64Array;
  readonly animStart: Float64Array;
  readonly animEnd: Float64Array;
  readonly animRef: Float64Array;
  readonly activeList: Int32Array;
  /** Per-slot xyz views (made once: subarray() allocates). */
  readonly nposView: Float64Array[] = [];
  readonly targetPosView: Float64Array[] = [];
  readonly animStartView: Float64Array[] = [];
  readonly animEndView: Float64Array[] = [];
  nactive = 0;

  // Scratch.
  readonly nearest = createNearestPolyResult();
  readonly pathQueueAgents = new Int32Array(PATH_MAX_AGENTS);
  readonly optQueue = new Int32Array(OPT_MAX_AGENTS);
  readonly avoidOut = new Float64Array(2);
  readonly refs2 = new Float64Array(2);
  readonly reqPos = new Float64Array(3);
  readonly tmp3 = new Float64Array(3);
  readonly dir = new Float64Array(3);
  reqPath: Float64Array = new Float64Array(64);
  readonly reqResult: FindPathResult = createFindPathResult();
  readonly pathResult = new Float64Array(MAX_PATH);

  constructor(navMesh: NavMesh, options: CrowdOptions) {
    const n = options?.maxAgents;
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `Crowd maxAgents ${n} must be an integer in 1..65535`,
      );
    }
    const r = options.maxAgentRadius;
    if (!(Number.isFinite(r) && r > 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `Crowd maxAgentRadius ${r} must be a finite number > 0`,
      );
    }
    const budget = options.pathBudget ?? 100;
    const quick = options.quickSearch ?? 20;
    for (const [name, v] of [
      ["pathBudget", budget],
      ["quickSearch", quick],
    ] as const) {
      if (!Number.isInteger(v) || v < 0) {
        throw new MeshwayError("INVALID_ARGUMENT", `Crowd ${name} ${v} must be an integer >= 0`);
      }
    }
    this.navMesh = navMesh;
    this.maxAgents = n;
    this.maxAgentRadius = r;
    this.pathBudget = budget;
    this.quickSearch = quick;
    this.autoTraverseOffMeshConnections = options.autoTraverseOffMeshConnections ?? true;
    this.defaultFilter = options.filter ?? new QueryFilter();
    const ext = options.queryHalfExtents ?? [r * 2, r * 1.5, r * 2];
    this.halfExtents = Float64Array.from([ext[0]!, ext[1]!, ext[2]!]);
    if (!this.halfExtents.every((e) => Number.isFinite(e) && e >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `Crowd queryHalfExtents [${[...this.halfExtents]}] must be finite and >= 0`,
      );
    }
    this.avoidanceParams = options.avoidanceParams ?? AVOIDANCE_PRESETS.good;
    this.orcaParams = options.orcaParams ?? DEFAULT_ORCA_PARAMS;
    this.query = new NavMeshQuery(navMesh, { maxNodes: 512 });
    this.pathQueue = new PathQueue(navMesh, MAX_PATH, options.maxPathNodes ?? 4096);
    this.grid = new NeighbourGrid(n, r * 4);

    this.positions = new Float32Array(n * 3);
    this.velocities = new Float32Array(n * 3);
    this.active = new Uint8Array(n);
    this.state = new Uint8Array(n);
    this.tstate = new Uint8Array(n);
    this.partial = new Uint8Array(n);
    this.targetReplan = new Uint8Array(n);
    this.cornersStale = new Uint8Array(n);
    this.radius = new Float64Array(n);
    this.height = new Float64Array(n);
    this.maxSpeed = new Float64Array(n);
    this.maxAcceleration = new Float64Array(n);
    this.collisionQueryRange = new Float64Array(n);
    this.pathOptimizationRange = new Float64Array(n);
    this.separationWeight = new Float64Array(n);
    this.flags = new Uint8Array(n);
    this.useOrca = new Uint8Array(n);
    this.settled = new Uint8Array(n);
    this.goalDist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    this.blockedTime = new Float64Array(n);
    // Overlapping agents may move apart (see separatingIsFree): else a packed crowd freezes.
    this.sampler.separatingIsFree = true;
    this.filters = new Array<QueryFilter>(n).fill(this.defaultFilter);
    this.npos = new Float64Array(n * 3);
    this.vel = new Float64Array(n * 3);
    this.dvel = new Float64Array(n * 3);
    this.nvel = new Float64Array(n * 3);
    this.disp = new Float64Array(n * 3);
    this.desiredSpeed = new Float64Array(n);
    this.targetRef = new Float64Array(n);
    this.targetPos = new Float64Array(n * 3);
    this.targetPathqRef = new Float64Array(n);
    this.targetReplanTime = new Float64Array(n);
    this.topologyOptTime = new Float64Array(n);
    this.cornerBuffers = {
      verts: new Float64Array(n * MAX_CORNERS * 3),
      flags: new Uint8Array(n * MAX_CORNERS),
      polys: new Float64Array(n * MAX_CORNERS),
    };
    this.ncorners = new Uint8Array(n);
    this.neis = new Int32Array(n * MAX_NEIGHBOURS);
    this.neiDist = new Float64Array(n * MAX_NEIGHBOURS);
    this.nneis = new Uint8Array(n);
    this.animActive = new Uint8Array(n);
    this.animT = new Float64Array(n);
    this.animTmax = new Float64Array(n);
    this.animInit = new Float64Array(n * 3);
    this.animStart = new Float64Array(n * 3);
    this.animEnd = new Float64Array(n * 3);
    this.animRef = new Float64Array(n);
    this.activeList = new Int32Array(n);
    // Corridors and boundaries are thin views over shared buffers.
    const paths = new Float64Array(n * MAX_PATH);
    const cpos = new Float64Array(n * 3);
    const ctgt = new Float64Array(n * 3);
    const bc = new Float64Array(n * 3);
    const bs = new Float64Array(n * MAX_LOCAL_SEGS * 6);
    const bd = new Float64Array(n * MAX_LOCAL_SEGS);
    const bp = new Float64Array(n * MAX_LOCAL_POLYS);
    for (let i = 0; i < n; i++) {
      this.nposView.push(this.npos.subarray(i * 3, i * 3 + 3));
      this.targetPosView.push(this.targetPos.subarray(i * 3, i * 3 + 3));
      this.animStartView.push(this.animStart.subarray(i * 3, i * 3 + 3));
      this.animEndView.push(this.animEnd.subarray(i * 3, i * 3 + 3));
      this.corridors.push(
        new PathCorridor(
          MAX_PATH,
          paths.subarray(i * MAX_PATH, (i + 1) * MAX_PATH),
          cpos.subarray(i * 3, i * 3 + 3),
          ctgt.subarray(i * 3, i * 3 + 3),
        ),
      );
      this.boundaries.push(
        new LocalBoundary(
          bc.subarray(i * 3, i * 3 + 3),
          bs.subarray(i * MAX_LOCAL_SEGS * 6, (i + 1) * MAX_LOCAL_SEGS * 6),
          bd.subarray(i * MAX_LOCAL_SEGS, (i + 1) * MAX_LOCAL_SEGS),
          bp.subarray(i * MAX_LOCAL_POLYS, (i + 1) * MAX_LOCAL_POLYS),
        ),
      );
    }
  }

  /** Resets agent `i` onto polygon `ref` at `point`, standing still, walking. */
  place(i: number, ref: PolyRef, point: ArrayLike<number>): void {
    this.corridors[i]!.reset(ref, point);
    this.boundaries[i]!.reset();
    this.partial[i] = 0;
    this.topologyOptTime[i] = 0;
    this.targetReplanTime[i] = 0;
    this.nneis[i] = 0;
    this.ncorners[i] = 0;
    this.cornersStale[i] = 0;
    this.animActive[i] = 0;
    const o = i * 3;
    for (let k = 0; k < 3; k++) {
      this.npos[o + k] = point[k]!;
      this.vel[o + k] = 0;
      this.dvel[o + k] = 0;
      this.nvel[o + k] = 0;
      this.positions[o + k] = point[k]!;
      this.velocities[o + k] = 0;
    }
    this.desiredSpeed[i] = 0;
    this.settled[i] = 0;
    this.blockedTime[i] = 0;
    this.state[i] = S_WALKING;
  }

  requestMoveTargetReplan(i: number, ref: PolyRef, pos: ArrayLike<number>): void {
    this.targetRef[i] = ref;
    const o = i * 3;
    const x = pos[0]!;
    const y = pos[1]!;
    const z = pos[2]!;
    this.targetPos[o] = x;
    this.targetPos[o + 1] = y;
    this.targetPos[o + 2] = z;
    this.targetPathqRef[i] = PATH_QUEUE_INVALID;
    this.targetReplan[i] = 1;
    this.tstate[i] = ref !== 0 ? T_REQUESTING : T_FAILED;
  }

  /**
   * Inserts agent `i` into `list` (length n, capacity max) ordered by descending key, ties
   * after earlier agents (Detour's addToPathQueue / addToOptQueue); returns the new length.
   */
  addSorted(list: Int32Array, n: number, max: number, i: number, key: Float64Array): number {
    const k = key[i]!;
    let slot: number;
    if (n === 0) {
      slot = 0;
    } else if (k <= key[list[n - 1]!]!) {
      if (n >= max) return n;
      slot = n;
    } else {
      slot = 0;
      while (slot < n && k < key[list[slot]!]!) slot++;
      const last = Math.min(n, max - 1);
      for (let m = last; m > slot; m--) list[m] = list[m - 1]!;
    }
    list[slot] = i;
    return Math.min(n + 1, max);
  }
}
