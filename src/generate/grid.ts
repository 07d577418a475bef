import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";

/** Axis-aligned bounds of a position array (3 floats per vertex). */
export function computeBounds(positions: Float32Array): { bmin: Vec3; bmax: Vec3 } {
  const bmin: Vec3 = [Infinity, Infinity, Infinity];
  const bmax: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k]!;
      if (v < bmin[k]!) bmin[k] = v;
      if (v > bmax[k]!) bmax[k] = v;
    }
  }
  return { bmin, bmax };
}

/** Grid columns covering the bounds, rounded like Recast's rcCalcGridSize. */
export function gridSize(
  bmin: Vec3,
  bmax: Vec3,
  cellSize: number,
): { width: number; depth: number } {
  return {
    width: Math.max(1, Math.floor((bmax[0] - bmin[0]) / cellSize + 0.5)),
    depth: Math.max(1, Math.floor((bmax[2] - bmin[2]) / cellSize + 0.5)),
  };
}

/** Largest grid side: polygon mesh vertices are stored as 16-bit voxel coordinates. */
const MAX_GRID_SIDE = 0xfffe;

/**
 * Refuses, before anything is allocated, a grid that exceeds the voxel cap or the 16-bit
 * coordinate range. The message carries the computed size so users can pick a larger cell.
 */
export function checkGridSize(
  width: number,
  depth: number,
  layers: number,
  maxVoxels: number,
  cellSize: number,
  cellHeight: number,
): void {
  const voxels = width * depth * Math.max(1, layers);
  if (width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `grid of ${width} × ${depth} columns (cellSize ${cellSize}) exceeds ${MAX_GRID_SIDE} cells per side; use a larger cellSize or a tiled build`,
    );
  }
  if (voxels > maxVoxels) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `grid of ${width} × ${depth} × ${layers} = ${voxels} voxels (cellSize ${cellSize}, cellHeight ${cellHeight}) exceeds maxVoxels ${Math.floor(maxVoxels)}; raise maxVoxels or use larger cells`,
    );
  }
}
