import { MeshwayError } from "../errors.js";
import { BUILD_HELP, buildCommand } from "./commands/build.js";
import { CROWD_HELP, crowdCommand } from "./commands/crowd.js";
import { EXPORT_HELP, exportCommand } from "./commands/export.js";
import { IMPORT_POLYGONS_HELP, importPolygonsCommand } from "./commands/import-polygons.js";
import { INFO_HELP, infoCommand } from "./commands/info.js";
import { LESSON_HELP, lessonCommand } from "./commands/lesson.js";
import { MERGE_HELP, mergeCommand } from "./commands/merge.js";
import { PATH_HELP, pathCommand } from "./commands/path.js";
import { RENDER_HELP, renderCommand } from "./commands/render.js";
import { UsageError } from "./options.js";
import { closest } from "./suggest.js";
import { type Io, processIo } from "./terminal.js";
import { packageVersion } from "./version.js";

const USAGE = `usage: meshway <command> [options]   (meshway help <command> for details)

commands:
  build    geometry (.obj, .gltf, .glb) → .navmesh, with a summary
  path     a path between two points on a .navmesh
  info     what a .navmesh holds
  export   a .navmesh's polygons as JSON or OBJ
  import-polygons  authored navmesh faces (.obj, .gltf, .glb) → .navmesh
  render   a top-down PNG or SVG of geometry, navmesh and path
  lesson   the explainer lesson's four tables and self-check (and its pictures)
  crowd    a seeded crowd of agents walking on a .navmesh: quality table and trails
  merge    .navmesh pieces built apart (build --tiles) → one .navmesh

  help     this list, or one command's help (meshway help build)

options: --version, --help
exit codes: 0 ok, 1 bad input, 2 usage error`;

const HELP: Record<string, string> = {
  build: BUILD_HELP,
  path: PATH_HELP,
  info: INFO_HELP,
  export: EXPORT_HELP,
  "import-polygons": IMPORT_POLYGONS_HELP,
  render: RENDER_HELP,
  lesson: LESSON_HELP,
  crowd: CROWD_HELP,
  merge: MERGE_HELP,
};

/** Runs the CLI; resolves to the exit code (0 ok, 1 bad input, 2 usage). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "build":
        return await buildCommand(rest, io);
      case "path":
        return pathCommand(rest, io);
      case "info":
        return infoCommand(rest, io);
      case "export":
        return exportCommand(rest, io);
      case "render":
        return await renderCommand(rest, io);
      case "import-polygons":
        return await importPolygonsCommand(rest, io);
      case "lesson":
        return lessonCommand(rest, io);
      case "crowd":
        return crowdCommand(rest, io);
      case "merge":
        return mergeCommand(rest, io);
      case "help":
        return helpCommand(rest, io);
      case "-h":
      case "--help":
        io.out(`${USAGE}\n`);
        return 0;
      case "-V":
      case "--version":
        io.out(`${packageVersion()}\n`);
        return 0;
      case undefined:
        io.err(`${USAGE}\n`);
        return 2;
      default:
        throw new UsageError(unknownCommand(command));
    }
  } catch (e) {
    if (e instanceof UsageError) {
      // One line and where to look, not the whole help (as git, esbuild and gltf-transform do).
      const see =
        command !== undefined && HELP[command] ? `meshway ${command} --help` : "meshway --help";
      io.err(`meshway: ${e.message}\nsee '${see}'\n`);
      return 2;
    }
    if (e instanceof MeshwayError) {
      io.err(`meshway: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

function unknownCommand(command: string): string {
  const guess = closest(command, Object.keys(HELP));
  return `unknown command "${command}"${guess === undefined ? "" : `; did you mean "${guess}"?`}`;
}

/** `meshway help [command]`: the command's help (or the command list) on stdout. */
function helpCommand(args: string[], io: Io): number {
  const [name, ...extra] = args;
  if (extra.length > 0) throw new UsageError("help takes at most one command name");
  if (name === undefined) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  const help = HELP[name];
  if (help === undefined) throw new UsageError(unknownCommand(name));
  io.out(`${help}\n`);
  return 0;
}
