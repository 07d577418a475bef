import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import type { QueryFilter } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshQuery } from "../query/nav-mesh-query.js";
import { type AgentParams, resolveAgentParams } from "./agent-params.js";
import { animateOffMesh, integrate, moveAlongSurface, resolveCollisions } from "./motion.js";
import type { PathCorridor } from "./path-corridor.js";
import { PATH_QUEUE_INVALID, type PathQueue } from "./path-queue.js";
import { checkPathValidity, updateMoveRequest, updateTopologyOptimization } from "./paths.js";
import { triggerOffMesh, updateCorners, updateNeighbours } from "./perception.js";
import {
  CrowdSim,
  MAX_CORNERS,
  type ObstacleAvoidanceParams,
  type OrcaParams,
  S_INVALID,
  S_OFFMESH,
  S_WALKING,
  T_NONE,
  T_REQUESTING,
  T_VELOCITY,
} from "./sim.js";
import { avoid, steer } from "./steering.js";

/**
 * A crowd of agents walking on one navmesh, Detour's dtCrowd (Mononen) with its update
 * order: check paths → move requests and the time-sliced path queue → topology
 * optimisation → proximity grid → local boundaries and neighbours → corners and visibility
 * optimisation → off-mesh triggers → steering (desired velocity, separation) → avoidance
 * (sampled velocity obstacles or ORCA, per agent) → integration (maxAcceleration) →
 * collision resolution → movement along the surface → off-mesh animation.
 *
 * Agent state is struct-of-arrays in typed arrays indexed by agent id (slot), in CrowdSim
 * (sim.ts); the passes live in paths.ts, perception.ts, steering.ts and motion.ts. The update
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

  /** The state and scratch every update pass works on. */
  private readonly s: CrowdSim;

  constructor(navMesh: NavMesh, options: CrowdOptions) {
    const s = new CrowdSim(navMesh, options);
    this.s = s;
    this.navMesh = s.navMesh;
    this.maxAgents = s.maxAgents;
    this.maxAgentRadius = s.maxAgentRadius;
    this.query = s.query;
    this.pathQueue = s.pathQueue;
    this.positions = s.positions;
    this.velocities = s.velocities;
    this.defaultFilter = s.defaultFilter;
    this.autoTraverseOffMeshConnections = s.autoTraverseOffMeshConnections;
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
      if (this.s.active[i] === 0) {
        idx = i;
        break;
      }
    }
    if (idx < 0) return -1;
    const filter = p.filter ?? this.defaultFilter;
    const ref = this.query.findNearestPoly(position, this.s.halfExtents, filter, this.s.nearest);
    if (ref === 0) return -1;
    this.s.radius[idx] = p.radius;
    this.s.height[idx] = p.height;
    this.s.maxSpeed[idx] = p.maxSpeed;
    this.s.maxAcceleration[idx] = p.maxAcceleration;
    this.s.collisionQueryRange[idx] = p.collisionQueryRange;
    this.s.pathOptimizationRange[idx] = p.pathOptimizationRange;
    this.s.separationWeight[idx] = p.separationWeight;
    this.s.flags[idx] = p.updateFlags;
    this.s.useOrca[idx] = p.avoidance === "orca" ? 1 : 0;
    this.s.filters[idx] = filter;
    this.s.place(idx, ref, this.s.nearest.point);
    this.s.tstate[idx] = T_NONE;
    this.s.targetRef[idx] = 0;
    this.s.targetPathqRef[idx] = PATH_QUEUE_INVALID;
    this.s.active[idx] = 1;
    return idx;
  }

  /** Frees the agent's slot (its id may be handed out again by addAgent). */
  removeAgent(id: number): void {
    this.checkId(id);
    this.s.active[id] = 0;
    this.s.animActive[id] = 0;
    this.s.state[id] = S_INVALID;
  }

  /** True when slot `id` holds an agent. */
  isActive(id: number): boolean {
    this.checkId(id);
    return this.s.active[id] === 1;
  }

  /** Number of agents in the crowd. */
  get activeAgentCount(): number {
    let c = 0;
    for (let i = 0; i < this.maxAgents; i++) c += this.s.active[i]!;
    return c;
  }

  /**
   * Slots in use from 0: one past the highest slot holding an agent (instanced renderers draw
   * slots [0, agentCount) and skip those `active` marks free).
   */
  get agentCount(): number {
    for (let i = this.maxAgents - 1; i >= 0; i--) if (this.s.active[i] === 1) return i + 1;
    return 0;
  }

  /** Per slot, 1 when it holds an agent (read-only view, for renderers). */
  get active(): Uint8Array {
    return this.s.active;
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
      this.s.halfExtents,
      this.s.filters[id]!,
      this.s.nearest,
    );
    if (ref === 0) return false;
    this.s.place(id, ref, this.s.nearest.point);
    const ts = this.s.tstate[id]!;
    if (ts !== T_NONE && ts !== T_VELOCITY && this.s.targetRef[id] !== 0) {
      this.s.requestMoveTargetReplan(id, this.s.targetRef[id]!, this.s.targetPosView[id]!);
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
      this.s.halfExtents,
      this.s.filters[id]!,
      this.s.nearest,
    );
    if (ref === 0) return false;
    this.s.targetRef[id] = ref;
    const o = id * 3;
    for (let k = 0; k < 3; k++) this.s.targetPos[o + k] = this.s.nearest.point[k]!;
    this.s.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.s.targetReplan[id] = 0;
    this.s.tstate[id] = T_REQUESTING;
    return true;
  }

  /** Steers the agent with a velocity instead of a target (world units per second). */
  requestMoveVelocity(id: number, velocity: ArrayLike<number>): boolean {
    if (!this.isActive(id)) return false;
    checkVec3("requestMoveVelocity velocity", velocity);
    this.s.targetRef[id] = 0;
    const o = id * 3;
    for (let k = 0; k < 3; k++) this.s.targetPos[o + k] = velocity[k]!;
    this.s.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.s.targetReplan[id] = 0;
    this.s.tstate[id] = T_VELOCITY;
    return true;
  }

  /** Cancels the move request; the agent slows to a stop. */
  resetMoveTarget(id: number): boolean {
    if (!this.isActive(id)) return false;
    this.s.targetRef[id] = 0;
    const o = id * 3;
    for (let k = 0; k < 3; k++) {
      this.s.targetPos[o + k] = 0;
      this.s.dvel[o + k] = 0;
    }
    this.s.targetPathqRef[id] = PATH_QUEUE_INVALID;
    this.s.targetReplan[id] = 0;
    this.s.tstate[id] = T_NONE;
    return true;
  }

  /**
   * Ends the agent's off-mesh traversal (the game's animation is done): it lands at the
   * link's end and walks on. False when the agent is not on an off-mesh link.
   */
  completeOffMeshConnection(id: number): boolean {
    if (!this.isActive(id) || this.s.state[id] !== S_OFFMESH) return false;
    const o = id * 3;
    for (let k = 0; k < 3; k++) {
      this.s.npos[o + k] = this.s.animEnd[o + k]!;
      this.positions[o + k] = this.s.animEnd[o + k]!;
      this.s.vel[o + k] = 0;
      this.s.dvel[o + k] = 0;
      this.velocities[o + k] = 0;
    }
    this.s.animActive[id] = 0;
    this.s.state[id] = S_WALKING;
    return true;
  }

  /** The off-mesh link the agent is traversing, or null when it is not on one. */
  offMeshConnection(id: number): OffMeshTraversal | null {
    if (!this.isActive(id) || this.s.state[id] !== S_OFFMESH) return null;
    const ref = this.s.animRef[id]!;
    const con = tileOfRef(ref) === OFF_MESH_SLOT ? this.navMesh.offMesh[polyOfRef(ref)] : null;
    const o = id * 3;
    const v = (a: Float64Array): Vec3 => [a[o]!, a[o + 1]!, a[o + 2]!];
    return {
      ref,
      userId: con?.userId,
      start: v(this.s.animStart),
      end: v(this.s.animEnd),
      from: v(this.s.animInit),
    };
  }

  // ---------------------------------------------------------------------------------------
  // Reading agents.

  /** Agent `id`'s xyz triple of a struct-of-arrays field into `out` (default a new array). */
  private readTriple<T extends { [k: number]: number }>(
    field: ArrayLike<number>,
    id: number,
    out: T | undefined,
  ): T {
    this.checkId(id);
    const o = out ?? ([0, 0, 0] as unknown as T);
    o[0] = field[id * 3]!;
    o[1] = field[id * 3 + 1]!;
    o[2] = field[id * 3 + 2]!;
    return o;
  }

  /** The agent's position (float64) into `out` (default a new array). */
  position<T extends { [k: number]: number } = Vec3>(id: number, out?: T): T {
    return this.readTriple(this.s.npos, id, out);
  }

  /** The agent's velocity (world units per second) into `out`. */
  velocity<T extends { [k: number]: number } = Vec3>(id: number, out?: T): T {
    return this.readTriple(this.s.vel, id, out);
  }

  /**
   * The velocity the agent wanted in the last update (steering towards its next corner, before
   * avoidance and collisions), world units per second, into `out`.
   */
  desiredVelocity<T extends { [k: number]: number } = Vec3>(id: number, out?: T): T {
    return this.readTriple(this.s.dvel, id, out);
  }

  /** The agent's radius, world units (as added; 0 for a free slot never used). */
  agentRadius(id: number): number {
    this.checkId(id);
    return this.s.radius[id]!;
  }

  /** The agent's height, world units (as added; 0 for a free slot never used). */
  agentHeight(id: number): number {
    this.checkId(id);
    return this.s.height[id]!;
  }

  /** "walking", "offMesh", or "invalid" (off the navmesh, or no agent in this slot). */
  agentState(id: number): AgentState {
    this.checkId(id);
    return this.s.active[id] === 1 ? STATE_NAMES[this.s.state[id]!]! : "invalid";
  }

  /** The move request's state (Detour's MoveRequestState). */
  targetState(id: number): TargetState {
    this.checkId(id);
    return this.s.active[id] === 1 ? TARGET_NAMES[this.s.tstate[id]!]! : "none";
  }

  /** The agent's next straight-path corners (at most 3), as of the last update. */
  corners(id: number): Vec3[] {
    this.checkId(id);
    const out: Vec3[] = [];
    const v = this.s.cornerBuffers.verts;
    for (let c = 0; c < this.s.ncorners[id]!; c++) {
      const o = (id * MAX_CORNERS + c) * 3;
      out.push([v[o]!, v[o + 1]!, v[o + 2]!]);
    }
    return out;
  }

  /** The agent's corridor (live object; do not keep across updates). */
  corridor(id: number): PathCorridor {
    this.checkId(id);
    return this.s.corridors[id]!;
  }

  /** True when the agent's last path only gets near its target (the target is unreachable). */
  isPartialPath(id: number): boolean {
    this.checkId(id);
    return this.s.partial[id] === 1;
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
    for (let i = 0; i < this.maxAgents; i++)
      if (this.s.active[i] === 1) this.s.activeList[na++] = i;
    this.s.nactive = na;
    checkPathValidity(this.s, dt);
    updateMoveRequest(this.s);
    updateTopologyOptimization(this.s, dt);
    updateNeighbours(this.s);
    updateCorners(this.s);
    triggerOffMesh(this.s);
    steer(this.s);
    avoid(this.s, dt);
    integrate(this.s, dt);
    resolveCollisions(this.s);
    moveAlongSurface(this.s);
    animateOffMesh(this.s, dt);
    for (let a = 0; a < na; a++) {
      const o = this.s.activeList[a]! * 3;
      for (let k = 0; k < 3; k++) {
        this.positions[o + k] = this.s.npos[o + k]!;
        this.velocities[o + k] = this.s.vel[o + k]!;
      }
    }
  }
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
