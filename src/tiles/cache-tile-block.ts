import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { deserializeNavMeshTile, serializeNavMeshTile } from "../format/navmesh-file.js";
import type { AreaVolume } from "../generate/areas.js";
import type { BuildContext } from "../generate/context.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { TriangleMesh } from "../input.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { buildTileCompact, type TriangleBins } from "./build-tile.js";
import { cachedLayers } from "./cached-layer.js";
import {
  compactHeightfieldByteLength,
  deserializeCompactHeightfield,
  writeCompactHeightfield,
} from "./compact-codec.js";
import { layerAreas } from "./layer-grid.js";
import { buildLayerTile } from "./layer-tile.js";
import { areaVolumeBounds } from "./obstacles.js";
import { finalAreas } from "./tile-cache.js";
import { type TileGrid, tilesTouchingBox } from "./tile-grid.js";

/*
 * What a tile cache's worker hands back for one tile: everything TileCache's first build of the
 * tile would have made, as one transferable block.
 *
 *    0  "MWCT", u32 chf length, u32 areas length (= spanCount), u32 tiles length
 *   16  the compact heightfield (compact-codec.ts), un-eroded, as the cache keeps it
 *       the tile's final span areas (erosion and the initial area volumes applied), at a multiple of 8
 *       the layer tiles, at a multiple of 8: u32 layer count L, L × u32 tile length (0: no
 *       polygon), then each tile (serializeNavMeshTile) at a multiple of 8
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
  /** Per heightfield layer (tile-layers.ts) its navmesh tile, null when it has no polygon. */
  tiles: (NavMeshTile | null)[];
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
  const tileBytes = cachedLayers(chf, `tile (${tx}, ${tz})`).map((l) => {
    const tile = buildLayerTile(l.grid, layerAreas(l.grid, areas), cfg, tx, tz, ctx);
    return tile ? serializeNavMeshTile(tile) : null;
  });
  const chfLength = compactHeightfieldByteLength(chf);
  const areasAt = align8(HEADER_SIZE + chfLength);
  const tilesAt = align8(areasAt + areas.length);
  let tilesLength = align8(4 + 4 * tileBytes.length);
  for (const b of tileBytes) tilesLength += align8(b?.length ?? 0);
  const out = new Uint8Array(tilesAt + tilesLength);
  out.set(MAGIC, 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(4, chfLength, true);
  dv.setUint32(8, areas.length, true);
  dv.setUint32(12, tilesLength, true);
  writeCompactHeightfield(out, HEADER_SIZE, chf);
  out.set(areas, areasAt);
  dv.setUint32(tilesAt, tileBytes.length, true);
  let at = tilesAt + align8(4 + 4 * tileBytes.length);
  tileBytes.forEach((b, k) => {
    dv.setUint32(tilesAt + 4 + 4 * k, b?.length ?? 0, true);
    if (b) out.set(b, at);
    at += align8(b?.length ?? 0);
  });
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
  const tilesLength = dv.getUint32(12, true);
  const areasAt = align8(HEADER_SIZE + chfLength);
  const tilesAt = align8(areasAt + areasLength);
  if (tilesAt + tilesLength !== block.length || tilesLength < 8) {
    fail(block.length, `length ${block.length}, the header says ${tilesAt + tilesLength}`);
  }
  const chf = deserializeCompactHeightfield(
    block.subarray(HEADER_SIZE, HEADER_SIZE + chfLength),
    `${source} heightfield`,
  );
  if (areasLength !== chf.spanCount) {
    fail(8, `${areasLength} span areas for ${chf.spanCount} spans`);
  }
  const areas = block.subarray(areasAt, areasAt + areasLength);
  const tv = new DataView(block.buffer, block.byteOffset + tilesAt, tilesLength);
  const count = tv.getUint32(0, true);
  if (4 + 4 * count > tilesLength) fail(tilesAt, `${count} layer tiles do not fit`);
  let at = tilesAt + align8(4 + 4 * count);
  const tiles: (NavMeshTile | null)[] = [];
  for (let k = 0; k < count; k++) {
    const len = tv.getUint32(4 + 4 * k, true);
    if (at + len > block.length) fail(at, `layer tile ${k} runs past the block`);
    tiles.push(
      len > 0
        ? deserializeNavMeshTile(block.subarray(at, at + len), `${source} layer ${k} tile`)
        : null,
    );
    at += align8(len);
  }
  return { chf, areas, tiles };
}
