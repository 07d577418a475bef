import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as debug from "../../src/debug/index.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { debugDrawings } from "../helpers/debug-drawings.js";
import { loadSharedMesh } from "../helpers/meshes.js";

// Golden SHA-256 of every meshway/debug drawing of nav_test (default config, every stage, the
// demo path's search). Refresh only deliberately: `npm run build && node scripts/refresh-debug-hashes.mjs`.
const golden: Record<string, { sha256: string; vertices: number }> = JSON.parse(
  readFileSync("test/golden/debug-hashes.json", "utf8"),
);

describe("golden debug drawings", () => {
  it("every drawing of nav_test has the checked-in bytes", () => {
    const got = debugDrawings({ ...debug, buildNavMesh, NavMeshQuery }, loadSharedMesh("nav_test"));
    expect(Object.keys(got)).toEqual(Object.keys(golden));
    for (const [name, value] of Object.entries(got)) {
      expect({ name, ...value }).toEqual({ name, ...golden[name] });
      // A solo navmesh has no tile-border edges (portals are checked against Detour, tiled).
      if (name !== "portals") expect(value.vertices).toBeGreaterThan(0);
    }
  });
});
