import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { navMeshArea } from "../../src/navmesh/nav-mesh.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };

describe("buildNavMesh", () => {
  it("turns a plain 10 × 10 floor into polygons covering it minus a ledge cell and the radius", () => {
    const { navMesh, stats } = buildNavMesh(new SceneBuilder().floor(0, 0, 10, 10).build(), CONFIG);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    // The open edge is a ledge (a drop to nothing), so the outer ring of cells is filtered out,
    // then erosion by 2 cells (0.5) removes two more: 3 cells = 0.75 per side leaves 8.5 × 8.5.
    expect(navMeshArea(navMesh)).toBeCloseTo(72.25, 6);
    expect(stats.regions).toBe(1);
    expect(stats.polygons).toBeGreaterThanOrEqual(1);
    expect(stats.timings.total).toBeGreaterThan(0);
  });

  it("keeps every stage's output only when asked", () => {
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 2, 2, 2).build();
    expect(buildNavMesh(mesh, CONFIG).intermediates).toBeNull();
    const { intermediates, stats } = buildNavMesh(mesh, CONFIG, { keepIntermediates: true });
    expect(intermediates).not.toBeNull();
    const i = intermediates!;
    expect(i.compactHeightfield.spanCount).toBe(stats.compactSpans);
    expect(i.polyMesh.polyCount).toBe(stats.polygons);
    expect(i.distanceField).not.toBeNull();
    // Erosion removed spans: the snapshot before erosion has more walkable spans.
    const walkableBefore = i.areasBeforeErosion.reduce((n, a) => n + (a ? 1 : 0), 0);
    expect(walkableBefore).toBeGreaterThan(stats.walkableSpans);
  });

  it("counts degenerate triangles instead of failing", () => {
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).build();
    const positions = Float32Array.from([...mesh.positions, 1, 0, 1, 2, 0, 2, 3, 0, 3]);
    const indices = Uint32Array.from([...mesh.indices, 4, 5, 6]);
    const { stats } = buildNavMesh({ positions, indices }, CONFIG);
    expect(stats.degenerateTriangles).toBe(1);
    expect(stats.triangles).toBe(3);
  });

  it("refuses a grid beyond maxVoxels before allocating, with the computed size", () => {
    const mesh = new SceneBuilder().floor(0, 0, 1000, 1000).build();
    let err: unknown;
    try {
      buildNavMesh(mesh, { cellSize: 0.1, maxVoxels: 1e6 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MeshwayError);
    expect((err as MeshwayError).code).toBe("GRID_TOO_LARGE");
    expect((err as MeshwayError).message).toMatch(/10000 × 10000 = 100000000 columns/);
  });

  it("applies area volumes after erosion: a no-go box removes the surface under it", () => {
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).build();
    const plain = navMeshArea(buildNavMesh(mesh, CONFIG).navMesh);
    const { navMesh } = buildNavMesh(mesh, CONFIG, {
      areaVolumes: [{ kind: "box", min: [4, -1, 0], max: [6, 1, 10], area: 0 }],
    });
    expect(navMeshArea(navMesh)).toBeLessThan(plain - 10);
    expect(validateNavMesh(navMesh).ok).toBe(true);
  });

  it("builds with every partition method", () => {
    const mesh = new SceneBuilder()
      .floor(0, 0, 20, 20)
      .box(6, 0, 6, 3, 2, 3)
      .box(14, 0, 12, 2, 2, 6, 0.4)
      .build();
    for (const partition of ["watershed", "monotone", "layers"] as const) {
      const { navMesh } = buildNavMesh(mesh, { ...CONFIG, partition });
      expect(validateNavMesh(navMesh).problems).toEqual([]);
      expect(navMeshArea(navMesh)).toBeGreaterThan(300);
    }
  });

  it("rejects a bad config before looking at the input", () => {
    expect(() => buildNavMesh({ positions: [], indices: [] }, { cellSize: -1 })).toThrow(
      /cellSize/,
    );
  });
});
