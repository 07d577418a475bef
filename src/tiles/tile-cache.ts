import { type BuildConfigInput, type ResolvedConfig, resolveConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { AreaVolume } from "../generate/areas.js";
import {
  applyBuildFlags,
  type BuildHooks,
  buildBounds,
  checkPolyFlagsHook,
  combineTriangleAreas,
} from "../generate/build-hooks.js";
import { erodeNewObstructions, erodeWalkableArea } from "../generate/erode.js";
import { checkGridSize } from "../generate/grid.js";
import { navMeshParams } from "../generate/nav-mesh-params.js";
import { markWalkableTriangles } from "../generate/rasterize.js";
import type { CompactHeightfield } from "../generate/types.js";
import { type TriangleMesh, type TriangleMeshInput, validateTriangleMesh } from "../input.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { binTriangles, buildTileCompact, checkTiledWork, type TriangleBins } from "./build-tile.js";
import { type CachedLayer, cachedLayers } from "./cached-layer.js";
import { type LayerGrid, layerAreas, WALKABLE_GHOST } from "./layer-grid.js";
import { adoptLayerDetail, buildLayerTile } from "./layer-tile.js";
import {
  areaVolumeBounds,
  type Bounds3,
  markAreaVolume,
  type ObstacleShape,
  obstacleAsAreaVolume,
  obstacleBounds,
  obstacleChangedSpans,
  validateAreaVolume,
  validateObstacleShape,
} from "./obstacles.js";
import { decodeTileCache, encodeTileCache, type TileCacheState } from "./tile-cache-file.js";
import { createTileGrid, type TileGrid, tilesTouchingBox } from "./tile-grid.js";

/** Options of {@link createTileCache}. */
export interface TileCacheOptions extends BuildHooks {
  /** Area volumes present from the start (ids 1, 2, … in this order; removable later). */
  areaVolumes?: readonly AreaVolume[];
  /** Name used in error messages (e.g. the file name). */
  source?: string;
}

/** What {@link TileCache.update} and {@link TileCache.flush} did. */
export interface TileCacheUpdate {
  /** Dirty tiles brought up to date by this call (those kept unchanged included). */
  rebuilt: number;
  /** Tiles still waiting for a rebuild. */
  pending: number;
  /** True when nothing is pending. */
  done: boolean;
}

/** Running counters of a {@link TileCache} (reset with {@link TileCache.resetStats}). */
export interface TileCacheStats {
  /** addObstacle / updateObstacle / removeObstacle calls. */
  obstacleRequests: number;
  /** addAreaVolume / updateAreaVolume / removeAreaVolume calls. */
  volumeRequests: number;
  /** Sum over requests of the tiles each one touched (old and new bounds for an update). */
  tilesTouched: number;
  /**
   * Dirty tiles brought up to date (a tile touched by several pending requests counts once),
   * including those in `tilesUnchanged`.
   */
  tilesRebuilt: number;
  /**
   * Of those, tiles whose span areas came out as before (say, an obstacle over ground with no
   * floor, or moved by less than a cell): the navmesh tile is kept, and so are refs into it.
   */
  tilesUnchanged: number;
  /**
   * Of the tiles rebuilt, heightfield layers whose navmesh tile was replaced (the others,
   * an obstacle's other storeys say, kept theirs).
   */
  layersRebuilt: number;
  /** Rebuilds that left a layer with no polygon (kept as an empty tile, see TileCache). */
  tilesEmptied: number;
  /** Milliseconds spent rebuilding tiles. */
  rebuildMs: number;
}

/** An obstacle or volume held by the cache: its shape as marked, and its world bounds. */
interface Entry {
  volume: AreaVolume;
  /** The obstacle's shape (obstacles only). */
  shape?: ObstacleShape;
  bounds: Bounds3;
  /** Tile indices (tx + tz * tilesX) its bounds touch, ascending. */
  tiles: number[];
}

/**
 * A tile's first build made elsewhere (createTileCacheAsync's workers): the span areas it was
 * built from (erosion and the initial volumes applied) and one navmesh tile per heightfield
 * layer (tile-layers.ts), null for a layer with no polygon.
 */
export interface PrebuiltCacheTile {
  areas: Uint8Array;
  tiles: (NavMeshTile | null)[];
}

/**
 * What a tile's runtime tiles are built from: the cached compact heightfield (erosion and
 * obstacles need the whole column stack) and its layers, one navmesh tile each.
 */
interface CachedTile {
  chf: CompactHeightfield;
  layers: CachedLayer[];
  /** chf.areas eroded by the agent radius, with no obstacle (computed at the first rebuild). */
  eroded?: Uint8Array;
  /**
   * The same erosion as computed by the cache's construction, kept in memory only: the first
   * rebuild adopts it as `eroded` instead of eroding again. Never saved (a saved cache holds
   * `eroded` only for tiles rebuilt since, like a worker-built one).
   */
  warmEroded?: Uint8Array;
  /**
   * What the layers' current areas were computed from (memory only): the spans the obstacles
   * stamped (obstacleChangedSpans) and the area volumes, in order. A rebuild that finds both
   * equal has nothing to do: the span areas are a function of them.
   */
  lastStamped?: Int32Array;
  lastVolumes?: readonly AreaVolume[];
}

/**
 * A tile's span areas as buildTileFromCompact computes them before partitioning: obstacles
 * stamped, eroded by the agent radius, then the area volumes in order. The obstacle-free
 * erosion of the tile is computed once and kept in `cached.eroded`; obstacles then only
 * re-erode around the spans they cover (erodeNewObstructions, exact).
 */
function tileAreas(
  cached: { chf: CompactHeightfield; eroded?: Uint8Array; warmEroded?: Uint8Array },
  cfg: ResolvedConfig,
  obstacles: readonly AreaVolume[],
  volumes: readonly AreaVolume[],
  out: Uint8Array = new Uint8Array(cached.chf.spanCount),
  marked?: Uint8Array,
): Uint8Array {
  const chf = cached.chf;
  let eroded = cached.eroded;
  if (eroded === undefined) {
    eroded = cached.warmEroded;
    if (eroded === undefined) {
      const base: CompactHeightfield = { ...chf, areas: chf.areas.slice() };
      erodeWalkableArea(base, cfg.walkableRadiusVoxels);
      eroded = base.areas;
    }
    cached.eroded = eroded;
    cached.warmEroded = undefined;
  }
  if (obstacles.length > 0) {
    const stamped = marked ?? markObstacles(chf, obstacles);
    erodeNewObstructions(chf, chf.areas, stamped, eroded, cfg.walkableRadiusVoxels, out);
  } else {
    out.set(eroded);
  }
  if (volumes.length > 0) {
    const work: CompactHeightfield = { ...chf, areas: out };
    for (const v of volumes) markAreaVolume(work, v);
  }
  return out;
}

/** chf.areas with `obstacles` stamped NULL_AREA, in a reused buffer. */
function markObstacles(chf: CompactHeightfield, obstacles: readonly AreaVolume[]): Uint8Array {
  const marked: CompactHeightfield = { ...chf, areas: obstacleScratch(chf.spanCount) };
  marked.areas.set(chf.areas);
  for (const o of obstacles) markAreaVolume(marked, o);
  return marked.areas;
}

function sameInts(a: Int32Array, b: Int32Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A tile's span areas with no cached erosion to reuse: what createTileCacheAsync's workers run
 * for each tile's first build (the same computation as the cache's own first build).
 */
export function finalAreas(
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  obstacles: readonly AreaVolume[],
  volumes: readonly AreaVolume[],
): Uint8Array {
  return tileAreas({ chf }, cfg, obstacles, volumes);
}

/** Reused buffer for a tile's areas with obstacles stamped (before erosion). */
let obstacleBuffer = new Uint8Array(0);
function obstacleScratch(n: number): Uint8Array {
  if (obstacleBuffer.length < n)
    obstacleBuffer = new Uint8Array(Math.max(n, obstacleBuffer.length * 2));
  return obstacleBuffer.subarray(0, n);
}

const NO_SPANS = new Int32Array(0);

/** Whether layerAreas(grid, tileAreas) would equal `last` (read in place, no copy). */
function sameLayerAreas(grid: LayerGrid, tileAreas: Uint8Array, last: Uint8Array): boolean {
  const n = grid.source.length;
  if (last.length !== n) return false;
  const { source, ghost } = grid;
  for (let s = 0; s < n; s++) {
    const a = tileAreas[source[s]!]!;
    if ((ghost[s] === 0 ? a : a !== 0 ? WALKABLE_GHOST : 0) !== last[s]) return false;
  }
  return true;
}

/** Reused buffer for a rebuilt tile's final span areas (layers copy what they keep). */
let areasBuffer = new Uint8Array(0);
function areasScratch(n: number): Uint8Array {
  if (areasBuffer.length < n) areasBuffer = new Uint8Array(Math.max(n, areasBuffer.length * 2));
  return areasBuffer.subarray(0, n);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What building a tile cache needs before its tiles: shared by the sync and async builds. */
export interface TileCachePlan {
  cfg: ResolvedConfig;
  mesh: TriangleMesh;
  grid: TileGrid;
  /** The initial area volumes, validated (ids 1, 2, … in this order). */
  volumes: AreaVolume[];
  /** markWalkableTriangles' area per triangle. */
  triAreas: Uint8Array;
  bins: TriangleBins;
}

/**
 * Validates the input, config and volumes and computes what every tile's build shares: the
 * tile grid, per-triangle areas and the triangles binned per tile.
 */
export function planTileCache(
  input: TriangleMeshInput,
  config: BuildConfigInput,
  options: TileCacheOptions,
): TileCachePlan {
  const cfg = resolveConfig(config);
  const mesh = validateTriangleMesh(input, options.source);
  const where = options.source ?? "createTileCache";
  checkPolyFlagsHook(options.polyFlags, where);
  const { bmin, bmax } = buildBounds(mesh.positions, options.bounds, where);
  const grid = createTileGrid(bmin, bmax, cfg);
  const side = cfg.tileSize + 2 * cfg.borderSizeVoxels;
  const layers = Math.ceil((bmax[1] - bmin[1]) / cfg.cellHeight) + 1;
  checkGridSize(side, side, layers, cfg.maxVoxels, cfg.cellSize, cfg.cellHeight, true);
  const volumes = (options.areaVolumes ?? []).map((v, i) =>
    validateAreaVolume(v, `areaVolumes[${i}]`),
  );
  const { areas: triAreas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
  combineTriangleAreas(triAreas, options.triangleAreas, where);
  const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize, cfg.maxVoxels);
  checkTiledWork(mesh, bins, grid, cfg);
  return { cfg, mesh, grid, volumes, triAreas, bins };
}

/**
 * Builds a tiled navmesh and keeps, per tile, its filtered, compacted, un-eroded compact
 * heightfield, so obstacles and area volumes can be changed at run time by re-running only the
 * later stages (obstacle marking, erosion, area volumes, regions … detail) of the tiles they
 * touch — the geometry is never rasterized again. Single-threaded and blocking; see
 * createTileCacheAsync for the same cache built on workers.
 * Throws MeshwayError for bad input or config (config.tileSize must be > 0).
 */
export function createTileCache(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TileCacheOptions = {},
): { navMesh: NavMesh; cache: TileCache } {
  const { cfg, mesh, grid, volumes, triAreas, bins } = planTileCache(input, config, options);
  const compact: (CompactHeightfield | null)[] = new Array(grid.tilesX * grid.tilesZ).fill(null);
  for (let tz = 0; tz < grid.tilesZ; tz++) {
    for (let tx = 0; tx < grid.tilesX; tx++) {
      compact[tx + tz * grid.tilesX] = buildTileCompact(mesh, triAreas, bins, grid, cfg, tx, tz);
    }
  }
  const navMesh = new NavMesh(navMeshParams(cfg, grid.bmin, grid.tileWorld, grid.tileWorld));
  const cache = new TileCache(navMesh, grid, cfg, compact, volumes, undefined, options.polyFlags);
  return { navMesh, cache };
}

/** Empty stand-in that keeps a layer's navmesh slot while it has no polygon. */
function emptyTile(grid: TileGrid, chf: CompactHeightfield, tx: number, tz: number, nvp: number) {
  const tw = grid.tileWorld;
  const tile: NavMeshTile = {
    tileX: tx,
    tileZ: tz,
    bmin: [grid.bmin[0] + tx * tw, chf.bmin[1], grid.bmin[2] + tz * tw],
    bmax: [grid.bmin[0] + (tx + 1) * tw, chf.bmax[1], grid.bmin[2] + (tz + 1) * tw],
    maxVertsPerPoly: nvp,
    vertexCount: 0,
    vertices: new Float32Array(0),
    polyCount: 0,
    polyVerts: new Uint32Array(0),
    polyNeighbours: new Uint32Array(0),
    polyVertCount: new Uint8Array(0),
    polyAreas: new Uint8Array(0),
    polyFlags: new Uint16Array(0),
    detailMeshes: new Uint32Array(0),
    detailVertices: new Float32Array(0),
    detailTriangles: new Uint8Array(0),
    bvBounds: new Float32Array(0),
    bvIndex: new Int32Array(0),
  };
  return tile;
}

/**
 * Runtime obstacles and area volumes over a tiled navmesh (Detour's dtTileCache, rebuilt on
 * meshway's compact heightfields instead of compressed layers).
 *
 * Requests (add / update / remove of obstacles and area volumes) take effect in the cache at
 * once and mark the tiles they touch dirty; there is no queue limit, a request is never
 * dropped, and several requests touching a tile cost one rebuild. {@link update} rebuilds dirty
 * tiles in (tz, tx) order within a time budget; {@link flush} rebuilds them all. A rebuilt tile
 * is built from its cached compact heightfield with every obstacle (NULL_AREA, before erosion,
 * so the agent radius stays clear around it) and every area volume (after erosion, in id
 * order: a later-added volume wins where volumes overlap) whose bounds reach its heightfield.
 * The result depends only on the set of obstacles and volumes, not on the order of requests.
 * When a dirty tile's span areas come out as before (an obstacle where there is no floor, a
 * move smaller than a cell), the tile is kept as it is, refs included.
 *
 * Replacing a tile removes it from the navmesh and adds the new one in the same slot, so refs
 * into the old tile become invalid (salt) and every query given one returns status
 * "invalidRef" (see classifyRef in src/navmesh/nav-mesh.ts). A tile that
 * obstacles cover entirely keeps its slot with an empty tile (no polygons), so tile order —
 * and serializeNavMesh's bytes — never depends on the order of requests.
 *
 * Area costs: volumes only set area ids on polygons; what an area costs is the query's
 * business — `new QueryFilter().setAreaCost(area, cost)` (cost multiplies distance), or
 * exclude it with flags. Area 0 (no-go) removes the surface altogether.
 *
 * Flags: every tile put in gets its build flags — options.polyFlags(area) when given, else
 * POLY_FLAG_WALK. Run-time changes (navMesh.setPolyFlags & co) on a tile the cache rebuilds
 * are reset with it (its polygons and refs are new; re-apply game state after update(), e.g.
 * setFlagsInVolume over the door, or drive it through area ids and the hook); a dirty tile
 * whose areas come out unchanged is kept as it is, run-time flags included.
 */
export class TileCache {
  readonly navMesh: NavMesh;
  readonly grid: TileGrid;
  readonly config: ResolvedConfig;
  readonly stats: TileCacheStats = {
    obstacleRequests: 0,
    volumeRequests: 0,
    tilesTouched: 0,
    tilesRebuilt: 0,
    tilesUnchanged: 0,
    layersRebuilt: 0,
    tilesEmptied: 0,
    rebuildMs: 0,
  };
  /** Per tile index (tx + tz * tilesX): what it is built from, null for tiles with no floor. */
  private readonly tiles: (CachedTile | null)[];
  private readonly obstacles = new Map<number, Entry>();
  private readonly volumes = new Map<number, Entry>();
  /** Per tile index: ids of the obstacles / volumes touching it, ascending (null when none). */
  private readonly tileObstacles: (number[] | null)[];
  private readonly tileVolumes: (number[] | null)[];
  private readonly dirty: Uint8Array;
  private dirtyCount = 0;
  /** No dirty tile has an index below this. */
  private firstDirty = 0;
  private nextObstacleId = 1;
  private nextVolumeId = 1;
  /** Moving average of one tile rebuild's duration, for update's budget. [ms] */
  private typicalRebuildMs = 0;
  /** Border reach of a tile's heightfield past its square. [world units] */
  private readonly pad: number;
  /** The build's area → flags hook, applied to every tile put in (see rebuildTile). */
  private readonly polyFlags: BuildHooks["polyFlags"];

  /**
   * Use {@link createTileCache} (or createTileCacheAsync). Builds every tile at once (no
   * obstacles yet), except those given in `prebuilt` (per tile index, as createTileCacheAsync's
   * workers built them from the same heightfield and volumes), which are put in as they are.
   */
  constructor(
    navMesh: NavMesh,
    grid: TileGrid,
    config: ResolvedConfig,
    compact: (CompactHeightfield | null)[],
    areaVolumes: readonly AreaVolume[] = [],
    prebuilt?: readonly (PrebuiltCacheTile | null)[],
    polyFlags?: BuildHooks["polyFlags"],
  ) {
    this.navMesh = navMesh;
    this.polyFlags = polyFlags;
    this.grid = grid;
    this.config = config;
    this.pad = config.borderSizeVoxels * config.cellSize;
    const n = grid.tilesX * grid.tilesZ;
    if (compact.length !== n) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `TileCache: ${compact.length} compact heightfields for a grid of ${n} tiles`,
      );
    }
    this.tileObstacles = new Array(n).fill(null);
    this.tileVolumes = new Array(n).fill(null);
    this.dirty = new Uint8Array(n);
    this.tiles = new Array(n).fill(null);
    for (const v of areaVolumes) this.insertVolume(validateAreaVolume(v));
    for (let t = 0; t < n; t++) {
      const chf = compact[t];
      if (!chf) continue;
      const tx = t % grid.tilesX;
      const tz = (t - tx) / grid.tilesX;
      this.tiles[t] = { chf, layers: cachedLayers(chf, `tile (${tx}, ${tz})`) };
      const ready = prebuilt?.[t];
      if (ready) this.putPrebuilt(t, ready);
      else this.rebuildTile(t);
    }
    // The obstacle-free erosion is kept from a tile's first rebuild on, not from construction:
    // a sync and a worker-built cache then hold the same bytes, and untouched tiles hold none.
    for (const c of this.tiles) {
      if (!c) continue;
      c.warmEroded = c.eroded;
      c.eroded = undefined;
    }
    this.dirty.fill(0);
    this.dirtyCount = 0;
    this.resetStats();
  }

  /** Number of obstacles held. */
  get obstacleCount(): number {
    return this.obstacles.size;
  }

  /** Number of area volumes held. */
  get areaVolumeCount(): number {
    return this.volumes.size;
  }

  /** Bytes held by the cached compact heightfields (what the cache costs beyond the navmesh). */
  get cachedBytes(): number {
    let n = 0;
    for (const c of this.tiles) {
      if (!c) continue;
      const h = c.chf;
      n += h.cellFirst.byteLength + h.cellCount.byteLength + h.spanY.byteLength;
      n += h.spanH.byteLength + h.spanCon.byteLength + h.areas.byteLength;
      n += c.eroded?.byteLength ?? 0;
      for (const l of c.layers) {
        const g = l.grid.chf;
        n += g.cellFirst.byteLength + g.cellCount.byteLength + g.spanY.byteLength;
        n += g.spanH.byteLength + g.spanCon.byteLength + g.areas.byteLength;
        n += l.grid.source.byteLength + l.grid.ghost.byteLength + l.grid.portalDirs.byteLength;
        n += (l.areas?.byteLength ?? 0) + (l.restore?.areas.byteLength ?? 0);
      }
    }
    return n;
  }

  /** Tiles waiting for a rebuild. */
  get pending(): number {
    return this.dirtyCount;
  }

  /** The tiles ([tx, tz], in (tz, tx) order) whose heightfield the world box reaches. */
  tilesTouching(bmin: ArrayLike<number>, bmax: ArrayLike<number>): [number, number][] {
    const p = this.pad;
    return tilesTouchingBox(
      this.grid,
      [bmin[0]! - p, bmin[1]!, bmin[2]! - p],
      [bmax[0]! + p, bmax[1]!, bmax[2]! + p],
    );
  }

  /** Adds an obstacle; returns its id (1, 2, …; never reused). Throws for an invalid shape. */
  addObstacle(shape: ObstacleShape): number {
    const s = validateObstacleShape(shape, "addObstacle");
    const id = this.nextObstacleId++;
    this.insert(this.obstacles, this.tileObstacles, id, this.obstacleEntry(s));
    this.stats.obstacleRequests++;
    return id;
  }

  /** Moves or reshapes obstacle `id` in place; the tiles of its old and new bounds rebuild. */
  updateObstacle(id: number, shape: ObstacleShape): void {
    this.checkId(this.obstacles, id, "updateObstacle", "obstacle");
    const s = validateObstacleShape(shape, "updateObstacle");
    this.erase(this.obstacles, this.tileObstacles, id);
    this.insert(this.obstacles, this.tileObstacles, id, this.obstacleEntry(s));
    this.stats.obstacleRequests++;
  }

  /** Removes obstacle `id`; the tiles it touched rebuild. */
  removeObstacle(id: number): void {
    this.checkId(this.obstacles, id, "removeObstacle", "obstacle");
    this.erase(this.obstacles, this.tileObstacles, id);
    this.stats.obstacleRequests++;
  }

  /** The shape of obstacle `id` as the cache holds it (frozen), or undefined. */
  obstacleShape(id: number): ObstacleShape | undefined {
    return this.obstacles.get(id)?.shape;
  }

  /** Live obstacle ids, ascending. */
  obstacleIds(): number[] {
    return [...this.obstacles.keys()].sort((a, b) => a - b);
  }

  /**
   * Adds an area volume (box, cylinder or convex prism with an `area` id 0..63) that relabels
   * the walkable surface inside it; returns its id. Later ids win where volumes overlap.
   */
  addAreaVolume(volume: AreaVolume): number {
    const id = this.insertVolume(validateAreaVolume(volume, "addAreaVolume"));
    this.stats.volumeRequests++;
    return id;
  }

  /** Moves, reshapes or relabels area volume `id` in place (it keeps its precedence). */
  updateAreaVolume(id: number, volume: AreaVolume): void {
    this.checkId(this.volumes, id, "updateAreaVolume", "area volume");
    const v = validateAreaVolume(volume, "updateAreaVolume");
    this.erase(this.volumes, this.tileVolumes, id);
    this.insert(this.volumes, this.tileVolumes, id, this.volumeEntry(v));
    this.stats.volumeRequests++;
  }

  /** Removes area volume `id`; the tiles it touched rebuild. */
  removeAreaVolume(id: number): void {
    this.checkId(this.volumes, id, "removeAreaVolume", "area volume");
    this.erase(this.volumes, this.tileVolumes, id);
    this.stats.volumeRequests++;
  }

  /**
   * Rebuilds dirty tiles in (tz, tx) order within `budgetMs` milliseconds: it stops before a
   * tile that would likely overrun the budget (judged by the recent rebuild times), but always
   * rebuilds at least one tile, so every call makes progress. A rebuild is never cut in half,
   * so one slow tile can overrun. Which tiles a call gets through depends on the clock; the
   * final navmesh does not.
   */
  update(budgetMs: number): TileCacheUpdate {
    if (typeof budgetMs !== "number" || Number.isNaN(budgetMs) || budgetMs < 0) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `update: budgetMs must be a number >= 0, got ${String(budgetMs)}`,
      );
    }
    const start = performance.now();
    let rebuilt = 0;
    while (this.dirtyCount > 0) {
      const t0 = performance.now();
      this.rebuildNextDirty();
      rebuilt++;
      const now = performance.now();
      // Smoothed cost of one rebuild: stop before a tile that would likely overrun the budget.
      const cost = now - t0;
      this.typicalRebuildMs =
        this.typicalRebuildMs === 0 ? cost : 0.8 * this.typicalRebuildMs + 0.2 * cost;
      if (now - start + this.typicalRebuildMs > budgetMs) break;
    }
    return { rebuilt, pending: this.dirtyCount, done: this.dirtyCount === 0 };
  }

  /** Rebuilds every dirty tile now. */
  flush(): TileCacheUpdate {
    let rebuilt = 0;
    while (this.dirtyCount > 0) {
      this.rebuildNextDirty();
      rebuilt++;
    }
    return { rebuilt, pending: 0, done: true };
  }

  /** Zeroes the counters in {@link stats}. */
  resetStats(): void {
    const s = this.stats;
    s.obstacleRequests = 0;
    s.volumeRequests = 0;
    s.tilesTouched = 0;
    s.tilesRebuilt = 0;
    s.tilesUnchanged = 0;
    s.layersRebuilt = 0;
    s.tilesEmptied = 0;
    s.rebuildMs = 0;
  }

  // ----- internals -------------------------------------------------------------------------

  /** The cache's record of a volume (or obstacle, with its shape): bounds and tiles touched. */
  private entry(volume: AreaVolume, bounds: Bounds3, shape?: ObstacleShape): Entry {
    const tiles: number[] = [];
    for (const [tx, tz] of this.tilesTouching(bounds.bmin, bounds.bmax)) {
      tiles.push(tx + tz * this.grid.tilesX);
    }
    return shape ? { volume, bounds, tiles, shape } : { volume, bounds, tiles };
  }

  private obstacleEntry(shape: ObstacleShape): Entry {
    return this.entry(obstacleAsAreaVolume(shape), obstacleBounds(shape), shape);
  }

  private volumeEntry(volume: AreaVolume): Entry {
    return this.entry(volume, areaVolumeBounds(volume));
  }

  private insertVolume(v: AreaVolume): number {
    const id = this.nextVolumeId++;
    this.insert(this.volumes, this.tileVolumes, id, this.volumeEntry(v));
    return id;
  }

  private checkId(map: Map<number, Entry>, id: number, fn: string, what: string): void {
    if (!map.has(id)) {
      throw new MeshwayError("INVALID_ARGUMENT", `${fn}: id ${String(id)} is not a live ${what}`);
    }
  }

  /** Records `entry` under `id` in the per-tile lists (kept ascending) and dirties its tiles. */
  private insert(
    map: Map<number, Entry>,
    perTile: (number[] | null)[],
    id: number,
    entry: Entry,
  ): void {
    map.set(id, entry);
    for (const t of entry.tiles) {
      let list = perTile[t];
      if (!list) perTile[t] = list = [];
      // Ids mostly arrive ascending (new ones); an update re-inserts an older id in place.
      let i = list.length;
      while (i > 0 && list[i - 1]! > id) i--;
      list.splice(i, 0, id);
      this.markDirty(t);
    }
    this.stats.tilesTouched += entry.tiles.length;
  }

  /** Forgets `id` and dirties the tiles it touched. */
  private erase(map: Map<number, Entry>, perTile: (number[] | null)[], id: number): void {
    const entry = map.get(id)!;
    map.delete(id);
    for (const t of entry.tiles) {
      const list = perTile[t]!;
      list.splice(list.indexOf(id), 1);
      if (list.length === 0) perTile[t] = null;
      this.markDirty(t);
    }
    this.stats.tilesTouched += entry.tiles.length;
  }

  private markDirty(t: number): void {
    // Tiles without floor have nothing to rebuild.
    if (!this.tiles[t] || this.dirty[t]) return;
    this.dirty[t] = 1;
    this.dirtyCount++;
    if (t < this.firstDirty) this.firstDirty = t;
  }

  /** Puts a tile built elsewhere in place of tile `t`'s first rebuildTile. */
  private putPrebuilt(t: number, ready: PrebuiltCacheTile): void {
    const cached = this.tiles[t]!;
    const tx = t % this.grid.tilesX;
    const tz = (t - tx) / this.grid.tilesX;
    if (ready.areas.length !== cached.chf.spanCount) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `TileCache: prebuilt tile ${t} has ${ready.areas.length} span areas, its heightfield ${cached.chf.spanCount} spans`,
      );
    }
    if (ready.tiles.length !== cached.layers.length) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `TileCache: prebuilt tile ${t} has ${ready.tiles.length} layer tiles, its heightfield ${cached.layers.length} layers`,
      );
    }
    cached.layers.forEach((layer, l) => {
      const built = ready.tiles[l]!;
      if (built && (built.tileX !== tx || built.tileZ !== tz)) {
        throw new MeshwayError(
          "INVALID_ARGUMENT",
          `TileCache: prebuilt tile for (${tx}, ${tz}) is at (${built.tileX}, ${built.tileZ})`,
        );
      }
      const tile = built ?? emptyTile(this.grid, cached.chf, tx, tz, this.config.vertsPerPoly);
      layer.areas = layerAreas(layer.grid, ready.areas);
      // A first build never has obstacles: the tile can be put back when they all leave.
      layer.obstacleFree = true;
      if (this.polyFlags) applyBuildFlags(tile, this.polyFlags);
      layer.ref = this.navMesh.addTile(tile);
      layer.tile = tile;
    });
  }

  private rebuildNextDirty(): void {
    const n = this.dirty.length;
    let t = this.firstDirty;
    while (t < n && !this.dirty[t]) t++;
    if (t >= n) {
      // Unreachable while dirtyCount > 0; resynchronize rather than loop forever.
      this.dirtyCount = 0;
      this.firstDirty = n;
      return;
    }
    this.dirty[t] = 0;
    this.dirtyCount--;
    this.firstDirty = this.dirtyCount > 0 ? t + 1 : n;
    this.rebuildTile(t);
  }

  /**
   * Rebuilds tile `t`: its span areas from the compact heightfield (obstacles, erosion,
   * volumes: the whole column stack, so the agent radius reaches across storeys), then only
   * the layers whose areas came out changed, each into its own navmesh slot.
   */
  private rebuildTile(t: number): void {
    const cached = this.tiles[t]!;
    const t0 = performance.now();
    const tilesX = this.grid.tilesX;
    const tx = t % tilesX;
    const tz = (t - tx) / tilesX;
    const obstacleIds = this.tileObstacles[t];
    const volumeIds = this.tileVolumes[t];
    const obstacles = obstacleIds ? obstacleIds.map((id) => this.obstacles.get(id)!.volume) : [];
    const areaVolumes = volumeIds ? volumeIds.map((id) => this.volumes.get(id)!.volume) : [];
    const chf = cached.chf;
    let marked: Uint8Array | undefined;
    let stamped: Int32Array = NO_SPANS;
    if (obstacleIds) {
      marked = markObstacles(chf, obstacles);
      stamped = obstacleChangedSpans(
        chf,
        marked,
        obstacleIds.map((id) => this.obstacles.get(id)!.bounds),
      );
    }
    const last = cached.lastStamped;
    if (
      last !== undefined &&
      (cached.eroded ?? cached.warmEroded) !== undefined &&
      sameInts(stamped, last) &&
      sameList(areaVolumes, cached.lastVolumes ?? [])
    ) {
      // A rebuilt tile holds its erosion (what a saved cache keeps), skipped or not.
      if (cached.eroded === undefined) {
        cached.eroded = cached.warmEroded;
        cached.warmEroded = undefined;
      }
      // The obstacles cover the same floor spans as at the last rebuild (none, say: over a
      // void), and the volumes are the same: every layer's areas would come out as they are.
      this.stats.tilesRebuilt++;
      this.stats.tilesUnchanged++;
      this.stats.rebuildMs += performance.now() - t0;
      return;
    }
    const areas = tileAreas(
      cached,
      this.config,
      obstacles,
      areaVolumes,
      areasScratch(chf.spanCount),
      marked,
    );
    cached.lastStamped = stamped;
    cached.lastVolumes = areaVolumes;
    let changed = 0;
    for (const layer of cached.layers) {
      // The rest of the pipeline depends on the layer grid and its span areas only: when those
      // come out as last time, so would the tile, so keep it (and its refs).
      if (layer.areas !== null && sameLayerAreas(layer.grid, areas, layer.areas)) continue;
      this.rebuildLayer(layer, layerAreas(layer.grid, areas), obstacles.length, tx, tz);
      changed++;
    }
    this.stats.tilesRebuilt++;
    this.stats.layersRebuilt += changed;
    if (changed === 0) this.stats.tilesUnchanged++;
    this.stats.rebuildMs += performance.now() - t0;
  }

  /** Brings one layer's navmesh tile up to `areas` (which differ from what it was built from). */
  private rebuildLayer(
    layer: CachedLayer,
    areas: Uint8Array,
    obstacleCount: number,
    tx: number,
    tz: number,
  ): void {
    // Keep the obstacle-free tile while obstacles cover part of it: equal areas later give
    // this very tile.
    if (layer.obstacleFree && layer.tile !== null && layer.areas !== null) {
      layer.restore = { areas: layer.areas, tile: layer.tile };
    }
    const restore = layer.restore;
    layer.areas = areas;
    layer.obstacleFree = obstacleCount === 0;
    if (layer.obstacleFree) layer.restore = undefined;
    let tile: NavMeshTile | null;
    if (restore !== undefined && sameBytes(areas, restore.areas)) {
      tile = restore.tile;
      adoptLayerDetail(layer.grid, tile);
      if (tile.polyCount === 0) this.stats.tilesEmptied++;
    } else {
      // Details come from the last build, else from the obstacle-free one (what a removed
      // obstacle's floor goes back to).
      const base = restore?.tile;
      tile = buildLayerTile(layer.grid, areas, this.config, tx, tz, undefined, true, base);
      if (!tile) {
        tile = emptyTile(this.grid, layer.grid.chf, tx, tz, this.config.vertsPerPoly);
        this.stats.tilesEmptied++;
      }
    }
    // A tile put in starts from its build flags (the hook's, or walk): run-time flag changes
    // on the tile it replaces are reset — its polygons and refs are new. A restored tile
    // object may carry flags written while it was live, so it is reset too.
    applyBuildFlags(tile, this.polyFlags);
    // replaceTile keeps the slot (new salt), so the tile keeps its place in the navmesh.
    // (isValidPolyRef would not do as a liveness check: an empty tile has no polygon 0.)
    const nm = this.navMesh;
    const live = layer.tile !== null && nm.tileInSlot(tileOfRef(layer.ref)) === layer.tile;
    layer.ref = live ? nm.replaceTile(layer.ref, tile) : nm.addTile(tile);
    layer.tile = tile;
  }

  // ----- persistence (src/tiles/tile-cache-file.ts has the format) -------------------------

  /**
   * The whole cache as bytes (a `.tilecache` file image): config, grid, the navmesh as it
   * stands (off-mesh connections included), per tile its compact heightfield, the areas its
   * tile was built from, its obstacle-free erosion and kept obstacle-free tile, obstacles and
   * area volumes with their ids, pending tiles; checksummed and versioned. Deterministic.
   */
  serialize(): Uint8Array {
    return encodeTileCache(this.exportState());
  }

  /**
   * Loads bytes from {@link serialize}: nothing saved is rebuilt (tiles, erosion and areas
   * come back as stored), and later requests give the very bytes they would have given on the
   * saved cache. Throws MeshwayError("INVALID_INPUT", "<source>: <what> at byte N").
   */
  static deserialize(bytes: Uint8Array, source = "tile cache"): TileCache {
    return TileCache.fromState(decodeTileCache(bytes, source));
  }

  /** @internal The cache's state as plain data, for the file writer. */
  exportState(): TileCacheState {
    const liveIndex = new Map<NavMeshTile, number>();
    this.navMesh.tiles.forEach((tile, i) => {
      liveIndex.set(tile, i);
    });
    return {
      navMesh: this.navMesh,
      grid: this.grid,
      config: this.config,
      tiles: this.tiles.map((c, t) => {
        if (!c) return null;
        return {
          chf: c.chf,
          ...(c.eroded ? { eroded: c.eroded } : {}),
          dirty: this.dirty[t] === 1,
          grids: c.layers,
          layers: c.layers.map((l, k) => {
            const index = l.tile ? liveIndex.get(l.tile) : undefined;
            if (index === undefined) {
              throw new MeshwayError(
                "INVALID_ARGUMENT",
                `TileCache.serialize: tile ${t} layer ${k} is not in the navmesh`,
              );
            }
            return {
              liveIndex: index,
              areas: l.areas,
              ...(l.obstacleFree !== undefined ? { obstacleFree: l.obstacleFree } : {}),
              ...(l.restore ? { restore: l.restore } : {}),
            };
          }),
        };
      }),
      obstacles: [...this.obstacles.keys()]
        .sort((a, b) => a - b)
        .map((id) => [id, this.obstacles.get(id)!.shape!]),
      volumes: [...this.volumes.keys()]
        .sort((a, b) => a - b)
        .map((id) => [id, this.volumes.get(id)!.volume]),
      nextObstacleId: this.nextObstacleId,
      nextVolumeId: this.nextVolumeId,
    };
  }

  /** @internal A cache over a loaded state: every field set from it, no tile rebuilt. */
  static fromState(state: TileCacheState): TileCache {
    const c = Object.create(TileCache.prototype) as TileCache;
    const w = c as unknown as Record<string, unknown>;
    const n = state.grid.tilesX * state.grid.tilesZ;
    w.navMesh = state.navMesh;
    w.grid = state.grid;
    w.config = state.config;
    w.pad = state.config.borderSizeVoxels * state.config.cellSize;
    w.stats = {} as TileCacheStats;
    c.resetStats();
    w.obstacles = new Map<number, Entry>();
    w.volumes = new Map<number, Entry>();
    w.tileObstacles = new Array(n).fill(null);
    w.tileVolumes = new Array(n).fill(null);
    w.dirty = new Uint8Array(n);
    w.typicalRebuildMs = 0;
    w.nextObstacleId = state.nextObstacleId;
    w.nextVolumeId = state.nextVolumeId;
    const live = state.navMesh.tiles;
    const slotOf = new Map<NavMeshTile, number>();
    for (let s = 0; s < state.navMesh.slots.length; s++) {
      const tile = state.navMesh.tileInSlot(s);
      if (tile) slotOf.set(tile, s);
    }
    const tiles: (CachedTile | null)[] = new Array(n).fill(null);
    let dirtyCount = 0;
    let firstDirty = n;
    state.tiles.forEach((f, t) => {
      if (!f) return;
      // Tiles and refs now (slots and salts as loaded); the layers when first needed.
      const layerTiles = f.layers.map((saved) => live[saved.liveIndex]!);
      const refs = layerTiles.map((tile) => state.navMesh.polyRef(slotOf.get(tile)!, 0));
      // The heightfield, erosion and layer grids when first read (a loaded file decodes a
      // tile's heightfield then), with the saved layer state put back on the grids.
      const materialize = (): CachedTile => {
        const d = f.load?.();
        const chf = d?.chf ?? f.chf!;
        const out = d?.grids ?? f.grids ?? cachedLayers(chf, `tile ${t}`);
        out.forEach((layer, k) => {
          const saved = f.layers[k]!;
          layer.tile = layerTiles[k]!;
          layer.ref = refs[k]!;
          layer.areas =
            saved.fromTileAreas && d?.tileAreas ? layerAreas(layer.grid, d.tileAreas) : saved.areas;
          if (saved.obstacleFree !== undefined) layer.obstacleFree = saved.obstacleFree;
          if (saved.restore) layer.restore = saved.restore;
        });
        const eroded = d?.eroded ?? f.eroded;
        return { chf, layers: out, ...(eroded ? { eroded } : {}) };
      };
      let cached: CachedTile;
      if (!f.load) cached = materialize();
      else {
        const lazy = {} as CachedTile;
        const fill = (): void => {
          const m = materialize();
          for (const key of ["chf", "layers", "eroded"] as const) {
            Object.defineProperty(lazy, key, {
              value: m[key],
              writable: true,
              enumerable: true,
              configurable: true,
            });
          }
        };
        // Replaced by plain fields on the first read of any (a rebuild or save of the tile).
        for (const key of ["chf", "layers", "eroded"] as const) {
          Object.defineProperty(lazy, key, {
            configurable: true,
            enumerable: true,
            get() {
              fill();
              return lazy[key];
            },
            set(v) {
              fill();
              (lazy as unknown as Record<string, unknown>)[key] = v;
            },
          });
        }
        cached = lazy;
      }
      tiles[t] = cached;
      if (f.dirty) {
        c.dirty[t] = 1;
        dirtyCount++;
        firstDirty = Math.min(firstDirty, t);
      }
    });
    w.tiles = tiles;
    w.dirtyCount = dirtyCount;
    w.firstDirty = firstDirty;
    const file = (map: Map<number, Entry>, perTile: (number[] | null)[], id: number, e: Entry) => {
      map.set(id, e);
      for (const t of e.tiles) (perTile[t] ??= []).push(id);
    };
    for (const [id, shape] of state.obstacles)
      file(c.obstacles, c.tileObstacles, id, c.obstacleEntry(shape));
    for (const [id, v] of state.volumes) file(c.volumes, c.tileVolumes, id, c.volumeEntry(v));
    return c;
  }
}
