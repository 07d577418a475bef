import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { buildNavMeshes } from "../../src/generate/build-nav-meshes.js";
import { loadSharedMesh } from "../helpers/meshes.js";

describe("buildNavMeshes", () => {
  it("several agent sizes in one call: each navmesh byte-identical to its own buildNavMesh", () => {
    const mesh = loadSharedMesh("dungeon");
    const configs = [
      { agentRadius: 0.3 },
      { agentRadius: 0.6 },
      { agentRadius: 1.2 },
      { agentRadius: 0.6, agentHeight: 1 },
    ];
    const results = buildNavMeshes(mesh, configs);
    expect(results.map((r) => r.sharedWith)).toEqual([0, 0, 0, 3]);
    results.forEach((r, i) => {
      const alone = buildNavMesh(mesh, configs[i]).navMesh;
      expect(serializeNavMesh(r.navMesh, null)).toEqual(serializeNavMesh(alone, null));
    });
    // Wider agents keep less of the floor.
    expect(results[2]!.navMesh.area()).toBeLessThan(results[0]!.navMesh.area());
  });

  it("names the config at fault", () => {
    expect(() => buildNavMeshes(loadSharedMesh("dungeon"), [{}, { agentRadius: -1 }])).toThrow(
      MeshwayError,
    );
    expect(() => buildNavMeshes(loadSharedMesh("dungeon"), [{}, { agentRadius: -1 }])).toThrow(
      /^configs\[1\]: /,
    );
    expect(() => buildNavMeshes(loadSharedMesh("dungeon"), [])).toThrow(/non-empty/);
  });
});
