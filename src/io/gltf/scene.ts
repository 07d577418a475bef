// The scene: extensions, node trees with their world matrices, and which primitives of each
// instanced mesh are read.
import { composeTRS, determinant3, multiplyMat4 } from "../../math/mat4.js";
import { array, fail, index, integer, isObject, type Json, numbers, object, show } from "./json.js";

export const MODE_NAMES = [
  "POINTS",
  "LINES",
  "LINE_LOOP",
  "LINE_STRIP",
  "TRIANGLES",
  "TRIANGLE_STRIP",
  "TRIANGLE_FAN",
];
export const MODE_TRIANGLES = 4;
export const MODE_TRIANGLE_STRIP = 5;
export const MODE_TRIANGLE_FAN = 6;

/** Extensions that change how vertex data is stored: reading around them gives garbage. */
export const COMPRESSION_EXTENSIONS = [
  "KHR_draco_mesh_compression",
  "EXT_meshopt_compression",
  "KHR_meshopt_compression",
];
/** Required extensions that do not touch geometry (or that we handle), so they are ignored. */
export const HARMLESS_EXTENSION =
  /^(KHR_mesh_quantization|KHR_materials_|KHR_texture_|EXT_texture_|KHR_lights_|KHR_xmp|KHR_animation_pointer|MSFT_texture_dds)/;
export const INSTANCING = "EXT_mesh_gpu_instancing";

export interface PrimitivePlan {
  mode: number;
  /** JSON accessor indices. */
  position: number;
  indices: number;
  label: string;
}

export interface MeshInstance {
  mesh: number;
  /** Offset of the node's world matrix in the world-matrix array. */
  matrix: number;
  /** Negative determinant: winding is reversed to keep faces facing the same way. */
  flip: boolean;
}

export function checkExtensions(json: Json, source: string, warnings: string[]): void {
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

export function meshLabel(meshes: unknown[], m: number): string {
  const def = meshes[m];
  const name =
    isObject(def) && typeof def.name === "string" && def.name !== "" ? ` "${def.name}"` : "";
  return `mesh ${m}${name}`;
}

/** Chooses the scene, walks its node trees and returns every mesh instance with its world matrix. */
export function walkScene(
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
export function localMatrix(
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
export function planMesh(
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
