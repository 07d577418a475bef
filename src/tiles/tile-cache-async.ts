import type { BuildConfigInput } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { AreaVolume } from "../generate/areas.js";
import type { BuildHooks } from "../generate/build-hooks.js";
import { navMeshParams } from "../generate/nav-mesh-params.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { TriangleMeshInput } from "../input.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { readCacheTileBlock } from "./cache-tile-block.js";
import { InProcessTilePool, type TileBuildPool, type TileBuildSetup } from "./pool.js";
import { checkThreadCount } from "./threads.js";
import { type PrebuiltCacheTile, planTileCache, TileCache } from "./tile-cache.js";
import { createWebWorkerTilePool } from "./web-worker-pool.js";

/** Options of {@link createTileCacheAsync}. */
export interface TileCacheAsyncOptions extends BuildHooks {
  /**
   * Threads to build on, default 1. Without `pool`, more than 1 makes a Web Worker pool for
   * this build where the platform has Web Workers (browsers, Deno) and builds on the calling
   * thread elsewhere; in Node use `meshway/node`'s createTileCacheNode (worker_threads).
   */
  threads?: number;
  /** Where tiles are built; the caller keeps ownership (not closed here). */
  pool?: TileBuildPool;
  /** Area volumes present from the start (ids 1, 2, … in this order; removable later). */
  areaVolumes?: readonly AreaVolume[];
  /** Called after each tile finishes (completion order), for progress display. */
  onTile?: (done: number, total: number, tx: number, tz: number) => void;
  /** Name used in error messages (e.g. the file name). */
  source?: string;
}

/** What {@link createTileCacheAsync} returns. */
export interface TileCacheAsyncResult {
  navMesh: NavMesh;
  cache: TileCache;
  /** Threads the tiles were built on; warnings of the tile builds, "tile (tx, tz): …". */
  threads: number;
  warnings: string[];
}

/**
 * {@link createTileCache} with the tiles built on a worker pool: each worker builds a tile's
 * un-eroded compact heightfield and the tile's first navmesh tile, and hands both back as one
 * transferred byte block (cache-tile-block.ts). The calling thread only unpacks blocks as they
 * arrive (views, no copy) and, at the end, adds the tiles to the navmesh in (tz, tx) order —
 * so the navmesh and the cache are byte-identical to createTileCache's, for any thread count,
 * and behave identically under the same obstacle and volume requests afterwards.
 * With threads = 1 and no pool it builds on the calling thread (as createTileCache, blocking).
 * Throws (rejects) MeshwayError for bad input or config (config.tileSize must be > 0).
 */
export async function createTileCacheAsync(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TileCacheAsyncOptions = {},
): Promise<TileCacheAsyncResult> {
  const threads = options.threads ?? 1;
  checkThreadCount(threads);
  const plan = planTileCache(input, config, options);
  const { cfg, mesh, grid, volumes, bins } = plan;

  // Jobs: the tiles with at least one triangle, in (tz, tx) order (the others have no floor).
  const coords: number[] = [];
  for (let tz = 0; tz < grid.tilesZ; tz++) {
    for (let tx = 0; tx < grid.tilesX; tx++) {
      const k = tx + tz * grid.tilesX;
      if (bins.offsets[k + 1]! > bins.offsets[k]!) coords.push(tx, tz);
    }
  }
  const jobs = Int32Array.from(coords);
  const jobCount = jobs.length >> 1;
  const setup: TileBuildSetup = {
    positions: mesh.positions,
    indices: mesh.indices,
    triAreas: plan.triAreas,
    binOffsets: bins.offsets,
    binTriangles: bins.triangles,
    binPad: bins.pad,
    grid,
    config: cfg,
    areaVolumes: volumes,
    output: "cacheTile",
  };

  const tileCount = grid.tilesX * grid.tilesZ;
  const compact: (CompactHeightfield | null)[] = new Array(tileCount).fill(null);
  const prebuilt: (PrebuiltCacheTile | null)[] = new Array(tileCount).fill(null);
  const warnings: string[] = [];
  let done = 0;
  // Blocks are unpacked as they arrive (the calling thread is idle meanwhile); the tiles join
  // the navmesh only at the end, in tile order, inside the TileCache constructor.
  const onResult = (job: number, block: Uint8Array | null, tileWarnings: string[]) => {
    const tx = jobs[2 * job]!;
    const tz = jobs[2 * job + 1]!;
    done++;
    for (const w of tileWarnings) warnings.push(`tile (${tx}, ${tz}): ${w}`);
    if (block) {
      const parts = readCacheTileBlock(block, `tile (${tx}, ${tz}) block`);
      const t = tx + tz * grid.tilesX;
      compact[t] = parts.chf;
      prebuilt[t] = { areas: parts.areas, tiles: parts.tiles };
    }
    options.onTile?.(done, jobCount, tx, tz);
  };

  const ownPool =
    options.pool === undefined && threads > 1 && typeof Worker === "function"
      ? createWebWorkerTilePool(threads)
      : null;
  const pool = options.pool ?? ownPool ?? new InProcessTilePool();
  try {
    await pool.buildTiles(setup, jobs, onResult);
  } finally {
    await ownPool?.close();
  }
  if (done !== jobCount) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `tile pool finished with ${jobCount - done} of ${jobCount} tiles missing`,
    );
  }
  const navMesh = new NavMesh(navMeshParams(cfg, grid.bmin, grid.tileWorld, grid.tileWorld));
  const cache = new TileCache(navMesh, grid, cfg, compact, volumes, prebuilt, options.polyFlags);
  return { navMesh, cache, threads: pool.threads, warnings };
}
