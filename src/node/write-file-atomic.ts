import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { MeshwayError } from "../errors.js";

/** The file-system calls writeFileAtomic makes (node:fs by default; tests inject failures). */
export interface SaveFileSystem {
  openSync: typeof nodeFs.openSync;
  writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number) => number;
  fsyncSync: typeof nodeFs.fsyncSync;
  fchmodSync: typeof nodeFs.fchmodSync;
  closeSync: typeof nodeFs.closeSync;
  renameSync: typeof nodeFs.renameSync;
  unlinkSync: typeof nodeFs.unlinkSync;
  statSync: typeof nodeFs.statSync;
}

const CHUNK = 1 << 20;

/**
 * Writes `bytes` to `path` atomically: into a new temporary file in the same directory
 * (`.<name>.<pid>.<random>.tmp`), flushed to disk (fsync), then renamed over `path`. Readers
 * see the old file or the new one, never a partial one. On any failure the temporary file is
 * removed, an existing file at `path` is left untouched and the error is rethrown.
 * A replaced file's permission bits carry over to the new one.
 */
export function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  /** @internal */ fs: SaveFileSystem = nodeFs,
): void {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `writeFileAtomic: ${path}: expected a non-empty Uint8Array of file bytes`,
    );
  }
  const target = resolve(path);
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  // "wx": fail rather than reuse a file of the same name.
  const fd = fs.openSync(temp, "wx", 0o666);
  let closed = false;
  try {
    let mode: number | undefined;
    try {
      mode = fs.statSync(target).mode & 0o7777;
    } catch {
      mode = undefined; // no file to replace: keep the umask's default
    }
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    for (let at = 0; at < bytes.length; ) {
      at += fs.writeSync(fd, bytes, at, Math.min(CHUNK, bytes.length - at));
    }
    fs.fsyncSync(fd);
    closed = true;
    fs.closeSync(fd);
    fs.renameSync(temp, target);
  } catch (e) {
    if (!closed) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failing; the unlink below matters more
      }
    }
    try {
      fs.unlinkSync(temp);
    } catch {
      // nothing to remove
    }
    throw e;
  }
  // Make the rename itself durable; not every platform can fsync a directory.
  try {
    const dirFd = nodeFs.openSync(dirname(target), "r");
    try {
      nodeFs.fsyncSync(dirFd);
    } finally {
      nodeFs.closeSync(dirFd);
    }
  } catch {
    // best effort
  }
}
