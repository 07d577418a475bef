import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";

/** Agent update flags (Detour's UpdateFlags, same bit values). */
export const updateFlags = Object.freeze({
  /** Steer towards a point between the next two corners (smooth turns). */
  anticipateTurns: 1,
  /** Local avoidance of neighbours and walls ("sampled" or "orca", per agent). */
  obstacleAvoidance: 2,
  /** Push away from neighbours within collisionQueryRange, weighted by separationWeight. */
  separation: 4,
  /** Shortcut the corridor by raycasts towards the second corner. */
  optimizeVisibility: 8,
  /** Re-plan the corridor's start with a short search every 0.5 s. */
  optimizeTopology: 16,
});

/** Every flag set: the default of {@link AgentParams.updateFlags}. */
export const ALL_UPDATE_FLAGS = 31;

/** Local avoidance planner of an agent. */
export type AvoidanceKind = "sampled" | "orca";

/** Agent parameters; world units, seconds. */
export interface AgentParams {
  /** Collision radius. [Units: wu] [Limit: > 0, <= the crowd's maxAgentRadius] Default 0.5. */
  radius: number;
  /** Height (neighbours overlap vertically within (h1 + h2) / 2). [Units: wu] [Limit: > 0] Default 2. */
  height: number;
  /** Top speed. [Units: wu/s] [Limit: >= 0] Default 3.5. */
  maxSpeed: number;
  /** Largest velocity change per second. [Units: wu/s²] [Limit: >= 0] Default 8. */
  maxAcceleration: number;
  /** Neighbours and walls closer than this are considered. [Units: wu] [Limit: > 0] Default radius × 12. */
  collisionQueryRange: number;
  /** Reach of the visibility shortcut. [Units: wu] [Limit: > 0] Default radius × 30. */
  pathOptimizationRange: number;
  /** Strength of separation. [Limit: >= 0] Default 2. */
  separationWeight: number;
  /** {@link updateFlags} bits. Default: all. */
  updateFlags: number;
  /** Local avoidance planner. Default "sampled" (Detour's adaptive sampling). */
  avoidance: AvoidanceKind;
  /** Polygons and costs this agent uses. Default: the crowd's filter. */
  filter: QueryFilter | undefined;
}

/** Resolves and checks user agent parameters (throws MeshwayError naming the field). */
export function resolveAgentParams(
  p: Partial<AgentParams> | undefined,
  maxAgentRadius: number,
): AgentParams {
  const radius = p?.radius ?? Math.min(0.5, maxAgentRadius);
  const out: AgentParams = {
    radius,
    height: p?.height ?? 2,
    maxSpeed: p?.maxSpeed ?? 3.5,
    maxAcceleration: p?.maxAcceleration ?? 8,
    collisionQueryRange: p?.collisionQueryRange ?? radius * 12,
    pathOptimizationRange: p?.pathOptimizationRange ?? radius * 30,
    separationWeight: p?.separationWeight ?? 2,
    updateFlags: p?.updateFlags ?? ALL_UPDATE_FLAGS,
    avoidance: p?.avoidance ?? "sampled",
    filter: p?.filter,
  };
  positive("radius", out.radius);
  if (out.radius > maxAgentRadius) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `agent radius ${out.radius} exceeds the crowd's maxAgentRadius ${maxAgentRadius}`,
    );
  }
  positive("height", out.height);
  nonNegative("maxSpeed", out.maxSpeed);
  nonNegative("maxAcceleration", out.maxAcceleration);
  positive("collisionQueryRange", out.collisionQueryRange);
  positive("pathOptimizationRange", out.pathOptimizationRange);
  nonNegative("separationWeight", out.separationWeight);
  if (!Number.isInteger(out.updateFlags) || out.updateFlags < 0 || out.updateFlags > 31) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `agent updateFlags ${out.updateFlags} must be an integer combination of updateFlags bits (0..31)`,
    );
  }
  if (out.avoidance !== "sampled" && out.avoidance !== "orca") {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `agent avoidance ${String(out.avoidance)} must be "sampled" or "orca"`,
    );
  }
  return out;
}

function positive(name: string, v: number): void {
  if (!(Number.isFinite(v) && v > 0)) {
    throw new MeshwayError("INVALID_ARGUMENT", `agent ${name} ${v} must be a finite number > 0`);
  }
}

function nonNegative(name: string, v: number): void {
  if (!(Number.isFinite(v) && v >= 0)) {
    throw new MeshwayError("INVALID_ARGUMENT", `agent ${name} ${v} must be a finite number >= 0`);
  }
}
