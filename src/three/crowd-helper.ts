import {
  BufferAttribute,
  BufferGeometry,
  CylinderGeometry,
  DynamicDrawUsage,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  type Material,
  Matrix4,
  MeshBasicMaterial,
  Object3D,
} from "three";
import { Crowd } from "../crowd/crowd.js";
import { type DrawCrowdOptions, drawCrowd } from "../debug/crowd.js";
import { AGENT_COLOUR } from "../navmesh/palette.js";
import { DebugDrawer } from "./debug-drawer.js";

/**
 * What CrowdHelper reads of a crowd, typed by shape so any crowd fits: meshway's Crowd keeps
 * `positions` (and `velocities`) as 3 floats per agent slot.
 */
export interface CrowdLike {
  readonly positions: Float32Array;
  readonly velocities?: Float32Array;
  /** Slots in use, from 0 (default: every slot of `positions`). */
  readonly agentCount?: number;
  /** Per slot, nonzero / true when the slot holds an agent (default: all in use). */
  readonly active?: ArrayLike<number | boolean>;
}

export interface CrowdHelperOptions {
  /** Agent cylinder radius and height, world units (default 0.6 and 2, Recast's demo agent). */
  radius?: number;
  height?: number;
  material?: Material;
  /** Draw each agent's velocity as a line from its feet (default true). */
  velocities?: boolean;
  /** Follow the crowd every frame from updateMatrixWorld (default true). */
  autoUpdate?: boolean;
  /**
   * For a meshway Crowd: also draw meshway/debug's drawCrowd sets (desired velocities, next
   * corners, corridors…) in `debugDrawer`, redrawn on every update. The agents themselves stay
   * the instanced cylinders unless `agents` is set here. Allocates per update: for debugging.
   */
  debug?: DrawCrowdOptions;
}

/**
 * A crowd's agents as one InstancedMesh of cylinders, moved every frame from
 * `crowd.positions` (no allocation per frame), with velocity lines. Inactive slots are
 * hidden (scaled to zero). When `positions` grows the instanced mesh is recreated.
 */
export class CrowdHelper extends Object3D {
  readonly crowd: CrowdLike;
  agents: InstancedMesh;
  readonly velocityLines: LineSegments;
  /** The drawCrowd sets when `debug` was given for a meshway Crowd, else null. */
  readonly debugDrawer: DebugDrawer | null;
  autoUpdate: boolean;
  private readonly debugOptions: DrawCrowdOptions | null;
  private readonly radius: number;
  private readonly height: number;
  private readonly geometry: CylinderGeometry;
  private readonly material: Material;
  private readonly ownsMaterial: boolean;
  private readonly showVelocities: boolean;
  private readonly m = new Matrix4();

  constructor(crowd: CrowdLike, options: CrowdHelperOptions = {}) {
    super();
    this.name = "meshway CrowdHelper";
    this.crowd = crowd;
    this.radius = options.radius ?? 0.6;
    this.height = options.height ?? 2;
    this.autoUpdate = options.autoUpdate !== false;
    this.showVelocities = options.velocities !== false;
    // Unit cylinder standing on y = 0, scaled per agent.
    this.geometry = new CylinderGeometry(1, 1, 1, 16);
    this.geometry.translate(0, 0.5, 0);
    this.ownsMaterial = options.material === undefined;
    this.material =
      options.material ??
      new MeshBasicMaterial({
        color: (AGENT_COLOUR[0] << 16) | (AGENT_COLOUR[1] << 8) | AGENT_COLOUR[2],
      });
    this.agents = this.createAgents(crowd.positions.length / 3);
    const lines = new BufferGeometry();
    lines.setAttribute("position", new BufferAttribute(new Float32Array(0), 3));
    this.velocityLines = new LineSegments(lines, new LineBasicMaterial({ color: 0x202020 }));
    this.velocityLines.frustumCulled = false;
    this.add(this.agents, this.velocityLines);
    this.debugOptions =
      options.debug !== undefined && crowd instanceof Crowd
        ? { agents: false, velocities: false, ...options.debug }
        : null;
    this.debugDrawer = this.debugOptions === null ? null : new DebugDrawer();
    if (this.debugDrawer !== null) this.add(this.debugDrawer);
    this.update();
  }

  private createAgents(capacity: number): InstancedMesh {
    const mesh = new InstancedMesh(this.geometry, this.material, Math.max(1, capacity));
    mesh.instanceMatrix.setUsage(DynamicDrawUsage);
    mesh.frustumCulled = false; // agents move; bounds of the unit cylinder would cull them
    mesh.name = "crowd agents";
    return mesh;
  }

  /** Slots drawn: agentCount when given, else every slot of positions. */
  get slotCount(): number {
    const all = Math.floor(this.crowd.positions.length / 3);
    const n = this.crowd.agentCount;
    return n === undefined ? all : Math.max(0, Math.min(all, n));
  }

  /** Moves the instances (and velocity lines) to the crowd's current positions. */
  update(): void {
    const p = this.crowd.positions;
    const slots = this.slotCount;
    if (slots > this.agents.instanceMatrix.count) {
      this.remove(this.agents);
      this.agents.dispose();
      this.agents = this.createAgents(Math.ceil(slots * 1.5));
      this.add(this.agents);
    }
    const active = this.crowd.active;
    const r = this.radius;
    const h = this.height;
    for (let i = 0; i < slots; i++) {
      const on = active === undefined || Boolean(active[i]);
      this.m.makeScale(on ? r : 0, on ? h : 0, on ? r : 0);
      this.m.setPosition(p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!);
      this.agents.setMatrixAt(i, this.m);
    }
    this.agents.count = slots;
    this.agents.instanceMatrix.needsUpdate = true;
    this.updateVelocities(slots);
    if (this.debugDrawer !== null && this.crowd instanceof Crowd) {
      this.debugDrawer.set(drawCrowd(this.crowd, this.debugOptions!));
    }
  }

  private updateVelocities(slots: number): void {
    const v = this.crowd.velocities;
    const g = this.velocityLines.geometry;
    if (!this.showVelocities || v === undefined) {
      g.setDrawRange(0, 0);
      return;
    }
    let attr = g.getAttribute("position") as BufferAttribute;
    if (attr.count < slots * 2) {
      attr = new BufferAttribute(new Float32Array(Math.ceil(slots * 1.5) * 6), 3);
      attr.setUsage(DynamicDrawUsage);
      g.dispose();
      g.setAttribute("position", attr);
    }
    const out = attr.array as Float32Array;
    const p = this.crowd.positions;
    const active = this.crowd.active;
    let n = 0;
    const lift = this.height * 0.5;
    for (let i = 0; i < slots; i++) {
      if (active !== undefined && !active[i]) continue;
      const x = p[i * 3]!;
      const y = p[i * 3 + 1]! + lift;
      const z = p[i * 3 + 2]!;
      out[n * 6] = x;
      out[n * 6 + 1] = y;
      out[n * 6 + 2] = z;
      out[n * 6 + 3] = x + v[i * 3]!;
      out[n * 6 + 4] = y + v[i * 3 + 1]!;
      out[n * 6 + 5] = z + v[i * 3 + 2]!;
      n++;
    }
    attr.needsUpdate = true;
    g.setDrawRange(0, n * 2);
  }

  override updateMatrixWorld(force?: boolean): void {
    if (this.autoUpdate) this.update();
    super.updateMatrixWorld(force);
  }

  dispose(): void {
    this.agents.dispose();
    this.geometry.dispose();
    if (this.ownsMaterial) this.material.dispose();
    this.velocityLines.geometry.dispose();
    (this.velocityLines.material as Material).dispose();
    this.debugDrawer?.dispose();
  }
}
