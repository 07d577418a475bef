import { type BuildConfig, type ResolvedConfig, resolveConfig } from "../config.js";
import { type TriangleMeshInput, validateTriangleMesh } from "../input.js";
import type { Vec3 } from "../math/vec3.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { markBoxArea, markConvexPolyArea, markCylinderArea } from "./areas.js";
import {
  applyBuildFlags,
  type BuildHooks,
  buildBounds,
  checkPolyFlagsHook,
  combineTriangleAreas,
} from "./build-hooks.js";
import { buildCompactHeightfield, type OpenSpans } from "./compact.js";
import { BuildContext } from "./context.js";
import { buildContours } from "./contours.js";
import { buildPolyMeshDetail } from "./detail.js";
import { erodeWalkableArea } from "./erode.js";
import { filterHeightfield } from "./filter.js";
import { checkGridSize, gridSize } from "./grid.js";
import { countSpans, createHeightfield } from "./heightfield.js";
import { navMeshParams } from "./nav-mesh-params.js";
import { createNavMeshTile } from "./nav-mesh-tile.js";
import { partitionRegions } from "./partition.js";
import { buildPolyMesh } from "./polymesh.js";
import { markWalkableTriangles, rasterizeTriangles } from "./rasterize.js";
import {
  SCRATCH_DIRTY_SPAN,
  SCRATCH_NEIGHBOURS,
  SCRATCH_PENDING,
  SCRATCH_REGION_DIST,
  SCRATCH_SPAN_ORDER,
} from "./region-common.js";
import { adoptScratch, scratchBytes } from "./scratch.js";
import type {
  CompactHeightfield,
  ContourSet,
  DistanceField,
  Heightfield,
  PolyMesh,
  PolyMeshDetail,
  Regions,
} from "./types.js";

/** A volume that relabels the walkable surface inside it (water, road, no-go = area 0 …). */
export type AreaVolume =
  | { kind: "box"; min: Vec3; max: Vec3; area: number }
  | { kind: "cylinder"; center: Vec3; radius: number; height: number; area: number }
  | { kind: "convex"; points: ArrayLike<number>; minY: number; maxY: number; area: number };

export interface BuildOptions extends BuildHooks {
  /** Keep every stage's output in `intermediates` (for drawing and debugging). Default false. */
  keepIntermediates?: boolean;
  /** Area volumes applied after erosion, in order. */
  areaVolumes?: AreaVolume[];
  /** Name used in error messages (e.g. the file name). */
  source?: string;
  /** Called after each stage with its name (for progress display). */
  onStage?: (stage: string) => void;
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
  const t0 = performance.now();
  const cfg = resolveConfig(config);
  const mesh = validateTriangleMesh(input, options.source);
  const ctx = new BuildContext();
  const keep = options.keepIntermediates === true;
  const onStage = options.onStage;
  // Stages are timed inline rather than through ctx.time closures: a closure would capture
  // the heightfield and keep it (tens of MB on big scenes) alive until the build returns.
  const timings = ctx.timings;
  let t = performance.now();
  const lap = (stage: string): void => {
    const now = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (now - t);
    t = now;
    onStage?.(stage);
  };

  const where = options.source ?? "buildNavMesh";
  checkPolyFlagsHook(options.polyFlags, where);
  const { bmin, bmax } = buildBounds(mesh.positions, options.bounds, where);
  const { width, depth } = gridSize(bmin, bmax, cfg.cellSize);
  const layers = Math.ceil((bmax[1] - bmin[1]) / cfg.cellHeight) + 1;
  checkGridSize(width, depth, layers, cfg.maxVoxels, cfg.cellSize, cfg.cellHeight);

  t = performance.now();
  const { areas: triangleAreas, degenerateCount } = markWalkableTriangles(
    mesh,
    cfg.walkableSlopeDegrees,
  );
  combineTriangleAreas(triangleAreas, options.triangleAreas, where);
  lap("markTriangles");
  // Unless kept, the solid heightfield is dead after compaction, so its span pool can live in
  // retained scratch (slot 0 for spans, slot 4 for areas: neither is used before the region
  // stage). Reusing the previous build's resident pages skips allocating, zeroing and faulting
  // in a fresh pool, and taking all the slots hold usually avoids growing it.
  const poolSpans = Math.min(Math.max(width * depth, 1024), 1 << 20);
  let hf: Heightfield | null = createHeightfield(
    width,
    depth,
    bmin,
    bmax,
    cfg.cellSize,
    cfg.cellHeight,
    keep
      ? undefined
      : {
          spans: scratchBytes(SCRATCH_NEIGHBOURS, poolSpans * 8),
          areas: scratchBytes(SCRATCH_DIRTY_SPAN, poolSpans),
        },
  );
  rasterizeTriangles(hf, mesh.positions, mesh.indices, triangleAreas, cfg.walkableClimbVoxels, ctx);
  lap("rasterize");
  const rasterizedSpans = countSpans(hf);
  t = performance.now();
  // The three filters fused into one sweep (same result as running them in order), which
  // also records the open spans for the compact heightfield. The records live in scratch
  // slots that the erosion, distance and region stages use later at 2 or 4 bytes per open
  // span; reserving that much per solid span (>= open spans) lets those stages reuse the
  // same pages rather than allocate again.
  const live = Math.max(rasterizedSpans, 1);
  const open: OpenSpans = {
    y: new Uint16Array(scratchBytes(SCRATCH_SPAN_ORDER, live * 4), 0, rasterizedSpans),
    h: new Uint16Array(scratchBytes(SCRATCH_PENDING, live * 4), 0, rasterizedSpans),
    area: new Uint8Array(scratchBytes(SCRATCH_REGION_DIST, live * 2), 0, rasterizedSpans),
    cellCount: new Uint16Array(width * depth),
  };
  const walkableSolidSpans = filterHeightfield(
    hf,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
    open,
  );
  lap("filter");
  const chf = buildCompactHeightfield(
    hf,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
    ctx,
    walkableSolidSpans,
    open,
  );
  lap("compact");
  // The solid heightfield is dead from here on unless the caller keeps it: drop the only
  // reference so the garbage collector can reuse its memory for the later stages.
  const heightfield = keep ? hf : null;
  // Its span pool (resident, dead) becomes the region stage's neighbour-table scratch when
  // large enough, instead of that stage allocating as much again while the pool awaits GC.
  const pool = hf.spans.buffer;
  if (!keep && pool instanceof ArrayBuffer) {
    adoptScratch(SCRATCH_NEIGHBOURS, pool);
    const poolAreas = hf.spanArea.buffer;
    if (poolAreas instanceof ArrayBuffer) adoptScratch(SCRATCH_DIRTY_SPAN, poolAreas);
  }
  hf = null;
  const areasBeforeErosion = keep ? chf.areas.slice() : chf.areas;
  t = performance.now();
  erodeWalkableArea(chf, cfg.walkableRadiusVoxels);
  lap("erode");
  if (options.areaVolumes?.length) {
    applyAreaVolumes(chf, options.areaVolumes);
    lap("areas");
  }
  let walkableSpans = 0;
  const chfAreas = chf.areas;
  for (let i = 0; i < chf.spanCount; i++) if (chfAreas[i] !== 0) walkableSpans++;

  t = performance.now();
  const { regions, distanceField } = partitionRegions(chf, cfg, 0, keep, ctx);
  lap("regions");
  const contours = buildContours(
    chf,
    regions,
    cfg.edgeMaxErrorVoxels,
    cfg.edgeMaxLenVoxels,
    undefined,
    ctx,
  );
  lap("contours");
  const polyMesh = buildPolyMesh(contours, cfg.vertsPerPoly, ctx);
  lap("polyMesh");
  const polyMeshDetail = buildPolyMeshDetail(
    polyMesh,
    chf,
    regions,
    cfg.detailSampleDistWorld,
    cfg.detailSampleMaxErrorWorld,
    ctx,
  );
  lap("detail");
  const tile = createNavMeshTile(polyMesh, polyMeshDetail);
  if (options.polyFlags) applyBuildFlags(tile, options.polyFlags);
  lap("navMesh");
  const navMesh = new NavMesh(navMeshParams(cfg, bmin, bmax[0] - bmin[0], bmax[2] - bmin[2]));
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

/** Applies area volumes to a compact heightfield in order (rcMark*Area). */
export function applyAreaVolumes(chf: CompactHeightfield, volumes: AreaVolume[]): void {
  for (const v of volumes) {
    if (v.kind === "box") markBoxArea(chf, v.min, v.max, v.area);
    else if (v.kind === "cylinder") markCylinderArea(chf, v.center, v.radius, v.height, v.area);
    else markConvexPolyArea(chf, v.points, v.minY, v.maxY, v.area);
  }
}
