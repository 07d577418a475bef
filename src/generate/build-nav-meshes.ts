import { type BuildConfig, type ResolvedConfig, resolveConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { type TriangleMeshInput, validateTriangleMesh } from "../input.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import type { AreaVolume } from "./areas.js";
import { BuildContext } from "./context.js";
import { checkGridSize, computeBounds, gridSize } from "./grid.js";
import { navMeshParams } from "./nav-mesh-params.js";
import { createNavMeshTile } from "./nav-mesh-tile.js";
import { runAreaStage, runCompactStage, runMeshStage } from "./pipeline.js";
import { markWalkableTriangles } from "./rasterize.js";
import type { CompactHeightfield } from "./types.js";

/** One navmesh of {@link buildNavMeshes}, in the order of the configs. */
export interface MultiBuildResult {
  navMesh: NavMesh;
  config: ResolvedConfig;
  /** Index of the first config whose rasterization and filtering this build reused. */
  sharedWith: number;
  polygons: number;
}

/** Everything rasterization, the filters and compaction read: configs equal here share them. */
function compactKey(cfg: ResolvedConfig): string {
  return [
    cfg.cellSize,
    cfg.cellHeight,
    cfg.walkableSlopeDegrees,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
  ].join(",");
}

function cloneCompact(chf: CompactHeightfield): CompactHeightfield {
  return {
    ...chf,
    bmin: [...chf.bmin],
    bmax: [...chf.bmax],
    cellFirst: chf.cellFirst.slice(),
    cellCount: chf.cellCount.slice(),
    spanY: chf.spanY.slice(),
    spanH: chf.spanH.slice(),
    spanCon: chf.spanCon.slice(),
    areas: chf.areas.slice(),
  };
}

/**
 * Several solo navmeshes of one level for several agents in one call (recastnavigation #325 /
 * #423): configs that agree on everything up to the compact heightfield — cell size and
 * height, slope, agent height and climb in voxels, i.e. usually agents differing only in
 * radius — rasterize, filter and compact once; each then erodes by its own radius and runs
 * regions … detail on its own copy. Each navmesh is byte-identical to `buildNavMesh(input,
 * config)`'s. Throws MeshwayError for bad input or any bad config (naming its index).
 */
export function buildNavMeshes(
  input: TriangleMeshInput,
  configs: readonly Partial<BuildConfig>[],
  options: { areaVolumes?: readonly AreaVolume[]; source?: string } = {},
): MultiBuildResult[] {
  if (!Array.isArray(configs) || configs.length === 0) {
    throw new MeshwayError("INVALID_CONFIG", "buildNavMeshes needs a non-empty array of configs");
  }
  const cfgs = configs.map((c, i) => {
    try {
      return resolveConfig(c);
    } catch (e) {
      if (e instanceof MeshwayError) throw new MeshwayError(e.code, `configs[${i}]: ${e.message}`);
      throw e;
    }
  });
  const mesh = validateTriangleMesh(input, options.source);
  const { bmin, bmax } = computeBounds(mesh.positions);
  const ctx = new BuildContext();
  const shared = new Map<string, { chf: CompactHeightfield; first: number }>();
  return cfgs.map((cfg, i) => {
    const key = compactKey(cfg);
    let base = shared.get(key);
    if (!base) {
      const { width, depth } = gridSize(bmin, bmax, cfg.cellSize);
      const layers = Math.ceil((bmax[1] - bmin[1]) / cfg.cellHeight) + 1;
      checkGridSize(width, depth, layers, cfg.maxVoxels, cfg.cellSize, cfg.cellHeight, false);
      const { areas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
      const box = { width, depth, bmin, bmax };
      const compact = runCompactStage(mesh.positions, mesh.indices, areas, box, cfg, ctx)!;
      // A copy: the compact stage's arrays may sit in scratch that later stages reuse.
      base = { chf: cloneCompact(compact.chf), first: i };
      shared.set(key, base);
    }
    const chf = cloneCompact(base.chf);
    runAreaStage(chf, cfg, ctx, undefined, options.areaVolumes);
    const { polyMesh, polyMeshDetail } = runMeshStage(chf, cfg, ctx)!;
    const navMesh = new NavMesh(navMeshParams(cfg, bmin, bmax[0] - bmin[0], bmax[2] - bmin[2]));
    navMesh.addTile(createNavMeshTile(polyMesh, polyMeshDetail));
    return { navMesh, config: cfg, sharedWith: base.first, polygons: polyMesh.polyCount };
  });
}
