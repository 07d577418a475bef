import { statSync } from "node:fs";
import { type BuildConfig, type ResolvedConfig, resolveConfig } from "../../config.js";
import { MeshwayError } from "../../errors.js";
import { serializeNavMesh } from "../../format/navmesh-file.js";
import { buildNavMesh } from "../../generate/build-nav-mesh.js";
import type { TriangleMesh } from "../../input.js";
import { diagnoseOrientation } from "../../io/orientation.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import {
  buildTiledNavMeshNode,
  createNodeBuildPool,
  defaultTileThreads,
  type NodeTilePool,
} from "../../node/tile-pool.js";
import type { TileRange } from "../../tiles/build-tiled.js";
import { isThreadCount } from "../../tiles/threads.js";
import { loadGeometry } from "../load.js";
import {
  BUILD_FLAGS,
  buildConfigFrom,
  GEOMETRY_FLAGS,
  maxTrianglesFrom,
  orientationFrom,
  type ParsedArgs,
  parseCommandArgs,
  parseNumber,
  UsageError,
} from "../options.js";
import { checkOutputPath, writeOutput } from "../output.js";
import { Progress } from "../progress.js";
import { type Io, warn } from "../terminal.js";

export const BUILD_HELP = `usage: meshway build <in.obj|in.gltf|in.glb> -o <out.navmesh> [options]

Builds a navigation mesh and writes it as a .navmesh file (atomically: a failed build leaves
nothing behind and never replaces an existing file).

options:
  -o, --output FILE    the .navmesh file to write (omit to only print the summary)
  --config FILE        build options as JSON (library names, e.g. {"agentRadius": 0.4});
                       flags below override it
  --cell-size N        voxel width, world units (default 0.3)
  --cell-height N      voxel height, world units (default 0.2)
  --agent-height N     agent clearance (default 2)
  --agent-radius N     agent radius (default 0.6)
  --agent-climb N      highest step (default 0.9)
  --max-slope DEG      steepest walkable slope (default 45)
  --partition P        watershed | monotone | layers (default watershed)
  --up y|z             the input's up axis (default y; z for Blender/CAD exports)
  --flip-winding       the input's triangles are wound clockwise seen from above
  --max-triangles N    glTF: the most triangles the scene may expand to after node
                       instancing (default 10000000); bigger files are refused
  --allow-empty        write the navmesh even when it has no polygons (refused otherwise)
  --tile-size N        tiled build: tiles of N cells (0 = one tile, the default); tiles are
                       built in parallel and linked across their edges
  --tiles X0:X1,Z0:Z1  with --tile-size: build only the tiles X0 ≤ x ≤ X1, Z0 ≤ z ≤ Z1 of the
                       full grid (a piece of a world for meshway merge; may be empty)
  --threads N          threads for a tiled build, this one included (default and maximum:
                       the available cores; workers start only when the work pays for them);
                       the result is byte-identical for any thread count
  --json               print one JSON object on stdout
  --quiet              print nothing but errors

examples:
  meshway build level.obj -o level.navmesh
  meshway build level.glb -o level.navmesh --agent-radius 0.4 --partition monotone --json
  meshway build city.obj -o city.navmesh --tile-size 64 --threads 4
  meshway build city.obj -o west.navmesh --tile-size 64 --tiles 0:3,0:7`;

const STAGES = 10;
/** The smallest --tile-size accepted (0, one tile, aside). */
const MIN_TILE_SIZE = 8;

export async function buildCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals, str, flag } = parseCommandArgs(args, {
    ...BUILD_FLAGS,
    ...GEOMETRY_FLAGS,
    "allow-empty": { type: "boolean" },
    output: { type: "string", short: "o" },
    "tile-size": { type: "string" },
    tiles: { type: "string" },
    threads: { type: "string" },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
  });
  if (flag("help")) {
    io.out(`${BUILD_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("build needs exactly one input file");
  const file = positionals[0]!;
  const output = str("output");
  // Before any work: a build must not end by overwriting its own input.
  if (output !== undefined) checkOutputPath(output, [file, str("config")]);
  const options = buildConfigFrom(values);
  const tileSize = parseNumber("tile-size", str("tile-size"));
  if (tileSize !== undefined && tileSize > 0 && tileSize < MIN_TILE_SIZE) {
    // Measured on nav_test: tiles of 2 cells keep 13% of the walkable area, of 1 cell none,
    // after seconds of work; the tile border (agent radius + 3 cells) is most of such a tile.
    throw new UsageError(
      `--tile-size ${tileSize} is under ${MIN_TILE_SIZE} cells: such tiles are mostly border and lose the walkable area (1 gives an empty navmesh); use 16 or more (Recast's demo: 16..1024), or 0 for one tile`,
    );
  }
  if (tileSize !== undefined) options.tileSize = tileSize;
  const threadsText = str("threads");
  let threads = threadsText === undefined ? undefined : Number(threadsText);
  if (threads !== undefined && !isThreadCount(threads)) {
    throw new UsageError(`--threads expects an integer 1..256, got "${threadsText}"`);
  }
  const cores = defaultTileThreads();
  if (threads !== undefined && threads > cores) {
    // More threads than cores only adds contention; the bytes are the same for any count.
    if (!flag("quiet")) {
      io.err(`meshway: note: --threads ${threads} capped to the ${cores} available cores\n`);
    }
    threads = cores;
  }
  const config = resolveConfig(options); // checked before any file is read
  if (threads !== undefined && config.tileSize === 0) {
    throw new UsageError("--threads needs a tiled build (--tile-size N)");
  }
  const tilesText = str("tiles");
  const tiles = tilesText === undefined ? undefined : parseTileRange(tilesText);
  if (tiles !== undefined && config.tileSize === 0) {
    throw new UsageError("--tiles needs a tiled build (--tile-size N)");
  }
  const tileThreads = threads ?? defaultTileThreads();
  // A tiled build's workers start, and warm up, while the input is read and parsed; the build
  // then uses them only as far as its work and the machine's idle cores pay for them.
  const pool = config.tileSize > 0 && tileThreads > 1 ? createNodeBuildPool(tileThreads) : null;
  try {
    if (pool && fileBytes(file) >= WARM_UP_MIN_BYTES) pool.warmUp(config);
    const { mesh, warnings, files } = await loadGeometry(
      file,
      orientationFrom(str, flag),
      maxTrianglesFrom(str),
    );
    const orientation = diagnoseOrientation(mesh, config.agentMaxSlope);
    if (orientation !== undefined && !flag("quiet")) warn(io, `${file}: ${orientation}`);
    if (config.tileSize > 0) {
      const notes = { loadWarnings: warnings, orientation, bufferFiles: files };
      return await buildTiled(io, file, mesh, options, config, tileThreads, pool, tiles, notes, {
        str,
        flag,
      });
    }
    return buildSolo(io, file, mesh, options, config, warnings, orientation, files, { str, flag });
  } finally {
    await pool?.close();
  }
}

/**
 * Input files from this size on have the tiled build's workers warm up while they are parsed
 * (≈ 20k triangles of OBJ; below it a build seldom pays for a worker at all). [bytes]
 */
const WARM_UP_MIN_BYTES = 1 << 20;

/** The input's size, 0 when it cannot be read (loadGeometry then says why). */
function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** `build` without --tile-size: one solo build, progress per stage. */
function buildSolo(
  io: Io,
  file: string,
  mesh: TriangleMesh,
  options: Partial<BuildConfig>,
  config: ResolvedConfig,
  warnings: string[],
  orientation: string | undefined,
  files: string[] | undefined,
  args: Pick<ParsedArgs, "str" | "flag">,
): number {
  const { str, flag } = args;
  const progress = Progress.for(STAGES, Boolean(flag("quiet") || flag("json")));
  const { navMesh, stats } = buildNavMesh(mesh, options, {
    source: file,
    onStage: (stage) => progress.step(stage),
  });
  progress.finish();
  return report(
    io,
    { str, flag },
    {
      file,
      navMesh,
      config,
      stats,
      tiles: navMesh.tiles.length,
      loadWarnings: warnings,
      orientation,
      bufferFiles: files,
      rows: [
        ["grid", `${stats.gridWidth} × ${stats.gridDepth} cells`],
        [
          "spans",
          `${stats.rasterizedSpans} solid, ${stats.compactSpans} open, ${stats.walkableSpans} walkable`,
        ],
        ["regions", String(stats.regions)],
      ],
      timingsTitle: "build time per stage (ms)",
    },
  );
}

/** `build --tile-size N`: the tiled build on worker threads, progress per tile. */
async function buildTiled(
  io: Io,
  file: string,
  mesh: TriangleMesh,
  options: Partial<BuildConfig>,
  config: ResolvedConfig,
  threads: number,
  pool: NodeTilePool | null,
  tiles: TileRange | undefined,
  notes: Pick<BuildReport, "loadWarnings" | "orientation" | "bufferFiles">,
  args: Pick<ParsedArgs, "str" | "flag">,
): Promise<number> {
  const quiet = Boolean(args.flag("quiet") || args.flag("json"));
  let progress: Progress | null = null;
  const { navMesh, stats } = await buildTiledNavMeshNode(mesh, options, {
    threads,
    ...(pool && { pool }),
    source: file,
    ...(tiles && { tiles }),
    onTile: (_done, total, tx, tz) => {
      progress ??= Progress.for(total, quiet);
      progress.step(`tile ${tx},${tz}`);
    },
  });
  (progress as Progress | null)?.finish();
  return report(io, args, {
    file,
    navMesh,
    config,
    stats,
    tiles: stats.tiles,
    ...notes,
    // A piece of a world may hold no walkable ground (sea, sky); merge takes it as it is.
    allowEmpty: tiles !== undefined,
    rows: [
      [
        "tile grid",
        `${stats.grid.tilesX} × ${stats.grid.tilesZ} tiles of ${config.tileSize} cells (border ${config.borderSizeVoxels})`,
      ],
      ...(tiles
        ? ([["tile range", `x ${tiles.x0}:${tiles.x1}, z ${tiles.z0}:${tiles.z1}`]] as [
            string,
            string,
          ][])
        : []),
      ["tiles", `${stats.tiles} built, ${stats.emptyTiles} empty`],
      [
        "threads",
        stats.threadsUsed < stats.threads
          ? `${stats.threads} (${stats.threadsUsed} used: too little work for more, or no idle cores)`
          : String(stats.threads),
      ],
    ],
    timingsTitle: "build time (ms)",
  });
}

/** What both build paths report: counts common to every build, plus each path's own rows. */
interface BuildReport {
  file: string;
  navMesh: NavMesh;
  config: ResolvedConfig;
  stats: {
    triangles: number;
    degenerateTriangles: number;
    polygons: number;
    vertices: number;
    detailTriangles: number;
    warnings: readonly string[];
    timings: Record<string, number>;
  };
  tiles: number;
  /** Loader warnings already name the file; build warnings (stats.warnings) do not. */
  loadWarnings: readonly string[];
  /** The likely up-axis or winding mistake, when the input looks wrong (already warned). */
  orientation: string | undefined;
  /** The glTF's external buffer files: inputs too, never overwritten. */
  bufferFiles: readonly string[] | undefined;
  /** Write an empty navmesh without --allow-empty (a --tiles piece). */
  allowEmpty?: boolean;
  /** Rows between "triangles in" and "polygons". */
  rows: [string, string][];
  timingsTitle: string;
}

/** Writes the .navmesh (if -o) and prints the JSON object or the summary table. */
function report(io: Io, args: Pick<ParsedArgs, "str" | "flag">, r: BuildReport): number {
  const { str, flag } = args;
  const { stats } = r;
  const output = str("output");
  if (stats.polygons === 0 && !flag("allow-empty") && !r.allowEmpty) {
    // An empty navmesh is almost always a wrong up axis, winding or agent size: refuse it
    // rather than write a file every query will answer noStart on.
    const cause =
      r.orientation ??
      "nothing is walkable for this agent: check the up axis (--up z), the winding " +
        "(--flip-winding), --agent-radius, --agent-height and --max-slope";
    throw new MeshwayError(
      "INVALID_INPUT",
      `${r.file}: the navmesh is empty (0 polygons from ${stats.triangles} triangles); ${cause}; ` +
        "nothing written (--allow-empty writes it anyway)",
    );
  }
  if (output !== undefined) {
    const inputs = [r.file, str("config"), ...(r.bufferFiles ?? [])];
    writeOutput(output, serializeNavMesh(r.navMesh, r.config), inputs);
  }
  const area = r.navMesh.area();
  if (flag("json")) {
    io.out(
      `${JSON.stringify({
        polygons: stats.polygons,
        vertices: stats.vertices,
        detailTriangles: stats.detailTriangles,
        tiles: r.tiles,
        area,
        buildMs: stats.timings.total,
      })}\n`,
    );
    return 0;
  }
  if (flag("quiet")) return 0;
  for (const w of r.loadWarnings) warn(io, w);
  for (const w of stats.warnings) warn(io, `${r.file}: ${w}`);
  const rows: [string, string][] = [
    ["input", r.file],
    ["triangles in", `${stats.triangles} (${stats.degenerateTriangles} degenerate, skipped)`],
    ...r.rows,
    ["polygons", `${stats.polygons} (${stats.vertices} vertices)`],
    ["detail triangles", String(stats.detailTriangles)],
    ["area (XZ)", area.toFixed(2)],
  ];
  if (output !== undefined) rows.push(["written", output]);
  const lines = rows.map(([k, v]) => `  ${k.padEnd(18)}${v}`);
  lines.push(`  ${r.timingsTitle}`);
  for (const [stage, ms] of Object.entries(stats.timings)) {
    lines.push(`    ${stage.padEnd(16)}${ms.toFixed(2).padStart(9)}`);
  }
  io.out(`meshway build\n${lines.join("\n")}\n`);
  return 0;
}

/** "x0:x1,z0:z1" (non-negative integers, inclusive) → TileRange; malformed → UsageError. */
export function parseTileRange(text: string): TileRange {
  const m = /^\s*(\d+)\s*:\s*(\d+)\s*,\s*(\d+)\s*:\s*(\d+)\s*$/.exec(text);
  const [x0, x1, z0, z1] = m ? m.slice(1).map(Number) : [];
  if (x0 === undefined || x1 === undefined || z0 === undefined || z1 === undefined) {
    throw new UsageError(
      `--tiles expects x0:x1,z0:z1 (tile coordinates, inclusive), got "${text}"`,
    );
  }
  if (x0 > x1 || z0 > z1) {
    throw new UsageError(`--tiles ${text}: expected x0 ≤ x1 and z0 ≤ z1`);
  }
  return { x0, x1, z0, z1 };
}
