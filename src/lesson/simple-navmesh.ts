import { createNavMeshTile } from "../generate/nav-mesh-tile.js";
import { MESH_NULL_INDEX, type PolyMesh, type PolyMeshDetail } from "../generate/types.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import { LESSON_SCENE } from "./scene.js";

/** Vertices per polygon of the cell navmesh: every polygon is one square cell. */
const QUAD = 4;

/**
 * A navmesh whose polygons are the kept cells themselves (one square per cell), so meshway's
 * queries can run on the simple method's surface. The union of these squares is exactly the
 * union of the maximal rectangles (same cells), but a navmesh joins polygons only along whole
 * shared edges, and the rectangles meet in T-junctions; the cell grid has none. Cells touching
 * at a corner only are not joined (nor are they by the rectangles: a pinch, counted as 0).
 *
 * Built through the library's own `createNavMeshTile` from a voxel-space polygon mesh: the
 * lesson grid starts at (0, 0) with the lesson's cell size, so cell corners are whole voxels.
 * Flat at y = 0 (floor height); winding as in meshway's builds (signed XZ area negative).
 */
export function cellNavMesh(kept: Uint8Array): NavMesh {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const cellHeight = 0.1;
  const polyOfCell = new Int32Array(cols * rows).fill(-1);
  let polyCount = 0;
  for (let c = 0; c < cols * rows; c++) if (kept[c]) polyCount++;
  const cells = new Int32Array(polyCount);
  for (let c = 0, p = 0; c < cols * rows; c++) {
    if (!kept[c]) continue;
    polyOfCell[c] = p;
    cells[p++] = c;
  }
  // Lattice corners used by some kept cell, numbered in first-use order.
  const vertOfCorner = new Int32Array((cols + 1) * (rows + 1)).fill(-1);
  const verts: number[] = [];
  const corner = (i: number, j: number): number => {
    const k = i + j * (cols + 1);
    if (vertOfCorner[k]! < 0) {
      vertOfCorner[k] = verts.length / 3;
      verts.push(i, 0, j);
    }
    return vertOfCorner[k]!;
  };
  const neighbour = (i: number, j: number): number =>
    i >= 0 && j >= 0 && i < cols && j < rows && polyOfCell[i + j * cols]! >= 0
      ? polyOfCell[i + j * cols]!
      : MESH_NULL_INDEX;
  const polys = new Uint32Array(polyCount * 2 * QUAD);
  for (let p = 0; p < polyCount; p++) {
    const i = cells[p]! % cols;
    const j = (cells[p]! - i) / cols;
    const base = p * 2 * QUAD;
    // Corners (i, j) → (i, j+1) → (i+1, j+1) → (i+1, j); edge k runs from corner k to k + 1.
    polys[base] = corner(i, j);
    polys[base + 1] = corner(i, j + 1);
    polys[base + 2] = corner(i + 1, j + 1);
    polys[base + 3] = corner(i + 1, j);
    polys[base + QUAD] = neighbour(i - 1, j);
    polys[base + QUAD + 1] = neighbour(i, j + 1);
    polys[base + QUAD + 2] = neighbour(i + 1, j);
    polys[base + QUAD + 3] = neighbour(i, j - 1);
  }
  const vertCount = verts.length / 3;
  const bmin: [number, number, number] = [0, -cellHeight, 0];
  const bmax: [number, number, number] = [cols * cellSize, cellHeight, rows * cellSize];
  const pmesh: PolyMesh = {
    verts: Uint16Array.from(verts),
    vertCount,
    polys,
    polyCount,
    regions: new Uint16Array(polyCount).fill(1),
    flags: new Uint16Array(polyCount),
    areas: new Uint8Array(polyCount).fill(63),
    maxVertsPerPoly: QUAD,
    bmin,
    bmax,
    cellSize,
    cellHeight,
    borderSize: 0,
    maxEdgeError: 0,
  };
  // Detail: each cell is two triangles over its own four corners (edge flag 1 = on the boundary).
  const meshes = new Uint32Array(polyCount * 4);
  const dverts = new Float32Array(polyCount * QUAD * 3);
  const tris = new Uint8Array(polyCount * 2 * 4);
  const onBoundary = 1;
  for (let p = 0; p < polyCount; p++) {
    meshes.set([p * QUAD, QUAD, p * 2, 2], p * 4);
    for (let k = 0; k < QUAD; k++) {
      const v = polys[p * 2 * QUAD + k]!;
      dverts[(p * QUAD + k) * 3] = verts[v * 3]! * cellSize;
      dverts[(p * QUAD + k) * 3 + 2] = verts[v * 3 + 2]! * cellSize;
    }
    tris.set(
      [0, 1, 2, onBoundary | (onBoundary << 2), 0, 2, 3, (onBoundary << 2) | (onBoundary << 4)],
      p * 8,
    );
  }
  const dmesh: PolyMeshDetail = {
    meshes,
    verts: dverts,
    tris,
    meshCount: polyCount,
    vertCount: polyCount * QUAD,
    triCount: polyCount * 2,
  };
  const navMesh = new NavMesh({
    origin: [0, 0, 0],
    tileWidth: cols * cellSize,
    tileDepth: rows * cellSize,
    cellSize,
    cellHeight,
    maxVertsPerPoly: QUAD,
    agentHeight: 0,
    agentRadius: 0,
    agentMaxClimb: 0,
  });
  navMesh.addTile(createNavMeshTile(pmesh, dmesh));
  return navMesh;
}
