import { MeshwayError } from "../../errors.js";
import { serializeNavMesh } from "../../format/navmesh-file.js";
import { navMeshFromPolygons } from "../../generate/from-polygons.js";
import { parseObjPolygons } from "../../io/obj-polygons.js";
import { validateNavMesh } from "../../navmesh/validate.js";
import { loadGeometry, readInputBytes } from "../load.js";
import { parseCommandArgs, UsageError } from "../options.js";
import { writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const IMPORT_POLYGONS_HELP = `usage: meshway import-polygons <level-navmesh.obj|.gltf|.glb> -o <out.navmesh>
              [--weld 0.01] [--tile-size N] [--keep-concave] [--json]

The file's faces ARE the navmesh (authored in Blender or any editor): vertices within --weld
world units are joined, T-junctions repaired, concave faces split into convex polygons
(--keep-concave: refuse them instead, naming each), and --tile-size (world units) cuts the
result into linked tiles. OBJ faces are kept as polygons; glTF triangles are merged back into
convex polygons where they are coplanar. --json prints {polygons, vertices, tiles, welded,
tJunctions, splitFaces, droppedFaces}.

examples:
  meshway import-polygons level-navmesh.glb -o level.navmesh
  meshway import-polygons level-navmesh.obj -o level.navmesh --weld 0.001 --tile-size 32`;

function positiveNumber(
  flag: string,
  text: string | undefined,
  allowZero: boolean,
): number | undefined {
  if (text === undefined) return undefined;
  const v = Number(text);
  if (text.trim() === "" || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
    throw new UsageError(`--${flag} expects a number ${allowZero ? ">= 0" : "> 0"}, got "${text}"`);
  }
  return v;
}

export async function importPolygonsCommand(args: string[], io: Io): Promise<number> {
  const { positionals, str, flag } = parseCommandArgs(args, {
    output: { type: "string", short: "o" },
    weld: { type: "string" },
    "tile-size": { type: "string" },
    "keep-concave": { type: "boolean" },
    json: { type: "boolean" },
  });
  if (flag("help")) {
    io.out(`${IMPORT_POLYGONS_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError("import-polygons needs exactly one input file");
  const output = str("output");
  if (output === undefined) throw new UsageError("import-polygons needs -o <out.navmesh>");
  const file = positionals[0]!;
  const weldTolerance = positiveNumber("weld", str("weld"), true) ?? 0.01;
  const tileSize = positiveNumber("tile-size", str("tile-size"), false);
  let input: { vertices: ArrayLike<number>; polygons: ArrayLike<ArrayLike<number>> };
  let mergeFaces = false;
  if (/\.obj$/i.test(file)) {
    const text = new TextDecoder().decode(readInputBytes(file));
    input = parseObjPolygons(text, file);
  } else {
    const { mesh, warnings } = await loadGeometry(file);
    for (const w of warnings) io.err(`meshway: ${file}: ${w}\n`);
    const polygons: number[][] = [];
    for (let t = 0; t < mesh.triangleCount; t++) {
      polygons.push([mesh.indices[t * 3]!, mesh.indices[t * 3 + 1]!, mesh.indices[t * 3 + 2]!]);
    }
    input = { vertices: mesh.positions, polygons };
    mergeFaces = true;
  }
  let result: ReturnType<typeof navMeshFromPolygons>;
  try {
    result = navMeshFromPolygons(input, {
      weldTolerance,
      tileSize,
      mergeFaces,
      splitConcave: !flag("keep-concave"),
    });
  } catch (e) {
    if (e instanceof MeshwayError) throw new MeshwayError(e.code, `${file}: ${e.message}`);
    throw e;
  }
  const { navMesh, report } = result;
  const check = validateNavMesh(navMesh, { maxProblems: 5 });
  if (!check.ok) {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${file}: the faces do not make a valid navmesh: ${check.problems.join("; ")}`,
    );
  }
  writeOutput(output, serializeNavMesh(navMesh, null));
  let vertices = 0;
  for (const t of navMesh.tiles) vertices += t.vertexCount;
  const summary = {
    polygons: report.polygons,
    vertices,
    tiles: report.tiles,
    welded: report.inputVertices - report.weldedVertices,
    tJunctions: report.tJunctions,
    splitFaces: report.splitFaces.length,
    droppedFaces: report.droppedFaces,
  };
  if (flag("json")) {
    io.out(`${JSON.stringify(summary)}\n`);
    return 0;
  }
  for (const d of report.droppedFaces.slice(0, 10))
    io.err(`meshway: ${file}: face ${d.face} left out: ${d.reason}\n`);
  io.out(
    `${output}: ${summary.polygons} polygons, ${vertices} vertices, ${summary.tiles} tile(s); ` +
      `${summary.welded} vertices welded, ${summary.tJunctions} T-junctions repaired, ` +
      `${summary.splitFaces} faces split, ${report.droppedFaces.length} left out\n`,
  );
  return 0;
}
