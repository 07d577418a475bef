import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import type { AreaVolume } from "../../src/generate/areas.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.5,
  cellHeight: 0.2,
  agentRadius: 0.5,
  tileSize: 16,
};

function scene() {
  return new SceneBuilder().floor(0, 0, 40, 40).box(10, -0.5, 10, 3, 3, 2).build();
}

const crate: ObstacleShape = { kind: "cylinder", center: [20, -1, 20], radius: 1.2, height: 4 };

describe("TileCache: the obstacle-free tile is put back when its obstacles leave", () => {
  it("removing the last obstacle puts back the very tile objects it replaced, bytes unchanged", () => {
    const { navMesh, cache } = createTileCache(scene(), CONFIG);
    const before = navMesh.tiles.slice();
    const bytes = serializeNavMesh(navMesh, null);
    const id = cache.addObstacle(crate);
    cache.flush();
    const changed = navMesh.tiles.filter((t) => !before.includes(t)).length;
    expect(changed).toBeGreaterThan(0);
    cache.removeObstacle(id);
    cache.flush();
    expect(navMesh.tiles.filter((t) => !before.includes(t))).toEqual([]);
    expect(serializeNavMesh(navMesh, null)).toEqual(bytes);
  });

  it("a volume changed while an obstacle stands gives a fresh build, equal to a cache that never had the obstacle", () => {
    const volume: AreaVolume = { kind: "box", min: [16, -1, 16], max: [24, 2, 24], area: 7 };
    const a = createTileCache(scene(), CONFIG);
    const id = a.cache.addObstacle(crate);
    a.cache.flush();
    a.cache.addAreaVolume(volume);
    a.cache.flush();
    a.cache.removeObstacle(id);
    a.cache.flush();
    const b = createTileCache(scene(), CONFIG);
    b.cache.addAreaVolume(volume);
    b.cache.flush();
    expect(serializeNavMesh(a.navMesh, null)).toEqual(serializeNavMesh(b.navMesh, null));
  });
});
