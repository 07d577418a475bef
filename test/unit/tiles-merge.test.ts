import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { mergeNavMeshes, mergeNavMeshFiles } from "../../src/format/merge.js";
import { deserializeNavMesh, serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildTiledNavMesh, type TileRange } from "../../src/tiles/build-tiled.js";
import { TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

const scene = tiledScene();
const config = { ...TILED_CONFIG, tileSize: 64 }; // a 6 × 6 grid
const cfg = resolveConfig(config);

async function piece(tiles?: TileRange): Promise<Uint8Array> {
  const { navMesh } = await buildTiledNavMesh(scene, config, tiles ? { tiles } : {});
  return serializeNavMesh(navMesh, cfg);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

describe("build --tiles pieces and mergeNavMeshes", async () => {
  const whole = await piece();

  it("2 × 2 pieces merge into the one-machine build's bytes, in any argument order", async () => {
    const parts = await Promise.all([
      piece({ x0: 0, x1: 2, z0: 0, z1: 2 }),
      piece({ x0: 3, x1: 5, z0: 0, z1: 2 }),
      piece({ x0: 0, x1: 2, z0: 3, z1: 5 }),
      piece({ x0: 3, x1: 5, z0: 3, z1: 5 }),
    ]);
    expect(bytesEqual(mergeNavMeshFiles(parts), whole)).toBe(true);
    expect(bytesEqual(mergeNavMeshFiles([...parts].reverse()), whole)).toBe(true);
  });

  it("uneven pieces (a column, an L of rows, one tile) merge into the same bytes", async () => {
    const parts = await Promise.all([
      piece({ x0: 0, x1: 0, z0: 0, z1: 5 }),
      piece({ x0: 1, x1: 5, z0: 0, z1: 3 }),
      piece({ x0: 1, x1: 4, z0: 4, z1: 5 }),
      piece({ x0: 5, x1: 5, z0: 4, z1: 5 }),
    ]);
    expect(bytesEqual(mergeNavMeshFiles(parts), whole)).toBe(true);
  });

  it("a piece keeps the full grid's parameters and holds only its tiles", async () => {
    const { navMesh } = deserializeNavMesh(await piece({ x0: 1, x1: 2, z0: 4, z1: 4 }));
    const full = deserializeNavMesh(whole).navMesh;
    expect(navMesh.params).toEqual(full.params);
    const coords = navMesh.tiles.map((t) => [t.tileX, t.tileZ]);
    expect(coords.length).toBeGreaterThan(0);
    for (const [tx, tz] of coords) {
      expect(tx! >= 1 && tx! <= 2 && tz === 4).toBe(true);
    }
  });

  it("refuses overlapping pieces, naming both and the tile", async () => {
    const a = deserializeNavMesh(await piece({ x0: 0, x1: 3, z0: 0, z1: 0 })).navMesh;
    const b = deserializeNavMesh(await piece({ x0: 3, x1: 5, z0: 0, z1: 0 })).navMesh;
    expect(() =>
      mergeNavMeshes([
        { navMesh: a, config: cfg, source: "a.navmesh" },
        { navMesh: b, config: cfg, source: "b.navmesh" },
      ]),
    ).toThrow(/a\.navmesh and b\.navmesh cannot be merged: both hold tile \(3, 0\)/);
  });

  it("refuses pieces of different configs or grids, naming the clash", async () => {
    const a = deserializeNavMesh(await piece({ x0: 0, x1: 0, z0: 0, z1: 0 })).navMesh;
    const radius = await buildTiledNavMesh(
      scene,
      { ...config, agentRadius: 0.75 },
      {
        tiles: { x0: 1, x1: 1, z0: 0, z1: 0 },
      },
    );
    expect(() =>
      mergeNavMeshes([
        { navMesh: a, config: cfg, source: "a" },
        { navMesh: radius.navMesh, config: { ...config, agentRadius: 0.75 }, source: "b" },
      ]),
    ).toThrow(/a and b cannot be merged: agentRadius 0\.5 vs 0\.75/);
    // Same params, a config option the navmesh does not record.
    expect(() =>
      mergeNavMeshes([
        { navMesh: a, config: cfg, source: "a" },
        { navMesh: radius.navMesh, config: { ...config, regionMinSize: 3 }, source: "b" },
      ]),
    ).toThrow(/agentRadius/);
    expect(() =>
      mergeNavMeshes([
        { navMesh: a, config: cfg, source: "a" },
        { navMesh: a, config: { ...config, regionMinSize: 3 }, source: "b" },
      ]),
    ).toThrow(/a and b cannot be merged: config option "regionMinSize" 8 vs 3/);
    const shifted = await buildTiledNavMesh(
      {
        positions: scene.positions.map((v, i) => (i % 3 === 0 ? v + 1 : v)),
        indices: scene.indices,
      },
      config,
      { tiles: { x0: 1, x1: 1, z0: 0, z1: 0 } },
    );
    expect(() =>
      mergeNavMeshes([
        { navMesh: a, config: cfg, source: "a" },
        { navMesh: shifted.navMesh, config: cfg, source: "b" },
      ]),
    ).toThrow(/grid origin x 0 vs 1/);
    expect(() => mergeNavMeshes([])).toThrow(MeshwayError);
  });

  it("refuses a range outside the grid, naming the grid's own range", async () => {
    await expect(piece({ x0: 4, x1: 6, z0: 0, z1: 0 })).rejects.toThrow(
      /tiles 4:6,0:0 is not a rectangle of the tile grid; the grid has 6 × 6 tiles, x 0:5, z 0:5/,
    );
    await expect(piece({ x0: 2, x1: 1, z0: 0, z1: 0 })).rejects.toThrow(/not a rectangle/);
  });
});
