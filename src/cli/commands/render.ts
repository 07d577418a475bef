import { buildNavMesh } from "../../generate/build-nav-mesh.js";
import type { TriangleMesh } from "../../input.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { encodePng } from "../../node/png.js";
import { NavMeshQuery } from "../../query/nav-mesh-query.js";
import { renderTopDownSvg } from "../../render/svg.js";
import { renderTopDown } from "../../render/top-down.js";
import { isGeometryFile, loadGeometry, loadNavMesh } from "../load.js";
import {
  BUILD_FLAGS,
  buildConfigFrom,
  GEOMETRY_FLAGS,
  orientationFrom,
  parseCommandArgs,
  parseNumber,
  parseVec3,
  UsageError,
} from "../options.js";
import { writeOutput } from "../output.js";
import { type Io, warn } from "../terminal.js";
import { answerPath } from "./path.js";

export const RENDER_HELP = `usage: meshway render <file.navmesh|in.obj|in.gltf|in.glb> -o out.png|out.svg [options]

Draws a top-down picture: the input geometry shaded by height (when given geometry), the
navmesh polygons outlined and coloured per polygon, and optionally a path (its ends marked
and labelled START and GOAL).

options:
  -o, --output FILE    out.png or out.svg (written atomically)
  --from x,y,z --to x,y,z   draw the path between these points
  --geometry FILE      geometry to draw under a .navmesh (.obj, .gltf, .glb)
  --size N             longest side in pixels (default 1024)
  --colour-by M        polygon | area (default polygon)
  --up y|z, --flip-winding   how to read the geometry (as in meshway build)
  build options (--config, --cell-size, --agent-radius, ...) apply when building from geometry

examples:
  meshway render level.obj -o level.png --from 1,0,2 --to 30,0,12
  meshway render level.navmesh --geometry level.obj -o level.svg`;

export async function renderCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals, str, flag } = parseCommandArgs(args, {
    ...BUILD_FLAGS,
    ...GEOMETRY_FLAGS,
    output: { type: "string", short: "o" },
    from: { type: "string" },
    to: { type: "string" },
    geometry: { type: "string" },
    size: { type: "string" },
    "colour-by": { type: "string" },
  });
  if (flag("help")) {
    io.out(`${RENDER_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("render needs exactly one input file");
  const out = str("output");
  if (out === undefined || !/\.(png|svg)$/i.test(out)) {
    throw new UsageError("render needs -o out.png or -o out.svg");
  }
  const size = parseNumber("size", str("size")) ?? 1024;
  if (!Number.isInteger(size) || size < 16 || size > 8192) {
    throw new UsageError(`--size must be an integer in 16..8192, got ${size}`);
  }
  const colourBy = str("colour-by") ?? "polygon";
  if (colourBy !== "polygon" && colourBy !== "area") {
    throw new UsageError(`--colour-by must be polygon or area, got "${colourBy}"`);
  }
  if ((str("from") === undefined) !== (str("to") === undefined)) {
    throw new UsageError("--from and --to go together");
  }
  const from = str("from") !== undefined ? parseVec3("from", str("from")) : null;
  const to = str("to") !== undefined ? parseVec3("to", str("to")) : null;

  const input = positionals[0]!;
  let geometry: TriangleMesh | undefined;
  let navMesh: NavMesh;
  if (isGeometryFile(input)) {
    const loaded = await loadGeometry(input, orientationFrom(str, flag));
    geometry = loaded.mesh;
    navMesh = buildNavMesh(geometry, buildConfigFrom(values), { source: input }).navMesh;
  } else {
    navMesh = loadNavMesh(input).navMesh;
    const geometryFile = str("geometry");
    if (geometryFile !== undefined) {
      geometry = (await loadGeometry(geometryFile, orientationFrom(str, flag))).mesh;
    }
  }
  let path: number[][] | undefined;
  if (from && to) {
    const answer = answerPath(new NavMeshQuery(navMesh), from, to);
    if (answer.found) path = answer.points;
    else warn(io, `${input}: no path drawn: ${answer.reason}`);
  }
  const options = {
    geometry,
    navMesh,
    path,
    size,
    colourBy: colourBy as "polygon" | "area",
    labelPathEnds: true,
  };
  const bytes = out.toLowerCase().endsWith(".svg")
    ? new TextEncoder().encode(renderTopDownSvg(options))
    : encodePng(renderTopDown(options));
  writeOutput(out, bytes);
  return 0;
}
