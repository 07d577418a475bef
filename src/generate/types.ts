/**
 * The data every build stage passes to the next. All bulk data is struct-of-arrays in typed
 * arrays; objects exist only per stage output (and per contour), never per span or voxel.
 *
 * Conventions shared by all stages (the same as Recast's, so algorithms read alike):
 * - Grid coordinates: x across `width` columns, z across `depth` rows; column index = x + z * width.
 * - World position of a column's minimum corner: bmin + (x * cellSize, y * cellHeight, z * cellSize).
 * - Directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z (see DIR_OFFSET_X / DIR_OFFSET_Z).
 */

import type { Vec3 } from "../math/vec3.js";

// Area ids belong to the runtime navmesh (polygons carry them); the builder writes them.
export { NULL_AREA, WALKABLE_AREA } from "../navmesh/areas.js";

/** Direction offsets: dir 0 = -x, 1 = +z, 2 = +x, 3 = -z. */
export const DIR_OFFSET_X: readonly number[] = [-1, 0, 1, 0];
export const DIR_OFFSET_Z: readonly number[] = [0, 1, 0, -1];

/** Largest span top a heightfield stores (Uint16 voxel heights). */
export const SPAN_MAX_HEIGHT = 0xffff;

/**
 * Solid heightfield: for every column a linked list (lowest first) of solid spans
 * [bottom, top) in cell-height units, each with an area id. Spans live in a growable
 * pool; each span stores the index of the next one up, -1 ends a list.
 */
export interface Heightfield {
  width: number;
  depth: number;
  bmin: Vec3;
  bmax: Vec3;
  cellSize: number;
  cellHeight: number;
  /** First (lowest) span of each column, -1 when empty. Length width * depth. */
  columnHead: Int32Array;
  /**
   * Span pool, two ints per span s: spans[2s] = bottom | (top << 16) (read the top with
   * `>>> 16`), spans[2s + 1] = index of the next span up the column, -1 at the top. Bounds and
   * link share a cache line, which is what column walks touch. Entries [0, poolUsed) are
   * allocated, some may be on the free list.
   */
  spans: Int32Array;
  /** Area id per pool entry. */
  spanArea: Uint8Array;
  /** Number of pool entries handed out so far (live spans + free list). */
  poolUsed: number;
  /** Head of the free list inside the pool, -1 when empty. */
  freeHead: number;
  /**
   * Most pool entries the heightfield may hand out (maxVoxels minus its columns); adding a
   * span past it throws GRID_TOO_LARGE. Unbounded when absent.
   */
  maxSpans?: number;
}

/** No neighbour in this direction (stored in a span's 8-bit connection slot). */
export const NOT_CONNECTED = 0xff;

/**
 * Compact heightfield: only the open space above walkable-candidate solid spans. Spans of a
 * column are contiguous, lowest first: column c owns spans [cellFirst[c], cellFirst[c] + cellCount[c]).
 * `spanCon` packs, for each direction d, the index of the neighbour span *within the
 * neighbour column* in bits [8d, 8d + 8); NOT_CONNECTED when there is none.
 */
export interface CompactHeightfield {
  width: number;
  depth: number;
  spanCount: number;
  walkableHeightVoxels: number;
  walkableClimbVoxels: number;
  /** Cells on each side that belong to a neighbouring tile's border (0 for solo builds). */
  borderSize: number;
  bmin: Vec3;
  bmax: Vec3;
  cellSize: number;
  cellHeight: number;
  cellFirst: Uint32Array;
  cellCount: Uint16Array;
  /** Floor height of the open span (top of the solid span below), cell-height units. */
  spanY: Uint16Array;
  /** Clearance above the floor, cell-height units, clamped to 0xffff. */
  spanH: Uint16Array;
  spanCon: Uint32Array;
  /** Area id per span; NULL_AREA is not walkable. Stages named erode… and mark… edit it in place. */
  areas: Uint8Array;
}

/** Region id flag: the span lies in the tile border and must not produce polygons. */
export const BORDER_REGION = 0x8000;

/** Output of a region-partition stage: one region id per compact span (0 = none). */
export interface Regions {
  /** Region id per span, possibly with BORDER_REGION set. */
  spanRegion: Uint16Array;
  /** Region ids are in [1, regionCount]. */
  regionCount: number;
}

/** Output of the distance-field stage: each span's distance to the nearest border, in half-cells. */
export interface DistanceField {
  dist: Uint16Array;
  maxDistance: number;
}

/** Contour vertex flag (in the 4th vertex component): vertex is on the tile border. */
export const BORDER_VERTEX = 0x10000;
/** Contour vertex flag: the edge starting at this vertex separates two areas. */
export const AREA_BORDER = 0x20000;
/** Mask of the neighbour region id in the 4th vertex component. */
export const CONTOUR_REG_MASK = 0xffff;

/**
 * One region outline. Vertices are 4 ints each: x, y, z in voxels and a 4th component holding
 * the region on the other side of the edge that starts at this vertex (CONTOUR_REG_MASK bits)
 * plus BORDER_VERTEX / AREA_BORDER flags. In `rawVerts` the 4th component describes the edge that
 * *ends* at the vertex instead (Recast's convention). A hole merged into its outline keeps its
 * rawVerts but has empty verts; consumers skip contours with fewer than 3 vertices.
 */
export interface Contour {
  verts: Int32Array;
  rawVerts: Int32Array;
  region: number;
  area: number;
}

export interface ContourSet {
  contours: Contour[];
  bmin: Vec3;
  bmax: Vec3;
  cellSize: number;
  cellHeight: number;
  width: number;
  depth: number;
  borderSize: number;
  maxError: number;
}

/** Unused vertex slot or missing neighbour in PolyMesh.polys. */
export const MESH_NULL_INDEX = 0xffffffff;
/** Flag in a neighbour slot: edge lies on the tile border; low 2 bits hold the direction. */
export const PORTAL_FLAG = 0x80000000;

/**
 * Convex polygons in voxel coordinates. Polygon p occupies polys[p * 2 * nvp, (p + 1) * 2 * nvp):
 * first nvp vertex indices (MESH_NULL_INDEX pads), then nvp neighbour entries where entry i is
 * the polygon across edge (v[i], v[i+1]) — MESH_NULL_INDEX for a wall, PORTAL_FLAG | dir for a
 * tile-border edge.
 */
export interface PolyMesh {
  /** 3 per vertex: x, y, z in voxels (y in cell heights). */
  verts: Uint16Array;
  vertCount: number;
  polys: Uint32Array;
  polyCount: number;
  regions: Uint16Array;
  flags: Uint16Array;
  areas: Uint8Array;
  maxVertsPerPoly: number;
  bmin: Vec3;
  bmax: Vec3;
  cellSize: number;
  cellHeight: number;
  borderSize: number;
  maxEdgeError: number;
}

/**
 * Per-polygon height detail. For polygon p, meshes[4p..4p+3] = vertBase, vertCount, triBase,
 * triCount. The first vertices of each sub-mesh are the polygon's own vertices in order.
 * tris has 4 bytes per triangle: three sub-mesh-local vertex indices and edge flags
 * (2 bits per edge; 1 = the edge lies on the polygon boundary).
 */
export interface PolyMeshDetail {
  meshes: Uint32Array;
  /** World-space positions, 3 per vertex. */
  verts: Float32Array;
  tris: Uint8Array;
  meshCount: number;
  vertCount: number;
  triCount: number;
}
