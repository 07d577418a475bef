import { describe, expect, it } from "vitest";
import { serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import type { CompactHeightfield } from "../../src/generate/types.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { mulberry32 } from "../../src/query/random-point.js";
import type { CachedLayer } from "../../src/tiles/cached-layer.js";
import { layerAreas } from "../../src/tiles/layer-grid.js";
import { buildLayerTile } from "../../src/tiles/layer-tile.js";
import { type ObstacleShape, obstacleAsAreaVolume } from "../../src/tiles/obstacles.js";
import { createTileCache, finalAreas, type TileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";

/** The cache's per-tile state (private; read here to compare with builds from scratch). */
function cachedTiles(cache: TileCache) {
  return (
    cache as unknown as { tiles: ({ chf: CompactHeightfield; layers: CachedLayer[] } | null)[] }
  ).tiles;
}

/** A tile's bytes with its flags left out (the cache applies the build's flags hook). */
function bytesOf(tile: NavMeshTile): Uint8Array {
  return serializeNavMeshTile({ ...tile, polyFlags: new Uint16Array(tile.polyCount) });
}

/*
 * Rebuilds skip what cannot change (a tile whose obstacles stamp the spans they stamped last
 * time) and reuse what did not change (polygons' details, detail-reuse.ts): after a seeded run
 * of adds, moves and removes, every layer's areas and tile equal those computed from scratch.
 */
describe("TileCache: incremental rebuilds give a from-scratch build's bytes", () => {
  for (const name of ["dungeon", "nav_test"] as const) {
    it(`${name}: after 24 seeded requests every layer equals its build from scratch`, () => {
      const { cache } = createTileCache(loadSharedMesh(name), { tileSize: 48 });
      const rand = mulberry32(7);
      const [x0, y0, z0] = cache.grid.bmin;
      const [x1, y1, z1] = cache.grid.bmax;
      const shape = (): ObstacleShape => ({
        kind: "cylinder",
        center: [x0 + rand() * (x1 - x0), y0 - 1, z0 + rand() * (z1 - z0)],
        radius: 0.4 + 1.6 * rand(),
        height: y1 - y0 + 2,
      });
      const live: number[] = [];
      for (let i = 0; i < 24; i++) {
        const r = rand();
        if (r < 0.5 || live.length === 0) live.push(cache.addObstacle(shape()));
        else if (r < 0.75) cache.updateObstacle(live[Math.floor(rand() * live.length)]!, shape());
        else cache.removeObstacle(live.splice(Math.floor(rand() * live.length), 1)[0]!);
        if (i % 3 === 2) cache.flush();
      }
      cache.flush();
      const obstacles = cache
        .obstacleIds()
        .map((id) => obstacleAsAreaVolume(cache.obstacleShape(id)!));
      let compared = 0;
      cachedTiles(cache).forEach((cached, t) => {
        if (!cached) return;
        const tx = t % cache.grid.tilesX;
        const tz = (t - tx) / cache.grid.tilesX;
        const areas = finalAreas(cached.chf, cache.config, obstacles, []);
        for (const layer of cached.layers) {
          const want = layerAreas(layer.grid, areas);
          expect(layer.areas).toEqual(want);
          // A copy of the grid: none of the per-grid reuse (seams, crops) applies to it.
          const fresh = buildLayerTile({ ...layer.grid }, want, cache.config, tx, tz);
          if (fresh) {
            expect(bytesOf(layer.tile!)).toEqual(bytesOf(fresh));
            compared++;
          } else {
            expect(layer.tile!.polyCount).toBe(0);
          }
        }
      });
      expect(compared).toBeGreaterThan(10);
    });
  }
});
