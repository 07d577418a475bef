/**
 * Shared fixture meshes for tests. Stable API (other tests import it):
 *   loadSharedMesh(name) → TriangleMesh parsed from test/fixtures/meshes/<name>.obj, cached.
 * The returned arrays are shared between callers: treat them as read-only.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TriangleMesh } from "../../src/input.js";
import { parseObj } from "../../src/io/obj.js";

export type SharedMeshName = "nav_test" | "dungeon" | "undulating";

export const SHARED_MESH_NAMES: readonly SharedMeshName[] = ["nav_test", "dungeon", "undulating"];

/** Absolute path of test/fixtures/meshes/<name>.obj. */
export function sharedMeshPath(name: SharedMeshName): string {
  return fileURLToPath(new URL(`../fixtures/meshes/${name}.obj`, import.meta.url));
}

const cache = new Map<SharedMeshName, TriangleMesh>();

/** Parses (once per process) and returns one of the three shared fixture meshes. Read-only. */
export function loadSharedMesh(name: SharedMeshName): TriangleMesh {
  let mesh = cache.get(name);
  if (!mesh) {
    mesh = parseObj(readFileSync(sharedMeshPath(name), "utf8"), `${name}.obj`);
    cache.set(name, mesh);
  }
  return mesh;
}
