import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { BuildConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { deserializeNavMesh } from "../format/navmesh-file.js";
import { importDetourNavMesh } from "../navmesh/detour-import.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";

/** The file-system calls saveNavMeshFile makes (node:fs by default; tests inject failures). */
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
export function saveNavMeshFile(
  path: string,
  bytes: Uint8Array,
  /** @internal */ fs: SaveFileSystem = nodeFs,
): void {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `saveNavMeshFile: ${path}: expected a non-empty Uint8Array of file bytes`,
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

/** What {@link loadNavMeshFile} returns. */
export interface LoadedNavMeshFile {
  navMesh: NavMesh;
  /** The build config stored in a meshway file; null for Detour exports or when none was stored. */
  config: BuildConfig | null;
  /** "meshway": a `.navmesh` file; "detour": recast-navigation's exportNavMesh ('MSET'). */
  format: "meshway" | "detour";
  /** The meshway format version, or the Detour navmesh-set version. */
  version: number;
}

/** recast-navigation's navmesh-set magic 'MSET', stored as a little-endian int. */
const DETOUR_SET_MAGIC = [0x54, 0x45, 0x53, 0x4d];
const MESHWAY_MAGIC = [0x4d, 0x57, 0x4e, 0x4d];

function readError(path: string, e: unknown): MeshwayError {
  const code = (e as NodeJS.ErrnoException).code;
  const what =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "is a directory, expected a navmesh file"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : `cannot read (${code ?? (e as Error).message})`;
  return new MeshwayError("INVALID_INPUT", `${path}: ${what}`);
}

/**
 * Reads a navmesh file: a meshway `.navmesh` ("MWNM", {@link deserializeNavMesh}) or a Detour
 * navmesh exported by recast-navigation ('MSET', importDetourNavMesh), told apart by the
 * first four bytes. Throws MeshwayError("INVALID_INPUT", "<path>: <what is wrong, where>")
 * for a missing, unreadable, empty or malformed file.
 */
export function loadNavMeshFile(path: string): LoadedNavMeshFile {
  let bytes: Uint8Array;
  try {
    bytes = nodeFs.readFileSync(path);
  } catch (e) {
    throw readError(path, e);
  }
  // Small reads land in Node's shared buffer pool: copy so the navmesh's views own their
  // memory (and their buffer can be transferred) instead of pinning the pool.
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) {
    bytes = new Uint8Array(bytes);
  }
  if (bytes.length === 0) {
    throw new MeshwayError("INVALID_INPUT", `${path}: empty file, expected a navmesh`);
  }
  const starts = (magic: readonly number[]) =>
    magic.every((b, i) => i >= bytes.length || bytes[i] === b);
  // A file shorter than a magic that it begins like goes to that reader, which says "truncated".
  if (starts(MESHWAY_MAGIC)) {
    const { navMesh, config, version } = deserializeNavMesh(bytes, path);
    return { navMesh, config, format: "meshway", version };
  }
  if (starts(DETOUR_SET_MAGIC)) {
    const navMesh = importDetourNavMesh(bytes, path);
    const version = new DataView(bytes.buffer, bytes.byteOffset).getInt32(4, true);
    return { navMesh, config: null, format: "detour", version };
  }
  let shown = "";
  for (const c of bytes.subarray(0, 4)) {
    shown +=
      c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, "0")}`;
  }
  throw new MeshwayError(
    "INVALID_INPUT",
    `${path}: not a navmesh file: bad magic '${shown}', expected 'MWNM' (meshway .navmesh) or 'MSET' (Detour navmesh export) at byte 0`,
  );
}
