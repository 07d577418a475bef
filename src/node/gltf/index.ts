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
import { dirname, resolve as resolvePath } from "node:path";
import { MeshwayError } from "../../errors.js";
import type { TriangleMesh } from "../../input.js";
import {
  checkAccessor,
  checkBufferView,
  type Decoded,
  decodeAccessor,
  toFloat,
  type ViewInfo,
} from "./accessors.js";
import { assemble } from "./assemble.js";
import { loadBuffer, readLocal } from "./buffers.js";
import { describeMagic, isGlb, readGlbContainer } from "./container.js";
import { array, fail, object, parseJsonText, show } from "./json.js";
import { checkExtensions, type PrimitivePlan, planMesh, walkScene } from "./scene.js";

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
