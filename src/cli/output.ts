import { mkdirSync, type Stats, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { MeshwayError } from "../errors.js";
import { describeFsError } from "../node/errno.js";
import { type FileChunks, writeFileAtomic } from "../node/write-file-atomic.js";
import { UsageError } from "./options.js";

/**
 * Refuses an output path that cannot be right, before any work is done: an empty path, and
 * the path of an input (the same file by device and inode, so a link or a second name of the
 * input is caught too): `build in.obj -o in.obj` would replace the geometry with navmesh bytes.
 */
export function checkOutputPath(file: string, inputs: readonly (string | undefined)[]): void {
  if (file === "") throw new UsageError("-o needs a file name; the output path is empty");
  const out = statOrUndefined(file);
  if (out === undefined) return;
  for (const input of inputs) {
    if (input === undefined) continue;
    const st = statOrUndefined(input);
    if (st !== undefined && st.dev === out.dev && st.ino === out.ino) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${file}: is ${input === file ? "the input file" : `the same file as the input ${input}`}; refusing to overwrite an input (choose another -o)`,
      );
    }
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined; // missing or unreachable: not an input that exists, the write reports it
  }
}

/**
 * Writes an output file atomically (temporary file in the same directory, then rename),
 * creating its directory first; failures become located MeshwayErrors. `inputs` are the files
 * the command read: writing over one of them is refused.
 */
export function writeOutput(
  file: string,
  bytes: Uint8Array | FileChunks,
  inputs: readonly (string | undefined)[] = [],
): void {
  checkOutputPath(file, inputs);
  try {
    makeParent(dirname(file));
    writeFileAtomic(file, bytes);
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    throw new MeshwayError("INVALID_INPUT", `${file}: ${describeFsError(e, "write")}`);
  }
}

/** mkdir -p, with the real cause: Node's recursive mkdir says ENOENT for a read-only mount. */
function makeParent(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    let missing = resolve(dir);
    while (statOrUndefined(dirname(missing)) === undefined) {
      if (dirname(missing) === missing) throw e;
      missing = dirname(missing);
    }
    mkdirSync(missing); // throws the real error (EROFS, EACCES …)
    throw e;
  }
}
