// Tiled navmeshes: tiled build (tiles-build's block) and runtime obstacles (below).

// --- Runtime obstacles and area volumes (TileCache) ---
export {
  areaVolumeBounds,
  type Bounds3,
  markAreaVolume,
  markObstacle,
  type ObstacleShape,
  obstacleAsAreaVolume,
  obstacleBounds,
  orientedBoxCorners,
  validateAreaVolume,
  validateObstacleShape,
} from "./obstacles.js";
export {
  createTileCache,
  TileCache,
  type TileCacheOptions,
  type TileCacheStats,
  type TileCacheUpdate,
} from "./tile-cache.js";
