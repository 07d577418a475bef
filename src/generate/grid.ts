import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { SPAN_MAX_HEIGHT } from "./types.js";

/** Axis-aligned bounds of a position array (3 floats per vertex). */
export function computeBounds(positions: Float32Array): { bmin: Vec3; bmax: Vec3 } {
  // Six scalars rather than bmin[k] / bmax[k]: on a cold first build this loop runs in the
  // interpreter, where every array access costs; it then also compiles sooner.
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  for (let i = 0, n = positions.length; i < n; i += 3) {
    const x = positions[i]!;
    const y = positions[i + 1]!;
    const z = positions[i + 2]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { bmin: [minX, minY, minZ], bmax: [maxX, maxY, maxZ] };
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
 * What to change when a grid or heightfield is too large: a solo build is told to go tiled
 * (the CLI flag and the library option), a tiled build (tile heightfields) to use smaller
 * tiles; both may use larger cells or raise maxVoxels.
 */
export function gridAdvice(tiled: boolean): string {
  return tiled
    ? "use a smaller tileSize (--tile-size N) or larger cells, or raise maxVoxels"
    : "use a tiled build (--tile-size 64; library: tileSize), larger cells, or raise maxVoxels";
}

/**
 * Refuses, before anything is allocated, a heightfield of `width` × `depth` columns (the
 * solo grid, or one tile with its border when `tiled`) beyond the 16-bit coordinate range or
 * with more columns than maxVoxels. maxVoxels bounds what a heightfield allocates, as Recast
 * does: its columns up front, then its spans as they are added (createHeightfield's maxSpans
 * = maxVoxels − columns; running out names the triangle being rasterized). The grid's height
 * costs nothing by itself; it is only bounded by the 16-bit span height (SPAN_MAX_HEIGHT).
 */
export function checkGridSize(
  width: number,
  depth: number,
  layers: number,
  maxVoxels: number,
  cellSize: number,
  cellHeight: number,
  tiled: boolean,
): void {
  const what = tiled ? "tile heightfield" : "grid";
  if (width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `${what} of ${width} × ${depth} columns (cellSize ${cellSize}) exceeds ${MAX_GRID_SIDE} cells per side; ${gridAdvice(tiled).replace(", or raise maxVoxels", "")}`,
    );
  }
  if (layers > SPAN_MAX_HEIGHT) {
    // Taller than a span's 16-bit height: surfaces above would be clamped, silently wrong.
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `${what} is ${layers} cells tall (cellHeight ${cellHeight}), more than the ${SPAN_MAX_HEIGHT} a span's height holds; use a larger cellHeight`,
    );
  }
  const columns = width * depth;
  if (columns > maxVoxels) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `${what} of ${width} × ${depth} = ${columns} columns (cellSize ${cellSize}) exceeds maxVoxels ${Math.floor(maxVoxels)} (columns + spans); ${gridAdvice(tiled)}`,
    );
  }
}

/**
 * Cell visits a build may spend per voxel of `maxVoxels`. maxVoxels bounds what a build keeps;
 * the work to get there (rasterizing: every triangle × the columns its box covers; a tiled
 * build: every tile's columns) is bounded at this multiple of it, so 100 000 copies of a huge
 * triangle, or a 10 km world cut into 600 000 tiles, are refused up front instead of running
 * for hours. Real meshes stay far below (a triangle covers a few cells).
 */
export const WORK_CELLS_PER_VOXEL = 8;

/**
 * Columns the rasterizer visits: per triangle, the cells of its XZ box clamped to the grid
 * [bmin, bmin + (width, depth) · cellSize]. Linear in the triangle count; allocates nothing.
 */
export function rasterWorkCells(
  positions: Float32Array,
  indices: Uint32Array,
  bmin: Readonly<Vec3>,
  cellSize: number,
  width: number,
  depth: number,
): number {
  let cells = 0;
  const n = Math.floor(indices.length / 3);
  const minX = bmin[0];
  const minZ = bmin[2];
  // Comparisons instead of Math.min / Math.max of three: cheaper while this one-off pass
  // still runs in the interpreter (a cold first build).
  for (let t = 0; t < n; t++) {
    const a = indices[t * 3]! * 3;
    const b = indices[t * 3 + 1]! * 3;
    const c = indices[t * 3 + 2]! * 3;
    const ax = positions[a]!;
    const bx = positions[b]!;
    const cx = positions[c]!;
    const az = positions[a + 2]!;
    const bz = positions[b + 2]!;
    const cz = positions[c + 2]!;
    let x0 = ax;
    let x1 = ax;
    if (bx < x0) x0 = bx;
    if (bx > x1) x1 = bx;
    if (cx < x0) x0 = cx;
    if (cx > x1) x1 = cx;
    let z0 = az;
    let z1 = az;
    if (bz < z0) z0 = bz;
    if (bz > z1) z1 = bz;
    if (cz < z0) z0 = cz;
    if (cz > z1) z1 = cz;
    let cx0 = Math.floor((x0 - minX) / cellSize);
    let cx1 = Math.floor((x1 - minX) / cellSize);
    let cz0 = Math.floor((z0 - minZ) / cellSize);
    let cz1 = Math.floor((z1 - minZ) / cellSize);
    if (cx0 < 0) cx0 = 0;
    if (cx1 > width - 1) cx1 = width - 1;
    if (cz0 < 0) cz0 = 0;
    if (cz1 > depth - 1) cz1 = depth - 1;
    if (cx1 >= cx0 && cz1 >= cz0) cells += (cx1 - cx0 + 1) * (cz1 - cz0 + 1);
  }
  return cells;
}

/**
 * Refuses a build whose work (`cells` column visits, described by `what`) exceeds
 * WORK_CELLS_PER_VOXEL × maxVoxels, before it starts; the message gives both numbers and
 * what to change.
 */
export function checkWork(cells: number, what: string, maxVoxels: number, cellSize: number): void {
  const limit = WORK_CELLS_PER_VOXEL * maxVoxels;
  if (cells > limit) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `${what} needs ${cells} cell visits (cellSize ${cellSize}), more than the ${Math.floor(limit)} allowed (${WORK_CELLS_PER_VOXEL} × maxVoxels ${Math.floor(maxVoxels)}); use larger cells, or raise maxVoxels to spend the time`,
    );
  }
}
