import { MeshwayError } from "../errors.js";
import { type TriangleMesh, type UpAxis, validateTriangleMesh } from "../input.js";
import { parseObjBytes } from "../io/obj.js";
import { loadGltfMesh } from "../node/gltf/index.js";
import { loadNavMeshFile } from "../node/navmesh-files.js";
import { readRegularFile, readRegularFileChunks } from "../node/regular-file.js";

/**
 * Reads a file's bytes: only a regular file (devices, FIFOs and directories refused at once),
 * its size checked before reading; failures are located MeshwayErrors.
 */
export function readInputBytes(file: string): Uint8Array {
  return readRegularFile(file);
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
  maxTriangles?: number,
): Promise<LoadedGeometry> {
  const loaded = await loadFile(file, maxTriangles);
  if (orientation.up === "y" && !orientation.flipWinding) return loaded;
  return { ...loaded, mesh: validateTriangleMesh({ ...loaded.mesh, ...orientation }, file) };
}

/** Geometry, the loader's warnings, and the other files it read (a glTF's buffers). */
export interface LoadedGeometry {
  mesh: TriangleMesh;
  warnings: string[];
  files?: string[];
}

async function loadFile(file: string, maxTriangles: number | undefined): Promise<LoadedGeometry> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".obj")) {
    // Read and parsed in 64 MiB chunks: a file of any size, never one string of all of it.
    return { mesh: parseObjBytes(readRegularFileChunks(file), file), warnings: [] };
  }
  if (lower.endsWith(".gltf") || lower.endsWith(".glb")) {
    // It checks the file (regular, not empty) itself and reads it once.
    return loadGltfMesh(file, maxTriangles === undefined ? {} : { maxTriangles });
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
