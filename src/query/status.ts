/**
 * Outcome of a query. Run-time conditions are statuses, not exceptions:
 * - "complete": the query reached its goal.
 * - "partial": the goal was unreachable (or the search was cut short); the result leads to
 *   the reachable polygon closest to it.
 * - "noStart" / "noEnd": the start or end point is not on (or near) the navmesh.
 * - "outOfNodes": the node pool ran out; the result is the best found so far.
 * - "invalidRef": a polygon reference became stale while a sliced query was running.
 */
export type QueryStatus =
  | "complete"
  | "partial"
  | "noStart"
  | "noEnd"
  | "outOfNodes"
  | "invalidRef";
