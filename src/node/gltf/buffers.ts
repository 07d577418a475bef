// A glTF's external buffer files, for the platform-free parser (src/io/gltf): read only from
// inside the glTF's own directory (the path guard below).
import { readlinkSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve as resolvePath, sep } from "node:path";
import type { BufferResolver } from "../../io/gltf/buffers.js";
import { fail } from "../../io/gltf/json.js";
import { closeFd, type OpenedFile, openRegular, readFd } from "../regular-file.js";

/** True when `file` is `dir` itself or below it. */
export function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The real path of an opened descriptor (Linux: /proc/self/fd), or null where unknown. */
function descriptorPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * A level file is untrusted: its external buffers may only be regular files inside its own
 * directory (after following links). Anything else could read files the user never meant to
 * share (`../../secret`, absolute paths) or never end (`/dev/zero`, a FIFO). The file is opened
 * once and the checks are made on what was opened (its descriptor's real path, or the
 * device and inode of the path's real path), so a file swapped for a link between a check and
 * the read cannot be read through; the caller reads from the returned descriptor.
 */
export function openBufferFile(
  baseDir: string,
  file: string,
  source: string,
  what: string,
  readLabel = what,
): OpenedFile {
  if (!isInside(baseDir, file)) {
    fail(source, `${what} points outside the glTF's directory; only files beside it are read`);
  }
  const opened = openRegular(file);
  if ("reason" in opened) {
    if (opened.notRegular) fail(source, `${what} is not a regular file`);
    fail(source, `${readLabel} could not be read: ${opened.reason} (${file})`);
  }
  let ok = false;
  try {
    const realDir = realpathSync(baseDir);
    const real = descriptorPath(opened.fd);
    if (real !== null) {
      ok = isInside(realDir, real);
    } else {
      // No /proc: the path's real path must be inside and be the very file that was opened.
      const byPath = realpathSync(file);
      const st = statSync(byPath);
      ok = isInside(realDir, byPath) && st.dev === opened.dev && st.ino === opened.ino;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    closeFd(opened.fd);
    fail(source, `${what} links outside the glTF's directory; only files beside it are read`);
  }
  return opened;
}

/**
 * The first `byteLength` bytes of a checked external buffer file, read once per file: `files`
 * holds what was read, by path and by device and inode (two names of one file are one read).
 */
function readBufferFile(
  baseDir: string,
  file: string,
  byteLength: number,
  source: string,
  what: string,
  readLabel: string,
  files: Map<string, Uint8Array>,
): Uint8Array {
  const byPath = files.get(file);
  if (byPath !== undefined && byPath.byteLength >= byteLength) return byPath;
  const opened = openBufferFile(baseDir, file, source, what, readLabel);
  try {
    const key = `${opened.dev}:${opened.ino}`;
    const known = files.get(key);
    if (known !== undefined && known.byteLength >= byteLength) {
      files.set(file, known);
      return known;
    }
    if (opened.size < byteLength) {
      fail(
        source,
        `${readLabel} has ${opened.size} bytes but its byteLength declares ${byteLength}`,
      );
    }
    let data: Uint8Array;
    try {
      // Only the declared bytes: a 60-byte buffer in a 256 MB file reads 60 bytes.
      data = readFd(opened.fd, byteLength);
    } catch (e) {
      fail(source, `${readLabel} could not be read: ${(e as Error).message} (${file})`);
    }
    files.set(key, data);
    files.set(file, data);
    return data;
  } finally {
    closeFd(opened.fd);
  }
}

/**
 * The resolver meshway/node gives the platform-free parser: local files only (a URL or, without
 * a directory, any external file is refused), percent-decoded, path-guarded, read once each.
 * `files` collects what was read, by path and by device and inode.
 */
export function fileResolver(
  source: string,
  baseDir: string | null,
  files: Map<string, Uint8Array>,
): BufferResolver {
  return (uri, { buffer, byteLength }) => {
    const path = `buffers[${buffer}]`;
    if (/^[a-z][a-z0-9+.-]+:/i.test(uri)) {
      fail(source, `${path}.uri "${uri}" is a URL; only local files and data URIs are read`);
    }
    if (baseDir === null) {
      fail(
        source,
        `${path} refers to the external file "${uri}", which cannot be resolved from bytes alone (load the file by its path)`,
      );
    }
    let file: string;
    try {
      file = resolvePath(baseDir, decodeURIComponent(uri));
    } catch {
      fail(source, `${path}.uri "${uri}" has malformed percent-encoding`);
    }
    const label = `${path} "${uri}"`;
    return readBufferFile(baseDir, file, byteLength, source, `${path}.uri "${uri}"`, label, files);
  };
}
