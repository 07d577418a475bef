import { QueryFilter } from "../../navmesh/filter.js";
import { DEFAULT_HALF_EXTENTS, NavMeshQuery } from "../../query/nav-mesh-query.js";
import { findShortestPath } from "../../query/shortest-path/find-shortest-path.js";
import type { QueryStatus } from "../../query/status.js";
import { loadNavMesh } from "../load.js";
import { parseCommandArgs, parseVec3, UsageError } from "../options.js";
import type { Io } from "../terminal.js";

export const PATH_HELP = `usage: meshway path <file.navmesh> --from x,y,z --to x,y,z [--mode funnel|shortest]
       [--include-flags F] [--exclude-flags F] [--area-cost A=C]... [--json]

Finds a path on a navmesh: start and end snap to the nearest polygon within 2 units
horizontally and 4 vertically, then either A* over the polygons and the funnel straightens
the corridor (funnel), or an exact any-angle search finds the shortest path (shortest).

options:
  --from x,y,z      start point
  --to x,y,z        end point
  --mode funnel     A* + funnel (default)
  --mode shortest   exact shortest path (length in XZ within the navmesh; docs/shortest-path.md)
  --include-flags F only polygons with some of these flags (decimal or 0x hex; default 0xffff)
  --exclude-flags F no polygon with any of these flags (default 0): closed doors, other teams
  --area-cost A=C   cost multiplier C >= 0 of area id A (0..63), repeatable; any cost other
                    than 1 makes --mode shortest answer with the funnel path
  --json            print {found, complete, polys, points, length, status} (and reason) as
                    JSON; status is the library's: complete, partial, noStart, noEnd …

examples:
  meshway path level.navmesh --from 1,0,2 --to 30,0,12
  meshway path level.navmesh --from 1,0,2 --to 30,0,12 --mode shortest
  meshway path level.navmesh --from=-5,0.5,3 --to 10,0,10 --json
  meshway path level.navmesh --from 1,0,2 --to 30,0,12 --exclude-flags 0x4 --area-cost 3=10`;

/** A flags value: decimal or 0x hex, 0..0xffff; else a UsageError naming the flag. */
function parseFlags(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  const n = /^0x[0-9a-f]+$/i.test(t)
    ? Number.parseInt(t.slice(2), 16)
    : /^\d+$/.test(t)
      ? Number(t)
      : NaN;
  if (!(n >= 0 && n <= 0xffff)) {
    throw new UsageError(`--${flag} expects flags 0..65535 (decimal or 0x hex), got "${text}"`);
  }
  return n;
}

/** The filter of --include-flags / --exclude-flags / --area-cost A=C (repeatable). */
export function pathFilterFrom(
  include: string | undefined,
  exclude: string | undefined,
  areaCosts: readonly string[],
): QueryFilter {
  const filter = new QueryFilter();
  filter.includeFlags = parseFlags("include-flags", include) ?? filter.includeFlags;
  filter.excludeFlags = parseFlags("exclude-flags", exclude) ?? filter.excludeFlags;
  for (const item of areaCosts) {
    const m = /^\s*(\d+)\s*=\s*([^=]+)$/.exec(item);
    const area = m ? Number(m[1]) : NaN;
    const cost = m && m[2]!.trim() !== "" ? Number(m[2]) : NaN;
    if (!(area >= 0 && area <= 63) || !(cost >= 0)) {
      throw new UsageError(
        `--area-cost expects A=C with area A 0..63 and cost C >= 0 (Infinity blocks), got "${item}"`,
      );
    }
    filter.setAreaCost(area, cost);
  }
  return filter;
}

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
  filter?: QueryFilter,
): PathAnswer {
  const options = filter
    ? { halfExtents: CLI_HALF_EXTENTS, filter }
    : { halfExtents: CLI_HALF_EXTENTS };
  const r =
    mode === "shortest"
      ? findShortestPath(query, from, to, options)
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
  const { positionals, str, flag, values } = parseCommandArgs(args, {
    from: { type: "string" },
    to: { type: "string" },
    mode: { type: "string" },
    "include-flags": { type: "string" },
    "exclude-flags": { type: "string" },
    "area-cost": { type: "string", multiple: true },
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
  const costs = values["area-cost"] as unknown as string[] | undefined;
  const filter = pathFilterFrom(str("include-flags"), str("exclude-flags"), costs ?? []);
  const { navMesh } = loadNavMesh(positionals[0]!);
  const answer = answerPath(new NavMeshQuery(navMesh), from, to, mode, filter);
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
