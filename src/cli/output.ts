import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { MeshwayError } from "../errors.js";
import { describeFsError } from "../node/errno.js";
import { writeFileAtomic } from "../node/write-file-atomic.js";

/**
 * Writes an output file atomically (temporary file in the same directory, then rename),
 * creating its directory first; failures become located MeshwayErrors.
 */
export function writeOutput(file: string, bytes: Uint8Array): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, bytes);
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    throw new MeshwayError("INVALID_INPUT", `${file}: ${describeFsError(e, "write")}`);
  }
}
