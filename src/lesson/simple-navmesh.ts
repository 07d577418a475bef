import { createNavMeshTile } from "../generate/nav-mesh-tile.js";
import { MESH_NULL_INDEX, type PolyMesh, type PolyMeshDetail } from "../generate/types.js";
import { NavMesh } from "../navmesh/nav-mesh.js";
import type { CellRectangles } from "./rectangles.js";
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

/**
 * The same surface as {@link cellNavMesh} in ~8× fewer polygons, so the exact search expands
 * far fewer nodes: each maximal rectangle becomes a fan of triangles around its centre. A
 * navmesh joins polygons only along whole shared edges, and the rectangles meet in
 * T-junctions, so each rectangle's sides are first split at every lattice point where the
 * owner across changes: every fan triangle's outer edge then has one neighbour (or none), and
 * both sides of a shared segment carry its two endpoints. (Not the split rectangles
 * themselves: their split points are collinear corners, which the exact search does not
 * expand through.) Vertices are in half cells, so rectangle centres are whole vertices.
 */
export function rectangleNavMesh(rects: CellRectangles): NavMesh {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const cellHeight = 0.1;
  const owner = (i: number, j: number): number =>
    i >= 0 && j >= 0 && i < cols && j < rows ? rects.owner[i + j * cols]! : -1;
  const vertOfCorner = new Int32Array((cols + 1) * (rows + 1)).fill(-1);
  const verts: number[] = [];
  const corner = (i: number, j: number): number => {
    const k = i + j * (cols + 1);
    if (vertOfCorner[k]! < 0) {
      vertOfCorner[k] = verts.length / 3;
      verts.push(2 * i, 0, 2 * j);
    }
    return vertOfCorner[k]!;
  };
  // Per rectangle: its ring of corners and, per side piece (corner k → k + 1), the owner across.
  const rings: number[][] = [];
  const across: number[][] = [];
  const firstTri = new Int32Array(rects.count + 1);
  for (let p = 0; p < rects.count; p++) {
    const c0 = rects.cells[p * 4]!;
    const r0 = rects.cells[p * 4 + 1]!;
    const c1 = rects.cells[p * 4 + 2]!;
    const r1 = rects.cells[p * 4 + 3]!;
    const ring: number[] = [];
    const nb: number[] = [];
    // One side from lattice point (i, j), `len` cells along (di, dj); (oi, oj) = the cell
    // across from its first cell. Winding as cellNavMesh: down the left side, right along
    // the bottom, up the right side, left along the top.
    const side = (
      i: number,
      j: number,
      di: number,
      dj: number,
      len: number,
      oi: number,
      oj: number,
    ) => {
      let prev = Number.NaN;
      for (let s = 0; s < len; s++) {
        const o = owner(oi + s * di, oj + s * dj);
        if (o !== prev) {
          ring.push(corner(i + s * di, j + s * dj));
          nb.push(o);
          prev = o;
        }
      }
    };
    side(c0, r0, 0, 1, r1 - r0, c0 - 1, r0);
    side(c0, r1, 1, 0, c1 - c0, c0, r1);
    side(c1, r1, 0, -1, r1 - r0, c1, r1 - 1);
    side(c1, r0, -1, 0, c1 - c0, c1 - 1, r0 - 1);
    rings.push(ring);
    across.push(nb);
    firstTri[p + 1] = firstTri[p]! + ring.length;
  }
  // Triangle t = firstTri[p] + k of rectangle p: (corner k, corner k + 1, centre). Its outer
  // edge's neighbour is the triangle of the rectangle across whose outer edge runs back.
  const tri = (p: number, k: number) => firstTri[p]! + k;
  const triOfEdge = new Map<number, number>();
  const nv = (cols + 1) * (rows + 1);
  for (let p = 0; p < rects.count; p++) {
    const ring = rings[p]!;
    for (let k = 0; k < ring.length; k++) {
      triOfEdge.set(ring[k]! * nv + ring[(k + 1) % ring.length]!, tri(p, k));
    }
  }
  const polyCount = firstTri[rects.count]!;
  const polys = new Uint32Array(polyCount * 6).fill(MESH_NULL_INDEX);
  for (let p = 0; p < rects.count; p++) {
    const ring = rings[p]!;
    const n = ring.length;
    const centre = verts.length / 3;
    verts.push(
      rects.cells[p * 4]! + rects.cells[p * 4 + 2]!,
      0,
      rects.cells[p * 4 + 1]! + rects.cells[p * 4 + 3]!,
    );
    for (let k = 0; k < n; k++) {
      const a = ring[k]!;
      const b = ring[(k + 1) % n]!;
      const base = tri(p, k) * 6;
      polys[base] = a;
      polys[base + 1] = b;
      polys[base + 2] = centre;
      if (across[p]![k]! >= 0) polys[base + 3] = triOfEdge.get(b * nv + a)!;
      polys[base + 4] = tri(p, (k + 1) % n);
      polys[base + 5] = tri(p, (k + n - 1) % n);
    }
  }
  // Detail: each triangle is its own detail mesh (all three edges on its polygon's boundary).
  const meshes = new Uint32Array(polyCount * 4);
  const dverts = new Float32Array(polyCount * 9);
  const tris = new Uint8Array(polyCount * 4);
  const half = cellSize / 2;
  for (let t = 0; t < polyCount; t++) {
    meshes.set([t * 3, 3, t, 1], t * 4);
    for (let k = 0; k < 3; k++) {
      const v = polys[t * 6 + k]!;
      dverts[(t * 3 + k) * 3] = verts[v * 3]! * half;
      dverts[(t * 3 + k) * 3 + 2] = verts[v * 3 + 2]! * half;
    }
    tris.set([0, 1, 2, 1 | (1 << 2) | (1 << 4)], t * 4);
  }
  const pmesh: PolyMesh = {
    verts: Uint16Array.from(verts),
    vertCount: verts.length / 3,
    polys,
    polyCount,
    regions: new Uint16Array(polyCount).fill(1),
    flags: new Uint16Array(polyCount),
    areas: new Uint8Array(polyCount).fill(63),
    maxVertsPerPoly: 3,
    bmin: [0, -cellHeight, 0],
    bmax: [cols * cellSize, cellHeight, rows * cellSize],
    cellSize: half,
    cellHeight,
    borderSize: 0,
    maxEdgeError: 0,
  };
  const dmesh: PolyMeshDetail = {
    meshes,
    verts: dverts,
    tris,
    meshCount: polyCount,
    vertCount: polyCount * 3,
    triCount: polyCount,
  };
  const navMesh = new NavMesh({
    origin: [0, 0, 0],
    tileWidth: cols * cellSize,
    tileDepth: rows * cellSize,
    cellSize: half,
    cellHeight,
    maxVertsPerPoly: 3,
    agentHeight: 0,
    agentRadius: 0,
    agentMaxClimb: 0,
  });
  navMesh.addTile(createNavMeshTile(pmesh, dmesh));
  return navMesh;
}
