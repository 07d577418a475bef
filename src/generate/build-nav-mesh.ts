import { type BuildConfig, type ResolvedConfig, resolveConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { type TriangleMeshInput, validateTriangleMesh } from "../input.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import type { AreaVolume } from "./areas.js";
import {
  applyBuildFlags,
  type BuildHooks,
  buildBounds,
  checkPolyFlagsHook,
  combineTriangleAreas,
} from "./build-hooks.js";
import { BuildContext } from "./context.js";
import { checkGridSize, checkWork, gridAdvice, gridSize, rasterWorkCells } from "./grid.js";
import { navMeshParams } from "./nav-mesh-params.js";
import { createNavMeshTile } from "./nav-mesh-tile.js";
import {
  ALL_PARTITIONS,
  type PartitionRegions,
  type PartitionTable,
  partitionWatershed,
} from "./partition.js";
import { countWalkableSpans, runAreaStage, runCompactStage, runMeshStageWith } from "./pipeline.js";
import { markWalkableTriangles, SpanLimitError } from "./rasterize.js";
import type { BuildScratch } from "./scratch.js";
import type {
  CompactHeightfield,
  ContourSet,
  DistanceField,
  Heightfield,
  PolyMesh,
  PolyMeshDetail,
  Regions,
} from "./types.js";

export interface BuildOptions extends BuildHooks {
  /** Keep every stage's output in `intermediates` (for drawing and debugging). Default false. */
  keepIntermediates?: boolean;
  /** Area volumes applied after erosion, in order. */
  areaVolumes?: AreaVolume[];
  /** Name used in error messages (e.g. the file name). */
  source?: string;
  /** Called after each stage with its name (for progress display). */
  onStage?: (stage: string) => void;
  /**
   * Where the stages keep their scratch memory between builds; default one shared per thread
   * (at most 448 MiB retained; see BuildScratch). Call its `release()` to free it.
   */
  scratch?: BuildScratch;
}

/** Every stage's output; present only with `keepIntermediates`. */
export interface BuildIntermediates {
  config: ResolvedConfig;
  triangleAreas: Uint8Array;
  heightfield: Heightfield;
  compactHeightfield: CompactHeightfield;
  /** Area ids right after compaction, before erosion and area volumes. */
  areasBeforeErosion: Uint8Array;
  distanceField: DistanceField | null;
  regions: Regions;
  contours: ContourSet;
  polyMesh: PolyMesh;
  polyMeshDetail: PolyMeshDetail;
}

export interface BuildStats {
  triangles: number;
  degenerateTriangles: number;
  gridWidth: number;
  gridDepth: number;
  rasterizedSpans: number;
  compactSpans: number;
  walkableSpans: number;
  regions: number;
  contours: number;
  polygons: number;
  vertices: number;
  detailTriangles: number;
  /** What stages skipped or fixed up, by name (e.g. "rasterize.skippedTriangles"). */
  counts: Record<string, number>;
  /** Milliseconds per stage, and `total`. */
  timings: Record<string, number>;
  warnings: string[];
}

export interface BuildResult {
  navMesh: NavMesh;
  intermediates: BuildIntermediates | null;
  stats: BuildStats;
}

/**
 * Triangle soup → single-tile navmesh, Recast's solo pipeline:
 * rasterize → filter → compact → erode → areas → regions → contours → polygons → detail.
 * Throws MeshwayError for bad input or config; everything else is reported in `stats`.
 */
export function buildNavMesh(
  input: TriangleMeshInput,
  config: Partial<BuildConfig> = {},
  options: BuildOptions = {},
): BuildResult {
  return buildSolo(ALL_PARTITIONS, "buildNavMesh", input, config, options);
}

export interface CoreBuildOptions extends BuildOptions {
  /**
   * The partition methods this build may use, by name; default only the watershed
   * (`{ watershed: partitionWatershed }`). Add `{ monotone: partitionMonotone }` or
   * `{ layers: partitionLayers }` to build with those.
   */
  partitions?: PartitionTable;
}

/**
 * {@link buildNavMesh} for apps that care about bundle size: the same build and result, but
 * only the region partition methods in `options.partitions` are bundled (default the
 * watershed, the default `partition`). Another `config.partition` is refused with
 * INVALID_CONFIG.
 */
export function buildNavMeshCore(
  input: TriangleMeshInput,
  config: Partial<BuildConfig> = {},
  options: CoreBuildOptions = {},
): BuildResult {
  const partitions = options.partitions ?? { watershed: partitionWatershed };
  return buildSolo(partitions, "buildNavMeshCore", input, config, options);
}

function buildSolo(
  partitions: PartitionTable,
  fn: string,
  input: TriangleMeshInput,
  config: Partial<BuildConfig>,
  options: BuildOptions,
): BuildResult {
  const t0 = performance.now();
  const cfg = resolveConfig(config);
  const partition: PartitionRegions | undefined = partitions[cfg.partition];
  if (partition === undefined) {
    throw new MeshwayError(
      "INVALID_CONFIG",
      `config option "partition" = "${cfg.partition}" is not among the partitions given to ${fn} (${Object.keys(partitions).join(", ")}); pass it in options.partitions or use buildNavMesh`,
    );
  }
  const mesh = validateTriangleMesh(input, options.source);
  const ctx = new BuildContext(options.scratch);
  const keep = options.keepIntermediates === true;
  const onStage = options.onStage;
  // Stages are timed by laps rather than by wrapping each in a closure: a closure would
  // capture the heightfield and keep it (tens of MB on big scenes) alive until the build ends.
  const timings = ctx.timings;
  let t = performance.now();
  const lap = (stage: string): void => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - t);
    t = now;
    onStage?.(stage);
  };

  const where = options.source ?? fn;
  checkPolyFlagsHook(options.polyFlags, where);
  const { bmin, bmax } = buildBounds(mesh.positions, options.bounds, where);
  const { width, depth } = gridSize(bmin, bmax, cfg.cellSize);
  const layers = Math.ceil((bmax[1] - bmin[1]) / cfg.cellHeight) + 1;
  checkGridSize(width, depth, layers, cfg.maxVoxels, cfg.cellSize, cfg.cellHeight, false);
  const workCells = rasterWorkCells(mesh.positions, mesh.indices, bmin, cfg.cellSize, width, depth);
  checkWork(workCells, `rasterizing ${mesh.triangleCount} triangles`, cfg.maxVoxels, cfg.cellSize);

  t = performance.now();
  const { areas: triangleAreas, degenerateCount } = markWalkableTriangles(
    mesh,
    cfg.walkableSlopeDegrees,
  );
  combineTriangleAreas(triangleAreas, options.triangleAreas, where);
  lap("markTriangles");
  const box = { width, depth, bmin, bmax };
  let compact: ReturnType<typeof runCompactStage>;
  try {
    compact = runCompactStage(mesh.positions, mesh.indices, triangleAreas, box, cfg, ctx, {
      keepHeightfield: keep,
      workCells,
      lap,
    })!;
  } catch (e) {
    if (e instanceof SpanLimitError) {
      const where = options.source === undefined ? "" : `${options.source}: `;
      throw new MeshwayError("GRID_TOO_LARGE", `${where}${e.message}; ${gridAdvice(false)}`);
    }
    throw e;
  }
  const { chf, heightfield, rasterizedSpans } = compact!;
  const areasBeforeErosion = keep ? chf.areas.slice() : chf.areas;
  t = performance.now();
  runAreaStage(chf, cfg, ctx, undefined, options.areaVolumes, lap);
  const walkableSpans = countWalkableSpans(chf);
  t = performance.now();
  const { regions, distanceField, contours, polyMesh, polyMeshDetail } = runMeshStageWith(
    partition,
    chf,
    cfg,
    ctx,
    { keepDistanceField: keep, lap },
  )!;
  const tile = createNavMeshTile(polyMesh, polyMeshDetail);
  if (options.polyFlags) applyBuildFlags(tile, options.polyFlags);
  lap("navMesh");
  // At least a cell wide: a mesh flat in x or z must still save as a loadable file.
  const tileWidth = Math.max(bmax[0] - bmin[0], cfg.cellSize);
  const tileDepth = Math.max(bmax[2] - bmin[2], cfg.cellSize);
  const navMesh = new NavMesh(navMeshParams(cfg, bmin, tileWidth, tileDepth));
  navMesh.addTile(tile);
  ctx.timings.total = performance.now() - t0;
  const stats: BuildStats = {
    triangles: mesh.triangleCount,
    degenerateTriangles: degenerateCount,
    gridWidth: width,
    gridDepth: depth,
    rasterizedSpans,
    compactSpans: chf.spanCount,
    walkableSpans,
    regions: regions.regionCount,
    contours: contours.contours.length,
    polygons: polyMesh.polyCount,
    vertices: polyMesh.vertCount,
    detailTriangles: polyMeshDetail.triCount,
    counts: ctx.counts,
    timings: ctx.timings,
    warnings: ctx.warnings,
  };
  const intermediates: BuildIntermediates | null = keep
    ? {
        config: cfg,
        triangleAreas,
        heightfield: heightfield!,
        compactHeightfield: chf,
        areasBeforeErosion,
        distanceField,
        regions,
        contours,
        polyMesh,
        polyMeshDetail,
      }
    : null;
  return { navMesh, intermediates, stats };
}
