import type { NavMesh } from "../navmesh/nav-mesh.js";

/** The exact (any-angle) shortest path on the navmesh surface, XZ points in world units. */
export interface ExactPath {
  /** x, z pairs from start to goal. */
  points: Float64Array;
  length: number;
}

/**
 * The exact shortest path from start to goal on `navMesh`, or null while that query does not
 * exist yet. The lesson's tables and checks treat null as "not available".
 */
export function computeExactPath(
  _navMesh: NavMesh,
  _start: readonly [number, number],
  _goal: readonly [number, number],
): ExactPath | null {
  // TODO(lead, at merge): call NavMeshQuery.findShortestPath(start, end, options) (same
  // signature and result as computePath; built on another branch) and return its points
  // projected to XZ with its length.
  return null;
}
