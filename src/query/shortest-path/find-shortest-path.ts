// findShortestPath: the exact shortest path as a free function of a NavMeshQuery(Core), not a method,
// so an app that never asks for one does not ship the any-angle search (issue 17, size: it was
// about a fifth of a runtime-only bundle).
import type { Vec3 } from "../../math/vec3.js";
import { checkPoint } from "../args.js";
import type { PathFinder } from "../find-path.js";
import {
  type ComputePathOptions,
  type ComputePathResult,
  type NavMeshQueryCore,
  refsArray,
} from "../nav-mesh-query.js";
import { ShortestPath } from "./reconstruct.js";
import { DEFAULT_SHORTEST_MAX_NODES, ShortestPathFinder } from "./search.js";

/** Per query: the exact search (on the query's A* finder) and its output, made on first use. */
interface ShortestState {
  polyFinder: PathFinder;
  search: ShortestPathFinder;
  out: ShortestPath;
}
const states = new WeakMap<NavMeshQueryCore, ShortestState>();

/**
 * Exact shortest path (any-angle, Polyanya-style; see docs/shortest-path.md): snaps start and
 * end like `query.computePath`, then finds the path of least length in the XZ projection within
 * the navmesh's connectivity. Same result shape as computePath: corner points with surface
 * heights, the polygon corridor, and `length` = sum of the 3D segment lengths. Statuses as
 * computePath ("partial": the end is unreachable, the path goes to the closest reachable point;
 * "outOfNodes": options.maxNodes search nodes, default 2^18, were not enough). Excluded polygons
 * are walls; off-mesh connections cost their `cost` or their XZ length. A filter with any area
 * cost other than 1, or with a passFilter or getCost callback, falls back to computePath (costs
 * make the problem a weighted-region one, out of scope); `straightPath` options are not used.
 * Like the query's methods, not reentrant per query.
 */
export function findShortestPath(
  query: NavMeshQueryCore,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  options: ComputePathOptions = {},
): ComputePathResult {
  checkPoint(start, "findShortestPath start");
  checkPoint(end, "findShortestPath end");
  const filter = options.filter ?? query.defaultFilter;
  const costs = filter.areaCost;
  for (let a = 0; a < costs.length; a++) {
    if (costs[a] !== 1) return query.computePath(start, end, options);
  }
  // Callbacks (passFilter / getCost) are honoured by computePath's A*, not by the exact search.
  if (filter.passFilter || filter.getCost) return query.computePath(start, end, options);
  const missed = query.snapEnds(start, end, options, filter);
  if (missed !== null) return missed;
  const s = query.cpStart;
  const e = query.cpEnd;
  let state = states.get(query);
  // The query replaces its finder when its node pool grows; the search follows it.
  if (state === undefined || state.polyFinder !== query.finder) {
    state = {
      polyFinder: query.finder,
      search: new ShortestPathFinder(query.navMesh, query.finder),
      out: state?.out ?? new ShortestPath(),
    };
    states.set(query, state);
  }
  const out = state.out;
  const status = state.search.findPath(
    s.ref,
    s.point,
    e.ref,
    e.point,
    filter,
    out,
    options.maxNodes ?? DEFAULT_SHORTEST_MAX_NODES,
  );
  const q = out.points;
  const points: Vec3[] = new Array(out.pointCount);
  for (let i = 0; i < out.pointCount; i++) points[i] = [q[i * 3]!, q[i * 3 + 1]!, q[i * 3 + 2]!];
  return { status, points, polys: refsArray(out.polys, out.polyCount), length: out.length3D };
}
