import type { ResolvedConfig } from "../config.js";
import { serializeNavMeshTile } from "../format/navmesh-file.js";
import type { AreaVolume } from "../generate/areas.js";
import { BuildContext } from "../generate/context.js";
import type { TriangleMesh } from "../input.js";
import { buildTileCompact, buildTileFromCompact, type TriangleBins } from "./build-tile.js";
import { buildCacheTileBlock, volumesPerTile } from "./cache-tile-block.js";
import type { TileGrid } from "./tile-grid.js";

/**
 * Everything a tile build needs, as plain data: typed arrays (which a worker pool may place in
 * SharedArrayBuffers so every worker sees one copy) and small JSON-like values. Sent to each
 * worker once; jobs are then just tile coordinates.
 */
export interface TileBuildSetup {
  positions: Float32Array;
  indices: Uint32Array;
  /** markWalkableTriangles' area per triangle. */
  triAreas: Uint8Array;
  binOffsets: Uint32Array;
  binTriangles: Uint32Array;
  binPad: number;
  grid: TileGrid;
  /** The config, resolved once by the caller (plain data, so it crosses to workers as is). */
  config: ResolvedConfig;
  areaVolumes: AreaVolume[];
  /**
   * What a job's block holds: "tile" (default) the navmesh tile (serializeNavMeshTile);
   * "cacheTile" a tile cache's tile (cache-tile-block.ts: the un-eroded compact heightfield,
   * its final span areas and the tile, with each area volume applied only to the tiles its
   * bounds reach, as TileCache does).
   */
  output?: "tile" | "cacheTile";
}

/** One finished job: the tile's byte block (serializeNavMeshTile) or null when it is empty. */
export type TileResultHandler = (job: number, block: Uint8Array | null, warnings: string[]) => void;

/**
 * Builds tiles somewhere (this thread, worker threads, Web Workers). `jobs` holds tile
 * coordinates as pairs (tx, tz); `onResult` is called once per job, in completion order, and
 * the promise resolves when every job is done (rejects on the first failure). Blocks cross
 * threads as transferred ArrayBuffers, never as structured-cloned objects.
 */
export interface TileBuildPool {
  readonly threads: number;
  /**
   * Threads the last build really ran on, this one included when it builds too (a pool may
   * use fewer than `threads` when the work or the machine's idle cores do not pay for more).
   * Absent: `threads`.
   */
  readonly threadsUsed?: number;
  buildTiles(
    setup: TileBuildSetup,
    jobs: Int32Array,
    onResult: TileResultHandler,
  ): Promise<(Uint8Array | null)[]>;
  /** Releases the threads. The pool may not be used afterwards. */
  close(): Promise<void>;
}

/** A prepared setup on the building side: the mesh and bins in the shapes the stages take. */
export interface TileBuildState {
  mesh: TriangleMesh;
  triAreas: Uint8Array;
  bins: TriangleBins;
  grid: TileGrid;
  cfg: ResolvedConfig;
  areaVolumes: AreaVolume[];
  output: "tile" | "cacheTile";
  /** "cacheTile" only: per tile index, the indices of the area volumes reaching it. */
  tileVolumes: (number[] | null)[] | null;
}

export function prepareTileBuild(setup: TileBuildSetup): TileBuildState {
  const cfg = setup.config;
  const output = setup.output ?? "tile";
  return {
    mesh: {
      positions: setup.positions,
      indices: setup.indices,
      vertexCount: setup.positions.length / 3,
      triangleCount: setup.indices.length / 3,
    },
    triAreas: setup.triAreas,
    bins: { offsets: setup.binOffsets, triangles: setup.binTriangles, pad: setup.binPad },
    grid: setup.grid,
    cfg,
    areaVolumes: setup.areaVolumes,
    output,
    tileVolumes: output === "cacheTile" ? volumesPerTile(setup.grid, cfg, setup.areaVolumes) : null,
  };
}

/**
 * Builds tile (tx, tz) as a byte block (null when empty) of the setup's `output` kind;
 * warnings go to `ctx`.
 */
export function buildTileBlock(
  state: TileBuildState,
  tx: number,
  tz: number,
  ctx: BuildContext,
): Uint8Array | null {
  if (state.tileVolumes) {
    const picked = state.tileVolumes[tx + tz * state.grid.tilesX];
    const volumes = picked ? picked.map((i) => state.areaVolumes[i]!) : [];
    const { mesh, triAreas, bins, grid, cfg } = state;
    return buildCacheTileBlock(mesh, triAreas, bins, grid, cfg, tx, tz, volumes, ctx);
  }
  const chf = buildTileCompact(
    state.mesh,
    state.triAreas,
    state.bins,
    state.grid,
    state.cfg,
    tx,
    tz,
    ctx,
  );
  if (!chf) return null;
  const tile = buildTileFromCompact(chf, state.grid, state.cfg, tx, tz, {
    areaVolumes: state.areaVolumes,
    ctx,
  });
  return tile ? serializeNavMeshTile(tile) : null;
}

/** Runs every job on the calling thread, in order (threads = 1, and the fallback everywhere). */
export class InProcessTilePool implements TileBuildPool {
  readonly threads = 1;
  readonly threadsUsed = 1;

  async buildTiles(
    setup: TileBuildSetup,
    jobs: Int32Array,
    onResult: TileResultHandler,
  ): Promise<(Uint8Array | null)[]> {
    const state = prepareTileBuild(setup);
    const n = jobs.length >> 1;
    const out: (Uint8Array | null)[] = new Array(n).fill(null);
    for (let j = 0; j < n; j++) {
      const ctx = new BuildContext();
      const block = buildTileBlock(state, jobs[2 * j]!, jobs[2 * j + 1]!, ctx);
      out[j] = block;
      onResult(j, block, ctx.warnings);
    }
    return out;
  }

  async close(): Promise<void> {}
}
