/**
 * glTF 2.0 / GLB input, platform-free (browsers, workers, Node): every triangle primitive of
 * every mesh instanced in the scene, in world space, as one TriangleMesh.
 *
 * The file's own structure (GLB container, scene graph, the accessors we use and the byte ranges
 * they cover) is checked first, so that every problem becomes a MeshwayError naming the source
 * and the place, never a TypeError. Only what a navmesh needs is decoded: the POSITION and index
 * accessors of triangle primitives (strides, sparse data, component types); materials, images,
 * animations and other attributes are never read. No dependency: container.ts, json.ts,
 * buffers.ts, scene.ts, accessors.ts and assemble.ts. External buffers come from the caller's
 * resolver; meshway/node's loadGltfMesh is a file-reading wrapper over this.
 */
import { MeshwayError } from "../../errors.js";
import type { TriangleMesh } from "../../input.js";
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
import { type BufferResolver, loadBuffer } from "./buffers.js";
import { describeMagic, isGlb, readGlbContainer } from "./container.js";
import { array, fail, object, parseJsonText, RAISE, show } from "./json.js";
import { checkExtensions, type PrimitivePlan, planMesh, walkScene } from "./scene.js";

export type { BufferResolver } from "./buffers.js";

export interface GltfParseResult {
  mesh: TriangleMesh;
  /** Things skipped or ignored (non-triangle primitives, skins…), one sentence each. */
  warnings: string[];
}

export interface GltfOptions {
  /** Names the input in every message (a file name or URL); default "input.glb" / "input.gltf". */
  source?: string;
  /**
   * The most triangles the scene may expand to, after node instancing (default
   * {@link DEFAULT_MAX_TRIANGLES}); vertices are bounded by 3 × this. Sizes in a glTF come
   * from its JSON, so a 232-byte file can declare gigabytes: this is checked before anything
   * that large is allocated.
   */
  maxTriangles?: number;
}

export interface GlbOptions extends GltfOptions {
  /** For a GLB whose buffers name external files (rare): how to fetch them. */
  resolveBuffer?: BufferResolver;
}

/** The default of {@link GltfOptions.maxTriangles}: 10 M triangles (about 0.5 GB out). */
export const DEFAULT_MAX_TRIANGLES = 10_000_000;

/** The bytes of `input`, or a MeshwayError naming what it was instead. */
function bytesOf(input: unknown, fn: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw new MeshwayError(
    "INVALID_ARGUMENT",
    `${fn}: the input is ${input === null ? "null" : typeof input}; expected an ArrayBuffer or Uint8Array`,
  );
}

/**
 * Parses a GLB (binary glTF) into one world-space mesh: `await parseGlb(await (await
 * fetch(url)).arrayBuffer())`.
 */
export async function parseGlb(
  bytes: ArrayBuffer | Uint8Array,
  options: GlbOptions = {},
): Promise<GltfParseResult> {
  const source = options.source ?? "input.glb";
  const data = bytesOf(bytes, "parseGlb");
  return guard(source, () => {
    const { jsonBytes, bin, warnings } = readGlbContainer(data, source);
    // The JSON chunk is padded with spaces; some writers pad with zeros instead.
    let end = jsonBytes.length;
    while (end > 0 && jsonBytes[end - 1] === 0) end--;
    const json = parseJsonText(jsonBytes.subarray(0, end), source, "the GLB JSON chunk");
    return readGltfJson(json, source, bin, options.resolveBuffer ?? null, options, warnings);
  });
}

/**
 * Parses a .gltf: its JSON (text, already-parsed object, or the file's bytes — a GLB by its
 * magic is read as GLB), with external buffers fetched through `resolveBuffer(uri)` (the URI
 * as written, relative to the .gltf); data URIs are decoded here. Each URI is resolved once.
 */
export async function parseGltf(
  json: string | object | ArrayBuffer | Uint8Array,
  resolveBuffer: BufferResolver | null = null,
  options: GltfOptions = {},
): Promise<GltfParseResult> {
  const source = options.source ?? "input.gltf";
  if (resolveBuffer !== null && typeof resolveBuffer !== "function") {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `parseGltf: resolveBuffer is ${typeof resolveBuffer}; expected a function (uri) => bytes, or null`,
    );
  }
  if (json instanceof Uint8Array || json instanceof ArrayBuffer) {
    const bytes = bytesOf(json, "parseGltf");
    if (isGlb(bytes))
      return parseGlb(bytes, { ...options, source, resolveBuffer: resolveBuffer ?? undefined });
    return guard(source, () =>
      readGltfJson(parseGltfText(bytes, source), source, null, resolveBuffer, options, []),
    );
  }
  if (typeof json === "string") {
    return guard(source, () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
      } catch (e) {
        fail(source, `the file is not valid JSON (${(e as Error).message})`);
      }
      return readGltfJson(parsed, source, null, resolveBuffer, options, []);
    });
  }
  return guard(source, () => readGltfJson(json, source, null, resolveBuffer, options, []));
}

/** A .gltf file's bytes as JSON: a UTF-8 byte order mark and whitespace may precede the "{". */
export function parseGltfText(bytes: Uint8Array, source: string): unknown {
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
  return parseJsonText(bytes, source, "the file");
}

/** Last line of defence: anything that is not already a MeshwayError still names the source. */
async function guard(
  source: string,
  run: () => Promise<GltfParseResult>,
): Promise<GltfParseResult> {
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
  resolveBuffer: BufferResolver | null,
  options: GltfOptions,
  warnings: string[],
): Promise<GltfParseResult> {
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

  // Buffers in order of first use; a URI named by several buffers is resolved once.
  const bufferData = new Map<number, Uint8Array>();
  const resolved = new Map<string, Uint8Array>();
  for (const b of pendingBuffers) {
    bufferData.set(b, await loadBuffer(buffers, b, source, bin, resolveBuffer, resolved));
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

  return assemble(instances, world, plans, decoded, source, sceneLabel, warnings, maxTriangles);
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
