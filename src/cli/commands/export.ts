import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { loadNavMesh } from "../load.js";
import { parseCommandArgs, UsageError } from "../options.js";
import { writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const EXPORT_HELP = `usage: meshway export <file.navmesh> --format json|obj [-o out]

Writes the navmesh polygons as JSON ({vertices: [[x,y,z]…], polygons: [[i,j,k…]…], areas: […]})
or as OBJ (polygons as faces, one group per area), to -o (atomically) or stdout. Without
--format, the format is taken from the -o name (.json or .obj).

examples:
  meshway export level.navmesh --format json -o level.json
  meshway export level.navmesh --format obj > level-navmesh.obj
  meshway export level.navmesh -o level-navmesh.obj`;

/** --format, or the -o name's extension when --format is absent. */
export function exportFormat(
  format: string | undefined,
  output: string | undefined,
): "json" | "obj" {
  if (format === undefined) {
    const ext = output?.toLowerCase().match(/\.(json|obj)$/)?.[1];
    if (ext === "json" || ext === "obj") return ext;
    throw new UsageError(
      output === undefined
        ? "export needs --format json|obj (or -o with a .json or .obj name)"
        : `export cannot tell the format from "${output}": give --format json|obj`,
    );
  }
  if (format !== "json" && format !== "obj") {
    throw new UsageError(`--format must be json or obj, got "${format}"`);
  }
  return format;
}

/** All tiles' vertices and polygons as one indexed list. */
export function navMeshPolygons(navMesh: NavMesh): {
  vertices: number[][];
  polygons: number[][];
  areas: number[];
} {
  const vertices: number[][] = [];
  const polygons: number[][] = [];
  const areas: number[] = [];
  for (const t of navMesh.tiles) {
    const base = vertices.length;
    for (let i = 0; i < t.vertexCount; i++) {
      vertices.push([t.vertices[i * 3]!, t.vertices[i * 3 + 1]!, t.vertices[i * 3 + 2]!]);
    }
    for (let p = 0; p < t.polyCount; p++) {
      const poly: number[] = [];
      for (let k = 0; k < t.polyVertCount[p]!; k++) {
        poly.push(base + t.polyVerts[p * t.maxVertsPerPoly + k]!);
      }
      polygons.push(poly);
      areas.push(t.polyAreas[p]!);
    }
  }
  return { vertices, polygons, areas };
}

export function toObj({ vertices, polygons, areas }: ReturnType<typeof navMeshPolygons>): string {
  const lines = ["# meshway navmesh export: polygons as faces, one group per area"];
  for (const v of vertices) lines.push(`v ${v[0]} ${v[1]} ${v[2]}`);
  const byArea = new Map<number, number[]>();
  areas.forEach((a, i) => {
    let list = byArea.get(a);
    if (!list) byArea.set(a, (list = []));
    list.push(i);
  });
  for (const a of [...byArea.keys()].sort((x, y) => x - y)) {
    lines.push(`g area_${a}`);
    // Navmesh polygons are already wound so cross(v1 − v0, v2 − v0) points up (negative
    // polygonAreaXZ), which is what OBJ viewers take as the front face.
    for (const i of byArea.get(a)!) lines.push(`f ${polygons[i]!.map((k) => k + 1).join(" ")}`);
  }
  return `${lines.join("\n")}\n`;
}

export function exportCommand(args: string[], io: Io): number {
  const { positionals, str, flag } = parseCommandArgs(args, {
    format: { type: "string" },
    output: { type: "string", short: "o" },
  });
  if (flag("help")) {
    io.out(`${EXPORT_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("export needs exactly one .navmesh file");
  const output = str("output");
  const format = exportFormat(str("format"), output);
  const { navMesh } = loadNavMesh(positionals[0]!);
  const data = navMeshPolygons(navMesh);
  const text = format === "json" ? `${JSON.stringify(data)}\n` : toObj(data);
  if (output !== undefined) writeOutput(output, new TextEncoder().encode(text));
  else io.out(text);
  return 0;
}
