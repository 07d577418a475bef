import { MeshwayError } from "../errors.js";
import { BUILD_HELP, buildCommand } from "./commands/build.js";
import { CROWD_HELP, crowdCommand } from "./commands/crowd.js";
import { EXPORT_HELP, exportCommand } from "./commands/export.js";
import { INFO_HELP, infoCommand } from "./commands/info.js";
import { LESSON_HELP, lessonCommand } from "./commands/lesson.js";
import { PATH_HELP, pathCommand } from "./commands/path.js";
import { RENDER_HELP, renderCommand } from "./commands/render.js";
import { type Io, processIo } from "./io.js";
import { UsageError } from "./options.js";

const USAGE = `usage: meshway <command> [options]   (meshway <command> --help for details)

commands:
  build    geometry (.obj, .gltf, .glb) → .navmesh, with a summary
  path     a path between two points on a .navmesh
  info     what a .navmesh holds
  export   a .navmesh's polygons as JSON or OBJ
  render   a top-down PNG or SVG of geometry, navmesh and path
  lesson   the explainer lesson's four tables and self-check (and its pictures)
  crowd    a seeded crowd of agents walking on a .navmesh: quality table and trails

exit codes: 0 ok, 1 bad input, 2 usage error`;

const HELP: Record<string, string> = {
  build: BUILD_HELP,
  path: PATH_HELP,
  info: INFO_HELP,
  export: EXPORT_HELP,
  render: RENDER_HELP,
  lesson: LESSON_HELP,
  crowd: CROWD_HELP,
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
      case "lesson":
        return lessonCommand(rest, io);
      case "crowd":
        return crowdCommand(rest, io);
      case "-h":
      case "--help":
        io.out(`${USAGE}\n`);
        return 0;
      case undefined:
        io.err(`${USAGE}\n`);
        return 2;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      const help = command !== undefined ? HELP[command] : undefined;
      io.err(`meshway: ${e.message}\n${help ?? USAGE}\n`);
      return 2;
    }
    if (e instanceof MeshwayError) {
      io.err(`meshway: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
