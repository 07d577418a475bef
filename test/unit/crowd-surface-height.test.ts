import { describe, expect, it } from "vitest";
import { SurfaceHeightCache } from "../../src/crowd/hinted-height.js";
import { buildNavMesh } from "../../src/index.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32, RandomPointResult } from "../../src/query/random-point.js";
import { heightByRef } from "../../src/query/ref-geometry.js";
import { loadSharedMesh } from "../helpers/meshes.js";

describe("SurfaceHeightCache", () => {
  it("gives polyHeight's heights bit for bit along seeded walks (inside, across triangles, outside)", () => {
    const { navMesh } = buildNavMesh(loadSharedMesh("undulating"), { agentRadius: 0.4 });
    const q = new NavMeshQuery(navMesh);
    const filter = new QueryFilter();
    const rand = mulberry32(5);
    const res = new RandomPointResult();
    const cache = new SurfaceHeightCache();
    let hits = 0;
    for (let walk = 0; walk < 60; walk++) {
      q.findRandomPoint(filter, rand, res);
      const ref = res.ref;
      let x = res.point[0]!;
      let z = res.point[2]!;
      const dx = (rand() - 0.5) * 0.12;
      const dz = (rand() - 0.5) * 0.12;
      for (let step = 0; step < 80; step++) {
        const want = heightByRef(navMesh, ref, x, z);
        const got = cache.height(navMesh, ref, x, z);
        expect(Object.is(got, want)).toBe(true);
        if (!Number.isNaN(want)) hits++;
        x += dx;
        z += dz;
      }
    }
    expect(hits).toBeGreaterThan(1000);
  });
});
