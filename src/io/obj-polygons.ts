import { MeshwayError } from "../errors.js";

/** An OBJ's vertices and faces, faces kept as polygons (not fanned into triangles). */
export interface ObjPolygons {
  vertices: Float32Array;
  polygons: number[][];
}

function fail(source: string, lineNo: number, what: string): never {
  throw new MeshwayError("OBJ_PARSE", `${source}:${lineNo}: ${what}`);
}

/**
 * Parses Wavefront OBJ text keeping each `f` line as one polygon, for navmeshes authored as
 * faces (navMeshFromPolygons). Reads `v` and `f` (forms `v`, `v/vt`, `v//vn`, `v/vt/vn`,
 * negative indices relative to the vertices so far); ignores every other statement.
 * Throws MeshwayError "OBJ_PARSE" naming the line, "NO_TRIANGLES" when there is no face.
 */
export function parseObjPolygons(text: string, source = "input.obj"): ObjPolygons {
  const coords: number[] = [];
  const polygons: number[][] = [];
  const pending: { lineNo: number; face: number[] }[] = [];
  const lines = text.split(/\r?\n|\r/);
  for (let l = 0; l < lines.length; l++) {
    const lineNo = l + 1;
    const line = lines[l]!.replace(/#.*/, "").trim();
    if (line === "") continue;
    const parts = line.split(/\s+/);
    const kw = parts[0];
    if (kw === "v") {
      if (parts.length < 4) fail(source, lineNo, "vertex needs x y z");
      for (let k = 1; k <= 3; k++) {
        const v = Number(parts[k]);
        if (!Number.isFinite(v))
          fail(source, lineNo, `vertex coordinate "${parts[k]}" is not a finite number`);
        coords.push(v);
      }
    } else if (kw === "f") {
      if (parts.length < 4)
        fail(source, lineNo, `face has ${parts.length - 1} vertices, expected at least 3`);
      const count = coords.length / 3;
      const face: number[] = [];
      let forward = false;
      for (let k = 1; k < parts.length; k++) {
        const token = parts[k]!.split("/")[0]!;
        const n = Number(token);
        if (!Number.isInteger(n) || n === 0)
          fail(source, lineNo, `face index "${parts[k]}" is not a vertex index`);
        const idx = n > 0 ? n - 1 : count + n;
        if (idx < 0) fail(source, lineNo, `face index ${n} points before the first vertex`);
        if (idx >= count) forward = true;
        face.push(idx);
      }
      polygons.push(face);
      if (forward) pending.push({ lineNo, face });
    }
  }
  const count = coords.length / 3;
  for (const { lineNo, face } of pending) {
    for (const idx of face) {
      if (idx >= count) fail(source, lineNo, `face index ${idx + 1} exceeds the ${count} vertices`);
    }
  }
  if (polygons.length === 0)
    throw new MeshwayError("NO_TRIANGLES", `${source}: no faces (f lines)`);
  return { vertices: new Float32Array(coords), polygons };
}
