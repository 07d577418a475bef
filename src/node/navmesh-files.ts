import { readFileSync } from "node:fs";
import { MeshwayError } from "../errors.js";
import { type LoadedNavMesh, readNavMeshBytes } from "../format/read.js";
import { describeFsError } from "./errno.js";
import { writeFileAtomic } from "./write-file-atomic.js";

/**
 * The navmesh-named alias of {@link writeFileAtomic}, kept for existing callers.
 * @deprecated Use writeFileAtomic: it writes any file (PNG, SVG, JSON …), not only navmeshes.
 */
export const saveNavMeshFile = writeFileAtomic;

/** What {@link loadNavMeshFile} returns. */
export type LoadedNavMeshFile = LoadedNavMesh;

function readError(path: string, e: unknown): MeshwayError {
  return new MeshwayError(
    "INVALID_INPUT",
    `${path}: ${describeFsError(e, "read", "a navmesh file")}`,
  );
}

/**
 * Reads a navmesh file from disk with {@link readNavMeshBytes}: a meshway `.navmesh` or a
 * Detour export. Throws MeshwayError("INVALID_INPUT", "<path>: <what is wrong, where>")
 * for a missing, unreadable, empty or malformed file.
 */
export function loadNavMeshFile(path: string): LoadedNavMeshFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw readError(path, e);
  }
  // Small reads land in Node's shared buffer pool: copy so the navmesh's views own their
  // memory (and their buffer can be transferred) instead of pinning the pool.
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) {
    bytes = new Uint8Array(bytes);
  }
  return readNavMeshBytes(bytes, path);
}
