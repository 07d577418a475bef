import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { deserializeNavMeshTile, serializeNavMeshTile } from "../format/navmesh-file.js";
import type { AreaVolume } from "../generate/areas.js";
import type { BuildContext } from "../generate/context.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { TriangleMesh } from "../input.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { buildTileCompact, buildTileFromCompact, type TriangleBins } from "./build-tile.js";
import {
  compactHeightfieldByteLength,
  deserializeCompactHeightfield,
  writeCompactHeightfield,
} from "./compact-codec.js";
import { areaVolumeBounds } from "./obstacles.js";
import { finalAreas } from "./tile-cache.js";
import { type TileGrid, tilesTouchingBox } from "./tile-grid.js";

/*
 * What a tile cache's worker hands back for one tile: everything TileCache's first build of the
 * tile would have made, as one transferable block.
 *
 *    0  "MWCT", u32 chf length, u32 areas length (= spanCount), u32 tile length (0: no polygon)
 *   16  the compact heightfield (compact-codec.ts), un-eroded, as the cache keeps it
 *       the tile's final span areas (erosion and the initial area volumes applied), at a multiple of 8
 *       the tile (serializeNavMeshTile), at a multiple of 8
 *
 * The reader's arrays are views on the block, so the cache holds the block's buffer for as long
 * as it holds the heightfield.
 */

const MAGIC = [0x4d, 0x57, 0x43, 0x54]; // "MWCT"
const HEADER_SIZE = 16;

const align8 = (n: number) => (n + 7) & ~7;

/** One tile of a tile cache as its workers build it. */
export interface CacheTileParts {
  chf: CompactHeightfield;
  /** Span areas the tile was built from (what TileCache compares the next rebuild against). */
  areas: Uint8Array;
  /** The navmesh tile, null when the tile has floor but no polygon. */
  tile: NavMeshTile | null;
}

/**
 * For each tile index (tx + tz * tilesX), the indices into `volumes` of those whose bounds reach
 * the tile's heightfield (its square grown by the border), ascending — the volumes TileCache
 * applies to that tile (TileCache.tilesTouching on areaVolumeBounds).
 */
export function volumesPerTile(
  grid: TileGrid,
  cfg: ResolvedConfig,
  volumes: readonly AreaVolume[],
): (number[] | null)[] {
  const out: (number[] | null)[] = new Array(grid.tilesX * grid.tilesZ).fill(null);
  const p = cfg.borderSizeVoxels * cfg.cellSize;
  for (let i = 0; i < volumes.length; i++) {
    const { bmin, bmax } = areaVolumeBounds(volumes[i]!);
    const touched = tilesTouchingBox(
      grid,
      [bmin[0] - p, bmin[1], bmin[2] - p],
      [bmax[0] + p, bmax[1], bmax[2] + p],
    );
    for (const [tx, tz] of touched) {
      const t = tx + tz * grid.tilesX;
      let list = out[t];
      if (!list) out[t] = list = [];
      list.push(i);
    }
  }
  return out;
}

/**
 * Tile (tx, tz) as TileCache's first build makes it: the compact heightfield, its final areas
 * (eroded, then `volumes` applied in order) and the tile built from them, packed as one block.
 * Null when the tile has no walkable span (TileCache keeps nothing for it).
 */
export function buildCacheTileBlock(
  mesh: TriangleMesh,
  triAreas: Uint8Array,
  bins: TriangleBins,
  grid: TileGrid,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
  volumes: readonly AreaVolume[],
  ctx?: BuildContext,
): Uint8Array | null {
  const chf = buildTileCompact(mesh, triAreas, bins, grid, cfg, tx, tz, ctx);
  if (!chf) return null;
  const areas = finalAreas(chf, cfg, [], volumes);
  const tile = buildTileFromCompact(chf, grid, cfg, tx, tz, { areas, ctx });
  const tileBytes = tile ? serializeNavMeshTile(tile) : null;
  const chfLength = compactHeightfieldByteLength(chf);
  const areasAt = align8(HEADER_SIZE + chfLength);
  const tileAt = align8(areasAt + areas.length);
  const tileLength = tileBytes?.length ?? 0;
  const out = new Uint8Array(tileAt + tileLength);
  out.set(MAGIC, 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(4, chfLength, true);
  dv.setUint32(8, areas.length, true);
  dv.setUint32(12, tileLength, true);
  writeCompactHeightfield(out, HEADER_SIZE, chf);
  out.set(areas, areasAt);
  if (tileBytes) out.set(tileBytes, tileAt);
  return out;
}

/** Reads a block of {@link buildCacheTileBlock}; MeshwayError("INVALID_INPUT") when malformed. */
export function readCacheTileBlock(block: Uint8Array, source = "cache tile"): CacheTileParts {
  const fail = (at: number, what: string): never => {
    throw new MeshwayError("INVALID_INPUT", `${source}: ${what} at byte ${at}`);
  };
  if (block.length < HEADER_SIZE) fail(block.length, "truncated header");
  for (let i = 0; i < 4; i++) if (block[i] !== MAGIC[i]) fail(0, "not a cache tile block");
  const dv = new DataView(block.buffer, block.byteOffset, HEADER_SIZE);
  const chfLength = dv.getUint32(4, true);
  const areasLength = dv.getUint32(8, true);
  const tileLength = dv.getUint32(12, true);
  const areasAt = align8(HEADER_SIZE + chfLength);
  const tileAt = align8(areasAt + areasLength);
  if (tileAt + tileLength !== block.length) {
    fail(block.length, `length ${block.length}, the header says ${tileAt + tileLength}`);
  }
  const chf = deserializeCompactHeightfield(
    block.subarray(HEADER_SIZE, HEADER_SIZE + chfLength),
    `${source} heightfield`,
  );
  if (areasLength !== chf.spanCount) {
    fail(8, `${areasLength} span areas for ${chf.spanCount} spans`);
  }
  const areas = block.subarray(areasAt, areasAt + areasLength);
  const tile =
    tileLength > 0
      ? deserializeNavMeshTile(block.subarray(tileAt, tileAt + tileLength), `${source} tile`)
      : null;
  return { chf, areas, tile };
}
