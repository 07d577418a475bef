/**
 * glTF 2.0 / GLB input (Node only): every triangle primitive of every mesh instanced in the
 * scene, in world space, as one TriangleMesh.
 *
 * The file's own structure (GLB container, scene graph, the accessors we use and the byte ranges
 * they cover) is checked here first, so that every problem becomes a MeshwayError naming the
 * file and the place, never a library TypeError. Only what a navmesh needs is decoded: the
 * POSITION and index accessors of triangle primitives (strides, sparse data, component types);
 * materials, images, animations and other attributes are never read. No dependency: the
 * parts are container.ts, json.ts, buffers.ts (with the path guard), scene.ts, accessors.ts
 * and assemble.ts.
 */
import { dirname, isAbsolute, resolve as resolvePath } from "node:path";
import { MeshwayError } from "../../errors.js";
import type { TriangleMesh } from "../../input.js";
import { closeFd, openRegular, readFd, readOpened } from "../regular-file.js";
import {
  type AccessorPlan,
  checkAccessor,
  checkBufferView,
  type Decoded,
  decodeAccessor,
  toFloat,
  type ViewInfo,
} from "./accessors.js";
import { assemble } from "./assemble.js";
import { loadBuffer } from "./buffers.js";
import { describeMagic, isGlb, readGlbContainer } from "./container.js";
import {
  array,
  fail,
  jsonTooLong,
  MAX_JSON_BYTES,
  object,
  parseJsonText,
  RAISE,
  show,
} from "./json.js";
import { checkExtensions, type PrimitivePlan, planMesh, walkScene } from "./scene.js";

export interface GltfLoadResult {
  mesh: TriangleMesh;
  /** Things skipped or ignored (non-triangle primitives, skins…), one sentence each. */
  warnings: string[];
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
  /**
   * The most triangles the scene may expand to, after node instancing (default
   * {@link DEFAULT_MAX_TRIANGLES}); vertices are bounded by 3 × this. Sizes in a glTF come
   * from its JSON, so a 232-byte file can declare gigabytes: this is checked before anything
   * that large is allocated.
   */
  maxTriangles?: number;
}

/** The default of {@link GltfParseOptions.maxTriangles}: 10 M triangles (about 0.5 GB out). */
export const DEFAULT_MAX_TRIANGLES = 10_000_000;

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
  return guard(source, () => {
    const { jsonBytes, bin, warnings } = readGlbContainer(bytes, source);
    // The JSON chunk is padded with spaces; some writers pad with zeros instead.
    let end = jsonBytes.length;
    while (end > 0 && jsonBytes[end - 1] === 0) end--;
    const json = parseJsonText(jsonBytes.subarray(0, end), source, "the GLB JSON chunk");
    return readGltfJson(json, source, bin, options, warnings);
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
    readGltfJson(parseJsonText(bytes, source, "the file"), source, null, options, []),
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

async function readGltfJson(
  json: unknown,
  source: string,
  bin: Uint8Array | null,
  options: GltfParseOptions,
  warnings: string[],
): Promise<GltfLoadResult> {
  const baseDir = options.baseDir ?? null;
  const maxTriangles = checkMaxTriangles(options.maxTriangles);
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

  // Validate the used accessors and the byte ranges behind them; note the buffers they read.
  const usedAccessors = [...roles.keys()].sort((a, b) => a - b);
  const views = new Map<number, ViewInfo>();
  const pendingBuffers: number[] = [];
  const useView = (
    v: number,
    path: string,
    sparse: boolean,
  ): { length: number; stride: number | undefined } => {
    const view = checkBufferView(bufferViews, v, buffers, source, sparse, path);
    if (!views.has(v)) {
      views.set(v, view);
      if (!pendingBuffers.includes(view.buffer)) pendingBuffers.push(view.buffer);
    }
    return { length: view.byteLength, stride: view.stride };
  };
  const accessorPlans = usedAccessors.map((a) =>
    checkAccessor(accessors, a, roles.get(a)!, source, useView),
  );
  checkDecodedSize(accessorPlans, maxTriangles, source);

  // Buffers in order of first use; an external file named by several buffers is read once.
  const bufferData = new Map<number, Uint8Array>();
  const files = new Map<string, Uint8Array>();
  for (const b of pendingBuffers) {
    bufferData.set(b, await loadBuffer(buffers, b, source, bin, baseDir, files));
  }
  const viewBytes = (v: number): Uint8Array => {
    const view = views.get(v)!;
    return bufferData
      .get(view.buffer)!
      .subarray(view.byteOffset, view.byteOffset + view.byteLength);
  };

  const decoded = new Map<number, Decoded>();
  usedAccessors.forEach((a, k) => {
    const plan = accessorPlans[k]!;
    const array = decodeAccessor(plan, viewBytes, source);
    const positions =
      plan.components === 3 ? toFloat(array, plan.componentType, plan.normalized) : null;
    decoded.set(a, { array, positions });
  });

  const result = assemble(
    instances,
    world,
    plans,
    decoded,
    source,
    sceneLabel,
    warnings,
    maxTriangles,
  );
  // The map also holds device:inode keys: only paths are files.
  return { ...result, files: [...files.keys()].filter((k) => isAbsolute(k)) };
}

function checkMaxTriangles(v: number | undefined): number {
  if (v === undefined) return DEFAULT_MAX_TRIANGLES;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `maxTriangles is ${String(v)}; expected a positive integer (default ${DEFAULT_MAX_TRIANGLES})`,
    );
  }
  return v;
}

/**
 * Counts come from the JSON, and an accessor without a bufferView (all zeros, or sparse) needs
 * no bytes behind it: bound what decoding will allocate before decoding anything.
 */
function checkDecodedSize(plans: AccessorPlan[], maxTriangles: number, source: string): void {
  let vertices = 0;
  let indices = 0;
  let indexAccessors = 0;
  for (const p of plans) {
    if (p.components === 3) vertices += p.count;
    else {
      indices += p.count;
      indexAccessors++;
    }
  }
  if (vertices > 3 * maxTriangles) {
    fail(
      source,
      `its POSITION accessors declare ${vertices} vertices, more than 3 × maxTriangles (${3 * maxTriangles}); ${RAISE}`,
    );
  }
  // A strip of n indices makes n − 2 triangles.
  if (indices > 3 * maxTriangles + 2 * indexAccessors) {
    fail(
      source,
      `its index accessors declare ${indices} indices, more than 3 × maxTriangles (${3 * maxTriangles}) allows; ${RAISE}`,
    );
  }
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
