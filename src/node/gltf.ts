/**
 * glTF 2.0 / GLB input (Node only): every triangle primitive of every mesh instanced in the
 * scene, in world space, as one TriangleMesh.
 *
 * The file's own structure (GLB container, scene graph, the accessors we use and the byte ranges
 * they cover) is checked here first, so that every problem becomes a MeshwayError naming the
 * file and the place, never a library TypeError. @gltf-transform/core's NodeIO then decodes the
 * accessors (strides, sparse data, component types) from a JSON document reduced to geometry:
 * materials, images, animations and unused attributes are never read.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve as resolvePath, sep } from "node:path";
import { type GLTF, type ILogger, type JSONDocument, NodeIO } from "@gltf-transform/core";
import { MeshwayError } from "../errors.js";
import { type TriangleMesh, validateTriangleMesh } from "../input.js";
import { composeTRS, determinant3, multiplyMat4 } from "../math/mat4.js";

export interface GltfLoadResult {
  mesh: TriangleMesh;
  /** Things skipped or ignored (non-triangle primitives, skins…), one sentence each. */
  warnings: string[];
}

export interface GltfParseOptions {
  /**
   * Directory that relative buffer URIs resolve against. Without it, a file that refers to
   * external buffers is refused (the bytes alone cannot be resolved).
   */
  baseDir?: string;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"

const MODE_NAMES = [
  "POINTS",
  "LINES",
  "LINE_LOOP",
  "LINE_STRIP",
  "TRIANGLES",
  "TRIANGLE_STRIP",
  "TRIANGLE_FAN",
];
const MODE_TRIANGLES = 4;
const MODE_TRIANGLE_STRIP = 5;
const MODE_TRIANGLE_FAN = 6;

const COMPONENT_BYTES: Record<number, number> = {
  5120: 1, // BYTE
  5121: 1, // UNSIGNED_BYTE
  5122: 2, // SHORT
  5123: 2, // UNSIGNED_SHORT
  5125: 4, // UNSIGNED_INT
  5126: 4, // FLOAT
};
const FLOAT = 5126;
/** Positions: FLOAT, or the integer types KHR_mesh_quantization allows. */
const POSITION_TYPES = [5126, 5120, 5121, 5122, 5123];
const INDEX_TYPES = [5121, 5123, 5125];

/** Extensions that change how vertex data is stored: reading around them gives garbage. */
const COMPRESSION_EXTENSIONS = [
  "KHR_draco_mesh_compression",
  "EXT_meshopt_compression",
  "KHR_meshopt_compression",
];
/** Required extensions that do not touch geometry (or that we handle), so they are ignored. */
const HARMLESS_EXTENSION =
  /^(KHR_mesh_quantization|KHR_materials_|KHR_texture_|EXT_texture_|KHR_lights_|KHR_xmp|KHR_animation_pointer|MSFT_texture_dds)/;
const INSTANCING = "EXT_mesh_gpu_instancing";

/** Reads a .gltf or .glb file (external and data-URI buffers resolved) into one world-space mesh. */
export async function loadGltfMesh(path: string): Promise<GltfLoadResult> {
  const bytes = await readLocal(path, path, "");
  if (bytes.byteLength === 0) fail(path, "is empty");
  const options = { baseDir: dirname(resolvePath(path)) };
  if (isGlb(bytes) || /\.glb$/i.test(path)) return parseGlb(bytes, path, options);
  return parseGltf(bytes, path, options);
}

/** Parses GLB bytes. `source` (a file name) prefixes every message. */
export async function parseGlb(
  bytes: Uint8Array,
  source = "input.glb",
  options: GltfParseOptions = {},
): Promise<GltfLoadResult> {
  return guard(source, () => {
    const { jsonBytes, bin, warnings } = readGlbContainer(bytes, source);
    // The JSON chunk is padded with spaces; some writers pad with zeros instead.
    let end = jsonBytes.length;
    while (end > 0 && jsonBytes[end - 1] === 0) end--;
    const json = parseJsonText(jsonBytes.subarray(0, end), source, "the GLB JSON chunk");
    return readGltfJson(json, source, bin, options.baseDir ?? null, warnings);
  });
}

/** Parses a glTF file's bytes: GLB (by its magic) or JSON text. */
export async function parseGltf(
  bytes: Uint8Array,
  source = "input.gltf",
  options: GltfParseOptions = {},
): Promise<GltfLoadResult> {
  if (isGlb(bytes)) return parseGlb(bytes, source, options);
  // A UTF-8 byte order mark and whitespace may precede the JSON.
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  ) {
    i++;
  }
  if (bytes[i] !== 0x7b /* { */) {
    fail(
      source,
      `not a glTF file: expected JSON text starting with "{" or a GLB binary (magic "glTF"), found ${describeMagic(bytes, i)}`,
    );
  }
  return guard(source, () =>
    readGltfJson(
      parseJsonText(bytes, source, "the file"),
      source,
      null,
      options.baseDir ?? null,
      [],
    ),
  );
}

/** Last line of defence: anything that is not already a MeshwayError still names the file. */
async function guard(source: string, run: () => Promise<GltfLoadResult>): Promise<GltfLoadResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    fail(source, `cannot be read as glTF: ${e instanceof Error ? e.message : String(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors and small JSON checks

function fail(source: string, what: string): never {
  throw new MeshwayError("INVALID_INPUT", `${source}: ${what}`);
}

function show(v: unknown): string {
  if (v === undefined) return "missing";
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

type Json = Record<string, unknown>;

function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && readU32(bytes, 0) === GLB_MAGIC;
}

function readU32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  );
}

function describeMagic(bytes: Uint8Array, at = 0): string {
  const n = Math.min(4, bytes.length - at);
  if (n <= 0) return "the end of the file";
  const b = bytes.subarray(at, at + n);
  if (b.every((c) => c >= 0x20 && c < 0x7f)) return `"${String.fromCharCode(...b)}"`;
  return `bytes ${Array.from(b, (c) => c.toString(16).padStart(2, "0")).join(" ")}`;
}

function parseJsonText(bytes: Uint8Array, source: string, what: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail(source, `${what} is not valid UTF-8 text`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(source, `${what} is not valid JSON (${(e as Error).message})`);
  }
}

/** Resolves `v` as an index into an array of `length` items named `into`. */
function index(source: string, v: unknown, path: string, length: number, into: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= length) {
    const range =
      length === 0
        ? `the file has no ${into}`
        : `expected an index into ${into} (0..${length - 1})`;
    fail(source, `${path} is ${show(v)}; ${range}`);
  }
  return v;
}

function integer(source: string, v: unknown, path: string, min: number, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    fail(source, `${path} is ${show(v)}; expected an integer >= ${min}`);
  }
  return v;
}

function array(source: string, v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(source, `${path} is ${show(v)}; expected an array`);
  return v;
}

function object(source: string, v: unknown, path: string): Json {
  if (!isObject(v)) fail(source, `${path} is ${show(v)}; expected an object`);
  return v;
}

function numbers(source: string, v: unknown, path: string, n: number): number[] {
  if (
    !Array.isArray(v) ||
    v.length !== n ||
    !v.every((x) => typeof x === "number" && Number.isFinite(x))
  ) {
    fail(source, `${path} is ${show(v)}; expected ${n} finite numbers`);
  }
  return v as number[];
}

// ---------------------------------------------------------------------------------------------
// GLB container

/** Splits a GLB into its JSON chunk and optional BIN chunk (GLB 2.0: 12-byte header, chunks). */
function readGlbContainer(
  bytes: Uint8Array,
  source: string,
): { jsonBytes: Uint8Array; bin: Uint8Array | null; warnings: string[] } {
  const warnings: string[] = [];
  if (bytes.length < 12) {
    if (bytes.length >= 4 && isGlb(bytes))
      fail(source, `truncated GLB: ${bytes.length} bytes, shorter than the 12-byte header`);
    fail(source, `bad GLB magic: expected "glTF", found ${describeMagic(bytes)}`);
  }
  if (!isGlb(bytes)) fail(source, `bad GLB magic: expected "glTF", found ${describeMagic(bytes)}`);
  const version = readU32(bytes, 4);
  if (version !== 2) fail(source, `GLB version ${version} is not supported (expected 2)`);
  const length = readU32(bytes, 8);
  if (length > bytes.length) {
    fail(
      source,
      `truncated GLB: the header declares ${length} bytes but the file has ${bytes.length}`,
    );
  }
  if (length < 20)
    fail(source, `bad GLB header: total length ${length} leaves no room for a chunk`);
  if (length < bytes.length) {
    warnings.push(`${source}: ${bytes.length - length} bytes after the GLB's declared end ignored`);
  }
  let jsonBytes: Uint8Array | null = null;
  let bin: Uint8Array | null = null;
  let at = 12;
  for (let chunk = 0; at < length; chunk++) {
    if (length - at < 8) {
      fail(
        source,
        `bad GLB chunk ${chunk} at byte ${at}: ${length - at} bytes left, too few for a chunk header`,
      );
    }
    const chunkLength = readU32(bytes, at);
    const type = readU32(bytes, at + 4);
    const typeName =
      type === CHUNK_JSON ? "JSON" : type === CHUNK_BIN ? "BIN" : `type 0x${type.toString(16)}`;
    const room = length - at - 8;
    if (chunkLength > room) {
      fail(
        source,
        `bad GLB chunk length: chunk ${chunk} (${typeName}) at byte ${at} declares ${chunkLength} bytes but only ${room} remain in the file`,
      );
    }
    const data = bytes.subarray(at + 8, at + 8 + chunkLength);
    if (chunk === 0) {
      if (type !== CHUNK_JSON)
        fail(source, `bad GLB: the first chunk must be JSON, found ${typeName}`);
      jsonBytes = data;
    } else if (type === CHUNK_BIN && bin === null) {
      bin = data;
    }
    at += 8 + chunkLength;
  }
  if (jsonBytes === null) fail(source, "bad GLB: no JSON chunk");
  return { jsonBytes, bin, warnings };
}

// ---------------------------------------------------------------------------------------------
// External resources

async function readLocal(file: string, source: string, what: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory, expected a file"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : (e as Error).message;
    fail(source, what === "" ? reason : `${what}: ${reason} (${file})`);
  }
}

/** True when `file` is `dir` itself or below it. */
function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * A level file is untrusted: its external buffers may only be regular files inside its own
 * directory (after following links). Anything else could read files the user never meant to
 * share (`../../secret`, absolute paths) or never end (`/dev/zero`, a FIFO).
 */
async function checkBufferFile(
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

function decodeDataUri(uri: string, source: string, path: string): Uint8Array {
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

async function loadBuffer(
  buffers: unknown[],
  b: number,
  source: string,
  bin: Uint8Array | null,
  baseDir: string | null,
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
    data = await readLocal(file, source, `${path} "${uri}" could not be read`);
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

// ---------------------------------------------------------------------------------------------
// The document

interface PrimitivePlan {
  mode: number;
  /** JSON accessor indices. */
  position: number;
  indices: number;
  label: string;
}

interface MeshInstance {
  mesh: number;
  /** Offset of the node's world matrix in the world-matrix array. */
  matrix: number;
  /** Negative determinant: winding is reversed to keep faces facing the same way. */
  flip: boolean;
}

function silentLogger(warnings: string[], source: string): ILogger {
  const note = (text: string) => warnings.push(`${source}: ${text}`);
  return { debug() {}, info() {}, warn: note, error: note };
}

function checkExtensions(json: Json, source: string, warnings: string[]): void {
  const used = array(source, json.extensionsUsed, "extensionsUsed");
  const required = array(source, json.extensionsRequired, "extensionsRequired");
  for (const name of [...required, ...used]) {
    if (typeof name === "string" && COMPRESSION_EXTENSIONS.includes(name)) {
      fail(
        source,
        `uses ${name} (compressed geometry), which meshway does not decode; export or convert it without mesh compression`,
      );
    }
  }
  for (const name of required) {
    if (typeof name !== "string")
      fail(source, `extensionsRequired holds ${show(name)}; expected extension names`);
    if (name === INSTANCING) {
      fail(
        source,
        `requires ${INSTANCING} (GPU instancing), which meshway does not read; bake the instances into nodes first`,
      );
    }
    if (!HARMLESS_EXTENSION.test(name)) {
      warnings.push(
        `${source}: requires extension ${name}, which meshway does not know; geometry read as plain glTF`,
      );
    }
  }
  if (!required.includes(INSTANCING) && used.includes(INSTANCING)) {
    warnings.push(
      `${source}: ${INSTANCING} ignored: each instanced node contributes one copy at its own transform`,
    );
  }
}

function meshLabel(meshes: unknown[], m: number): string {
  const def = meshes[m];
  const name =
    isObject(def) && typeof def.name === "string" && def.name !== "" ? ` "${def.name}"` : "";
  return `mesh ${m}${name}`;
}

async function readGltfJson(
  json: unknown,
  source: string,
  bin: Uint8Array | null,
  baseDir: string | null,
  warnings: string[],
): Promise<GltfLoadResult> {
  const root = object(source, json, "the top level");
  // Refuse compressed files before anything else is read (a missing .bin must not hide this).
  checkExtensions(root, source, warnings);
  const asset = object(source, root.asset, "asset");
  if (typeof asset.version !== "string" || !/^2\.\d+$/.test(asset.version)) {
    fail(source, `asset.version is ${show(asset.version)}; only glTF 2.x is supported`);
  }

  const nodes = array(source, root.nodes, "nodes");
  const meshes = array(source, root.meshes, "meshes");
  const accessors = array(source, root.accessors, "accessors");
  const bufferViews = array(source, root.bufferViews, "bufferViews");
  const buffers = array(source, root.buffers, "buffers");

  const { instances, world, sceneLabel } = walkScene(root, nodes, meshes, source, warnings);

  // Plan each instanced mesh once: which primitives are triangles, which accessors they read.
  const plans = new Map<number, PrimitivePlan[]>();
  for (const inst of instances) {
    if (!plans.has(inst.mesh))
      plans.set(inst.mesh, planMesh(meshes, inst.mesh, accessors.length, source, warnings));
  }
  const roles = new Map<number, "POSITION" | "indices">();
  for (const plan of plans.values()) {
    for (const p of plan) {
      setRole(roles, p.position, "POSITION", source);
      if (p.indices >= 0) setRole(roles, p.indices, "indices", source);
    }
  }

  // Validate the used accessors and the byte ranges behind them; collect views and buffers.
  const usedAccessors = [...roles.keys()].sort((a, b) => a - b);
  const viewRemap = new Map<number, number>();
  const bufferRemap = new Map<number, number>();
  const viewDefs: GLTF.IBufferView[] = [];
  const bufferDefs: GLTF.IBuffer[] = [];
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  const pendingBuffers: number[] = [];
  const useView = (
    v: number,
    path: string,
    sparse: boolean,
  ): { length: number; stride: number | undefined } => {
    const view = checkBufferView(bufferViews, v, buffers, source, sparse, path);
    if (!viewRemap.has(v)) {
      let b = bufferRemap.get(view.buffer);
      if (b === undefined) {
        b = bufferDefs.length;
        bufferRemap.set(view.buffer, b);
        bufferDefs.push({ byteLength: view.bufferLength, uri: `__meshway${b}` });
        pendingBuffers.push(view.buffer);
      }
      viewRemap.set(v, viewDefs.length);
      const def: GLTF.IBufferView = {
        buffer: b,
        byteOffset: view.byteOffset,
        byteLength: view.byteLength,
      };
      if (view.stride !== undefined) def.byteStride = view.stride;
      viewDefs.push(def);
    }
    return { length: view.byteLength, stride: view.stride };
  };
  const accessorDefs: GLTF.IAccessor[] = usedAccessors.map((a) =>
    checkAccessor(accessors, a, roles.get(a)!, source, useView, viewRemap),
  );

  for (let k = 0; k < pendingBuffers.length; k++) {
    const data = await loadBuffer(buffers, pendingBuffers[k]!, source, bin, baseDir);
    resources[`__meshway${k}`] = data as Uint8Array<ArrayBuffer>;
  }

  // Accessor decoding (strides, sparse substitution, component types) by the library.
  const doc: JSONDocument = {
    json: {
      asset: { version: "2.0" },
      buffers: bufferDefs,
      bufferViews: viewDefs,
      accessors: accessorDefs,
    },
    resources,
  };
  const decoded = new Map<number, Decoded>();
  try {
    const io = new NodeIO().setLogger(silentLogger(warnings, source));
    const document = await io.readJSON(doc);
    const list = document.getRoot().listAccessors();
    usedAccessors.forEach((a, k) => {
      const acc = list[k]!;
      const array = acc.getArray();
      const def = accessorDefs[k]!;
      const expected = def.count * (def.type === "VEC3" ? 3 : 1);
      if (!array || array.length !== expected) {
        fail(
          source,
          `accessors[${a}] decoded to ${array?.length ?? 0} values, expected ${expected}`,
        );
      }
      const positions =
        def.type === "VEC3" ? toFloat(array, acc.getComponentType(), acc.getNormalized()) : null;
      decoded.set(a, { array, positions });
    });
  } catch (e) {
    if (e instanceof MeshwayError) throw e;
    fail(source, `could not read the geometry accessors: ${(e as Error).message}`);
  }

  return assemble(instances, world, plans, decoded, source, sceneLabel, warnings);
}

function setRole(
  roles: Map<number, "POSITION" | "indices">,
  a: number,
  role: "POSITION" | "indices",
  source: string,
): void {
  const prev = roles.get(a);
  if (prev !== undefined && prev !== role)
    fail(source, `accessors[${a}] is used both as POSITION and as indices`);
  roles.set(a, role);
}

/** Chooses the scene, walks its node trees and returns every mesh instance with its world matrix. */
function walkScene(
  root: Json,
  nodes: unknown[],
  meshes: unknown[],
  source: string,
  warnings: string[],
): { instances: MeshInstance[]; world: Float64Array; sceneLabel: string } {
  const scenes = array(source, root.scenes, "scenes");
  let roots: number[];
  let sceneLabel: string;
  if (root.scene !== undefined || scenes.length > 0) {
    const s =
      root.scene === undefined ? 0 : index(source, root.scene, "scene", scenes.length, "scenes");
    const scene = object(source, scenes[s], `scenes[${s}]`);
    roots = array(source, scene.nodes, `scenes[${s}].nodes`).map((n, i) =>
      index(source, n, `scenes[${s}].nodes[${i}]`, nodes.length, "nodes"),
    );
    sceneLabel = `scene ${s}`;
  } else {
    // No scenes: every node without a parent is a root.
    const isChild = new Uint8Array(nodes.length);
    nodes.forEach((n, i) => {
      if (!isObject(n)) return;
      array(source, n.children, `nodes[${i}].children`).forEach((c, j) => {
        isChild[index(source, c, `nodes[${i}].children[${j}]`, nodes.length, "nodes")] = 1;
      });
    });
    roots = [];
    for (let i = 0; i < nodes.length; i++) if (!isChild[i]) roots.push(i);
    sceneLabel = "the root nodes (the file has no scenes)";
  }

  const world = new Float64Array(nodes.length * 16);
  const visited = new Uint8Array(nodes.length);
  const instances: MeshInstance[] = [];
  const skinned = new Set<number>();
  const local = new Float64Array(16);
  const stack: number[] = []; // pairs: node, parent (-1 for roots)
  for (const r of roots) {
    stack.push(r, -1);
    while (stack.length > 0) {
      const parent = stack.pop()!;
      const n = stack.pop()!;
      const path = `nodes[${n}]`;
      if (visited[n]) {
        fail(
          source,
          `${path} is reached twice in ${sceneLabel} (a node with two parents, a repeated root or a cycle)`,
        );
      }
      visited[n] = 1;
      const def = object(source, nodes[n], path);
      localMatrix(def, path, source, local, warnings);
      if (parent < 0) world.set(local, n * 16);
      else multiplyMat4(world, parent * 16, local, world, n * 16);
      if (def.mesh !== undefined) {
        const m = index(source, def.mesh, `${path}.mesh`, meshes.length, "meshes");
        if (def.skin !== undefined && !skinned.has(m)) {
          skinned.add(m);
          warnings.push(
            `${source}: ${meshLabel(meshes, m)} is skinned; its bind-pose vertices are used with the node transform`,
          );
        }
        instances.push({ mesh: m, matrix: n * 16, flip: determinant3(world, n * 16) < 0 });
      }
      const children = array(source, def.children, `${path}.children`);
      for (let c = children.length - 1; c >= 0; c--) {
        stack.push(index(source, children[c], `${path}.children[${c}]`, nodes.length, "nodes"), n);
      }
    }
  }
  return { instances, world, sceneLabel };
}

/** A node's local matrix, column-major: its `matrix`, or T·R·S (glTF node semantics). */
function localMatrix(
  def: Json,
  path: string,
  source: string,
  out: Float64Array,
  warnings: string[],
): void {
  if (def.matrix !== undefined) {
    const m = numbers(source, def.matrix, `${path}.matrix`, 16);
    out.set(m);
    if (m[3] !== 0 || m[7] !== 0 || m[11] !== 0 || m[15] !== 1) {
      warnings.push(`${source}: ${path}.matrix is not affine; its last row is ignored`);
      out[3] = 0;
      out[7] = 0;
      out[11] = 0;
      out[15] = 1;
    }
    return;
  }
  const t =
    def.translation === undefined
      ? [0, 0, 0]
      : numbers(source, def.translation, `${path}.translation`, 3);
  const q =
    def.rotation === undefined
      ? [0, 0, 0, 1]
      : numbers(source, def.rotation, `${path}.rotation`, 4);
  const s = def.scale === undefined ? [1, 1, 1] : numbers(source, def.scale, `${path}.scale`, 3);
  if (!(Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!) > 1e-12)) {
    fail(source, `${path}.rotation is ${show(q)}; expected a unit quaternion`);
  }
  composeTRS(out, 0, t, q, s);
}

/** Which primitives of mesh `m` are read; warns once for each skipped one. */
function planMesh(
  meshes: unknown[],
  m: number,
  accessorCount: number,
  source: string,
  warnings: string[],
): PrimitivePlan[] {
  const path = `meshes[${m}]`;
  const def = object(source, meshes[m], path);
  const prims = array(source, def.primitives, `${path}.primitives`);
  const plan: PrimitivePlan[] = [];
  prims.forEach((p, i) => {
    const ppath = `${path}.primitives[${i}]`;
    const label = `${meshLabel(meshes, m)} primitive ${i}`;
    const prim = object(source, p, ppath);
    if (isObject(prim.extensions)) {
      for (const name of COMPRESSION_EXTENSIONS) {
        if (name in prim.extensions) {
          fail(
            source,
            `${label} uses ${name} (compressed geometry), which meshway does not decode; export or convert it without mesh compression`,
          );
        }
      }
    }
    const mode =
      prim.mode === undefined ? MODE_TRIANGLES : integer(source, prim.mode, `${ppath}.mode`, 0);
    if (mode > 6) fail(source, `${ppath}.mode is ${mode}; expected 0..6`);
    if (mode !== MODE_TRIANGLES && mode !== MODE_TRIANGLE_STRIP && mode !== MODE_TRIANGLE_FAN) {
      warnings.push(`${source}: ${label} is ${MODE_NAMES[mode]}, not triangles; skipped`);
      return;
    }
    const attributes = object(source, prim.attributes, `${ppath}.attributes`);
    if (attributes.POSITION === undefined) {
      warnings.push(`${source}: ${label} has no POSITION attribute; skipped`);
      return;
    }
    const position = index(
      source,
      attributes.POSITION,
      `${ppath}.attributes.POSITION`,
      accessorCount,
      "accessors",
    );
    const indices =
      prim.indices === undefined
        ? -1
        : index(source, prim.indices, `${ppath}.indices`, accessorCount, "accessors");
    plan.push({ mode, position, indices, label });
  });
  return plan;
}

interface Decoded {
  array: ArrayLike<number>;
  /** Positions as numbers in model units (dequantised); null for index accessors. */
  positions: ArrayLike<number> | null;
}

interface ViewInfo {
  buffer: number;
  bufferLength: number;
  byteOffset: number;
  byteLength: number;
  stride: number | undefined;
}

function checkBufferView(
  bufferViews: unknown[],
  v: number,
  buffers: unknown[],
  source: string,
  sparse: boolean,
  from: string,
): ViewInfo {
  index(source, v, from, bufferViews.length, "bufferViews");
  const path = `bufferViews[${v}]`;
  const def = object(source, bufferViews[v], path);
  const buffer = index(source, def.buffer, `${path}.buffer`, buffers.length, "buffers");
  const bdef = object(source, buffers[buffer], `buffers[${buffer}]`);
  const bufferLength = integer(source, bdef.byteLength, `buffers[${buffer}].byteLength`, 1);
  const byteOffset = integer(source, def.byteOffset, `${path}.byteOffset`, 0, 0);
  const byteLength = integer(source, def.byteLength, `${path}.byteLength`, 1);
  let stride: number | undefined;
  if (def.byteStride !== undefined) {
    stride = integer(source, def.byteStride, `${path}.byteStride`, 1);
    if (stride > 252) fail(source, `${path}.byteStride is ${stride}; expected at most 252`);
    if (sparse) fail(source, `${path} holds sparse accessor data and must not have a byteStride`);
  }
  if (byteOffset + byteLength > bufferLength) {
    fail(
      source,
      `${path} covers bytes ${byteOffset}..${byteOffset + byteLength} but buffers[${buffer}] has ${bufferLength}`,
    );
  }
  return { buffer, bufferLength, byteOffset, byteLength, stride };
}

/** Checks an accessor used as POSITION or indices; returns its remapped definition. */
function checkAccessor(
  accessors: unknown[],
  a: number,
  role: "POSITION" | "indices",
  source: string,
  useView: (
    v: number,
    path: string,
    sparse: boolean,
  ) => { length: number; stride: number | undefined },
  viewRemap: Map<number, number>,
): GLTF.IAccessor {
  const path = `accessors[${a}]`;
  const def = object(source, accessors[a], path);
  const componentType = def.componentType;
  const allowed = role === "POSITION" ? POSITION_TYPES : INDEX_TYPES;
  if (typeof componentType !== "number" || !allowed.includes(componentType)) {
    fail(
      source,
      `${path}.componentType is ${show(componentType)}; ${role} accessors need one of ${allowed.join(", ")}`,
    );
  }
  const type = role === "POSITION" ? "VEC3" : "SCALAR";
  if (def.type !== type)
    fail(source, `${path}.type is ${show(def.type)}; ${role} accessors must be ${type}`);
  const count = integer(source, def.count, `${path}.count`, 1);
  const byteOffset = integer(source, def.byteOffset, `${path}.byteOffset`, 0, 0);
  if (def.normalized !== undefined && typeof def.normalized !== "boolean") {
    fail(source, `${path}.normalized is ${show(def.normalized)}; expected true or false`);
  }
  const normalized = def.normalized === true && role === "POSITION" && componentType !== FLOAT;
  const elementBytes = COMPONENT_BYTES[componentType]! * (type === "VEC3" ? 3 : 1);
  const out: GLTF.IAccessor = {
    componentType: componentType as GLTF.AccessorComponentType,
    type,
    count,
    byteOffset,
    normalized,
  };
  if (def.bufferView !== undefined) {
    const v = def.bufferView as number;
    const view = useView(v, `${path}.bufferView`, false);
    const stride = view.stride ?? elementBytes;
    if (stride < elementBytes) {
      fail(
        source,
        `${path} has ${elementBytes}-byte elements but bufferViews[${v}].byteStride is ${stride}`,
      );
    }
    const end = byteOffset + stride * (count - 1) + elementBytes;
    if (end > view.length) {
      fail(
        source,
        `${path} needs ${end} bytes (count ${count}, offset ${byteOffset}, stride ${stride}) but bufferViews[${v}] has ${view.length}`,
      );
    }
    out.bufferView = viewRemap.get(v)!;
  }
  if (def.sparse !== undefined) {
    const sp = object(source, def.sparse, `${path}.sparse`);
    const n = integer(source, sp.count, `${path}.sparse.count`, 1);
    if (n > count)
      fail(source, `${path}.sparse.count is ${n}, more than the accessor's count ${count}`);
    const ix = object(source, sp.indices, `${path}.sparse.indices`);
    const ixType = ix.componentType;
    if (typeof ixType !== "number" || !INDEX_TYPES.includes(ixType)) {
      fail(
        source,
        `${path}.sparse.indices.componentType is ${show(ixType)}; expected one of ${INDEX_TYPES.join(", ")}`,
      );
    }
    const vals = object(source, sp.values, `${path}.sparse.values`);
    const parts = [
      { def: ix, name: "indices", bytes: COMPONENT_BYTES[ixType]! * n },
      { def: vals, name: "values", bytes: elementBytes * n },
    ];
    const remapped: { bufferView: number; byteOffset: number }[] = [];
    for (const part of parts) {
      const ppath = `${path}.sparse.${part.name}`;
      const v = part.def.bufferView as number;
      const view = useView(v, `${ppath}.bufferView`, true);
      const off = integer(source, part.def.byteOffset, `${ppath}.byteOffset`, 0, 0);
      if (off + part.bytes > view.length) {
        fail(
          source,
          `${ppath} needs ${off + part.bytes} bytes but bufferViews[${v}] has ${view.length}`,
        );
      }
      // Explicit byteOffset: the reader would otherwise inherit the accessor's own offset.
      remapped.push({ bufferView: viewRemap.get(v)!, byteOffset: off });
    }
    out.sparse = {
      count: n,
      indices: { ...remapped[0]!, componentType: ixType as GLTF.AccessorComponentType },
      values: remapped[1]!,
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Assembly

/** Positions in model units: as stored, or dequantised when the accessor is normalized. */
function toFloat(
  array: ArrayLike<number>,
  componentType: number,
  normalized: boolean,
): ArrayLike<number> {
  if (!normalized) return array;
  const out = new Float64Array(array.length);
  const scale =
    componentType === 5121
      ? 255
      : componentType === 5123
        ? 65535
        : componentType === 5120
          ? 127
          : 32767;
  const signed = componentType === 5120 || componentType === 5122;
  for (let i = 0; i < array.length; i++) {
    const v = array[i]! / scale;
    out[i] = signed && v < -1 ? -1 : v;
  }
  return out;
}

function assemble(
  instances: MeshInstance[],
  world: Float64Array,
  plans: Map<number, PrimitivePlan[]>,
  decoded: Map<number, Decoded>,
  source: string,
  sceneLabel: string,
  warnings: string[],
): GltfLoadResult {
  const positionsOf = new Map<number, ArrayLike<number>>();
  for (const [a, d] of decoded) if (d.positions) positionsOf.set(a, d.positions);

  // Sizes first, so the output arrays are allocated once.
  let vertexTotal = 0;
  let indexBound = 0;
  for (const inst of instances) {
    const seen = new Set<number>();
    for (const p of plans.get(inst.mesh)!) {
      const pos = positionsOf.get(p.position)!;
      if (!seen.has(p.position)) {
        seen.add(p.position);
        vertexTotal += pos.length / 3;
      }
      const n = p.indices >= 0 ? decoded.get(p.indices)!.array.length : pos.length / 3;
      indexBound += p.mode === MODE_TRIANGLES ? n - (n % 3) : Math.max(0, n - 2) * 3;
    }
  }
  for (const plan of plans.values()) {
    for (const p of plan) {
      const vertexCount = positionsOf.get(p.position)!.length / 3;
      const ix = p.indices >= 0 ? decoded.get(p.indices)!.array : null;
      const n = ix ? ix.length : vertexCount;
      if (ix) {
        for (let k = 0; k < n; k++) {
          if (ix[k]! >= vertexCount) {
            fail(
              source,
              `${p.label}: index ${ix[k]} at position ${k} of accessors[${p.indices}] is out of range (its POSITION accessor has ${vertexCount} vertices)`,
            );
          }
        }
      }
      if (p.mode === MODE_TRIANGLES && n % 3 !== 0) {
        warnings.push(
          `${source}: ${p.label} has ${n} ${p.indices >= 0 ? "indices" : "vertices"}, not a multiple of 3; the last ${n % 3} ignored`,
        );
      } else if (p.mode !== MODE_TRIANGLES && n < 3) {
        warnings.push(
          `${source}: ${p.label} is a ${MODE_NAMES[p.mode]} of ${n} vertices; no triangles`,
        );
      }
    }
  }

  const positions = new Float32Array(vertexTotal * 3);
  const indices = new Uint32Array(indexBound);
  let vOut = 0;
  let iOut = 0;
  const bases = new Map<number, number>();
  for (const inst of instances) {
    bases.clear();
    const mo = inst.matrix;
    const m0 = world[mo]!;
    const m1 = world[mo + 1]!;
    const m2 = world[mo + 2]!;
    const m4 = world[mo + 4]!;
    const m5 = world[mo + 5]!;
    const m6 = world[mo + 6]!;
    const m8 = world[mo + 8]!;
    const m9 = world[mo + 9]!;
    const m10 = world[mo + 10]!;
    const m12 = world[mo + 12]!;
    const m13 = world[mo + 13]!;
    const m14 = world[mo + 14]!;
    for (const p of plans.get(inst.mesh)!) {
      const pos = positionsOf.get(p.position)!;
      const vertexCount = pos.length / 3;
      let base = bases.get(p.position);
      if (base === undefined) {
        base = vOut;
        bases.set(p.position, base);
        for (let v = 0; v < vertexCount; v++) {
          const x = pos[v * 3]!;
          const y = pos[v * 3 + 1]!;
          const z = pos[v * 3 + 2]!;
          const o = (base + v) * 3;
          positions[o] = m0 * x + m4 * y + m8 * z + m12;
          positions[o + 1] = m1 * x + m5 * y + m9 * z + m13;
          positions[o + 2] = m2 * x + m6 * y + m10 * z + m14;
        }
        vOut += vertexCount;
      }
      const ix = p.indices >= 0 ? decoded.get(p.indices)!.array : null;
      iOut = emitTriangles(
        p.mode,
        ix,
        ix ? ix.length : vertexCount,
        base,
        inst.flip,
        indices,
        iOut,
      );
    }
  }

  if (iOut === 0) {
    const skipped = warnings.length > 0 ? "; see the warnings for what was skipped" : "";
    const what = instances.length === 0 ? "no node with a mesh" : "no triangle primitives";
    throw new MeshwayError("NO_TRIANGLES", `${source}: ${sceneLabel} has ${what}${skipped}`);
  }
  const mesh = validateTriangleMesh(
    { positions, indices: iOut === indices.length ? indices : indices.slice(0, iOut) },
    source,
  );
  return { mesh, warnings };
}

/**
 * Appends a primitive's triangles (offset by `base`) to `out`. Strips alternate their winding so
 * every triangle faces like the first (glTF: p_i = v_i, v_{i+1+i%2}, v_{i+2-i%2}); a strip's
 * stitching triangles (a repeated vertex) are dropped. `flip` swaps the last two corners.
 */
function emitTriangles(
  mode: number,
  ix: ArrayLike<number> | null,
  n: number,
  base: number,
  flip: boolean,
  out: Uint32Array,
  at: number,
): number {
  let k = at;
  // Corner order: (a, b, c) or, flipped, (a, c, b).
  const second = flip ? 2 : 1;
  const third = flip ? 1 : 2;
  if (mode === MODE_TRIANGLES) {
    const end = n - (n % 3);
    for (let i = 0; i < end; i += 3, k += 3) {
      out[k] = base + (ix ? ix[i]! : i);
      out[k + second] = base + (ix ? ix[i + 1]! : i + 1);
      out[k + third] = base + (ix ? ix[i + 2]! : i + 2);
    }
  } else if (mode === MODE_TRIANGLE_STRIP) {
    for (let i = 0; i + 2 < n; i++) {
      const odd = i & 1;
      const a = ix ? ix[i]! : i;
      const b = ix ? ix[i + 1 + odd]! : i + 1 + odd;
      const c = ix ? ix[i + 2 - odd]! : i + 2 - odd;
      if (a === b || b === c || a === c) continue;
      out[k] = base + a;
      out[k + second] = base + b;
      out[k + third] = base + c;
      k += 3;
    }
  } else {
    // Fan: (v_{i+1}, v_{i+2}, v_0) in the spec; written from v_0, the same triangle and winding.
    const v0 = base + (ix ? ix[0]! : 0);
    for (let i = 1; i + 1 < n; i++, k += 3) {
      out[k] = v0;
      out[k + second] = base + (ix ? ix[i]! : i);
      out[k + third] = base + (ix ? ix[i + 1]! : i + 1);
    }
  }
  return k;
}
