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

/** Output produced piece by piece (a large export), written as it comes. */
export type FileChunks = Iterable<Uint8Array>;

/** Longest part of the output's name kept in the temporary name (names are ≤ 255 bytes). */
const TEMP_NAME_BYTES = 200;

/**
 * Where a write to `path` lands: a symlink at `path` is written through (its final target
 * is replaced and the link stays), as `cp` and editors do.
 */
function finalTarget(path: string): string {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let st: nodeFs.Stats;
    try {
      st = nodeFs.lstatSync(p);
    } catch {
      return p; // nothing there yet (or a dangling link's target): written as a new file
    }
    if (!st.isSymbolicLink()) return p;
    p = resolve(dirname(p), nodeFs.readlinkSync(p));
  }
  throw new MeshwayError("INVALID_INPUT", `${path}: too many levels of symbolic links`);
}

/** `.<name>.<pid>.<random>.tmp`, the name shortened so the whole stays a legal file name. */
function tempName(target: string): string {
  let name = basename(target);
  while (Buffer.byteLength(name) > TEMP_NAME_BYTES) name = name.slice(0, -1);
  return join(dirname(target), `.${name}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

// SIGINT / SIGTERM during a save: the save is synchronous, so with a listener installed the
// signal waits until the rename is done (no temporary file is left) and is then re-raised, so
// the process still ends by it. SIGKILL cannot be caught: it may leave a temporary file (the
// old output is always intact); see SECURITY.md.
const SIGNALS = ["SIGINT", "SIGTERM"] as const;
let saving = 0;
let listening = false;
const temps = new Set<string>();

function onSignal(signal: NodeJS.Signals): void {
  for (const t of temps) {
    try {
      nodeFs.unlinkSync(t);
    } catch {
      // already renamed or removed
    }
  }
  temps.clear();
  stopListening();
  // Someone else handles this signal: leave the decision to them. Otherwise end as the
  // signal would have ended us.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function startSave(temp: string): void {
  saving++;
  temps.add(temp);
  if (!listening) {
    listening = true;
    for (const s of SIGNALS) process.on(s, onSignal);
  }
}

function stopListening(): void {
  if (!listening) return;
  listening = false;
  for (const s of SIGNALS) process.off(s, onSignal);
}

function endSave(temp: string): void {
  temps.delete(temp);
  saving--;
  // A signal that arrived during the save is delivered on the event loop's next poll: keep
  // listening until one poll has passed (immediate → poll → immediate), then stand down.
  setImmediate(() =>
    setImmediate(() => {
      if (saving === 0) stopListening();
    }),
  );
}

function statOrUndefined(path: string): nodeFs.Stats | undefined {
  try {
    return nodeFs.statSync(path);
  } catch {
    return undefined; // missing, or below a non-directory: the write reports it
  }
}

function* asChunks(bytes: Uint8Array | FileChunks): Generator<Uint8Array> {
  if (bytes instanceof Uint8Array) yield bytes;
  else yield* bytes;
}

/**
 * Writes `bytes` (or chunks of them, written as they come) to `path` atomically: into a new
 * temporary file in the same directory (`.<name>.<pid>.<random>.tmp`, the name shortened when
 * long), flushed to disk (fsync), then renamed over `path`. Readers see the old file or the new
 * one, never a partial one. On any failure the temporary file is removed, an existing file at
 * `path` is left untouched and the error is rethrown. A replaced file's permission bits carry
 * over to the new one. A symlink at `path` is written through (its target replaced, the link
 * kept); a FIFO, device, socket or directory at `path` is refused, never replaced. SIGINT and
 * SIGTERM during the save leave no temporary file.
 */
export function writeFileAtomic(
  path: string,
  bytes: Uint8Array | FileChunks,
  /** @internal */ fs: SaveFileSystem = nodeFs,
): void {
  const chunked =
    !(bytes instanceof Uint8Array) &&
    typeof bytes === "object" &&
    bytes !== null &&
    Symbol.iterator in bytes;
  if (typeof path !== "string" || path === "") {
    throw new MeshwayError("INVALID_ARGUMENT", "writeFileAtomic: the output path is empty");
  }
  const badChunks = Array.isArray(bytes) && !bytes.every((c) => c instanceof Uint8Array);
  if (badChunks || (!chunked && (!(bytes instanceof Uint8Array) || bytes.length === 0))) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `writeFileAtomic: ${path}: expected a non-empty Uint8Array of file bytes`,
    );
  }
  const target = finalTarget(path);
  const existing = statOrUndefined(target);
  // A directory makes the rename fail (EISDIR) with nothing replaced; anything else that is
  // not a regular file would be replaced by the rename: refuse it first.
  if (existing !== undefined && !existing.isFile() && !existing.isDirectory()) {
    const kind = existing.isFIFO()
      ? "a FIFO (named pipe)"
      : existing.isCharacterDevice() || existing.isBlockDevice()
        ? "a device"
        : "not a regular file";
    throw new MeshwayError(
      "INVALID_INPUT",
      `${path}: is ${kind}; meshway writes only regular files and never replaces anything else`,
    );
  }
  const temp = tempName(target);
  // "wx": fail rather than reuse a file of the same name.
  startSave(temp); // before the temporary file exists, so no signal can leave it behind
  let fd: number;
  try {
    fd = fs.openSync(temp, "wx", 0o666);
  } catch (e) {
    endSave(temp);
    throw e;
  }
  let closed = false;
  try {
    let mode: number | undefined;
    try {
      mode = fs.statSync(target).mode & 0o7777;
    } catch {
      mode = undefined; // no file to replace: keep the umask's default
    }
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    let total = 0;
    for (const chunk of asChunks(bytes)) {
      if (!(chunk instanceof Uint8Array)) {
        throw new MeshwayError(
          "INVALID_ARGUMENT",
          `writeFileAtomic: ${path}: a chunk is ${typeof chunk}; expected Uint8Array chunks`,
        );
      }
      for (let at = 0; at < chunk.length; ) {
        at += fs.writeSync(fd, chunk, at, Math.min(CHUNK, chunk.length - at));
      }
      total += chunk.length;
    }
    if (total === 0) {
      throw new MeshwayError("INVALID_ARGUMENT", `writeFileAtomic: ${path}: no bytes to write`);
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
  } finally {
    endSave(temp);
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
