import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { AreaVolume } from "../generate/areas.js";
import { BuildContext } from "../generate/context.js";
import { checkWork, gridAdvice, rasterWorkCells } from "../generate/grid.js";
import { createNavMeshTile } from "../generate/nav-mesh-tile.js";
import { runAreaStage, runCompactStage, runMeshStage } from "../generate/pipeline.js";
import { SKIP_TRIANGLE, SpanLimitError } from "../generate/rasterize.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { TriangleMesh } from "../input.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { type TileGrid, tileBounds } from "./tile-grid.js";

/**
 * Which triangles each tile has to rasterize, like Recast's chunky triangle mesh but flat:
 * tile t = tx + tz * tilesX owns `triangles[offsets[t] .. offsets[t + 1])` (triangle indices,
 * ascending). A triangle is listed for every tile whose heightfield box (grown by `pad`) its
 * XZ bounding box overlaps.
 */
export interface TriangleBins {
  offsets: Uint32Array;
  triangles: Uint32Array;
  /** How far past each tile's square the bins reach. [world units] */
  pad: number;
}

/**
 * Bins every triangle into the tiles its XZ bounding box overlaps, each tile's square grown by
 * `padWorld` (default: a 16-cell border plus one cell, enough for any border up to 16 cells;
 * pass `(cfg.borderSizeVoxels + 1) * cfg.cellSize` to bin exactly). The extra cell covers
 * the rasterizer's one-cell tolerance at a heightfield's low edge. Two passes (count, fill):
 * no per-tile arrays. Throws MeshwayError("GRID_TOO_LARGE") before counting into tiles when
 * the bins would hold more than `maxEntries` (triangle, tile) entries.
 */
export function binTriangles(
  mesh: TriangleMesh,
  grid: TileGrid,
  padWorld?: number,
  maxEntries = Number.POSITIVE_INFINITY,
): TriangleBins {
  const pad = padWorld ?? (grid.tileWorld / grid.tileSize) * 17;
  const pos = mesh.positions;
  const idx = mesh.indices;
  const triCount = mesh.triangleCount;
  const tilesX = grid.tilesX;
  const tilesZ = grid.tilesZ;
  const tw = grid.tileWorld;
  const ox = grid.bmin[0];
  const oz = grid.bmin[2];
  const counts = new Uint32Array(tilesX * tilesZ + 1);
  // Tile range per triangle, kept so the fill pass needn't recompute it (4 int32 per triangle).
  const ranges = new Int32Array(triCount * 4);
  let entries = 0;
  for (let t = 0; t < triCount; t++) {
    const a = idx[t * 3]! * 3;
    const b = idx[t * 3 + 1]! * 3;
    const c = idx[t * 3 + 2]! * 3;
    const minX = Math.min(pos[a]!, pos[b]!, pos[c]!);
    const maxX = Math.max(pos[a]!, pos[b]!, pos[c]!);
    const minZ = Math.min(pos[a + 2]!, pos[b + 2]!, pos[c + 2]!);
    const maxZ = Math.max(pos[a + 2]!, pos[b + 2]!, pos[c + 2]!);
    // Tile tx's grown box is [ox + tx * tw - pad, ox + (tx + 1) * tw + pad].
    const x0 = Math.max(0, Math.ceil((minX - ox - pad) / tw) - 1);
    const x1 = Math.min(tilesX - 1, Math.floor((maxX - ox + pad) / tw));
    const z0 = Math.max(0, Math.ceil((minZ - oz - pad) / tw) - 1);
    const z1 = Math.min(tilesZ - 1, Math.floor((maxZ - oz + pad) / tw));
    ranges[t * 4] = x0;
    ranges[t * 4 + 1] = x1;
    ranges[t * 4 + 2] = z0;
    ranges[t * 4 + 3] = z1;
    if (x1 >= x0 && z1 >= z0) entries += (x1 - x0 + 1) * (z1 - z0 + 1);
  }
  // Checked before the per-tile passes, whose time and the entry array grow with it.
  if (entries > maxEntries) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `binning ${triCount} triangles into a ${tilesX} × ${tilesZ} tile grid needs ${entries} (triangle, tile) entries (${entries * 4} bytes), more than maxVoxels ${Math.floor(maxEntries)}; use a larger tileSize or cellSize, or raise maxVoxels`,
    );
  }
  for (let t = 0; t < triCount; t++) {
    const x0 = ranges[t * 4]!;
    const x1 = ranges[t * 4 + 1]!;
    const z0 = ranges[t * 4 + 2]!;
    const z1 = ranges[t * 4 + 3]!;
    for (let tz = z0; tz <= z1; tz++) {
      for (let tx = x0; tx <= x1; tx++) counts[tx + tz * tilesX]!++;
    }
  }
  const offsets = new Uint32Array(tilesX * tilesZ + 1);
  let total = 0;
  for (let i = 0; i < tilesX * tilesZ; i++) {
    offsets[i] = total;
    total += counts[i]!;
  }
  offsets[tilesX * tilesZ] = total;
  const triangles = new Uint32Array(total);
  const fill = counts;
  fill.set(offsets.subarray(0, tilesX * tilesZ));
  for (let t = 0; t < triCount; t++) {
    const x0 = ranges[t * 4]!;
    const x1 = ranges[t * 4 + 1]!;
    const z0 = ranges[t * 4 + 2]!;
    const z1 = ranges[t * 4 + 3]!;
    for (let tz = z0; tz <= z1; tz++) {
      for (let tx = x0; tx <= x1; tx++) triangles[fill[tx + tz * tilesX]!++] = t;
    }
  }
  return { offsets, triangles, pad };
}

/**
 * Refuses, before any tile is built, a tiled build whose total work is out of proportion to
 * maxVoxels: every tile holding a triangle builds a side × side heightfield (a 2-triangle
 * 10 km world at 0.05 m cells is 600 000 of them), and every triangle is rasterized over the
 * columns its box covers (see WORK_CELLS_PER_VOXEL).
 */
export function checkTiledWork(
  mesh: TriangleMesh,
  bins: TriangleBins,
  grid: TileGrid,
  cfg: ResolvedConfig,
): void {
  let jobs = 0;
  for (let k = 0; k < grid.tilesX * grid.tilesZ; k++) {
    if (bins.offsets[k + 1]! > bins.offsets[k]!) jobs++;
  }
  const side = cfg.tileSize + 2 * cfg.borderSizeVoxels;
  checkWork(
    jobs * side * side,
    `building ${jobs} tiles of ${side} × ${side} columns`,
    cfg.maxVoxels,
    cfg.cellSize,
  );
  const width = grid.tilesX * grid.tileSize;
  const depth = grid.tilesZ * grid.tileSize;
  checkWork(
    rasterWorkCells(mesh.positions, mesh.indices, grid.bmin, cfg.cellSize, width, depth),
    `rasterizing ${mesh.triangleCount} triangles`,
    cfg.maxVoxels,
    cfg.cellSize,
  );
}

/** Reused per-thread gather buffers (one tile's triangles, renumbered 0..n-1). */
let gatherIndices = new Uint32Array(3 * 1024);
let gatherAreas = new Uint8Array(1024);

/**
 * Tile (tx, tz)'s compact heightfield: the tile's triangles (with the border) rasterized,
 * filtered and compacted, exactly the solo pipeline's first stages on the tile's grown box.
 * Not eroded and without area volumes: this is what a tile cache keeps, so obstacles can be
 * stamped in and the rest of the pipeline rerun without touching the geometry.
 * `triAreas` are markWalkableTriangles' areas for the whole mesh. Returns null when the tile
 * has no walkable span. `chf.borderSize` is cfg.borderSizeVoxels.
 */
export function buildTileCompact(
  mesh: TriangleMesh,
  triAreas: Uint8Array,
  triIndex: TriangleBins,
  grid: TileGrid,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
  ctx?: BuildContext,
): CompactHeightfield | null {
  checkTile(grid, tx, tz);
  const border = cfg.borderSizeVoxels;
  if (triIndex.pad + 1e-9 < (border + 1) * cfg.cellSize) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `buildTileCompact: triangle bins reach ${triIndex.pad} past each tile, the border needs ${(border + 1) * cfg.cellSize}`,
    );
  }
  const t = tx + tz * grid.tilesX;
  const first = triIndex.offsets[t]!;
  const n = triIndex.offsets[t + 1]! - first;
  if (n === 0) return null;
  if (gatherAreas.length < n) {
    const cap = Math.max(n, gatherAreas.length * 2);
    gatherAreas = new Uint8Array(cap);
    gatherIndices = new Uint32Array(cap * 3);
  }
  const list = triIndex.triangles;
  const src = mesh.indices;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const tri = list[first + i]!;
    const area = triAreas[tri]!;
    if (area === SKIP_TRIANGLE) continue;
    gatherAreas[kept] = area;
    gatherIndices[kept * 3] = src[tri * 3]!;
    gatherIndices[kept * 3 + 1] = src[tri * 3 + 1]!;
    gatherIndices[kept * 3 + 2] = src[tri * 3 + 2]!;
    kept++;
  }
  if (kept === 0) return null;
  const { bmin, bmax } = tileBounds(grid, cfg, tx, tz);
  const size = grid.tileSize + 2 * border;
  let compact: ReturnType<typeof runCompactStage>;
  try {
    compact = runCompactStage(
      mesh.positions,
      gatherIndices.subarray(0, kept * 3),
      gatherAreas.subarray(0, kept),
      { width: size, depth: size, bmin, bmax },
      cfg,
      ctx ?? new BuildContext(),
      { stopWhenEmpty: true },
    );
  } catch (e) {
    if (e instanceof SpanLimitError) throw spanLimitInTile(e, list, first, n, triAreas, tx, tz);
    throw e;
  }
  if (compact === null) return null;
  const chf = compact.chf;
  chf.borderSize = border;
  return chf;
}

/**
 * The tile's span limit error with the triangle renumbered from the tile's gathered list
 * (skipped triangles left out) to the input's numbering, and a tiled build's advice.
 */
function spanLimitInTile(
  e: SpanLimitError,
  list: Uint32Array,
  first: number,
  n: number,
  triAreas: Uint8Array,
  tx: number,
  tz: number,
): MeshwayError {
  let tri = -1;
  for (let i = 0, k = 0; i < n; i++) {
    const t = list[first + i]!;
    if (triAreas[t] === SKIP_TRIANGLE) continue;
    if (k++ === e.triangle) {
      tri = t;
      break;
    }
  }
  const message = e.message.replace(/^rasterizing triangle \d+/, `rasterizing triangle ${tri}`);
  return new MeshwayError("GRID_TOO_LARGE", `tile (${tx}, ${tz}): ${message}; ${gridAdvice(true)}`);
}

export interface TileFromCompactOptions {
  /** Area volumes applied after erosion, in order (as buildNavMesh's). */
  areaVolumes?: readonly AreaVolume[];
  /**
   * Obstacles stamped before erosion (so the agent keeps its radius from them); each marks
   * the spans it covers with its `area`, normally NULL_AREA (0).
   */
  obstacles?: readonly AreaVolume[];
  /**
   * The tile's final span areas, one per span of the compact heightfield: obstacles stamped,
   * eroded by the agent radius, area volumes applied — as computed by a caller that needs
   * them anyway (TileCache compares them with the last build's). When given they are used as
   * they are (read, never modified or copied) and `obstacles` and `areaVolumes` are ignored.
   */
  areas?: Uint8Array;
  ctx?: BuildContext;
}

/**
 * The rest of the pipeline on a tile's compact heightfield (from {@link buildTileCompact}),
 * which is left unchanged (areas are cloned): obstacles, erosion, area volumes (or the given
 * final `areas` instead), regions, contours, polygons and detail with the border trimmed, then
 * the runtime tile at (tx, tz).
 * Returns null when the tile ends up with no polygon.
 */
export function buildTileFromCompact(
  chf: CompactHeightfield,
  grid: TileGrid,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
  options: TileFromCompactOptions = {},
): NavMeshTile | null {
  checkTile(grid, tx, tz);
  const ctx = options.ctx ?? new BuildContext();
  let work: CompactHeightfield;
  if (options.areas !== undefined) {
    if (options.areas.length !== chf.spanCount) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `buildTileFromCompact: options.areas has ${options.areas.length} entries, tile (${tx}, ${tz}) has ${chf.spanCount} spans`,
      );
    }
    work = { ...chf, areas: options.areas };
  } else {
    work = { ...chf, areas: chf.areas.slice() };
    runAreaStage(work, cfg, ctx, options.obstacles, options.areaVolumes);
  }
  if (!hasWalkableSpan(work)) return null;
  const mesh = runMeshStage(work, cfg, ctx, { stopWhenEmpty: true });
  if (mesh === null) return null;
  return createNavMeshTile(mesh.polyMesh, mesh.polyMeshDetail, tx, tz);
}

function hasWalkableSpan(chf: CompactHeightfield): boolean {
  const areas = chf.areas;
  for (let i = 0; i < chf.spanCount; i++) if (areas[i] !== 0) return true;
  return false;
}

function checkTile(grid: TileGrid, tx: number, tz: number): void {
  if (
    !Number.isInteger(tx) ||
    !Number.isInteger(tz) ||
    tx < 0 ||
    tz < 0 ||
    tx >= grid.tilesX ||
    tz >= grid.tilesZ
  ) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `tile (${tx}, ${tz}) is outside the ${grid.tilesX} × ${grid.tilesZ} tile grid`,
    );
  }
}
