import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh, serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { type ObstacleShape, obstacleBounds } from "../../src/tiles/obstacles.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { tileBounds } from "../../src/tiles/tile-grid.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

/** 40 × 40 floor with a few boxes: every tile (8 world units, 16 cells of 0.5) has floor. */
const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.5,
  cellHeight: 0.2,
  agentRadius: 0.5,
  tileSize: 16,
};

function floorScene() {
  return new SceneBuilder()
    .floor(0, 0, 40, 40)
    .box(10, -0.5, 10, 3, 3, 2)
    .box(30, -0.5, 22, 2, 3, 5, 0.6)
    .box(18, -0.5, 33, 6, 1.5, 1)
    .build();
}

/** Every tile's serializeNavMeshTile bytes, in the navmesh's tile order. */
function tileBlocks(navMesh: NavMesh): Uint8Array[] {
  return navMesh.tiles.map((t) => serializeNavMeshTile(t));
}

/** Tiles whose heightfield box (the tile's square grown by the border) overlaps the shape's XZ bounds. */
function tilesReachedBy(
  cache: ReturnType<typeof createTileCache>["cache"],
  shape: ObstacleShape,
): number {
  const { bmin, bmax } = obstacleBounds(shape);
  const cfg = resolveConfig(CONFIG);
  let n = 0;
  for (let tz = 0; tz < cache.grid.tilesZ; tz++) {
    for (let tx = 0; tx < cache.grid.tilesX; tx++) {
      const b = tileBounds(cache.grid, cfg, tx, tz);
      const overlaps =
        bmin[0] <= b.bmax[0] &&
        bmax[0] >= b.bmin[0] &&
        bmin[2] <= b.bmax[2] &&
        bmax[2] >= b.bmin[2];
      if (overlaps) n++;
    }
  }
  return n;
}

describe("TileCache: rebuilding tiles from cached compact heightfields", () => {
  it("its first build has one tile per heightfield layer; a one-layer tile is the tiled build's tile", async () => {
    const mesh = floorScene();
    const { navMesh, cache } = createTileCache(mesh, CONFIG);
    const tiled = await buildTiledNavMesh(mesh, CONFIG);
    expect(cache.cachedBytes).toBeGreaterThan(0);
    const layers = cache.exportState().tiles.reduce((n, t) => n + (t?.layers.length ?? 0), 0);
    expect(navMesh.tiles.length).toBe(layers);
    expect(navMesh.tiles.length).toBeGreaterThan(tiled.navMesh.tiles.length);
    let same = 0;
    for (const ref of tiled.navMesh.tiles) {
      const here = navMesh.tilesAt(ref.tileX, ref.tileZ);
      if (here.length !== 1) continue;
      expect(serializeNavMeshTile(navMesh.tileInSlot(here[0]!)!)).toEqual(
        serializeNavMeshTile(ref),
      );
      same++;
    }
    expect(same).toBeGreaterThan(10);
  });

  it("adding then removing an obstacle restores byte-identical tiles and navmesh", () => {
    const { navMesh, cache } = createTileCache(floorScene(), CONFIG);
    const tilesBefore = tileBlocks(navMesh);
    const fileBefore = serializeNavMesh(navMesh, null);
    const id = cache.addObstacle({ kind: "cylinder", center: [16, -1, 16], radius: 2, height: 3 });
    expect(cache.pending).toBeGreaterThan(0);
    cache.flush();
    expect(serializeNavMesh(navMesh, null)).not.toEqual(fileBefore);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    cache.removeObstacle(id);
    const r = cache.flush();
    expect(r).toEqual({ rebuilt: 4, pending: 0, done: true });
    expect(tileBlocks(navMesh)).toEqual(tilesBefore);
    expect(serializeNavMesh(navMesh, null)).toEqual(fileBefore);
  });

  it("every obstacle shape rebuilds exactly the tiles whose heightfield its bounds reach", () => {
    const { cache } = createTileCache(floorScene(), CONFIG);
    const shapes: ObstacleShape[] = [
      { kind: "cylinder", center: [4, -1, 4], radius: 1, height: 3 }, // one tile
      { kind: "cylinder", center: [16, -1, 20], radius: 1, height: 3 }, // on a tile edge
      { kind: "box", min: [7, -1, 7], max: [9, 2, 9] }, // on a tile corner
      { kind: "box", min: [1, -1, 1], max: [39, 2, 2] }, // a long wall, a row of tiles
      {
        kind: "orientedBox",
        center: [20, 0, 20],
        halfExtents: [6, 1, 0.5],
        yawRadians: Math.PI / 4,
      },
      { kind: "prism", points: [25, 30, 35, 30, 30, 38], minY: -1, maxY: 2 },
    ];
    for (const shape of shapes) {
      const expected = tilesReachedBy(cache, shape);
      const { bmin, bmax } = obstacleBounds(shape);
      expect(cache.tilesTouching(bmin, bmax).length).toBe(expected);
      cache.resetStats();
      const id = cache.addObstacle(shape);
      expect(cache.pending).toBe(expected);
      expect(cache.flush().rebuilt).toBe(expected);
      expect(cache.stats.tilesRebuilt).toBe(expected);
      expect(cache.stats.tilesTouched).toBe(expected);
      cache.removeObstacle(id);
      expect(cache.flush().rebuilt).toBe(expected);
    }
  });

  it("moving an obstacle rebuilds the tiles of its old and new bounds once each", () => {
    const { cache } = createTileCache(floorScene(), CONFIG);
    const a: ObstacleShape = { kind: "cylinder", center: [4, -1, 4], radius: 1, height: 3 };
    const b: ObstacleShape = { kind: "cylinder", center: [36, -1, 36], radius: 1, height: 3 };
    const id = cache.addObstacle(a);
    cache.flush();
    cache.updateObstacle(id, b);
    expect(cache.obstacleShape(id)).toEqual(b);
    expect(cache.flush().rebuilt).toBe(tilesReachedBy(cache, a) + tilesReachedBy(cache, b));
    // Back in place: one rebuild per tile even though both bounds overlap it.
    cache.updateObstacle(id, { ...a, radius: 1.5 });
    cache.updateObstacle(id, a);
    cache.updateObstacle(id, a);
    expect(cache.flush().rebuilt).toBe(tilesReachedBy(cache, a) + tilesReachedBy(cache, b));
  });

  it("an obstacle rebuild makes the old tile's refs invalid; a sliced search reports invalidRef", () => {
    const { navMesh, cache } = createTileCache(floorScene(), CONFIG);
    const query = new NavMeshQuery(navMesh);
    const start = query.findNearestPoly([2, 0, 2], [1, 2, 1]);
    const end = query.findNearestPoly([38, 0, 38], [1, 2, 1]);
    expect(start).not.toBe(0);
    expect(query.initSlicedFindPath(start, end, [2, 0, 2], [38, 0, 38])).toBe("inProgress");
    cache.addObstacle({ kind: "box", min: [1, -1, 1], max: [3, 2, 3] });
    cache.flush();
    expect(navMesh.isValidPolyRef(start)).toBe(false);
    expect(navMesh.isValidPolyRef(end)).toBe(true);
    expect(query.updateSlicedFindPath(100)).toBe("invalidRef");
    // The rebuilt tile is in the same place: fresh queries work.
    const fresh = query.findNearestPoly([6, 0, 6], [1, 2, 1]);
    expect(navMesh.isValidPolyRef(fresh)).toBe(true);
    expect(query.computePath([6, 0, 6], [38, 0, 38]).status).toBe("complete");
  });

  it("a request that leaves a tile's span areas as they were keeps the tile and its refs", () => {
    const { navMesh, cache } = createTileCache(floorScene(), CONFIG);
    const query = new NavMeshQuery(navMesh);
    const ref = query.findNearestPoly([4, 0, 4], [1, 2, 1]);
    const bytes = serializeNavMesh(navMesh, null);
    // Above the floor's height range: marks nothing.
    const id = cache.addObstacle({ kind: "cylinder", center: [4, 5, 4], radius: 1, height: 2 });
    expect(cache.flush().rebuilt).toBe(1);
    expect(cache.stats.tilesUnchanged).toBe(1);
    expect(navMesh.isValidPolyRef(ref)).toBe(true);
    // On the floor: the tile changes.
    cache.updateObstacle(id, { kind: "cylinder", center: [4.1, -1, 4.1], radius: 1, height: 3 });
    cache.flush();
    expect(cache.stats.tilesUnchanged).toBe(1);
    expect(navMesh.isValidPolyRef(ref)).toBe(false);
    const ref2 = query.findNearestPoly([6, 0, 6], [1, 2, 1]);
    // Nudged by less than a cell with no cell centre crossing the circle: nothing changes.
    cache.updateObstacle(id, { kind: "cylinder", center: [4.12, -1, 4.1], radius: 1, height: 3 });
    expect(cache.flush().rebuilt).toBe(1);
    expect(cache.stats.tilesUnchanged).toBe(2);
    expect(navMesh.isValidPolyRef(ref2)).toBe(true);
    cache.removeObstacle(id);
    cache.flush();
    expect(serializeNavMesh(navMesh, null)).toEqual(bytes);
  });

  it("a tile covered entirely keeps its slot as an empty tile and comes back in place", () => {
    const { navMesh, cache } = createTileCache(floorScene(), CONFIG);
    const before = serializeNavMesh(navMesh, null);
    const tileCount = navMesh.tiles.length;
    const emptyBefore = navMesh.tiles.filter((t) => t.polyCount === 0).length;
    const ids = [
      cache.addObstacle({ kind: "box", min: [-1, -1, -1], max: [17, 2, 17] }),
      cache.addObstacle({ kind: "box", min: [23, -1, 23], max: [41, 2, 41] }),
    ];
    cache.flush();
    expect(cache.stats.tilesEmptied).toBeGreaterThanOrEqual(2);
    expect(navMesh.tiles.length).toBe(tileCount);
    // Layers already without polygons (slivers at box edges) may be rebuilt empty again.
    const emptyAfter = navMesh.tiles.filter((t) => t.polyCount === 0).length;
    expect(emptyAfter).toBeGreaterThanOrEqual(emptyBefore + 2);
    expect(emptyAfter).toBeLessThanOrEqual(emptyBefore + cache.stats.tilesEmptied);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    // Queries step over the empty tiles.
    const query = new NavMeshQuery(navMesh);
    expect(query.findNearestPoly([4, 0, 4], [1, 2, 1])).toBe(0);
    const across = query.computePath([36, 0, 4], [4, 0, 36]);
    expect(across.status).toBe("complete");
    expect(query.computePath([36, 0, 4], [4, 0, 4]).status).toBe("noEnd");
    // Removed in the same order they emptied tiles: slots must not swap.
    for (const id of ids) cache.removeObstacle(id);
    cache.flush();
    expect(serializeNavMesh(navMesh, null)).toEqual(before);
  });

  it("invalid shapes and unknown ids throw MeshwayError naming the field, changing nothing", () => {
    const { cache } = createTileCache(floorScene(), CONFIG);
    const bad = (shape: unknown) =>
      thrownMeshwayError(() => cache.addObstacle(shape as ObstacleShape)).message;
    expect(bad({ kind: "cylinder", center: [1, 0, 1], radius: -1, height: 2 })).toBe(
      "addObstacle: radius must be > 0, got -1",
    );
    expect(bad({ kind: "box", min: [0, 0, 0], max: [1, Number.NaN, 1] })).toBe(
      "addObstacle: max[1] must be a finite number, got NaN",
    );
    expect(bad({ kind: "prism", points: [0, 0, 1, 1, 2, 2], minY: 0, maxY: 1 })).toMatch(
      /^addObstacle: points must be a convex polygon/,
    );
    expect(cache.obstacleCount).toBe(0);
    expect(cache.pending).toBe(0);
    const id = cache.addObstacle({ kind: "box", min: [0, 0, 0], max: [1, 1, 1] });
    const e = thrownMeshwayError(() =>
      cache.updateObstacle(id, {
        kind: "orientedBox",
        center: [0, 0, 0],
        halfExtents: [1, 1, 1],
      } as never),
    );
    expect(e.message).toBe("updateObstacle: yawRadians must be a finite number, got undefined");
    expect(cache.obstacleShape(id)).toEqual({ kind: "box", min: [0, 0, 0], max: [1, 1, 1] });
    expect(thrownMeshwayError(() => cache.removeObstacle(99)).message).toBe(
      "removeObstacle: id 99 is not a live obstacle",
    );
    expect(
      thrownMeshwayError(() =>
        cache.addAreaVolume({
          kind: "cylinder",
          center: [0, 0, 0],
          radius: 1,
          height: 1,
          area: 1.5,
        }),
      ).message,
    ).toBe("addAreaVolume: area must be an integer in [0, 63], got 1.5");
    expect(thrownMeshwayError(() => cache.update(-1)).message).toMatch(
      /budgetMs must be a number >= 0/,
    );
    expect(
      thrownMeshwayError(() => createTileCache(floorScene(), { ...CONFIG, tileSize: 0 })).code,
    ).toBe("INVALID_CONFIG");
  });
});
