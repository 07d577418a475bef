import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { MeshwayError } from "../errors.js";
import { saveNavMeshFile } from "../node/navmesh-files.js";

/**
 * Writes an output file atomically (temporary file in the same directory, then rename),
 * creating its directory first; failures become located MeshwayErrors.
 */
export function writeOutput(file: string, bytes: Uint8Array): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    saveNavMeshFile(file, bytes);
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const what =
      code === "EISDIR"
        ? "is a directory"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : code === "ENOTDIR" || code === "EEXIST" // EEXIST: mkdir met a file on the way
            ? "a parent of this path is not a directory"
            : `cannot write (${code ?? (e as Error).message})`;
    throw new MeshwayError("INVALID_INPUT", `${file}: ${what}`);
  }
}
