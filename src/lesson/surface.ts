import type { MeshwayLessonBuild } from "./meshway-build.js";
import { distanceToObstacles, insideObstacle, LESSON_SCENE } from "./scene.js";

/** Cell states in the per-cell arrays (one byte per cell, index col + row * cols). */
export const CELL_BLOCKED = 0;
export const CELL_WALKABLE = 1;
export const CELL_REMOVED = 2;

/** Section 2 for one method: voxelize, then filter by the agent radius. */
export interface SurfaceMethod {
  /** Per cell: CELL_BLOCKED (voxelized as obstacle), CELL_WALKABLE, or CELL_REMOVED (by the radius filter). */
  state: Uint8Array;
  /** Walkable cells after voxelizing. */
  voxelWalkable: number;
  /** Walkable cells after filtering by the radius. */
  walkable: number;
  /** voxelWalkable - walkable. */
  removed: number;
  /** Smallest centre-to-obstacle distance over the cells kept (Infinity when none). */
  minDistance: number;
}

/** Section 2: the toy method and meshway's erosion side by side. */
export interface LessonSurface {
  totalCells: number;
  simple: SurfaceMethod;
  meshway: SurfaceMethod;
  /**
   * Cross-check of the toy filter, counted independently (squared distances over the raw
   * obstacle list): voxel-walkable cells whose centre is closer than r to an obstacle. Must
   * equal simple.removed.
   */
  crossCheck: number;
  /** Cells whose walkability after filtering differs between the two methods. */
  differing: number;
  /** Per cell: 1 where they differ. */
  differ: Uint8Array;
  /** Cells whose walkability after voxelizing differs between the two methods. */
  differingVoxel: number;
}

let centreDistance: Float64Array | null = null;
let toyVoxel: Uint8Array | null = null;

/** Radius-independent: each cell centre's distance to the nearest obstacle, and the toy voxelization. */
function toyBase(): { dist: Float64Array; voxel: Uint8Array } {
  if (!centreDistance || !toyVoxel) {
    const { cols, rows, cellSize } = LESSON_SCENE;
    centreDistance = new Float64Array(cols * rows);
    toyVoxel = new Uint8Array(cols * rows);
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < cols; i++) {
        const x = (i + 0.5) * cellSize;
        const z = (j + 0.5) * cellSize;
        // Toy voxelize: the cell is blocked when its centre is inside an obstacle.
        toyVoxel[i + j * cols] = insideObstacle(x, z) ? 0 : 1;
        centreDistance[i + j * cols] = distanceToObstacles(x, z);
      }
    }
  }
  return { dist: centreDistance, voxel: toyVoxel };
}

/** Centre-to-obstacle distance of cell (i, j) (cached). */
export function cellCentreDistance(i: number, j: number): number {
  return toyBase().dist[i + j * LESSON_SCENE.cols]!;
}

function methodFrom(voxel: Uint8Array, walkable: Uint8Array, dist: Float64Array): SurfaceMethod {
  const n = voxel.length;
  const state = new Uint8Array(n);
  let v = 0;
  let w = 0;
  let minDistance = Infinity;
  for (let c = 0; c < n; c++) {
    if (voxel[c]) v++;
    if (walkable[c]) {
      w++;
      if (dist[c]! < minDistance) minDistance = dist[c]!;
      state[c] = CELL_WALKABLE;
    } else {
      state[c] = voxel[c] ? CELL_REMOVED : CELL_BLOCKED;
    }
  }
  return { state, voxelWalkable: v, walkable: w, removed: v - w, minDistance };
}

/** Counts voxel-walkable cells closer than r to some obstacle, straight from the obstacle list. */
function countCloserThan(voxel: Uint8Array, r: number): number {
  const { cols, rows, cellSize, obstacles } = LESSON_SCENE;
  const r2 = r * r;
  let count = 0;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      if (!voxel[i + j * cols]) continue;
      const x = (i + 0.5) * cellSize;
      const z = (j + 0.5) * cellSize;
      for (const o of obstacles) {
        const dx = Math.max(o.x0 - x, 0, x - o.x1);
        const dz = Math.max(o.z0 - z, 0, z - o.z1);
        if (dx * dx + dz * dz < r2) {
          count++;
          break;
        }
      }
    }
  }
  return count;
}

/**
 * The toy filter: a voxel-walkable cell stays when its centre is at least r from every
 * obstacle (continuous distance). Returns the kept cells (1) per cell.
 */
export function toyFilter(radius: number): Uint8Array {
  const { dist, voxel } = toyBase();
  const out = new Uint8Array(voxel.length);
  // #region filter (shown on the explainer page, verbatim)
  for (let c = 0; c < voxel.length; c++) out[c] = voxel[c] && dist[c]! >= radius ? 1 : 0;
  // #endregion
  return out;
}

/** Section 2 at one radius, given meshway's build at that radius. */
export function measureSurface(radius: number, mw: MeshwayLessonBuild): LessonSurface {
  const { dist, voxel } = toyBase();
  const kept = toyFilter(radius);
  const simple = methodFrom(voxel, kept, dist);
  const meshway = methodFrom(mw.voxelWalkable, mw.erodedWalkable, dist);
  const differ = new Uint8Array(kept.length);
  let differing = 0;
  let differingVoxel = 0;
  for (let c = 0; c < kept.length; c++) {
    if (kept[c] !== mw.erodedWalkable[c]) {
      differ[c] = 1;
      differing++;
    }
    if (voxel[c] !== mw.voxelWalkable[c]) differingVoxel++;
  }
  return {
    totalCells: kept.length,
    simple,
    meshway,
    crossCheck: countCloserThan(voxel, radius),
    differing,
    differ,
    differingVoxel,
  };
}
