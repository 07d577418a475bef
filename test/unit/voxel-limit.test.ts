import { describe, expect, it } from "vitest";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

// maxVoxels bounds what a heightfield allocates (columns, then spans as they are added), not
// width × height × depth: a tall level with few spans per column builds, as Recast builds it.

/** `floors` stacked 10 × 10 m floors 3 m apart: 1600 columns at 0.25, one span each per floor. */
function stacked(floors: number) {
  const b = new SceneBuilder();
  for (let i = 0; i < floors; i++) b.floor(0, 0, 10, 10, 3 * i);
  return b.build();
}

async function rejection(p: Promise<unknown>) {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e as Error & { code?: string },
  );
}

describe("maxVoxels counts columns and spans, not the grid's volume", () => {
  it("regression: a tall grid with few spans (40 × 40 × 1001 cells) builds under maxVoxels 1.6 M, byte-identical", () => {
    // The old cap refused this scene below 40 × 40 × 1001 = 1 601 600 voxels.
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 1, 200, 1).build();
    const cfg = { cellSize: 0.25, cellHeight: 0.2 };
    const tight = buildNavMesh(mesh, { ...cfg, maxVoxels: 5000 });
    const roomy = buildNavMesh(mesh, cfg);
    expect(tight.stats.polygons).toBeGreaterThan(0);
    expect(serializeNavMesh(tight.navMesh, null)).toEqual(serializeNavMesh(roomy.navMesh, null));
  });

  it("more columns than maxVoxels: refused up front, advising a tiled build and naming maxVoxels", () => {
    const mesh = new SceneBuilder().floor(0, 0, 1000, 1000).build();
    const e = thrownMeshwayError(() => buildNavMesh(mesh, { cellSize: 0.1, maxVoxels: 1e6 }));
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toBe(
      "grid of 10000 × 10000 = 100000000 columns (cellSize 0.1) exceeds maxVoxels 1000000 (columns + spans); use a tiled build (--tile-size 64; library: tileSize), larger cells, or raise maxVoxels",
    );
  });

  it("spans running out name the triangle being rasterized and what to change (solo)", () => {
    // 1600 columns + 10 000 spans: floors 0..5 fit (9600 spans), floor 6 (triangles 12, 13) does not.
    const e = thrownMeshwayError(() =>
      buildNavMesh(stacked(10), { cellSize: 0.25, maxVoxels: 11_600 }, { source: "tower.obj" }),
    );
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toMatch(
      /^tower\.obj: rasterizing triangle 1[23]: the heightfield's 40 × 40 columns and 10000 spans reach maxVoxels 11600 \(columns \+ spans\); use a tiled build \(--tile-size 64; library: tileSize\), larger cells, or raise maxVoxels$/,
    );
    // One span more per floor's worth of room and it builds.
    expect(
      buildNavMesh(stacked(10), { cellSize: 0.25, maxVoxels: 17_600 }).stats.polygons,
    ).toBeGreaterThan(0);
  });

  it("spans running out in a tile name the tile, the input's triangle and tiled advice", async () => {
    // An 8 × 8 m tower of 10 floors in 2 × 2 tiles of 16 cells (+ border 4: 24 × 24 columns);
    // each tile holds 20 × 20 columns of every floor, so 2424 spans hold 6 floors, not 7.
    const b = new SceneBuilder();
    for (let i = 0; i < 10; i++) b.floor(0, 0, 8, 8, 3 * i);
    const tower = b.build();
    const cfg = { cellSize: 0.25, tileSize: 16, agentRadius: 0.25 };
    expect((await buildTiledNavMesh(tower, cfg)).stats.grid.tilesX).toBe(2);
    const e = await rejection(buildTiledNavMesh(tower, { ...cfg, maxVoxels: 3000 }));
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toMatch(
      /^tile \(0, 0\): rasterizing triangle 1[23]: the heightfield's 24 × 24 columns and 2424 spans reach maxVoxels 3000 \(columns \+ spans\); use a smaller tileSize \(--tile-size N\) or larger cells, or raise maxVoxels$/,
    );
    expect(e.message).not.toMatch(/use a tiled build/);
  });

  it("a grid taller than a span's 16-bit height is refused (it would be clamped, silently wrong)", () => {
    const mesh = new SceneBuilder().floor(0, 0, 1, 1).build();
    const positions = Float32Array.from([...mesh.positions, 0, 0, 0, 0, 1e6, 0, 0.001, 0, 0]);
    const n = mesh.positions.length / 3;
    const indices = Uint32Array.from([...mesh.indices, n, n + 1, n + 2]);
    const e = thrownMeshwayError(() =>
      buildNavMesh({ positions, indices }, { cellSize: 0.25, cellHeight: 0.01 }),
    );
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toBe(
      "grid is 100000001 cells tall (cellHeight 0.01), more than the 65535 a span's height holds; use a larger cellHeight",
    );
  });
});
