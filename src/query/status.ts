/**
 * Outcome of a query. Run-time conditions are statuses, not exceptions:
 * - "complete": the query reached its goal.
 * - "partial": the goal was unreachable (or the search was cut short); the result leads to
 *   the reachable polygon closest to it.
 * - "noStart" / "noEnd": the start or end point is not on (or near) the navmesh.
 * - "outOfNodes": the node pool ran out; the result is the best found so far.
 * - "invalidRef": a polygon reference given to the query (or held by a sliced query between
 *   slices) is stale: its tile was removed or replaced, or its off-mesh connection removed
 *   (classifyRef in src/navmesh/nav-mesh.ts). Outputs are empty; re-snap and replan. Refs
 *   that were never valid are programmer errors and throw MeshwayError("INVALID_ARGUMENT").
 */
export type QueryStatus =
  | "complete"
  | "partial"
  | "noStart"
  | "noEnd"
  | "outOfNodes"
  | "invalidRef";
