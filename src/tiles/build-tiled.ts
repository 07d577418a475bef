import { type BuildConfig, resolveConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { deserializeNavMeshTile } from "../format/navmesh-file.js";
import type { AreaVolume } from "../generate/areas.js";
import {
  applyBuildFlags,
  type BuildHooks,
  buildBounds,
  checkPolyFlagsHook,
  combineTriangleAreas,
} from "../generate/build-hooks.js";
import { checkGridSize } from "../generate/grid.js";
import { navMeshParams } from "../generate/nav-mesh-params.js";
import { markWalkableTriangles } from "../generate/rasterize.js";
import { type TriangleMeshInput, validateTriangleMesh } from "../input.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { binTriangles, checkTiledWork } from "./build-tile.js";
import { InProcessTilePool, type TileBuildPool, type TileBuildSetup } from "./pool.js";
import { checkThreadCount } from "./threads.js";
import { createTileGrid, type TileGrid } from "./tile-grid.js";
import { createWebWorkerTilePool } from "./web-worker-pool.js";

export interface TiledBuildOptions extends BuildHooks {
  /**
   * Threads to build on, default 1. Without `pool`, more than 1 makes a Web Worker pool for
   * this build where the platform has Web Workers (browsers, Deno) and builds on the calling
   * thread elsewhere; in Node use `meshway/node`'s buildTiledNavMeshNode (worker_threads).
   */
  threads?: number;
  /** Where tiles are built; the caller keeps ownership (not closed here). */
  pool?: TileBuildPool;
  /** Area volumes applied to every tile after erosion, in order. */
  areaVolumes?: AreaVolume[];
  /** Called after each tile finishes (completion order), for progress display. */
  onTile?: (done: number, total: number, tx: number, tz: number) => void;
  /** Name used in error messages (e.g. the file name). */
  source?: string;
  /**
   * Build only the tiles of this rectangle of the full grid (inclusive, tile coordinates as
   * `meshway info` lists them); the navmesh keeps the full grid's parameters, so pieces built
   * apart merge (mergeNavMeshes) into the very bytes of the whole build.
   */
  tiles?: TileRange;
}

/** A rectangle of tiles, inclusive: x0 ≤ tx ≤ x1 and z0 ≤ tz ≤ z1. */
export interface TileRange {
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

export interface TiledBuildStats {
  triangles: number;
  degenerateTriangles: number;
  grid: TileGrid;
  /** Tiles with polygons (the navmesh's tiles). */
  tiles: number;
  /** Tiles of the grid that came out empty and were skipped. */
  emptyTiles: number;
  polygons: number;
  vertices: number;
  detailTriangles: number;
  /** Threads the pool has (`options.threads`, or the pool's). */
  threads: number;
  /**
   * Threads the build really ran on: fewer than `threads` when the work was too small to pay
   * for starting workers or the machine had no idle cores for them (buildTiledNavMeshNode).
   */
  threadsUsed: number;
  /** Milliseconds: markTriangles, binTriangles, tiles (building, all threads), assemble, total. */
  timings: Record<string, number>;
  warnings: string[];
}

export interface TiledBuildResult {
  navMesh: NavMesh;
  stats: TiledBuildStats;
}

/**
 * Triangle soup → tiled navmesh, as Recast's tiled sample: the bounds cut into tiles of
 * `config.tileSize` cells, each built on its own with a border of `borderSizeVoxels` cells so
 * neighbours agree at the seam, tile-border polygon edges linked across tiles by NavMesh.
 * Tiles are added in (tz, tx) order whatever order they finish in, so the navmesh — and
 * serializeNavMesh's bytes — are the same for any number of threads. Empty tiles are skipped.
 * Throws MeshwayError for bad input or config (tileSize must be > 0).
 */
export async function buildTiledNavMesh(
  input: TriangleMeshInput,
  config: Partial<BuildConfig> = {},
  options: TiledBuildOptions = {},
): Promise<TiledBuildResult> {
  const t0 = performance.now();
  const cfg = resolveConfig(config);
  const mesh = validateTriangleMesh(input, options.source);
  const threads = checkThreadCount(options.threads ?? 1);
  const timings: Record<string, number> = {};
  const where = options.source ?? "buildTiledNavMesh";
  checkPolyFlagsHook(options.polyFlags, where);
  const { bmin, bmax } = buildBounds(mesh.positions, options.bounds, where);
  const grid = createTileGrid(bmin, bmax, cfg);
  const side = cfg.tileSize + 2 * cfg.borderSizeVoxels;
  const layers = Math.ceil((bmax[1] - bmin[1]) / cfg.cellHeight) + 1;
  checkGridSize(side, side, layers, cfg.maxVoxels, cfg.cellSize, cfg.cellHeight, true);

  let t = performance.now();
  const { areas: triAreas, degenerateCount } = markWalkableTriangles(
    mesh,
    cfg.walkableSlopeDegrees,
  );
  combineTriangleAreas(triAreas, options.triangleAreas, where);
  timings.markTriangles = performance.now() - t;
  t = performance.now();
  const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize, cfg.maxVoxels);
  timings.binTriangles = performance.now() - t;

  // Jobs: the tiles (of the range) with at least one triangle, in (tz, tx) order.
  const range = checkTileRange(options.tiles, grid);
  const coords: number[] = [];
  for (let tz = range.z0; tz <= range.z1; tz++) {
    for (let tx = range.x0; tx <= range.x1; tx++) {
      const k = tx + tz * grid.tilesX;
      if (bins.offsets[k + 1]! > bins.offsets[k]!) coords.push(tx, tz);
    }
  }
  const jobs = Int32Array.from(coords);
  const jobCount = jobs.length >> 1;
  checkTiledWork(mesh, bins, grid, cfg);

  const setup: TileBuildSetup = {
    positions: mesh.positions,
    indices: mesh.indices,
    triAreas,
    binOffsets: bins.offsets,
    binTriangles: bins.triangles,
    binPad: bins.pad,
    grid,
    config: cfg,
    areaVolumes: options.areaVolumes ?? [],
  };

  const navMesh = new NavMesh(navMeshParams(cfg, grid.bmin, grid.tileWorld, grid.tileWorld));
  const warnings: string[] = [];
  let polygons = 0;
  let vertices = 0;
  let detailTriangles = 0;
  let tiles = 0;
  // Tiles join the navmesh in job order: finished blocks wait until every earlier job is in.
  const pending: (Uint8Array | null | undefined)[] = new Array(jobCount);
  let nextToAdd = 0;
  let done = 0;
  let assembleMs = 0;
  const onResult = (job: number, block: Uint8Array | null, tileWarnings: string[]) => {
    pending[job] = block;
    done++;
    for (const w of tileWarnings) {
      warnings.push(`tile (${jobs[2 * job]}, ${jobs[2 * job + 1]}): ${w}`);
    }
    const ta = performance.now();
    while (nextToAdd < jobCount && pending[nextToAdd] !== undefined) {
      const b = pending[nextToAdd];
      pending[nextToAdd] = null;
      nextToAdd++;
      if (!b) continue;
      const tile = deserializeNavMeshTile(b, "tile block");
      if (options.polyFlags) applyBuildFlags(tile, options.polyFlags);
      navMesh.addTile(tile);
      tiles++;
      polygons += tile.polyCount;
      vertices += tile.vertexCount;
      detailTriangles += tile.detailTriangles.length >> 2;
    }
    assembleMs += performance.now() - ta;
    options.onTile?.(done, jobCount, jobs[2 * job]!, jobs[2 * job + 1]!);
  };

  t = performance.now();
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
  timings.tiles = performance.now() - t - assembleMs;
  timings.assemble = assembleMs;
  if (nextToAdd !== jobCount) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `tile pool finished with ${jobCount - nextToAdd} of ${jobCount} tiles missing`,
    );
  }
  timings.total = performance.now() - t0;
  return {
    navMesh,
    stats: {
      triangles: mesh.triangleCount,
      degenerateTriangles: degenerateCount,
      grid,
      tiles,
      emptyTiles: (range.x1 - range.x0 + 1) * (range.z1 - range.z0 + 1) - tiles,
      polygons,
      vertices,
      detailTriangles,
      threads: pool.threads,
      threadsUsed: pool.threadsUsed ?? pool.threads,
      timings,
      warnings,
    },
  };
}

/**
 * The range to build: the whole grid when none is given; otherwise integers inside the grid,
 * x0 ≤ x1 and z0 ≤ z1, or MeshwayError("INVALID_ARGUMENT") naming the grid's own range.
 */
function checkTileRange(range: TileRange | undefined, grid: TileGrid): TileRange {
  const whole = { x0: 0, x1: grid.tilesX - 1, z0: 0, z1: grid.tilesZ - 1 };
  if (range === undefined) return whole;
  const { x0, x1, z0, z1 } = range;
  const ok =
    [x0, x1, z0, z1].every((v) => Number.isInteger(v)) &&
    x0 >= 0 &&
    z0 >= 0 &&
    x0 <= x1 &&
    z0 <= z1 &&
    x1 <= whole.x1 &&
    z1 <= whole.z1;
  if (!ok) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `tiles ${x0}:${x1},${z0}:${z1} is not a rectangle of the tile grid; the grid has ` +
        `${grid.tilesX} × ${grid.tilesZ} tiles, x 0:${whole.x1}, z 0:${whole.z1}`,
    );
  }
  return { x0, x1, z0, z1 };
}
