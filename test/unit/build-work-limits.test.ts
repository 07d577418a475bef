import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { WORK_CELLS_PER_VOXEL } from "../../src/generate/grid.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

// Builds whose work is out of proportion to what they keep are refused up front, with the
// numbers (issue 19 B10, B11): nothing here rasterizes a cell.

/** `n` copies of one flat right triangle with legs `size` (world units), plus a far corner. */
function copies(n: number, size: number): { positions: Float32Array; indices: Uint32Array } {
  const positions = Float32Array.of(0, 0, 0, 0, 0, size, size, 0, 0);
  const indices = new Uint32Array(n * 3);
  for (let t = 0; t < n; t++) indices.set([0, 1, 2], t * 3);
  return { positions, indices };
}

async function rejected(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return thrownMeshwayError(() => {
      throw e;
    });
  }
  throw new Error("expected a MeshwayError, the build succeeded");
}

describe("rasterization work is bounded (huge-triangle-raster)", () => {
  it(`refuses triangles × covered cells above ${WORK_CELLS_PER_VOXEL} × maxVoxels, before rasterizing`, () => {
    // 300 m at 0.3 m: a 1000 × 1000 grid (1e6 voxels: allowed); 20 copies visit 2e7 cells.
    const e = thrownMeshwayError(() => buildNavMesh(copies(20, 300), { maxVoxels: 2e6 }));
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toBe(
      "rasterizing 20 triangles needs 20000000 cell visits (cellSize 0.3), more than the 16000000 allowed (8 × maxVoxels 2000000); use larger cells, or raise maxVoxels to spend the time",
    );
  });

  it("accepts the same triangle once", () => {
    expect(buildNavMesh(copies(1, 30), { maxVoxels: 2e6 }).navMesh.tiles).toHaveLength(1);
  });
});

describe("tiled builds are bounded before binning or building (tiled-binning-alloc)", () => {
  it("refuses (triangle, tile) bin entries above maxVoxels, naming the count and bytes", async () => {
    const e = await rejected(
      buildTiledNavMesh(copies(100, 3000), { tileSize: 16, maxVoxels: 1e6 }),
    );
    expect(e.code).toBe("GRID_TOO_LARGE");
    expect(e.message).toMatch(
      /^binning 100 triangles into a 625 × 625 tile grid needs 39062500 \(triangle, tile\) entries \(156250000 bytes\), more than maxVoxels 1000000; use a larger tileSize or cellSize, or raise maxVoxels$/,
    );
  });

  it("refuses a 2-triangle world whose tiles would take hours, naming the tile count", async () => {
    const e = await rejected(buildTiledNavMesh(copies(2, 3000), { tileSize: 16, maxVoxels: 1e6 }));
    expect(e.message).toMatch(/^building \d+ tiles of 26 × 26 columns needs \d+ cell visits/);
    expect(e.message).toMatch(/raise maxVoxels/);
  });
});
