import { exportDetourNavMesh } from "../../format/detour-export.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { loadNavMesh } from "../load.js";
import { parseCommandArgs, UsageError } from "../options.js";
import { checkOutputPath, writeOutput } from "../output.js";
import type { Io } from "../terminal.js";

export const EXPORT_HELP = `usage: meshway export <file.navmesh> --format json|obj|detour [-o out]

Writes the navmesh polygons as JSON ({vertices: [[x,y,z]…], polygons: [[i,j,k…]…], areas: […]})
or as OBJ (polygons as faces, one group per area), to -o (atomically) or stdout; or, with
--format detour, as Detour binary data (recast-navigation's importNavMesh, C++ Detour's 'MSET'
set) to -o. Without --format, the format is taken from the -o name (.json or .obj).

examples:
  meshway export level.navmesh --format json -o level.json
  meshway export level.navmesh --format obj > level-navmesh.obj
  meshway export level.navmesh -o level-navmesh.obj
  meshway export level.navmesh --format detour -o level.bin`;

/** --format, or the -o name's extension when --format is absent. */
export function exportFormat(
  format: string | undefined,
  output: string | undefined,
): "json" | "obj" | "detour" {
  if (format === undefined) {
    const ext = output?.toLowerCase().match(/\.(json|obj)$/)?.[1];
    if (ext === "json" || ext === "obj") return ext;
    throw new UsageError(
      output === undefined
        ? "export needs --format json|obj (or -o with a .json or .obj name)"
        : `export cannot tell the format from "${output}": give --format json|obj`,
    );
  }
  if (format !== "json" && format !== "obj" && format !== "detour") {
    throw new UsageError(`--format must be json, obj or detour, got "${format}"`);
  }
  return format;
}

/** Text pieces are gathered up to this many characters before they are handed on. */
const PIECE_CHARS = 1 << 20;

/** A number as JSON writes it (a non-finite one as null). */
function num(v: number): string {
  return Number.isFinite(v) ? String(v) : "null";
}

/**
 * Joins small strings into pieces of about {@link PIECE_CHARS} characters, so an export of
 * any size is written without one string (V8's limit is about 512 M characters) or one array
 * join over every line.
 */
function* pieces(parts: Iterable<string>): Generator<string> {
  let buf: string[] = [];
  let chars = 0;
  for (const p of parts) {
    buf.push(p);
    chars += p.length;
    if (chars >= PIECE_CHARS) {
      yield buf.join("");
      buf = [];
      chars = 0;
    }
  }
  if (buf.length > 0) yield buf.join("");
}

/**
 * The export as JSON, `{"vertices":[[x,y,z]…],"polygons":[[i,j,k…]…],"areas":[…]}` (the bytes
 * JSON.stringify would give), in pieces. Every tile's vertices, then polygons, as one list.
 */
export function* jsonParts(navMesh: NavMesh): Generator<string> {
  yield '{"vertices":[';
  let first = true;
  for (const t of navMesh.tiles) {
    const v = t.vertices;
    for (let i = 0; i < t.vertexCount; i++, first = false) {
      yield `${first ? "" : ","}[${num(v[i * 3]!)},${num(v[i * 3 + 1]!)},${num(v[i * 3 + 2]!)}]`;
    }
  }
  yield '],"polygons":[';
  first = true;
  let base = 0;
  for (const t of navMesh.tiles) {
    for (let p = 0; p < t.polyCount; p++, first = false) {
      yield `${first ? "" : ","}[${polyVerts(t, p, base, 0).join(",")}]`;
    }
    base += t.vertexCount;
  }
  yield '],"areas":[';
  first = true;
  for (const t of navMesh.tiles) {
    for (let p = 0; p < t.polyCount; p++, first = false) {
      yield `${first ? "" : ","}${t.polyAreas[p]!}`;
    }
  }
  yield "]}\n";
}

type Tile = NavMesh["tiles"][number];

function polyVerts(t: Tile, p: number, base: number, plus: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < t.polyVertCount[p]!; k++) {
    out.push(base + plus + t.polyVerts[p * t.maxVertsPerPoly + k]!);
  }
  return out;
}

/** The export as OBJ: polygons as faces, one group per area (ascending), in pieces. */
export function* objParts(navMesh: NavMesh): Generator<string> {
  yield "# meshway navmesh export: polygons as faces, one group per area\n";
  let polyCount = 0;
  for (const t of navMesh.tiles) {
    const v = t.vertices;
    for (let i = 0; i < t.vertexCount; i++) {
      yield `v ${v[i * 3]!} ${v[i * 3 + 1]!} ${v[i * 3 + 2]!}\n`;
    }
    polyCount += t.polyCount;
  }
  // Polygons grouped by area, in their order within each group (a counting sort over 0..255).
  const counts = new Uint32Array(257);
  for (const t of navMesh.tiles)
    for (let p = 0; p < t.polyCount; p++) counts[t.polyAreas[p]! + 1]!++;
  for (let a = 1; a < 257; a++) counts[a]! += counts[a - 1]!;
  const start = counts.slice(0, 256);
  const order = new Uint32Array(polyCount); // (tile, poly) as a global polygon index
  const tileOf = new Uint32Array(polyCount);
  const baseOf = new Uint32Array(navMesh.tiles.length);

  let base = 0;
  navMesh.tiles.forEach((t, ti) => {
    baseOf[ti] = base;
    for (let p = 0; p < t.polyCount; p++) {
      const a = t.polyAreas[p]!;
      order[start[a]!] = p;
      tileOf[start[a]!++] = ti;
    }
    base += t.vertexCount;
  });
  for (let a = 0, at = 0; a < 256; a++) {
    const end = counts[a + 1]!;
    if (at === end) continue;
    yield `g area_${a}\n`;
    // Navmesh polygons are already wound so cross(v1 − v0, v2 − v0) points up (negative
    // polygonAreaXZ), which is what OBJ viewers take as the front face.
    for (; at < end; at++) {
      const ti = tileOf[at]!;
      yield `f ${polyVerts(navMesh.tiles[ti]!, order[at]!, baseOf[ti]!, 1).join(" ")}\n`;
    }
  }
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
  if (output === "") throw new UsageError("-o needs a file name; the output path is empty");
  const format = exportFormat(str("format"), output);
  if (format === "detour" && output === undefined) {
    throw new UsageError("--format detour writes binary data: give -o <out.bin>");
  }
  const input = positionals[0]!;
  if (output !== undefined) checkOutputPath(output, [input]);
  const { navMesh } = loadNavMesh(input);
  if (format === "detour") {
    writeOutput(output!, exportDetourNavMesh(navMesh), [input]);
    return 0;
  }
  const text = pieces(format === "json" ? jsonParts(navMesh) : objParts(navMesh));
  if (output !== undefined) {
    const encoder = new TextEncoder();
    writeOutput(
      output,
      (function* () {
        for (const piece of text) yield encoder.encode(piece);
      })(),
      [input],
    );
  } else {
    for (const piece of text) io.out(piece);
  }
  return 0;
}
