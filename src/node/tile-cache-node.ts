import type { BuildConfigInput } from "../config.js";
import type { TriangleMeshInput } from "../input.js";
import { InProcessTilePool, type TileBuildPool } from "../tiles/pool.js";
import {
  createTileCacheAsync,
  type TileCacheAsyncOptions,
  type TileCacheAsyncResult,
} from "../tiles/tile-cache-async.js";
import { defaultTileThreads, NodeTilePool } from "./tile-pool.js";

/**
 * createTileCacheAsync with a worker_threads pool of `options.threads` (default: available
 * cores) made for this build and closed after it; threads = 1 builds on this thread. The
 * navmesh and cache are byte-identical to createTileCache's for every thread count.
 */
export async function createTileCacheNode(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TileCacheAsyncOptions = {},
): Promise<TileCacheAsyncResult> {
  if (options.pool) return createTileCacheAsync(input, config, options);
  const threads = options.threads ?? defaultTileThreads();
  const pool: TileBuildPool = threads > 1 ? new NodeTilePool(threads) : new InProcessTilePool();
  try {
    return await createTileCacheAsync(input, config, { ...options, threads, pool });
  } finally {
    await pool.close();
  }
}
