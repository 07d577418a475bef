import type { ResolvedConfig } from "../config.js";
import type { Vec3 } from "../math/vec3.js";
import { type AreaVolume, applyAreaVolumes } from "./areas.js";
import { buildCompactHeightfield, type OpenSpans } from "./compact.js";
import type { BuildContext } from "./context.js";
import { buildContours } from "./contours.js";
import { buildPolyMeshDetail } from "./detail.js";
import { erodeWalkableArea } from "./erode.js";
import { filterHeightfield } from "./filter.js";
import { countSpans, createHeightfield } from "./heightfield.js";
import { type PartitionRegions, partitionRegions } from "./partition.js";
import { buildPolyMesh } from "./polymesh.js";
import { rasterizeTriangles } from "./rasterize.js";
import { MAX_RETAINED_SCRATCH_BYTES } from "./scratch.js";
import type {
  CompactHeightfield,
  ContourSet,
  DistanceField,
  Heightfield,
  PolyMesh,
  PolyMeshDetail,
  Regions,
} from "./types.js";

// Recast's pipeline in two halves, run by the solo build (build-nav-mesh.ts) over the whole
// bounds and by the tiled build (tiles/build-tile.ts) once per tile over its grown box. The
// halves meet at the compact heightfield, which is what a tile cache keeps.

/** Called after each stage with its name (timing and progress). */
export type StageLap = (stage: string) => void;

/** The box the compact stage rasterizes into: `width × depth` cells from `bmin` to `bmax`. */
export interface StageBox {
  width: number;
  depth: number;
  bmin: Vec3;
  bmax: Vec3;
}

export interface CompactStageOptions {
  /** Keep the solid heightfield (intermediates); else its span pool goes back to scratch. */
  keepHeightfield?: boolean;
  /** Stop with null as soon as nothing is rasterized or nothing stays walkable (tiles). */
  stopWhenEmpty?: boolean;
  /**
   * Column visits the rasterizer will make (rasterWorkCells), when known: an upper bound on
   * the spans it can add, used to size the span pool so it rarely has to grow.
   */
  workCells?: number;
  lap?: StageLap;
}

/**
 * Spans the pool starts with: about one per column, more when the work estimate allows up to
 * two per column (most scenes have 1–2 solid spans per column). Growing copies the pool into
 * fresh memory, and on a cold first build the first growth also throws away the rasterizer's
 * optimized code (its growth path had never run); slots reserved but never used are never
 * touched, so over-reserving costs address space only. Capped so the buffer (16 bytes per
 * span, see runCompactStage) stays in retained scratch.
 */
function initialPoolSpans(columns: number, workCells: number | undefined): number {
  const guess = workCells === undefined ? columns : Math.min(workCells, 2 * columns);
  return Math.min(Math.max(columns, guess, 1024), MAX_RETAINED_SCRATCH_BYTES >>> 4);
}

export interface CompactStageResult {
  /** Null unless `keepHeightfield`. */
  heightfield: Heightfield | null;
  chf: CompactHeightfield;
  rasterizedSpans: number;
}

/**
 * The compact stage: rasterize (rcRasterizeTriangles) → the three filters fused into one sweep
 * (rcFilterLowHangingWalkableObstacles, rcFilterLedgeSpans, rcFilterWalkableLowHeightSpans) →
 * compact (rcBuildCompactHeightfield). Laps "rasterize", "filter", "compact".
 */
export function runCompactStage(
  positions: Float32Array,
  indices: Uint32Array,
  triangleAreas: Uint8Array,
  box: StageBox,
  cfg: ResolvedConfig,
  ctx: BuildContext,
  options: CompactStageOptions = {},
): CompactStageResult | null {
  const keep = options.keepHeightfield === true;
  const stop = options.stopWhenEmpty === true;
  const lap = options.lap;
  const scratch = ctx.scratch;
  const { width, depth } = box;
  // Unless kept, the solid heightfield is dead after compaction, so its span pool can live in
  // retained scratch (neighbours for spans, dirtySpans for areas: neither is used before the
  // region stage). Reusing the previous build's resident pages skips allocating, zeroing and
  // faulting in a fresh pool, and taking all the slots hold usually avoids growing it.
  const poolSpans = initialPoolSpans(width * depth, options.workCells);
  const hf = createHeightfield(
    width,
    depth,
    box.bmin,
    box.bmax,
    cfg.cellSize,
    cfg.cellHeight,
    keep
      ? undefined
      : {
          // 16 bytes per span, not the pool's 8: the region stage's neighbour table (16 per
          // open span, at most one per solid span) later reuses this buffer and its pages.
          spans: scratch.bytes("neighbours", poolSpans * 16),
          areas: scratch.bytes("dirtySpans", poolSpans),
        },
    // maxVoxels bounds what the heightfield allocates: its columns, then its spans.
    cfg.maxVoxels - width * depth,
  );
  rasterizeTriangles(hf, positions, indices, triangleAreas, cfg.walkableClimbVoxels, ctx);
  lap?.("rasterize");
  const rasterizedSpans = countSpans(hf);
  if (stop && rasterizedSpans === 0) return null;
  // The filters also record the open spans for the compact heightfield. The records live in
  // slots that the erosion, distance and region stages use later at 2 or 4 bytes per open
  // span; reserving that much per solid span (>= open spans) lets those stages reuse the
  // same pages rather than allocate again.
  const live = Math.max(rasterizedSpans, 1);
  const open: OpenSpans = {
    y: new Uint16Array(scratch.bytes("spanOrder", live * 4), 0, rasterizedSpans),
    h: new Uint16Array(scratch.bytes("spanColumn", live * 4), 0, rasterizedSpans),
    area: new Uint8Array(scratch.bytes("distance", live * 2), 0, rasterizedSpans),
    cellCount: new Uint16Array(width * depth),
  };
  const walkableSolidSpans = filterHeightfield(
    hf,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
    open,
  );
  lap?.("filter");
  if (stop && walkableSolidSpans === 0) return null;
  const chf = buildCompactHeightfield(
    hf,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
    ctx,
    walkableSolidSpans,
    open,
    // A dropped heightfield's column heads become the compact cellFirst (5.4 MB on a
    // 1167 × 1167 grid not held twice).
    !keep,
  );
  lap?.("compact");
  if (!keep) {
    // The dead span pool (resident) becomes the region stage's neighbour-table scratch when
    // large enough, instead of that stage allocating as much again while the pool awaits GC.
    const pool = hf.spans.buffer;
    if (pool instanceof ArrayBuffer) scratch.adopt("neighbours", pool);
    const poolAreas = hf.spanArea.buffer;
    if (poolAreas instanceof ArrayBuffer) scratch.adopt("dirtySpans", poolAreas);
  }
  return { heightfield: keep ? hf : null, chf, rasterizedSpans };
}

/**
 * Area marking on `chf.areas`, in place: obstacles stamped first (so the agent keeps its
 * radius from them), erosion by the agent radius (rcErodeWalkableArea), then area volumes
 * (rcMark*Area). Laps "erode", and "areas" when there are volumes.
 */
export function runAreaStage(
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  ctx: BuildContext,
  obstacles: readonly AreaVolume[] | undefined,
  areaVolumes: readonly AreaVolume[] | undefined,
  lap?: StageLap,
): void {
  if (obstacles?.length) applyAreaVolumes(chf, obstacles);
  erodeWalkableArea(chf, cfg.walkableRadiusVoxels, ctx.scratch);
  lap?.("erode");
  if (areaVolumes?.length) {
    applyAreaVolumes(chf, areaVolumes);
    lap?.("areas");
  }
}

export interface MeshStageOptions {
  /** Keep the watershed's distance field (intermediates). */
  keepDistanceField?: boolean;
  /** Stop with null when no contour or no polygon comes out (tiles). */
  stopWhenEmpty?: boolean;
  lap?: StageLap;
}

export interface MeshStageResult {
  regions: Regions;
  distanceField: DistanceField | null;
  contours: ContourSet;
  polyMesh: PolyMesh;
  polyMeshDetail: PolyMeshDetail;
}

/**
 * The mesh stage on an area-marked compact heightfield (border `chf.borderSize` cells):
 * regions (rcBuildRegions*) → contours (rcBuildContours) → polygons (rcBuildPolyMesh) →
 * detail (rcBuildPolyMeshDetail). Laps "regions", "contours", "polyMesh", "detail".
 */
export function runMeshStage(
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  ctx: BuildContext,
  options: MeshStageOptions = {},
): MeshStageResult | null {
  return runMeshStageWith(partitionRegions, chf, cfg, ctx, options);
}

/**
 * runMeshStage with the region stage given: a bundle that passes one partition method
 * carries only that one (buildNavMeshCore).
 */
export function runMeshStageWith(
  partition: PartitionRegions,
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  ctx: BuildContext,
  options: MeshStageOptions = {},
): MeshStageResult | null {
  const stop = options.stopWhenEmpty === true;
  const lap = options.lap;
  const { regions, distanceField } = partition(
    chf,
    cfg,
    chf.borderSize,
    options.keepDistanceField === true,
    ctx,
  );
  lap?.("regions");
  const contours = buildContours(
    chf,
    regions,
    cfg.edgeMaxErrorVoxels,
    cfg.edgeMaxLenVoxels,
    undefined,
    ctx,
  );
  lap?.("contours");
  if (stop && contours.contours.length === 0) return null;
  const polyMesh = buildPolyMesh(contours, cfg.vertsPerPoly, ctx);
  lap?.("polyMesh");
  if (stop && polyMesh.polyCount === 0) return null;
  const polyMeshDetail = buildPolyMeshDetail(
    polyMesh,
    chf,
    regions,
    cfg.detailSampleDistWorld,
    cfg.detailSampleMaxErrorWorld,
    ctx,
  );
  lap?.("detail");
  return { regions, distanceField, contours, polyMesh, polyMeshDetail };
}

/** Spans whose area is not NULL_AREA. */
export function countWalkableSpans(chf: CompactHeightfield): number {
  let n = 0;
  const areas = chf.areas;
  for (let i = 0; i < chf.spanCount; i++) if (areas[i] !== 0) n++;
  return n;
}
