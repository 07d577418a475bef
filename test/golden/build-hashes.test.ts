import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { navMeshBytes } from "../helpers/navmesh-bytes.js";

// Golden SHA-256 of every tile array of the default-config build of each shared mesh.
// Refresh only deliberately, with a note on why: `node scripts/refresh-golden.mjs`.
const golden: Record<string, { sha256: string; polygons: number; vertices: number }> = JSON.parse(
  readFileSync("test/golden/build-hashes.json", "utf8"),
);

describe("golden navmesh bytes", () => {
  it.each(SHARED_MESH_NAMES)("%s builds to the checked-in bytes", (name) => {
    const { navMesh, stats } = buildNavMesh(loadSharedMesh(name));
    const sha256 = createHash("sha256").update(navMeshBytes(navMesh)).digest("hex");
    expect({ sha256, polygons: stats.polygons, vertices: stats.vertices }).toEqual(golden[name]);
  });
});
