import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildNavMesh } from "../build/build-nav-mesh.js";
import type { BuildConfig, Partition } from "../config.js";
import { MeshwayError } from "../errors.js";
import { parseObj } from "../io/obj.js";
import { navMeshArea } from "../navmesh/nav-mesh.js";

const USAGE = `usage: meshway build <in.obj> [options]

Builds a navigation mesh from a triangle mesh and prints a summary.

options:
  --cell-size N       voxel width, world units (default 0.3)
  --cell-height N     voxel height, world units (default 0.2)
  --agent-height N    agent clearance (default 2)
  --agent-radius N    agent radius (default 0.6)
  --agent-climb N     highest step (default 0.9)
  --max-slope DEG     steepest walkable slope (default 45)
  --partition P       watershed | monotone | layers (default watershed)
  --json              print one JSON object on stdout
  --quiet             print nothing but errors
  -h, --help          this help

examples:
  meshway build test/fixtures/meshes/nav_test.obj
  meshway build level.obj --agent-radius 0.4 --partition monotone --json

Not yet available: -o (the .navmesh file format), path, info, export, render, lesson.`;

class UsageError extends Error {}

/** Runs the CLI; returns the exit code (0 ok, 1 bad input, 2 usage). */
export function main(argv: string[], out = process.stdout, err = process.stderr): number {
  try {
    return run(argv, out);
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`meshway: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof MeshwayError) {
      err.write(`meshway: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

function run(argv: string[], out: NodeJS.WritableStream): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help") {
    out.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command !== "build") throw new UsageError(`unknown command "${command}"`);
  let parsed: ReturnType<typeof parseBuildArgs>;
  try {
    parsed = parseBuildArgs(rest);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("build needs exactly one input file");
  const file = positionals[0]!;
  const config: Partial<BuildConfig> = {};
  const num = (flag: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n))
      throw new UsageError(`--${flag} expects a number, got "${v}"`);
    return n;
  };
  const set = <K extends keyof BuildConfig>(k: K, v: BuildConfig[K] | undefined) => {
    if (v !== undefined) config[k] = v;
  };
  set("cellSize", num("cell-size", values["cell-size"]));
  set("cellHeight", num("cell-height", values["cell-height"]));
  set("agentHeight", num("agent-height", values["agent-height"]));
  set("agentRadius", num("agent-radius", values["agent-radius"]));
  set("agentMaxClimb", num("agent-climb", values["agent-climb"]));
  set("agentMaxSlope", num("max-slope", values["max-slope"]));
  set("partition", values.partition as Partition | undefined);

  const text = readInput(file);
  if (!file.toLowerCase().endsWith(".obj")) {
    throw new MeshwayError("INVALID_INPUT", `${file}: only .obj input is supported so far`);
  }
  const mesh = parseObj(text, file);
  const { navMesh, stats } = buildNavMesh(mesh, config, { source: file });
  const area = navMeshArea(navMesh);
  if (values.json) {
    out.write(
      `${JSON.stringify({
        polygons: stats.polygons,
        vertices: stats.vertices,
        detailTriangles: stats.detailTriangles,
        tiles: navMesh.tiles.length,
        area,
        buildMs: stats.timings.total,
      })}\n`,
    );
    return 0;
  }
  if (values.quiet) return 0;
  const lines = [
    `meshway build ${file}`,
    `  triangles in       ${stats.triangles} (${stats.degenerateTriangles} degenerate, skipped)`,
    `  grid               ${stats.gridWidth} × ${stats.gridDepth} cells`,
    `  spans              ${stats.rasterizedSpans} rasterized, ${stats.compactSpans} open, ${stats.walkableSpans} walkable after erosion`,
    `  regions            ${stats.regions}`,
    `  polygons           ${stats.polygons} (${stats.vertices} vertices, ${stats.detailTriangles} detail triangles)`,
    `  area (XZ)          ${area.toFixed(2)}`,
    "  time per stage (ms)",
    ...Object.entries(stats.timings).map(
      ([k, v]) => `    ${k.padEnd(16)} ${v.toFixed(2).padStart(9)}`,
    ),
  ];
  for (const w of stats.warnings) lines.push(`  warning: ${w}`);
  out.write(`${lines.join("\n")}\n`);
  return 0;
}

/** Reads a text input file, turning file-system failures into located MeshwayErrors. */
function readInput(file: string): string {
  try {
    if (statSync(file).isDirectory()) {
      throw new MeshwayError("INVALID_INPUT", `${file}: is a directory, expected a file`);
    }
    return readFileSync(file, "utf8");
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const what =
      code === "ENOENT"
        ? "no such file"
        : code === "EACCES"
          ? "permission denied"
          : `cannot read (${code ?? (e as Error).message})`;
    throw new MeshwayError("INVALID_INPUT", `${file}: ${what}`);
  }
}

function parseBuildArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      "cell-size": { type: "string" },
      "cell-height": { type: "string" },
      "agent-height": { type: "string" },
      "agent-radius": { type: "string" },
      "agent-climb": { type: "string" },
      "max-slope": { type: "string" },
      partition: { type: "string" },
      json: { type: "boolean" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
