/**
 * glTF 2.0 / GLB files (Node): a thin file-reading wrapper over the platform-free parser in
 * src/io/gltf (meshway/io's parseGlb / parseGltf). What is Node's is here: only regular files
 * are read (devices and FIFOs refused), the file once; external buffers only from inside the
 * glTF's own directory (buffers.ts's path guard), each file read once.
 */
import { dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { isGlb, readGlbContainer } from "../../io/gltf/container.js";
import {
  type GltfParseResult,
  parseGlb as parseGlbBytes,
  parseGltf as parseGltfJson,
  parseGltfText,
} from "../../io/gltf/index.js";
import { fail, jsonTooLong, MAX_JSON_BYTES } from "../../io/gltf/json.js";
import { closeFd, openRegular, readFd, readOpened } from "../regular-file.js";
import { fileResolver } from "./buffers.js";

export { DEFAULT_MAX_TRIANGLES } from "../../io/gltf/index.js";

export interface GltfLoadResult extends GltfParseResult {
  /**
   * The external buffer files read (resolved paths), so a caller writing output can refuse to
   * overwrite one of them; empty for GLB-only and data-URI files.
   */
  files?: string[];
}

export interface GltfParseOptions {
  /**
   * Directory that relative buffer URIs resolve against. Without it, a file that refers to
   * external buffers is refused (the bytes alone cannot be resolved).
   */
  baseDir?: string;
  /** The most triangles the scene may expand to (meshway/io's GltfOptions.maxTriangles). */
  maxTriangles?: number;
}

/**
 * Reads a .gltf or .glb file (external and data-URI buffers resolved) into one world-space mesh.
 * Only regular files are read (devices and FIFOs refused), each opened once; a bad GLB magic is
 * reported from the first 12 bytes without reading the rest.
 */
export async function loadGltfMesh(
  path: string,
  options: Omit<GltfParseOptions, "baseDir"> = {},
): Promise<GltfLoadResult> {
  const opened = openRegular(path);
  if ("reason" in opened) fail(path, opened.reason);
  let bytes: Uint8Array;
  try {
    if (opened.size === 0) fail(path, "is empty");
    const head = readFd(opened.fd, Math.min(12, opened.size));
    const glb = isGlb(head);
    if (!glb && /\.glb$/i.test(path)) readGlbContainer(head, path); // throws: bad magic
    if (!glb && opened.size > MAX_JSON_BYTES) {
      fail(path, jsonTooLong(opened.size, "the file"));
    }
    bytes = readOpened(path, opened);
  } finally {
    closeFd(opened.fd);
  }
  const parseOptions = { ...options, baseDir: dirname(resolvePath(path)) };
  if (isGlb(bytes) || /\.glb$/i.test(path)) return parseGlb(bytes, path, parseOptions);
  return parseGltf(bytes, path, parseOptions);
}

/** Parses GLB bytes. `source` (a file name) prefixes every message. */
export async function parseGlb(
  bytes: Uint8Array,
  source = "input.glb",
  options: GltfParseOptions = {},
): Promise<GltfLoadResult> {
  const files = new Map<string, Uint8Array>();
  const resolveBuffer = fileResolver(source, options.baseDir ?? null, files);
  const result = await parseGlbBytes(bytes, {
    source,
    maxTriangles: options.maxTriangles,
    resolveBuffer,
  });
  return withFiles(result, files);
}

/** Parses a glTF file's bytes: GLB (by its magic) or JSON text. */
export async function parseGltf(
  bytes: Uint8Array,
  source = "input.gltf",
  options: GltfParseOptions = {},
): Promise<GltfLoadResult> {
  if (isGlb(bytes)) return parseGlb(bytes, source, options);
  const json = parseGltfText(bytes, source);
  const files = new Map<string, Uint8Array>();
  const resolveBuffer = fileResolver(source, options.baseDir ?? null, files);
  const result = await parseGltfJson(json as object, resolveBuffer, {
    source,
    maxTriangles: options.maxTriangles,
  });
  return withFiles(result, files);
}

// The map also holds device:inode keys: only paths are files.
function withFiles(result: GltfParseResult, files: Map<string, Uint8Array>): GltfLoadResult {
  return { ...result, files: [...files.keys()].filter((k) => isAbsolute(k)) };
}
