import { expect } from "vitest";
import { serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import type { CompactHeightfield } from "../../src/generate/types.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import type { CachedLayer } from "../../src/tiles/cached-layer.js";
import { layerAreas } from "../../src/tiles/layer-grid.js";
import { buildLayerTile } from "../../src/tiles/layer-tile.js";
import { obstacleAsAreaVolume } from "../../src/tiles/obstacles.js";
import { finalAreas, type TileCache } from "../../src/tiles/tile-cache.js";

/** A tile cache's per-tile state (private; read by tests to compare with builds from scratch). */
export type CachedTileState = { chf: CompactHeightfield; layers: CachedLayer[] } | null;

export function cachedTiles(cache: TileCache): CachedTileState[] {
  return (cache as unknown as { tiles: CachedTileState[] }).tiles;
}

/** A tile's bytes with its flags left out (the cache applies the build's flags hook). */
export function tileBytesWithoutFlags(tile: NavMeshTile): Uint8Array {
  return serializeNavMeshTile({ ...tile, polyFlags: new Uint16Array(tile.polyCount) });
}

/**
 * Expects every layer of tile index `t` to hold the areas and the tile a build from scratch
 * gives under the cache's current obstacles (built on a copy of the layer's grid, so none of
 * the per-grid reuse — seams, crops — applies). Returns the layers with polygons compared.
 */
export function expectLayersFromScratch(cache: TileCache, t: number): number {
  const cached = cachedTiles(cache)[t];
  if (!cached) return 0;
  const tx = t % cache.grid.tilesX;
  const tz = (t - tx) / cache.grid.tilesX;
  const obstacles = cache.obstacleIds().map((id) => obstacleAsAreaVolume(cache.obstacleShape(id)!));
  const areas = finalAreas(cached.chf, cache.config, obstacles, []);
  let compared = 0;
  for (const layer of cached.layers) {
    const want = layerAreas(layer.grid, areas);
    expect(layer.areas).toEqual(want);
    const fresh = buildLayerTile({ ...layer.grid }, want, cache.config, tx, tz);
    if (fresh) {
      expect(tileBytesWithoutFlags(layer.tile!)).toEqual(tileBytesWithoutFlags(fresh));
      compared++;
    } else {
      expect(layer.tile!.polyCount).toBe(0);
    }
  }
  return compared;
}
