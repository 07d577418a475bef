import { DEFAULT_HALF_EXTENTS, NavMeshQuery } from "../../query/nav-mesh-query.js";
import type { QueryStatus } from "../../query/status.js";
import { loadNavMesh } from "../load.js";
import { parseCommandArgs, parseVec3, UsageError } from "../options.js";
import type { Io } from "../terminal.js";

export const PATH_HELP = `usage: meshway path <file.navmesh> --from x,y,z --to x,y,z [--mode funnel|shortest] [--json]

Finds a path on a navmesh: start and end snap to the nearest polygon within 2 units
horizontally and 4 vertically, then either A* over the polygons and the funnel straightens
the corridor (funnel), or an exact any-angle search finds the shortest path (shortest).

options:
  --from x,y,z      start point
  --to x,y,z        end point
  --mode funnel     A* + funnel (default)
  --mode shortest   exact shortest path (length in XZ within the navmesh; docs/shortest-path.md)
  --json            print {found, complete, polys, points, length, status} (and reason) as
                    JSON; status is the library's: complete, partial, noStart, noEnd …

examples:
  meshway path level.navmesh --from 1,0,2 --to 30,0,12
  meshway path level.navmesh --from 1,0,2 --to 30,0,12 --mode shortest
  meshway path level.navmesh --from=-5,0.5,3 --to 10,0,10 --json`;

/** Half extents used to snap CLI points onto the mesh: the library's default, one for both. */
export const CLI_HALF_EXTENTS = DEFAULT_HALF_EXTENTS;

export interface PathAnswer {
  found: boolean;
  complete: boolean;
  polys: number;
  points: number[][];
  length: number;
  status: QueryStatus;
  reason?: string;
}

/** Path modes of `meshway path`. */
export type PathMode = "funnel" | "shortest";

/** Runs computePath (or findShortestPath) and describes the result in the CLI contract's terms. */
export function answerPath(
  query: NavMeshQuery,
  from: readonly number[],
  to: readonly number[],
  mode: PathMode = "funnel",
): PathAnswer {
  const options = { halfExtents: CLI_HALF_EXTENTS };
  const r =
    mode === "shortest"
      ? query.findShortestPath(from, to, options)
      : query.computePath(from, to, options);
  const found = r.points.length > 0 && (r.status === "complete" || r.status === "partial");
  const answer: PathAnswer = {
    found,
    complete: r.status === "complete",
    polys: r.polys.length,
    points: r.points.map((p) => [p[0], p[1], p[2]]),
    length: r.length,
    status: r.status,
  };
  if (!found) {
    answer.reason =
      r.status === "noStart"
        ? `start ${from.join(",")} is not on the navmesh (nothing within ${CLI_HALF_EXTENTS.join(",")})`
        : r.status === "noEnd"
          ? `end ${to.join(",")} is not on the navmesh (nothing within ${CLI_HALF_EXTENTS.join(",")})`
          : `no path (${r.status})`;
  } else if (!answer.complete) {
    answer.reason = "the end is not reachable; the path goes to the closest reachable point";
  }
  return answer;
}

export function pathCommand(args: string[], io: Io): number {
  const { positionals, str, flag } = parseCommandArgs(args, {
    from: { type: "string" },
    to: { type: "string" },
    mode: { type: "string" },
    json: { type: "boolean" },
  });
  if (flag("help")) {
    io.out(`${PATH_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("path needs exactly one .navmesh file");
  const mode = str("mode") ?? "funnel";
  if (mode !== "funnel" && mode !== "shortest") {
    throw new UsageError(`--mode must be funnel or shortest, got "${mode}"`);
  }
  const from = parseVec3("from", str("from"));
  const to = parseVec3("to", str("to"));
  const { navMesh } = loadNavMesh(positionals[0]!);
  const answer = answerPath(new NavMeshQuery(navMesh), from, to, mode);
  if (flag("json")) {
    // The contract's keys, plus the library's status string (complete, partial, noStart …).
    io.out(`${JSON.stringify(answer)}\n`);
    return 0;
  }
  if (!answer.found) {
    io.out(`no path: ${answer.reason}\n`);
    return 0;
  }
  const lines = [
    `${answer.complete ? "path" : "partial path"}: ${answer.points.length} points over ${answer.polys} polygons, length ${answer.length.toFixed(3)}`,
    ...answer.points.map((p) => `  ${p.map((c) => c.toFixed(3)).join(", ")}`),
  ];
  if (answer.reason) lines.push(`  (${answer.reason})`);
  io.out(`${lines.join("\n")}\n`);
  return 0;
}
