// A glTF's buffers: the GLB BIN chunk, data URIs and external files. External files are read
// only from inside the glTF's own directory (the path guard below).
import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve as resolvePath, sep } from "node:path";
import { describeFsError } from "../errno.js";
import { fail, integer, object, show } from "./json.js";

export async function readLocal(file: string, source: string, what: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    const reason = describeFsError(e);
    fail(source, what === "" ? reason : `${what}: ${reason} (${file})`);
  }
}

/** True when `file` is `dir` itself or below it. */
export function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * A level file is untrusted: its external buffers may only be regular files inside its own
 * directory (after following links). Anything else could read files the user never meant to
 * share (`../../secret`, absolute paths) or never end (`/dev/zero`, a FIFO).
 */
export async function checkBufferFile(
  baseDir: string,
  file: string,
  source: string,
  what: string,
): Promise<void> {
  if (!isInside(baseDir, file)) {
    fail(source, `${what} points outside the glTF's directory; only files beside it are read`);
  }
  let real: string;
  let realDir: string;
  try {
    [real, realDir] = await Promise.all([realpath(file), realpath(baseDir)]);
  } catch {
    return; // missing: readLocal reports it with its usual message
  }
  if (!isInside(realDir, real)) {
    fail(source, `${what} links outside the glTF's directory; only files beside it are read`);
  }
  if (!(await stat(real)).isFile()) fail(source, `${what} is not a regular file`);
}

export function decodeDataUri(uri: string, source: string, path: string): Uint8Array {
  const comma = uri.indexOf(",");
  if (comma < 0) fail(source, `${path} is a data URI without a "," before its data`);
  const header = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    const clean = payload.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(clean))
      fail(source, `${path} is a data URI whose base64 data is malformed`);
    return new Uint8Array(Buffer.from(clean, "base64"));
  }
  try {
    return new Uint8Array(Buffer.from(decodeURIComponent(payload), "latin1"));
  } catch {
    fail(source, `${path} is a data URI whose percent-encoding is malformed`);
  }
}

export async function loadBuffer(
  buffers: unknown[],
  b: number,
  source: string,
  bin: Uint8Array | null,
  baseDir: string | null,
  /** Files already read, by resolved path: a file named by many buffers is read once. */
  files: Map<string, Uint8Array> = new Map(),
): Promise<Uint8Array> {
  const path = `buffers[${b}]`;
  const def = object(source, buffers[b], path);
  const byteLength = integer(source, def.byteLength, `${path}.byteLength`, 1);
  const uri = def.uri;
  let data: Uint8Array;
  let label: string;
  if (uri === undefined) {
    if (bin === null)
      fail(source, `${path} has no uri and the file has no GLB BIN chunk to hold it`);
    data = bin;
    label = "the GLB BIN chunk";
  } else if (typeof uri !== "string") {
    fail(source, `${path}.uri is ${show(uri)}; expected a string`);
  } else if (/^data:/i.test(uri)) {
    data = decodeDataUri(uri, source, `${path}.uri`);
    label = `${path} (data URI)`;
  } else {
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
    await checkBufferFile(baseDir, file, source, `${path}.uri "${uri}"`);
    const known = files.get(file);
    data = known ?? (await readLocal(file, source, `${path} "${uri}" could not be read`));
    files.set(file, data);
    label = `${path} "${uri}"`;
  }
  if (data.byteLength < byteLength) {
    fail(
      source,
      `${label} has ${data.byteLength} bytes but ${path}.byteLength declares ${byteLength}`,
    );
  }
  return data.subarray(0, byteLength);
}
