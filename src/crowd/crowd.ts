import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { QueryFilter } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { OFF_MESH_SLOT } from "../navmesh/nav-mesh.js";
import { type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { FindPathResult } from "../query/find-path.js";
import {
  createFindPathResult,
  createNearestPolyResult,
  NavMeshQuery,
} from "../query/nav-mesh-query.js";
import { closestPointByRef } from "../query/ref-geometry.js";
import { STRAIGHT_PATH_END, STRAIGHT_PATH_OFFMESH } from "../query/straight-path.js";
// Stand-ins until branch crowd-avoidance is merged: swap these three imports for
// ./proximity-grid.js, ./obstacle-avoidance.js and ./orca.js (same names and signatures).
import {
  AVOIDANCE_PRESETS,
  type ObstacleAvoidanceParams,
  ObstacleAvoidanceQuery,
} from "./_stub-obstacle-avoidance.js";
import { DEFAULT_ORCA_PARAMS, type OrcaParams, OrcaPlanner } from "./_stub-orca.js";
import { ProximityGrid } from "./_stub-proximity-grid.js";
import { type AgentParams, resolveAgentParams, updateFlags as UF } from "./agent-params.js";
import { LocalBoundary, MAX_LOCAL_POLYS, MAX_LOCAL_SEGS } from "./local-boundary.js";
import { PathCorridor, refPassesFilter } from "./path-corridor.js";
import { PATH_QUEUE_INVALID, PathQueue } from "./path-queue.js";

/**
 * A crowd of agents walking on one navmesh, Detour's dtCrowd (Mononen) with its update
 * order: check paths → move requests and the time-sliced path queue → topology
 * optimisation → proximity grid → local boundaries and neighbours → corners and visibility
 * optimisation → off-mesh triggers → steering (desired velocity, separation) → avoidance
 * (sampled velocity obstacles or ORCA, per agent) → integration (maxAcceleration) →
 * collision resolution → movement along the surface → off-mesh animation.
 *
 * Agent state is struct-of-arrays in typed arrays indexed by agent id (slot); the update
 * allocates nothing once warm and is deterministic (float64, no transcendental functions).
 * `positions` / `velocities` are Float32Array views, 3 per slot, refreshed by update().
 */

/** Detour's MoveRequestState, lower camel. */
export type TargetState =
  | "none"
  | "failed"
  | "valid"
  | "requesting"
  | "waitingForQueue"
  | "waitingForPath"
  | "velocity";

/** Detour's CrowdAgentState. */
export type AgentState = "walking" | "offMesh" | "invalid";

export interface CrowdOptions {
  /** Agent slots. [Limit: 1..65535] */
  maxAgents: number;
  /** Largest agent radius; sizes the proximity grid and placement box. [Units: wu] [Limit: > 0] */
  maxAgentRadius: number;
  /** A* expansions the path queue may spend per update (Detour's MAX_ITERS_PER_UPDATE). Default 100. */
  pathBudget?: number;
  /** Expansions of the immediate short search of a move request (0: queue only). Default 20. */
  quickSearch?: number;
  /** Off-mesh links animated by the crowd (default), or handed to the game: see completeOffMeshConnection. */
  autoTraverseOffMeshConnections?: boolean;
  /** Filter of agents added without one. Default: every polygon, cost 1. */
  filter?: QueryFilter;
  /** Box half size for snapping agents and targets. Default Detour's (2r, 1.5r, 2r), r = maxAgentRadius. */
  queryHalfExtents?: ArrayLike<number>;
  /** Parameters of "sampled" avoidance. Default AVOIDANCE_PRESETS.good. */
  avoidanceParams?: Readonly<ObstacleAvoidanceParams>;
  /** Parameters of "orca" avoidance. Default DEFAULT_ORCA_PARAMS. */
  orcaParams?: Readonly<OrcaParams>;
  /** Node pool of the path queue's searches. Default 4096. */
  maxPathNodes?: number;
}

/** What the game needs to animate an agent over an off-mesh link. */
export interface OffMeshTraversal {
  /** The off-mesh connection's ref. */
  ref: PolyRef;
  /** Its userId (undefined when none was given). */
  userId: number | undefined;
  /** Take-off and landing points (snapped to the ground). */
  start: Vec3;
  end: Vec3;
  /** Where the agent was when it triggered the link. */
  from: Vec3;
}

// Agent states and target states (Detour's numbering).
const S_INVALID = 0;
const S_WALKING = 1;
const S_OFFMESH = 2;
const T_NONE = 0;
const T_FAILED = 1;
const T_VALID = 2;
const T_REQUESTING = 3;
const T_WAITING_FOR_QUEUE = 4;
const T_WAITING_FOR_PATH = 5;
const T_VELOCITY = 6;
const TARGET_NAMES: readonly TargetState[] = [
  "none",
  "failed",
  "valid",
  "requesting",
  "waitingForQueue",
  "waitingForPath",
  "velocity",
];
const STATE_NAMES: readonly AgentState[] = ["invalid", "walking", "offMesh"];

/** Per-agent limits (Detour's DT_CROWDAGENT_MAX_NEIGHBOURS / _MAX_CORNERS). */
const MAX_NEIGHBOURS = 6;
const MAX_CORNERS = 4;
/** Corridor length (Detour's m_maxPathResult). */
const MAX_PATH = 256;
/** Corridor polygons checked every update (CHECK_LOOKAHEAD). */
const CHECK_LOOKAHEAD = 10;
/** A valid target whose corridor ends short is replanned after this. [Units: s] */
const TARGET_REPLAN_DELAY = 1;
/** Topology optimisation period and agents per update. */
const OPT_TIME_THR = 0.5;
const OPT_MAX_AGENTS = 1;
/** Agents handed to the path queue per update. */
const PATH_MAX_AGENTS = 8;
/** Result size of the quick search (MAX_RES). */
const QUICK_MAX_RES = 32;
/** Neighbour candidates read from the grid per agent (getNeighbours' MAX_NEIS). */
const MAX_GRID_IDS = 32;
const COLLISION_RESOLVE_FACTOR = 0.7;

export class Crowd {
  readonly navMesh: NavMesh;
  readonly maxAgents: number;
  readonly maxAgentRadius: number;
  /** The crowd's queries (Detour's 512-node common query); the path queue has its own. */
  readonly query: NavMeshQuery;
  readonly pathQueue: PathQueue;
  /** xyz per slot, float32, refreshed by update / addAgent / teleport (instanced rendering). */
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  readonly defaultFilter: QueryFilter;
  readonly autoTraverseOffMeshConnections: boolean;

  private readonly pathBudget: number;
  private readonly quickSearch: number;
  private readonly halfExtents: Float64Array;
  private readonly avoidanceParams: Readonly<ObstacleAvoidanceParams>;
  private readonly orcaParams: Readonly<OrcaParams>;
  private readonly grid: ProximityGrid;
  private readonly sampler = new ObstacleAvoidanceQuery(MAX_NEIGHBOURS, MAX_LOCAL_SEGS);
  private readonly orca = new OrcaPlanner(MAX_NEIGHBOURS, MAX_LOCAL_SEGS);

  // Struct-of-arrays agent state, indexed by slot.
  private readonly active: Uint8Array;
  private readonly state: Uint8Array;
  private readonly tstate: Uint8Array;
  private readonly partial: Uint8Array;
  private readonly targetReplan: Uint8Array;
  private readonly cornersStale: Uint8Array;
  private readonly radius: Float64Array;
  private readonly height: Float64Array;
  private readonly maxSpeed: Float64Array;
  private readonly maxAcceleration: Float64Array;
  private readonly collisionQueryRange: Float64Array;
  private readonly pathOptimizationRange: Float64Array;
  private readonly separationWeight: Float64Array;
  private readonly flags: Uint8Array;
  private readonly useOrca: Uint8Array;
  private readonly filters: QueryFilter[];
  private readonly npos: Float64Array;
  private readonly vel: Float64Array;
  private readonly dvel: Float64Array;
  private readonly nvel: Float64Array;
  private readonly disp: Float64Array;
  private readonly desiredSpeed: Float64Array;
  private readonly targetRef: Float64Array;
  private readonly targetPos: Float64Array;
  private readonly targetPathqRef: Float64Array;
  private readonly targetReplanTime: Float64Array;
  private readonly topologyOptTime: Float64Array;
  private readonly cornerBuffers: { verts: Float64Array; flags: Uint8Array; polys: Float64Array };
  private readonly ncorners: Uint8Array;
  private readonly neis: Int32Array;
  private readonly neiDist: Float64Array;
  private readonly nneis: Uint8Array;
  private readonly corridors: PathCorridor[] = [];
  private readonly boundaries: LocalBoundary[] = [];
  private readonly animActive: Uint8Array;
  private readonly animT: Float64Array;
  private readonly animTmax: Float64Array;
  private readonly animInit: Float64Array;
  private readonly animStart: Float64Array;
  private readonly animEnd: Float64Array;
  private readonly animRef: Float64Array;
  private readonly activeList: Int32Array;
  /** Per-slot xyz views (made once: subarray() allocates). */
  private readonly nposView: Float64Array[] = [];
  private readonly targetPosView: Float64Array[] = [];
  private readonly animStartView: Float64Array[] = [];
  private readonly animEndView: Float64Array[] = [];
  private nactive = 0;

  // Scratch.
  private readonly nearest = createNearestPolyResult();
  private readonly ids = new Int32Array(MAX_GRID_IDS);
  private readonly pathQueueAgents = new Int32Array(PATH_MAX_AGENTS);
  private readonly optQueue = new Int32Array(OPT_MAX_AGENTS);
  private readonly avoidOut = new Float64Array(2);
  private readonly refs2 = new Float64Array(2);
  private readonly reqPos = new Float64Array(3);
  private readonly tmp3 = new Float64Array(3);
  private readonly dir = new Float64Array(3);
  private reqPath: Float64Array = new Float64Array(64);
  private readonly reqResult: FindPathResult = createFindPathResult();
  private readonly pathResult = new Float64Array(MAX_PATH);

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
    this.grid = new ProximityGrid(n * 4, r * 3);

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

  // ---------------------------------------------------------------------------------------
  // Agents.

  /**
   * Adds an agent at the navmesh point nearest to `position` (within the crowd's query box);
   * returns its id (slot), or -1 when the crowd is full or nothing is near. Bad parameters
   * throw MeshwayError naming the field.
   */
  addAgent(position: ArrayLike<number>, params?: Partial<AgentParams>): number {
    checkVec3("addAgent position", position);
    const p = resolveAgentParams(params, this.maxAgentRadius);
    let idx = -1;
    for (let i = 0; i < this.maxAgents; i++) {
      if (this.active[i] === 0) {
        idx = i;
        break;
      }
    }
    if (idx < 0) return -1;
    const filter = p.filter ?? this.defaultFilter;
    const ref = this.query.findNearestPoly(position, this.halfExtents, filter, this.nearest);
    if (ref === 0) return -1;
    this.radius[idx] = p.radius;
    this.height[idx] = p.height;
    this.maxSpeed[idx] = p.maxSpeed;
    this.maxAcceleration[idx] = p.maxAcceleration;
    this.collisionQueryRange[idx] = p.collisionQueryRange;
    this.pathOptimizationRange[idx] = p.pathOptimizationRange;
    this.separationWeight[idx] = p.separationWeight;
    this.flags[idx] = p.updateFlags;
    this.useOrca[idx] = p.avoidance === "orca" ? 1 : 0;
    this.filters[idx] = filter;
    this.place(idx, ref, this.nearest.point);
    this.tstate[idx] = T_NONE;
    this.targetRef[idx] = 0;
    this.targetPathqRef[idx] = PATH_QUEUE_INVALID;
    this.active[idx] = 1;
    return idx;
  }

  /** Resets agent `i` onto polygon `ref` at `point`, standing still, walking. */
  private place(i: number, ref: PolyRef, point: ArrayLike<number>): void {
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
    this.state[i] = S_WALKING;
  }

  /** Frees the agent's slot (its id may be handed out again by addAgent). */
  removeAgent(id: number): void {
    this.checkId(id);
    this.active[id] = 0;
    this.animActive[id] = 0;
    this.state[id] = S_INVALID;
  }

  /** True when slot `id` holds an agent. */
  isActive(id: number): boolean {
    this.checkId(id);
    return this.active[id] === 1;
  }

  /** Number of agents in the crowd. */
  get agentCount(): number {
    let c = 0;
    for (let i = 0; i < this.maxAgents; i++) c += this.active[i]!;
    return c;
  }

  /**
   * Moves the agent to the navmesh point nearest `position`, standing still; a move target
   * it had is kept (replanned from there). False when nothing is near (agent unchanged).
   */
  teleport(id: number, position: ArrayLike<number>): boolean {
    if (!this.isActive(id)) return false;
    checkVec3("teleport position", position);
    const ref = this.query.findNearestPoly(
      position,
      this.halfExtents,
      this.filters[id]!,
      this.nearest,
    );
    if (ref === 0) return false;
    this.place(id, ref, this.nearest.point);
    const ts = this.tstate[id]!;
    if (ts !== T_NONE && ts !== T_VELOCITY && this.targetRef[id] !== 0) {
      this.requestMoveTargetReplan(id, this.targetRef[id]!, this.targetPosView[id]!);
    }
    return true;
  }

  /**
   * Asks the agent to walk to the navmesh point nearest `position` (snapped with the agent's
   * filter). False when nothing is near or the id holds no agent. The path is found through
   * the time-sliced queue: see targetState.
   */
  requestMoveTarget(id: number, position: ArrayLike<number>): boolean {
    if (!this.isActive(id)) return false;
    checkVec3("requestMoveTarget position", position);
    const ref = this.query.findNearestPoly(
      position,
      this.halfExtents,
      this.filters[id]!,
      this.nearest,
    );
    if (ref === 0) return false;
    this.targetRef[id] = ref;
    const o = id * 3;
    for (let k = 0; k < 3; k++) this.targetPos[o + k] = this.nearest.point[k]!;
    this.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.targetReplan[id] = 0;
    this.tstate[id] = T_REQUESTING;
    return true;
  }

  private requestMoveTargetReplan(i: number, ref: PolyRef, pos: ArrayLike<number>): void {
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

  /** Steers the agent with a velocity instead of a target (world units per second). */
  requestMoveVelocity(id: number, velocity: ArrayLike<number>): boolean {
    if (!this.isActive(id)) return false;
    checkVec3("requestMoveVelocity velocity", velocity);
    this.targetRef[id] = 0;
    const o = id * 3;
    for (let k = 0; k < 3; k++) this.targetPos[o + k] = velocity[k]!;
    this.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.targetReplan[id] = 0;
    this.tstate[id] = T_VELOCITY;
    return true;
  }

  /** Cancels the move request; the agent slows to a stop. */
  resetMoveTarget(id: number): boolean {
    if (!this.isActive(id)) return false;
    this.targetRef[id] = 0;
    const o = id * 3;
    for (let k = 0; k < 3; k++) {
      this.targetPos[o + k] = 0;
      this.dvel[o + k] = 0;
    }
    this.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.targetReplan[id] = 0;
    this.tstate[id] = T_NONE;
    return true;
  }

  /**
   * Ends the agent's off-mesh traversal (the game's animation is done): it lands at the
   * link's end and walks on. False when the agent is not on an off-mesh link.
   */
  completeOffMeshConnection(id: number): boolean {
    if (!this.isActive(id) || this.state[id] !== S_OFFMESH) return false;
    const o = id * 3;
    for (let k = 0; k < 3; k++) {
      this.npos[o + k] = this.animEnd[o + k]!;
      this.positions[o + k] = this.animEnd[o + k]!;
      this.vel[o + k] = 0;
      this.dvel[o + k] = 0;
      this.velocities[o + k] = 0;
    }
    this.animActive[id] = 0;
    this.state[id] = S_WALKING;
    return true;
  }

  /** The off-mesh link the agent is traversing, or null when it is not on one. */
  offMeshConnection(id: number): OffMeshTraversal | null {
    if (!this.isActive(id) || this.state[id] !== S_OFFMESH) return null;
    const ref = this.animRef[id]!;
    const con = tileOfRef(ref) === OFF_MESH_SLOT ? this.navMesh.offMesh[polyOfRef(ref)] : null;
    const o = id * 3;
    const v = (a: Float64Array): Vec3 => [a[o]!, a[o + 1]!, a[o + 2]!];
    return {
      ref,
      userId: con?.userId,
      start: v(this.animStart),
      end: v(this.animEnd),
      from: v(this.animInit),
    };
  }

  // ---------------------------------------------------------------------------------------
  // Reading agents.

  /** The agent's position (float64) into `out` (default a new array). */
  position<T extends { [k: number]: number } = Vec3>(id: number, out?: T): T {
    this.checkId(id);
    const o = out ?? ([0, 0, 0] as unknown as T);
    o[0] = this.npos[id * 3]!;
    o[1] = this.npos[id * 3 + 1]!;
    o[2] = this.npos[id * 3 + 2]!;
    return o;
  }

  /** The agent's velocity (world units per second) into `out`. */
  velocity<T extends { [k: number]: number } = Vec3>(id: number, out?: T): T {
    this.checkId(id);
    const o = out ?? ([0, 0, 0] as unknown as T);
    o[0] = this.vel[id * 3]!;
    o[1] = this.vel[id * 3 + 1]!;
    o[2] = this.vel[id * 3 + 2]!;
    return o;
  }

  /** "walking", "offMesh", or "invalid" (off the navmesh, or no agent in this slot). */
  agentState(id: number): AgentState {
    this.checkId(id);
    return this.active[id] === 1 ? STATE_NAMES[this.state[id]!]! : "invalid";
  }

  /** The move request's state (Detour's MoveRequestState). */
  targetState(id: number): TargetState {
    this.checkId(id);
    return this.active[id] === 1 ? TARGET_NAMES[this.tstate[id]!]! : "none";
  }

  /** The agent's next straight-path corners (at most 3), as of the last update. */
  corners(id: number): Vec3[] {
    this.checkId(id);
    const out: Vec3[] = [];
    const v = this.cornerBuffers.verts;
    for (let c = 0; c < this.ncorners[id]!; c++) {
      const o = (id * MAX_CORNERS + c) * 3;
      out.push([v[o]!, v[o + 1]!, v[o + 2]!]);
    }
    return out;
  }

  /** The agent's corridor (live object; do not keep across updates). */
  corridor(id: number): PathCorridor {
    this.checkId(id);
    return this.corridors[id]!;
  }

  /** True when the agent's last path only gets near its target (the target is unreachable). */
  isPartialPath(id: number): boolean {
    this.checkId(id);
    return this.partial[id] === 1;
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.maxAgents) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `agent id ${id} is not a slot of this crowd (0..${this.maxAgents - 1})`,
      );
    }
  }

  // ---------------------------------------------------------------------------------------
  // Update.

  /** Advances the simulation by dt seconds (>= 0). */
  update(dt: number): void {
    if (!(Number.isFinite(dt) && dt >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `Crowd update dt ${dt} must be a finite number >= 0`,
      );
    }
    let na = 0;
    for (let i = 0; i < this.maxAgents; i++) if (this.active[i] === 1) this.activeList[na++] = i;
    this.nactive = na;
    this.checkPathValidity(dt);
    this.updateMoveRequest();
    this.updateTopologyOptimization(dt);
    this.updateNeighbours();
    this.updateCorners();
    this.triggerOffMesh();
    this.steer();
    this.avoid(dt);
    this.integrate(dt);
    this.resolveCollisions();
    this.moveAlongSurface();
    this.animateOffMesh(dt);
    for (let a = 0; a < na; a++) {
      const o = this.activeList[a]! * 3;
      for (let k = 0; k < 3; k++) {
        this.positions[o + k] = this.npos[o + k]!;
        this.velocities[o + k] = this.vel[o + k]!;
      }
    }
  }

  /** Stale polygons under agents or targets: re-snap, or invalid; corridors replanned. */
  private checkPathValidity(dt: number): void {
    const q = this.query;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      const filter = this.filters[i]!;
      const o = i * 3;
      const c = this.corridors[i]!;
      if (this.state[i] === S_INVALID) {
        // Back on the mesh when a tile under it returned.
        const ref = q.findNearestPoly(this.nposView[i]!, this.halfExtents, filter, this.nearest);
        if (ref === 0) continue;
        this.place(i, ref, this.nearest.point);
        const ts = this.tstate[i]!;
        if (ts !== T_NONE && ts !== T_VELOCITY) {
          this.requestMoveTargetReplan(i, this.targetRef[i]!, this.targetPosView[i]!);
        }
        continue;
      }
      if (this.state[i] !== S_WALKING) continue;
      this.targetReplanTime[i] = this.targetReplanTime[i]! + dt;
      let replan = false;
      let agentRef = c.firstPoly;
      if (!refPassesFilter(q, agentRef, filter)) {
        agentRef = q.findNearestPoly(this.nposView[i]!, this.halfExtents, filter, this.nearest);
        if (agentRef === 0) {
          c.reset(0, this.nposView[i]!);
          this.partial[i] = 0;
          this.boundaries[i]!.reset();
          this.ncorners[i] = 0;
          this.nneis[i] = 0;
          for (let k = 0; k < 3; k++) {
            this.vel[o + k] = 0;
            this.dvel[o + k] = 0;
            this.nvel[o + k] = 0;
          }
          this.state[i] = S_INVALID;
          continue;
        }
        c.fixPathStart(agentRef, this.nearest.point);
        this.boundaries[i]!.reset();
        for (let k = 0; k < 3; k++) this.npos[o + k] = this.nearest.point[k]!;
        replan = true;
      }
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) continue;
      if (ts !== T_FAILED) {
        if (!refPassesFilter(q, this.targetRef[i]!, filter)) {
          const tp = this.targetPosView[i]!;
          const tref = q.findNearestPoly(tp, this.halfExtents, filter, this.nearest);
          this.targetRef[i] = tref;
          if (tref !== 0) tp.set(this.nearest.point);
          replan = true;
        }
        if (this.targetRef[i] === 0) {
          c.reset(agentRef, this.nposView[i]!);
          this.partial[i] = 0;
          this.tstate[i] = T_NONE;
        }
      }
      if (!c.isValid(CHECK_LOOKAHEAD, q, filter) || this.cornersStale[i] === 1) {
        // Never follow stale polygons: cut them off, then replan.
        c.trimInvalidPath(agentRef, this.nposView[i]!, q, filter);
        this.cornersStale[i] = 0;
        this.boundaries[i]!.reset();
        replan = true;
      }
      if (this.tstate[i] === T_VALID) {
        if (
          this.targetReplanTime[i]! > TARGET_REPLAN_DELAY &&
          c.count < CHECK_LOOKAHEAD &&
          c.lastPoly !== this.targetRef[i]
        ) {
          replan = true;
        }
      }
      if (replan && this.tstate[i] !== T_NONE) {
        this.requestMoveTargetReplan(i, this.targetRef[i]!, this.targetPosView[i]!);
      }
    }
  }

  /** Quick searches for new requests, then the path queue (Detour's updateMoveRequest). */
  private updateMoveRequest(): void {
    const q = this.query;
    const queue = this.pathQueueAgents;
    let nqueue = 0;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] === S_INVALID) continue;
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) continue;
      const c = this.corridors[i]!;
      if (ts === T_REQUESTING && c.count > 0) {
        const filter = this.filters[i]!;
        const tref = this.targetRef[i]!;
        const tpos = this.targetPosView[i]!;
        let count = 0;
        const init = q.initSlicedFindPath(c.path[0]!, tref, this.nposView[i]!, tpos, filter);
        if (init === "inProgress") q.updateSlicedFindPath(this.quickSearch);
        const r =
          this.targetReplan[i] === 1
            ? q.finalizeSlicedFindPathPartial(c.path, this.reqPath, this.reqResult, c.count)
            : q.finalizeSlicedFindPath(this.reqPath, this.reqResult);
        this.reqPath = r.polys as Float64Array;
        const reqPath = this.reqPath;
        if (r.status !== "invalidRef" && r.status !== "noStart" && r.polyCount > 0) {
          count = Math.min(r.polyCount, QUICK_MAX_RES);
          if (reqPath[count - 1] !== tref) {
            const t = this.reqPos;
            if (
              closestPointByRef(
                this.navMesh,
                reqPath[count - 1]!,
                tpos[0]!,
                tpos[1]!,
                tpos[2]!,
                t,
              ) < 0
            ) {
              count = 0;
            }
          } else {
            this.reqPos.set(tpos);
          }
        }
        if (count === 0) {
          this.reqPos.set(this.nposView[i]!);
          reqPath[0] = c.path[0]!;
          count = 1;
        }
        c.setCorridor(this.reqPos, reqPath, count);
        this.boundaries[i]!.reset();
        this.partial[i] = 0;
        if (reqPath[count - 1] === tref) {
          this.tstate[i] = T_VALID;
          this.targetReplanTime[i] = 0;
        } else {
          this.tstate[i] = T_WAITING_FOR_QUEUE;
        }
      }
      if (this.tstate[i] === T_WAITING_FOR_QUEUE) {
        nqueue = this.addSorted(queue, nqueue, PATH_MAX_AGENTS, i, this.targetReplanTime);
      }
    }
    for (let k = 0; k < nqueue; k++) {
      const i = queue[k]!;
      const c = this.corridors[i]!;
      const h = this.pathQueue.request(
        c.lastPoly,
        this.targetRef[i]!,
        c.target,
        this.targetPosView[i]!,
        this.filters[i]!,
      );
      this.targetPathqRef[i] = h;
      if (h !== PATH_QUEUE_INVALID) this.tstate[i] = T_WAITING_FOR_PATH;
    }
    this.pathQueue.update(this.pathBudget);
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.tstate[i] !== T_WAITING_FOR_PATH) continue;
      const status = this.pathQueue.getRequestStatus(this.targetPathqRef[i]!);
      if (status === "inProgress") continue;
      if (status === "failed") {
        this.targetPathqRef[i] = PATH_QUEUE_INVALID;
        this.tstate[i] = this.targetRef[i] !== 0 ? T_REQUESTING : T_FAILED;
        this.targetReplanTime[i] = 0;
        continue;
      }
      this.finishQueuedPath(i, status === "partial");
    }
  }

  /** Joins a finished queued path onto the corridor (Detour's path merge). */
  private finishQueuedPath(i: number, partial: boolean): void {
    const c = this.corridors[i]!;
    const res = this.pathResult;
    const tpos = this.tmp3;
    tpos.set(this.targetPosView[i]!);
    let nres = this.pathQueue.getPathResult(this.targetPathqRef[i]!, res);
    let valid = nres > 0;
    this.partial[i] = partial ? 1 : 0;
    const path = c.path;
    const npath = c.count;
    if (valid && (npath === 0 || path[npath - 1] !== res[0])) valid = false;
    if (valid) {
      if (npath > 1) {
        if (npath - 1 + nres > MAX_PATH) nres = MAX_PATH - (npath - 1);
        res.copyWithin(npath - 1, 0, nres);
        for (let k = 0; k < npath - 1; k++) res[k] = path[k]!;
        nres += npath - 1;
        // Drop back-and-forth detours (A B A → A).
        for (let j = 0; j < nres; j++) {
          if (j - 1 >= 0 && j + 1 < nres && res[j - 1] === res[j + 1]) {
            res.copyWithin(j - 1, j + 1, nres);
            nres -= 2;
            j -= 2;
          }
        }
      }
      if (res[nres - 1] !== this.targetRef[i]) {
        if (
          closestPointByRef(
            this.navMesh,
            res[nres - 1]!,
            tpos[0]!,
            tpos[1]!,
            tpos[2]!,
            this.reqPos,
          ) < 0
        ) {
          valid = false;
        } else {
          tpos.set(this.reqPos);
        }
      }
    }
    if (valid) {
      c.setCorridor(tpos, res, nres);
      this.boundaries[i]!.reset();
      this.tstate[i] = T_VALID;
    } else {
      this.tstate[i] = T_FAILED;
    }
    this.targetReplanTime[i] = 0;
  }

  /**
   * Inserts agent `i` into `list` (length n, capacity max) ordered by descending key, ties
   * after earlier agents (Detour's addToPathQueue / addToOptQueue); returns the new length.
   */
  private addSorted(
    list: Int32Array,
    n: number,
    max: number,
    i: number,
    key: Float64Array,
  ): number {
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

  private updateTopologyOptimization(dt: number): void {
    let nq = 0;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) continue;
      if ((this.flags[i]! & UF.optimizeTopology) === 0) continue;
      this.topologyOptTime[i] = this.topologyOptTime[i]! + dt;
      if (this.topologyOptTime[i]! >= OPT_TIME_THR) {
        nq = this.addSorted(this.optQueue, nq, OPT_MAX_AGENTS, i, this.topologyOptTime);
      }
    }
    for (let k = 0; k < nq; k++) {
      const i = this.optQueue[k]!;
      this.corridors[i]!.optimizePathTopology(this.query, this.filters[i]!);
      this.topologyOptTime[i] = 0;
    }
  }

  /** Proximity grid, local boundaries and the nearest neighbours of every walking agent. */
  private updateNeighbours(): void {
    const grid = this.grid;
    const np = this.npos;
    grid.clear();
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      const r = this.radius[i]!;
      grid.addItem(i, np[i * 3]! - r, np[i * 3 + 2]! - r, np[i * 3]! + r, np[i * 3 + 2]! + r);
    }
    const q = this.query;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const o = i * 3;
      const range = this.collisionQueryRange[i]!;
      const b = this.boundaries[i]!;
      const thr = range * 0.25;
      const dx = np[o]! - b.center[0]!;
      const dz = np[o + 2]! - b.center[2]!;
      const filter = this.filters[i]!;
      if (!(dx * dx + dz * dz <= thr * thr) || !b.isValid(q, filter)) {
        b.update(this.corridors[i]!.firstPoly, this.nposView[i]!, range, q, filter);
      }
      this.findNeighbours(i, range);
    }
  }

  /** Detour's getNeighbours: the MAX_NEIGHBOURS nearest agents within range (XZ), sorted. */
  private findNeighbours(i: number, range: number): void {
    const np = this.npos;
    const o = i * 3;
    const px = np[o]!;
    const py = np[o + 1]!;
    const pz = np[o + 2]!;
    const nids = this.grid.queryItems(px - range, pz - range, px + range, pz + range, this.ids);
    const base = i * MAX_NEIGHBOURS;
    const neis = this.neis;
    const dist = this.neiDist;
    let n = 0;
    const h = this.height[i]!;
    const rangeSqr = range * range;
    for (let k = 0; k < nids; k++) {
      const j = this.ids[k]!;
      if (j === i) continue;
      const dy = py - np[j * 3 + 1]!;
      if (Math.abs(dy) >= (h + this.height[j]!) / 2) continue;
      const dx = px - np[j * 3]!;
      const dz = pz - np[j * 3 + 2]!;
      const d = dx * dx + dz * dz;
      if (d > rangeSqr) continue;
      // Sorted insertion, the farthest dropped when full.
      let slot: number;
      if (n === 0) {
        slot = 0;
      } else if (d >= dist[base + n - 1]!) {
        if (n >= MAX_NEIGHBOURS) continue;
        slot = n;
      } else {
        slot = 0;
        while (slot < n && d > dist[base + slot]!) slot++;
        const last = Math.min(n, MAX_NEIGHBOURS - 1);
        for (let m = last; m > slot; m--) {
          neis[base + m] = neis[base + m - 1]!;
          dist[base + m] = dist[base + m - 1]!;
        }
      }
      neis[base + slot] = j;
      dist[base + slot] = d;
      n = Math.min(n + 1, MAX_NEIGHBOURS);
    }
    this.nneis[i] = n;
  }

  private updateCorners(): void {
    const q = this.query;
    const cb = this.cornerBuffers;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) continue;
      const c = this.corridors[i]!;
      const n = c.findCorners(cb, i * MAX_CORNERS, MAX_CORNERS, q);
      this.ncorners[i] = n;
      if (c.lastCornersStatus === "invalidRef") this.cornersStale[i] = 1;
      if ((this.flags[i]! & UF.optimizeVisibility) !== 0 && n > 0) {
        const t = (i * MAX_CORNERS + Math.min(1, n - 1)) * 3;
        const next = this.tmp3;
        next[0] = cb.verts[t]!;
        next[1] = cb.verts[t + 1]!;
        next[2] = cb.verts[t + 2]!;
        c.optimizePathVisibility(next, this.pathOptimizationRange[i]!, q, this.filters[i]!);
      }
    }
  }

  /** Agents near the start of an off-mesh link on their corridor take it. */
  private triggerOffMesh(): void {
    const cb = this.cornerBuffers;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) continue;
      const n = this.ncorners[i]!;
      if (n === 0) continue;
      const last = i * MAX_CORNERS + n - 1;
      if ((cb.flags[last]! & STRAIGHT_PATH_OFFMESH) === 0) continue;
      const o = i * 3;
      const trigger = this.radius[i]! * 2.25;
      const dx = this.npos[o]! - cb.verts[last * 3]!;
      const dz = this.npos[o + 2]! - cb.verts[last * 3 + 2]!;
      if (dx * dx + dz * dz >= trigger * trigger) continue;
      const start = this.animStartView[i]!;
      const end = this.animEndView[i]!;
      if (
        !this.corridors[i]!.moveOverOffMeshConnection(
          cb.polys[last]!,
          this.refs2,
          start,
          end,
          this.query,
        )
      ) {
        continue;
      }
      for (let k = 0; k < 3; k++) this.animInit[o + k] = this.npos[o + k]!;
      this.animRef[i] = this.refs2[1]!;
      this.animActive[i] = 1;
      this.animT[i] = 0;
      const ex = end[0]! - start[0]!;
      const ez = end[2]! - start[2]!;
      const speed = this.maxSpeed[i]!;
      this.animTmax[i] = speed > 0 ? (Math.sqrt(ex * ex + ez * ez) / speed) * 0.5 : 0;
      this.state[i] = S_OFFMESH;
      this.ncorners[i] = 0;
      this.nneis[i] = 0;
    }
  }

  /** Desired velocity from the corners (or the requested velocity), plus separation. */
  private steer(): void {
    const cb = this.cornerBuffers;
    const np = this.npos;
    const dir = this.dir;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const ts = this.tstate[i]!;
      if (ts === T_NONE) continue;
      const o = i * 3;
      let dvx: number;
      let dvy: number;
      let dvz: number;
      if (ts === T_VELOCITY) {
        dvx = this.targetPos[o]!;
        dvy = this.targetPos[o + 1]!;
        dvz = this.targetPos[o + 2]!;
        this.desiredSpeed[i] = Math.sqrt(dvx * dvx + dvy * dvy + dvz * dvz);
      } else {
        const n = this.ncorners[i]!;
        if ((this.flags[i]! & UF.anticipateTurns) !== 0) this.smoothDirection(i, n, dir);
        else this.straightDirection(i, n, dir);
        const slowDown = this.radius[i]! * 2;
        let dist = slowDown;
        if (n > 0 && (cb.flags[i * MAX_CORNERS + n - 1]! & STRAIGHT_PATH_END) !== 0) {
          const c = (i * MAX_CORNERS + n - 1) * 3;
          const dx = cb.verts[c]! - np[o]!;
          const dz = cb.verts[c + 2]! - np[o + 2]!;
          dist = Math.min(Math.sqrt(dx * dx + dz * dz), slowDown);
        }
        const speed = this.maxSpeed[i]!;
        this.desiredSpeed[i] = speed;
        const s = speed * (dist / slowDown);
        dvx = dir[0]! * s;
        dvy = 0;
        dvz = dir[2]! * s;
      }
      if ((this.flags[i]! & UF.separation) !== 0) {
        const sepDist = this.collisionQueryRange[i]!;
        const invSep = 1 / sepDist;
        const weight = this.separationWeight[i]!;
        let w = 0;
        let sx = 0;
        let sz = 0;
        for (let k = 0; k < this.nneis[i]!; k++) {
          const j = this.neis[i * MAX_NEIGHBOURS + k]!;
          const dx = np[o]! - np[j * 3]!;
          const dz = np[o + 2]! - np[j * 3 + 2]!;
          const d2 = dx * dx + dz * dz;
          if (d2 < 0.00001 || d2 > sepDist * sepDist) continue;
          const d = Math.sqrt(d2);
          const f = (weight * (1 - d * invSep * (d * invSep))) / d;
          sx += dx * f;
          sz += dz * f;
          w += 1;
        }
        if (w > 0.0001) {
          dvx += sx / w;
          dvz += sz / w;
          const sp2 = dvx * dvx + dvy * dvy + dvz * dvz;
          const des2 = this.desiredSpeed[i]! * this.desiredSpeed[i]!;
          if (sp2 > des2) {
            const s = des2 / sp2;
            dvx *= s;
            dvy *= s;
            dvz *= s;
          }
        }
      }
      this.dvel[o] = dvx;
      this.dvel[o + 1] = dvy;
      this.dvel[o + 2] = dvz;
    }
  }

  /** Towards the first corner (Detour's calcStraightSteerDirection), XZ unit or zero. */
  private straightDirection(i: number, n: number, out: Float64Array): void {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    if (n === 0) return;
    const v = this.cornerBuffers.verts;
    const c = i * MAX_CORNERS * 3;
    const x = v[c]! - this.npos[i * 3]!;
    const z = v[c + 2]! - this.npos[i * 3 + 2]!;
    normalizeXZ(x, z, out);
  }

  /**
   * Between the first two corners (Detour's calcSmoothSteerDirection): aim at the first
   * corner, pulled away from the second by half the distance, so turns start early.
   */
  private smoothDirection(i: number, n: number, out: Float64Array): void {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    if (n === 0) return;
    const v = this.cornerBuffers.verts;
    const c0 = i * MAX_CORNERS * 3;
    const c1 = (i * MAX_CORNERS + Math.min(1, n - 1)) * 3;
    const px = this.npos[i * 3]!;
    const pz = this.npos[i * 3 + 2]!;
    const d0x = v[c0]! - px;
    const d0z = v[c0 + 2]! - pz;
    let d1x = v[c1]! - px;
    let d1z = v[c1 + 2]! - pz;
    const len0 = Math.sqrt(d0x * d0x + d0z * d0z);
    const len1 = Math.sqrt(d1x * d1x + d1z * d1z);
    if (len1 > 0.001) {
      d1x /= len1;
      d1z /= len1;
    }
    normalizeXZ(d0x - d1x * len0 * 0.5, d0z - d1z * len0 * 0.5, out);
  }

  /** New velocity: desired, or the avoidance planner's choice. */
  private avoid(dt: number): void {
    const np = this.npos;
    const out = this.avoidOut;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const o = i * 3;
      if ((this.flags[i]! & UF.obstacleAvoidance) === 0) {
        this.nvel[o] = this.dvel[o]!;
        this.nvel[o + 1] = this.dvel[o + 1]!;
        this.nvel[o + 2] = this.dvel[o + 2]!;
        continue;
      }
      const orca = this.useOrca[i] === 1;
      const planner = orca ? this.orca : this.sampler;
      planner.reset();
      for (let k = 0; k < this.nneis[i]!; k++) {
        const nb = this.neis[i * MAX_NEIGHBOURS + k]!;
        const j = nb * 3;
        planner.addCircle(
          np[j]!,
          np[j + 2]!,
          this.radius[nb]!,
          this.vel[j]!,
          this.vel[j + 2]!,
          this.dvel[j]!,
          this.dvel[j + 2]!,
        );
      }
      const b = this.boundaries[i]!;
      const px = np[o]!;
      const pz = np[o + 2]!;
      for (let k = 0; k < b.segmentCount; k++) {
        const s = b.segments;
        const so = k * 6;
        // Only walls the agent is in front of (Detour's dtTriArea2D test).
        const abx = s[so]! - px;
        const abz = s[so + 2]! - pz;
        const acx = s[so + 3]! - px;
        const acz = s[so + 5]! - pz;
        if (acx * abz - abx * acz < 0) continue;
        planner.addSegment(s[so]!, s[so + 2]!, s[so + 3]!, s[so + 5]!);
      }
      const r = this.radius[i]!;
      const vmax = this.desiredSpeed[i]!;
      if (orca) {
        this.orca.computeVelocity(
          px,
          pz,
          r,
          vmax,
          this.vel[o]!,
          this.vel[o + 2]!,
          this.dvel[o]!,
          this.dvel[o + 2]!,
          dt,
          this.orcaParams,
          out,
        );
      } else {
        this.sampler.sampleVelocityAdaptive(
          px,
          pz,
          r,
          vmax,
          this.vel[o]!,
          this.vel[o + 2]!,
          this.dvel[o]!,
          this.dvel[o + 2]!,
          this.avoidanceParams,
          out,
        );
      }
      this.nvel[o] = out[0]!;
      this.nvel[o + 1] = 0;
      this.nvel[o + 2] = out[1]!;
    }
  }

  /** Velocity towards nvel within maxAcceleration, then position (Detour's integrate). */
  private integrate(dt: number): void {
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const o = i * 3;
      const maxDelta = this.maxAcceleration[i]! * dt;
      let dx = this.nvel[o]! - this.vel[o]!;
      let dy = this.nvel[o + 1]! - this.vel[o + 1]!;
      let dz = this.nvel[o + 2]! - this.vel[o + 2]!;
      const ds = Math.sqrt(dx * dx + dy * dy + dz * dz);
      if (ds > maxDelta) {
        const s = maxDelta / ds;
        dx *= s;
        dy *= s;
        dz *= s;
      }
      const vx = this.vel[o]! + dx;
      const vy = this.vel[o + 1]! + dy;
      const vz = this.vel[o + 2]! + dz;
      if (Math.sqrt(vx * vx + vy * vy + vz * vz) > 0.0001) {
        this.vel[o] = vx;
        this.vel[o + 1] = vy;
        this.vel[o + 2] = vz;
        this.npos[o] = this.npos[o]! + vx * dt;
        this.npos[o + 1] = this.npos[o + 1]! + vy * dt;
        this.npos[o + 2] = this.npos[o + 2]! + vz * dt;
      } else {
        this.vel[o] = 0;
        this.vel[o + 1] = 0;
        this.vel[o + 2] = 0;
      }
    }
  }

  /** Four Jacobi passes pushing overlapping neighbours apart (Detour's). */
  private resolveCollisions(): void {
    const np = this.npos;
    const disp = this.disp;
    for (let iter = 0; iter < 4; iter++) {
      for (let a = 0; a < this.nactive; a++) {
        const i = this.activeList[a]!;
        if (this.state[i] !== S_WALKING) continue;
        const o = i * 3;
        let sx = 0;
        let sz = 0;
        let w = 0;
        const ri = this.radius[i]!;
        for (let k = 0; k < this.nneis[i]!; k++) {
          const j = this.neis[i * MAX_NEIGHBOURS + k]!;
          let dx = np[o]! - np[j * 3]!;
          let dz = np[o + 2]! - np[j * 3 + 2]!;
          const rr = ri + this.radius[j]!;
          const d2 = dx * dx + dz * dz;
          if (d2 > rr * rr) continue;
          const d = Math.sqrt(d2);
          let pen: number;
          if (d < 0.0001) {
            // Coincident: push sideways of the desired velocity, opposite ways by id.
            const vx = this.dvel[o]!;
            const vz = this.dvel[o + 2]!;
            if (i > j) {
              dx = -vz;
              dz = vx;
            } else {
              dx = vz;
              dz = -vx;
            }
            pen = 0.01;
          } else {
            pen = (1 / d) * ((rr - d) * 0.5) * COLLISION_RESOLVE_FACTOR;
          }
          sx += dx * pen;
          sz += dz * pen;
          w += 1;
        }
        if (w > 0.0001) {
          sx /= w;
          sz /= w;
        }
        disp[o] = sx;
        disp[o + 1] = 0;
        disp[o + 2] = sz;
      }
      for (let a = 0; a < this.nactive; a++) {
        const i = this.activeList[a]!;
        if (this.state[i] !== S_WALKING) continue;
        const o = i * 3;
        np[o] = np[o]! + disp[o]!;
        np[o + 2] = np[o + 2]! + disp[o + 2]!;
      }
    }
  }

  /** Positions constrained to the surface through the corridors. */
  private moveAlongSurface(): void {
    const q = this.query;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.state[i] !== S_WALKING) continue;
      const o = i * 3;
      const c = this.corridors[i]!;
      c.movePosition(this.nposView[i]!, q, this.filters[i]!);
      this.npos[o] = c.pos[0]!;
      this.npos[o + 1] = c.pos[1]!;
      this.npos[o + 2] = c.pos[2]!;
      const ts = this.tstate[i]!;
      if (ts === T_NONE || ts === T_VELOCITY) {
        c.reset(c.firstPoly, c.pos);
        this.partial[i] = 0;
      }
    }
  }

  /** Off-mesh links: to the take-off point (first 15 %), then along the link. */
  private animateOffMesh(dt: number): void {
    if (!this.autoTraverseOffMeshConnections) return;
    for (let a = 0; a < this.nactive; a++) {
      const i = this.activeList[a]!;
      if (this.animActive[i] === 0) continue;
      const t = this.animT[i]! + dt;
      this.animT[i] = t;
      const tmax = this.animTmax[i]!;
      if (t > tmax || tmax <= 0) {
        this.animActive[i] = 0;
        this.state[i] = S_WALKING;
        continue;
      }
      const o = i * 3;
      const ta = tmax * 0.15;
      let from: Float64Array;
      let to: Float64Array;
      let u: number;
      if (t < ta) {
        from = this.animInit;
        to = this.animStart;
        u = clamp01(t / ta);
      } else {
        from = this.animStart;
        to = this.animEnd;
        u = clamp01((t - ta) / (tmax - ta));
      }
      for (let k = 0; k < 3; k++) {
        this.npos[o + k] = from[o + k]! + (to[o + k]! - from[o + k]!) * u;
        this.vel[o + k] = 0;
        this.dvel[o + k] = 0;
      }
    }
  }
}

function clamp01(v: number): number {
  return v < 0 ? 0 : Math.min(v, 1);
}

/** Unit XZ vector of (x, z) into out (y 0); zero when (x, z) is zero. */
function normalizeXZ(x: number, z: number, out: Float64Array): void {
  const len = Math.sqrt(x * x + z * z);
  if (len > 0) {
    out[0] = x / len;
    out[2] = z / len;
  } else {
    out[0] = 0;
    out[2] = 0;
  }
  out[1] = 0;
}

function checkVec3(what: string, p: ArrayLike<number>): void {
  const x = p?.[0];
  const y = p?.[1];
  const z = p?.[2];
  if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${what} [${x}, ${y}, ${z}] must be three finite numbers`,
    );
  }
}
