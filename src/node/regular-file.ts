// The one way meshway opens an input file: only regular files, opened once, checked on the
// opened descriptor and read from it. A path is only a name; what was opened is what counts
// (a FIFO blocks forever, /dev/zero never ends, a file swapped for a symlink between a check
// and a read is another file).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { MeshwayError } from "../errors.js";
import { describeFsError } from "./errno.js";

/** Opening a FIFO for reading waits for a writer unless non-blocking; regular files ignore it. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The largest read Node can hold in one buffer (4 GiB on 64-bit Node 20). */
export const MAX_READ_BYTES = 2 ** 32 - 1;

/** An opened regular file: read it with {@link readFd}, close it with {@link closeFd}. */
export interface OpenedFile {
  fd: number;
  size: number;
  dev: number;
  ino: number;
}

/** What a non-regular file is, in the words of the refusal ("a FIFO", "a character device" …). */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Opens `path` and checks the opened descriptor is a regular file. Returns the reason (the
 * words after "<path>: ") when it is not, or cannot be opened, so each caller can word its
 * own message; never blocks on a FIFO.
 */
export function openRegular(
  path: string,
  expected = "a file",
): OpenedFile | { reason: string; notRegular?: true } {
  if (path === "") return { reason: "the path is empty" };
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    return { reason: describeFsError(e, "read", expected) };
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    closeFd(fd);
    return { reason: describeFsError(e, "read", expected) };
  }
  if (!st.isFile()) {
    closeFd(fd);
    const kind = fileKind(st);
    return {
      notRegular: true,
      reason: st.isDirectory()
        ? `is a directory, expected ${expected}`
        : `is ${kind}, not a regular file; only regular files are read`,
    };
  }
  return { fd, size: st.size, dev: st.dev, ino: st.ino };
}

export function closeFd(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // nothing left to do with it
  }
}

/**
 * Reads exactly `length` bytes at `position` from an opened file into a fresh buffer (its own
 * ArrayBuffer, not Node's shared pool). Throws the reason as a string-bearing Error when the
 * file ends early (it shrank after it was opened).
 */
export function readFd(fd: number, length: number, position = 0): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  while (at < length) {
    const n = readSync(fd, out, at, Math.min(length - at, 1 << 30), position + at);
    if (n === 0) throw new Error(`ended after ${at} of ${length} bytes (it changed while read)`);
    at += n;
  }
  return out;
}

export interface ReadRegularOptions {
  /** Refuse files larger than this many bytes (default and most: {@link MAX_READ_BYTES}). */
  maxBytes?: number;
  /** What should be at the path, for "is a directory, expected …" ("a file", "a navmesh file"). */
  expected?: string;
  /** Refuse an empty file ("is empty"); default true. */
  refuseEmpty?: boolean;
}

function refuse(path: string, reason: string): never {
  throw new MeshwayError("INVALID_INPUT", `${path}: ${reason}`);
}

/** Formats a byte count for messages: "1234 bytes (1.2 MiB)". */
export function showBytes(n: number): string {
  if (n < 1024 * 1024) return `${n} bytes`;
  const mib = n / (1024 * 1024);
  return mib < 1024
    ? `${n} bytes (${mib.toFixed(1)} MiB)`
    : `${n} bytes (${(mib / 1024).toFixed(2)} GiB)`;
}

/**
 * Reads a whole regular file (size checked before reading): devices, FIFOs, sockets and
 * directories are refused at once with MeshwayError("INVALID_INPUT", "<path>: <why>").
 */
export function readRegularFile(path: string, options: ReadRegularOptions = {}): Uint8Array {
  const opened = openRegular(path, options.expected);
  if ("reason" in opened) refuse(path, opened.reason);
  try {
    return readOpened(path, opened, options);
  } finally {
    closeFd(opened.fd);
  }
}

/** The whole of an opened file, with the size and emptiness checks of {@link readRegularFile}. */
export function readOpened(
  path: string,
  opened: OpenedFile,
  options: ReadRegularOptions = {},
): Uint8Array {
  const max = Math.min(options.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
  if (opened.size === 0 && options.refuseEmpty !== false) refuse(path, "is empty");
  if (opened.size > max) {
    refuse(path, `is ${showBytes(opened.size)}, more than the ${showBytes(max)} meshway reads`);
  }
  try {
    return readFd(opened.fd, opened.size);
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    refuse(path, code ? describeFsError(e) : (e as Error).message);
  }
}

/**
 * A regular file's bytes in chunks of about `chunkBytes`, read from one descriptor, so a file
 * larger than one string (or one buffer) can be parsed piece by piece.
 */
export function* readRegularFileChunks(
  path: string,
  chunkBytes = 64 * 1024 * 1024,
  options: Omit<ReadRegularOptions, "maxBytes"> = {},
): Generator<Uint8Array> {
  const opened = openRegular(path, options.expected);
  if ("reason" in opened) refuse(path, opened.reason);
  try {
    if (opened.size === 0 && options.refuseEmpty !== false) refuse(path, "is empty");
    for (let at = 0; at < opened.size; at += chunkBytes) {
      const n = Math.min(chunkBytes, opened.size - at);
      let chunk: Uint8Array;
      try {
        chunk = readFd(opened.fd, n, at);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        refuse(path, code ? describeFsError(e) : (e as Error).message);
      }
      yield chunk;
    }
  } finally {
    closeFd(opened.fd);
  }
}
