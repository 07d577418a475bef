import { readFileSync, statSync } from "node:fs";
import { MeshwayError } from "../errors.js";
import { type TriangleMesh, type UpAxis, validateTriangleMesh } from "../input.js";
import { parseObj } from "../io/obj.js";
import { describeFsError } from "../node/errno.js";
import { loadGltfMesh } from "../node/gltf/index.js";
import { loadNavMeshFile } from "../node/navmesh-files.js";

/** Reads a file's bytes, turning file-system failures into located MeshwayErrors. */
export function readInputBytes(file: string): Uint8Array {
  try {
    if (statSync(file).isDirectory()) {
      throw new MeshwayError("INVALID_INPUT", `${file}: is a directory, expected a file`);
    }
    const bytes = readFileSync(file);
    if (bytes.length === 0) throw new MeshwayError("INVALID_INPUT", `${file}: is empty`);
    return bytes;
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    throw new MeshwayError("INVALID_INPUT", `${file}: ${describeFsError(e)}`);
  }
}

export function isGeometryFile(file: string): boolean {
  return /\.(obj|gltf|glb)$/i.test(file);
}

/**
 * Loads triangle geometry from .obj, .gltf or .glb, turned to meshway's +Y up and
 * counter-clockwise when `orientation` says the file is otherwise; warnings are for stderr.
 */
export async function loadGeometry(
  file: string,
  orientation: { up: UpAxis; flipWinding: boolean } = { up: "y", flipWinding: false },
): Promise<{ mesh: TriangleMesh; warnings: string[] }> {
  const loaded = await loadFile(file);
  if (orientation.up === "y" && !orientation.flipWinding) return loaded;
  return { ...loaded, mesh: validateTriangleMesh({ ...loaded.mesh, ...orientation }, file) };
}

async function loadFile(file: string): Promise<{ mesh: TriangleMesh; warnings: string[] }> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".obj")) {
    const bytes = readInputBytes(file);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (text.includes("\u0000")) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${file}: binary data where an OBJ text file was expected`,
      );
    }
    return { mesh: parseObj(text, file), warnings: [] };
  }
  if (lower.endsWith(".gltf") || lower.endsWith(".glb")) {
    readInputBytes(file); // same located errors for missing, empty and directory inputs
    return loadGltfMesh(file);
  }
  readInputBytes(file); // missing, empty and directory inputs first: they say more
  throw new MeshwayError(
    "INVALID_INPUT",
    `${file}: unknown input type; expected .obj, .gltf or .glb geometry`,
  );
}

/** Loads a .navmesh file (or a Detour export). */
export function loadNavMesh(file: string): ReturnType<typeof loadNavMeshFile> {
  return loadNavMeshFile(file);
}
