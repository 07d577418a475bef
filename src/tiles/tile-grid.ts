import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { gridSize } from "../generate/grid.js";
import type { Vec3 } from "../math/vec3.js";
import { MAX_TILES } from "../navmesh/poly-ref.js";

/**
 * The tile layout of a tiled build, as in Recast's tiled sample: the input's bounds cut into
 * square tiles of `tileSize` cells from `bmin`; tile (tx, tz) covers
 * [bmin.x + tx * tileWorld, bmin.x + (tx + 1) * tileWorld] on x (likewise z).
 */
export interface TileGrid {
  bmin: Vec3;
  bmax: Vec3;
  /** Tile side. [cells] */
  tileSize: number;
  tilesX: number;
  tilesZ: number;
  /** Tile side. [world units] */
  tileWorld: number;
}

/** Most tiles a grid may have: slot 0 of a navmesh holds the off-mesh connections. */
const MAX_GRID_TILES = MAX_TILES - 1;

/**
 * The tile grid over the bounds [bmin, bmax] for `cfg.tileSize` (which must be > 0).
 * Throws MeshwayError("INVALID_CONFIG") for a solo config and ("GRID_TOO_LARGE") when the
 * grid would need more tiles than a navmesh holds.
 */
export function createTileGrid(bmin: Vec3, bmax: Vec3, cfg: ResolvedConfig): TileGrid {
  if (!(cfg.tileSize > 0)) {
    throw new MeshwayError(
      "INVALID_CONFIG",
      `config option "tileSize" = ${cfg.tileSize}: a tiled build needs tileSize > 0`,
    );
  }
  const { width, depth } = gridSize(bmin, bmax, cfg.cellSize);
  const tilesX = Math.ceil(width / cfg.tileSize);
  const tilesZ = Math.ceil(depth / cfg.tileSize);
  if (tilesX * tilesZ > MAX_GRID_TILES) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `tile grid of ${tilesX} × ${tilesZ} tiles (tileSize ${cfg.tileSize}, cellSize ${cfg.cellSize}) exceeds ${MAX_GRID_TILES} tiles; use a larger tileSize`,
    );
  }
  return {
    bmin: [bmin[0], bmin[1], bmin[2]],
    bmax: [bmax[0], bmax[1], bmax[2]],
    tileSize: cfg.tileSize,
    tilesX,
    tilesZ,
    tileWorld: cfg.tileSize * cfg.cellSize,
  };
}

/**
 * Bounds of tile (tx, tz)'s heightfield: the tile's square grown by `cfg.borderSizeVoxels`
 * cells on each side (Recast's sample), full grid height on y; float32 values.
 */
export function tileBounds(
  grid: TileGrid,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
): { bmin: Vec3; bmax: Vec3 } {
  // As recast-navigation's generateTiledNavMesh computes them: cell size read back as float32,
  // the sums in double, the result stored as float32 (rcConfig.bmin), so tiles rasterize to
  // the very same voxels.
  const f = Math.fround;
  const cs = f(cfg.cellSize);
  const tcs = grid.tileSize * cs;
  const pad = cfg.borderSizeVoxels * cs;
  const [x0, y0, z0] = grid.bmin;
  return {
    bmin: [f(x0 + tx * tcs - pad), f(y0), f(z0 + tz * tcs - pad)],
    bmax: [f(x0 + (tx + 1) * tcs + pad), f(grid.bmax[1]), f(z0 + (tz + 1) * tcs + pad)],
  };
}

/**
 * Tiles whose square (without border) overlaps the XZ box [bmin, bmax], as [tx, tz] pairs in
 * (tz, tx) order, clamped to the grid. Boxes touching a tile edge count for both tiles.
 */
export function tilesTouchingBox(
  grid: TileGrid,
  bmin: ArrayLike<number>,
  bmax: ArrayLike<number>,
): [number, number][] {
  const out: [number, number][] = [];
  const tw = grid.tileWorld;
  // Closed intervals: a box edge on a tile edge touches the tiles on both sides.
  const x0 = Math.max(0, Math.ceil((bmin[0]! - grid.bmin[0]) / tw) - 1);
  const z0 = Math.max(0, Math.ceil((bmin[2]! - grid.bmin[2]) / tw) - 1);
  const x1 = Math.min(grid.tilesX - 1, Math.floor((bmax[0]! - grid.bmin[0]) / tw));
  const z1 = Math.min(grid.tilesZ - 1, Math.floor((bmax[2]! - grid.bmin[2]) / tw));
  for (let tz = z0; tz <= z1; tz++) for (let tx = x0; tx <= x1; tx++) out.push([tx, tz]);
  return out;
}
