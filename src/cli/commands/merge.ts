import { mergeNavMeshes } from "../../format/merge.js";
import { deserializeNavMesh, serializeNavMesh } from "../../format/navmesh-file.js";
import { readInputBytes } from "../load.js";
import { parseCommandArgs, UsageError } from "../options.js";
import { writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const MERGE_HELP = `usage: meshway merge <a.navmesh> <b.navmesh> … -o <world.navmesh> [--json] [--quiet]

Joins pieces of one world built apart (meshway build … --tile-size N --tiles X0:X1,Z0:Z1) into
one .navmesh, byte-identical to building the whole world on one machine. The pieces must come
from the same geometry, config and --tile-size and hold disjoint tiles; otherwise nothing is
written and the message names the two files and what differs.

options:
  -o, --output FILE    the merged .navmesh to write (required)
  --json               print {files, tiles, polygons, vertices} on stdout

examples:
  meshway merge west.navmesh east.navmesh -o world.navmesh
  meshway merge parts/*.navmesh -o world.navmesh --json`;

export function mergeCommand(args: string[], io: Io): number {
  const { positionals, str, flag } = parseCommandArgs(args, {
    output: { type: "string", short: "o" },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
  });
  if (flag("help")) {
    io.out(`${MERGE_HELP}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError("merge needs one or more .navmesh files");
  const output = str("output");
  if (output === undefined) throw new UsageError("merge needs -o <world.navmesh>");
  const parts = positionals.map((file) => {
    const { navMesh, config } = deserializeNavMesh(readInputBytes(file), file);
    return { navMesh, config, source: file };
  });
  const { navMesh, config } = mergeNavMeshes(parts);
  writeOutput(output, serializeNavMesh(navMesh, config));
  let polygons = 0;
  let vertices = 0;
  for (const t of navMesh.tiles) {
    polygons += t.polyCount;
    vertices += t.vertexCount;
  }
  const tiles = navMesh.tiles.length;
  if (flag("json")) {
    io.out(`${JSON.stringify({ files: positionals.length, tiles, polygons, vertices })}\n`);
  } else if (!flag("quiet")) {
    io.out(
      `meshway merge\n  files             ${positionals.length}\n  tiles             ${tiles}\n  polygons          ${polygons} (${vertices} vertices)\n  written           ${output}\n`,
    );
  }
  return 0;
}
