import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/query/random-point.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { cachedTiles, expectLayersFromScratch } from "../helpers/tile-cache-scratch.js";

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
      let compared = 0;
      for (let t = 0; t < cachedTiles(cache).length; t++)
        compared += expectLayersFromScratch(cache, t);
      expect(compared).toBeGreaterThan(10);
    });
  }
});
