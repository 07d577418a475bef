import { type LoadedNavMesh, readNavMeshBytes } from "../format/read.js";
import { readRegularFile } from "./regular-file.js";
import { writeFileAtomic } from "./write-file-atomic.js";

/**
 * The navmesh-named alias of {@link writeFileAtomic}, kept for existing callers.
 * @deprecated Use writeFileAtomic: it writes any file (PNG, SVG, JSON …), not only navmeshes.
 */
export const saveNavMeshFile = writeFileAtomic;

/** What {@link loadNavMeshFile} returns. */
export type LoadedNavMeshFile = LoadedNavMesh;

/**
 * Reads a navmesh file from disk with {@link readNavMeshBytes}: a meshway `.navmesh` or a
 * Detour export. Throws MeshwayError("INVALID_INPUT", "<path>: <what is wrong, where>")
 * for a missing, unreadable, empty or malformed file, and for a device, FIFO or directory.
 */
export function loadNavMeshFile(path: string): LoadedNavMeshFile {
  // Only a regular file, its size checked before reading; the bytes own their ArrayBuffer
  // (not Node's shared pool), so the navmesh's views can be transferred.
  const bytes = readRegularFile(path, { expected: "a navmesh file", refuseEmpty: false });
  return readNavMeshBytes(bytes, path);
}
