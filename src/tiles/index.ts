// Tiled navmeshes: the tiled build, worker pools, and runtime obstacles and area volumes (TileCache).

// --- Tiled build (tile grid, per-tile stages, buildTiledNavMesh, tile pools) ---
export {
  binTriangles,
  buildTileCompact,
  buildTileFromCompact,
  type TileFromCompactOptions,
  type TriangleBins,
} from "./build-tile.js";
export {
  buildTiledNavMesh,
  type TiledBuildOptions,
  type TiledBuildResult,
  type TiledBuildStats,
  type TileRange,
} from "./build-tiled.js";
// --- Tile cache built on workers (createTileCacheAsync; compact heightfield blocks) ---
export {
  compactHeightfieldByteLength,
  deserializeCompactHeightfield,
  serializeCompactHeightfield,
  writeCompactHeightfield,
} from "./compact-codec.js";
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
  buildTileBlock,
  InProcessTilePool,
  prepareTileBuild,
  type TileBuildPool,
  type TileBuildSetup,
  type TileBuildState,
  type TileResultHandler,
} from "./pool.js";
export { checkThreadCount, isThreadCount, MAX_THREADS } from "./threads.js";
export {
  createTileCache,
  TileCache,
  type TileCacheOptions,
  type TileCacheStats,
  type TileCacheUpdate,
} from "./tile-cache.js";
export {
  createTileCacheAsync,
  type TileCacheAsyncOptions,
  type TileCacheAsyncResult,
} from "./tile-cache-async.js";
export { TILE_CACHE_FORMAT_VERSION } from "./tile-cache-file.js";
export { createTileGrid, type TileGrid, tileBounds, tilesTouchingBox } from "./tile-grid.js";
export { createWebWorkerTilePool, type WebWorkerLike } from "./web-worker-pool.js";
export {
  type TileWorkerPort,
  tileWork,
  WorkerTilePool,
  type WorkerTilePoolOptions,
} from "./worker-pool.js";
export {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "./worker-protocol.js";
