import type { QueryFilter } from "../../navmesh/filter.js";
import { tileStateVersion } from "../../navmesh/poly-state.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../navmesh/tile.js";

/**
 * Per-tile adjacency the any-angle search needs and a tile does not store: which vertices
 * touch a wall (only there may a shortest path bend), the polygons around each vertex (to
 * see whether the filter turns a vertex into a corner) and, per polygon edge, the edge
 * index of the same edge in the neighbouring polygon. Derived once per tile object and
 * cached (tile geometry is immutable); hasZeroFlags follows the tile's state version.
 */
export interface TileTopology {
  /** 1 when a wall or tile-border edge ends at the vertex. */
  readonly wallVertex: Uint8Array;
  /** Polygons around vertex v: polysOfVertex[vertexPolyStart[v] .. vertexPolyStart[v + 1]). */
  readonly vertexPolyStart: Int32Array;
  readonly polysOfVertex: Int32Array;
  /** Per polygon edge slot (p * nvp + e): the neighbour's edge index of the same edge, or 255. */
  readonly backEdge: Uint8Array;
  /**
   * 1 for a dead end: a polygon with at most one edge that leads anywhere (neighbour or tile
   * border) — unless it has links (off-mesh ends; check the tile's LinkPool), once entered it
   * can only be left the way it was entered. 2 for a polygon with exactly two such edges (a
   * corridor piece: entered by one, it is left by the other).
   */
  readonly deadEnd: Uint8Array;
  /**
   * deadEnd over the tile's polygon graph with its trees peeled off: polygons are removed
   * while some has at most one edge to a polygon not removed (tile-border edges count as
   * kept; a polygon with one is never removed). A removed polygon (1) belongs to a region
   * joined to the rest by one edge, so a path entering it can only come back out the same way
   * and a shortest path (which never crosses an edge twice: the stretch of edge between the
   * crossings is shorter) enters it only to reach a start or goal inside; 2 for a polygon with
   * exactly two edges to polygons kept (a corridor piece once the trees are gone). A
   * navmesh without holes has a tree of polygons, so most of it is peeled.
   */
  readonly deadTree: Uint8Array;
  /** For a peeled polygon: the neighbour still there when it was peeled (toward the rest), or -1. */
  readonly treeExit: Int32Array;
  /** True when some polygon has flags 0 (fails every include mask). */
  hasZeroFlags: boolean;
  /** tileStateVersion(tile) hasZeroFlags was computed at. */
  stateVersion: number;
}

const cache = new WeakMap<NavMeshTile, TileTopology>();

/** The topology of `tile`, built on first use. */
export function tileTopology(tile: NavMeshTile): TileTopology {
  let t = cache.get(tile);
  if (t === undefined) {
    t = buildTopology(tile);
    cache.set(tile, t);
  } else if (t.stateVersion !== tileStateVersion(tile)) {
    // Flags changed at run time (setPolyFlags & co).
    t.hasZeroFlags = tile.polyFlags.subarray(0, tile.polyCount).includes(0);
    t.stateVersion = tileStateVersion(tile);
  }
  return t;
}

function buildTopology(tile: NavMeshTile): TileTopology {
  const nvp = tile.maxVertsPerPoly;
  const pc = tile.polyCount;
  const vc = tile.vertexCount;
  const pv = tile.polyVerts;
  const nbs = tile.polyNeighbours;
  const counts = tile.polyVertCount;
  const wallVertex = new Uint8Array(vc);
  const start = new Int32Array(vc + 1);
  let hasZeroFlags = false;
  for (let p = 0; p < pc; p++) {
    if (tile.polyFlags[p] === 0) hasZeroFlags = true;
    const n = counts[p]!;
    for (let e = 0; e < n; e++) {
      const v = pv[p * nvp + e]!;
      start[v + 1]!++;
      const nb = nbs[p * nvp + e]!;
      if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) {
        wallVertex[v] = 1;
        wallVertex[pv[p * nvp + (e + 1 === n ? 0 : e + 1)]!] = 1;
      }
    }
  }
  for (let v = 0; v < vc; v++) start[v + 1] = start[v + 1]! + start[v]!;
  const fill = start.slice(0, vc);
  const polys = new Int32Array(start[vc]!);
  const backEdge = new Uint8Array(pc * nvp).fill(255);
  for (let p = 0; p < pc; p++) {
    const n = counts[p]!;
    for (let e = 0; e < n; e++) {
      const a = pv[p * nvp + e]!;
      polys[fill[a]!++] = p;
      const nb = nbs[p * nvp + e]!;
      if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) continue;
      // The neighbour walks the shared edge the other way: (b, a).
      const q = nb - 1;
      const b = pv[p * nvp + (e + 1 === n ? 0 : e + 1)]!;
      const m = counts[q]!;
      for (let f = 0; f < m; f++) {
        if (pv[q * nvp + f] === b && pv[q * nvp + (f + 1 === m ? 0 : f + 1)] === a) {
          backEdge[p * nvp + e] = f;
          break;
        }
      }
    }
  }
  const deadEnd = new Uint8Array(pc);
  for (let p = 0; p < pc; p++) {
    let open = 0;
    for (let e = 0; e < counts[p]!; e++) if (nbs[p * nvp + e] !== EDGE_WALL) open++;
    if (open <= 1) deadEnd[p] = 1;
    else if (open === 2) deadEnd[p] = 2;
  }
  const { deadTree, treeExit } = peelTrees(tile);
  return {
    wallVertex,
    deadTree,
    treeExit,
    vertexPolyStart: start,
    polysOfVertex: polys,
    backEdge,
    deadEnd,
    hasZeroFlags,
    stateVersion: tileStateVersion(tile),
  };
}

/** TileTopology.deadTree and treeExit (leaf peeling, a stack of polygons down to one edge). */
function peelTrees(tile: NavMeshTile): { deadTree: Uint8Array; treeExit: Int32Array } {
  const nvp = tile.maxVertsPerPoly;
  const pc = tile.polyCount;
  const nbs = tile.polyNeighbours;
  const counts = tile.polyVertCount;
  const open = new Int32Array(pc);
  const border = new Uint8Array(pc);
  const deadTree = new Uint8Array(pc);
  const treeExit = new Int32Array(pc).fill(-1);
  for (let p = 0; p < pc; p++) {
    for (let e = 0; e < counts[p]!; e++) {
      const nb = nbs[p * nvp + e]!;
      if (nb === EDGE_WALL) continue;
      open[p]!++;
      if (nb >= EDGE_TILE_BORDER) border[p] = 1;
    }
  }
  const stack = new Int32Array(pc);
  let top = 0;
  for (let p = 0; p < pc; p++) {
    if (open[p]! <= 1 && border[p] === 0) {
      deadTree[p] = 1;
      stack[top++] = p;
    }
  }
  // open[p] counts p's neighbours not yet taken off the stack (popped), so a polygon popped
  // has at most one left: its exit. Every edge between peeled polygons is the exit of the end
  // popped first, so following exits from any peeled polygon walks its tree toward the rest.
  const popped = new Uint8Array(pc);
  while (top > 0) {
    const p = stack[--top]!;
    popped[p] = 1;
    for (let e = 0; e < counts[p]!; e++) {
      const nb = nbs[p * nvp + e]!;
      if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) continue;
      const q = nb - 1;
      if (popped[q] === 1) continue;
      treeExit[p] = q;
      open[q]!--;
      if (deadTree[q] === 0 && open[q]! <= 1 && border[q] === 0) {
        deadTree[q] = 1;
        stack[top++] = q;
      }
    }
  }
  for (let p = 0; p < pc; p++) if (deadTree[p] === 0 && open[p] === 2) deadTree[p] = 2;
  return { deadTree, treeExit };
}

/**
 * True when vertex v of the tile touches an obstacle for this filter: a wall or tile-border
 * edge ends there, or a polygon around it is excluded. `filterOpen` says the filter passes
 * every polygon of the tile (then only walls count).
 */
export function isCornerVertex(
  tile: NavMeshTile,
  topo: TileTopology,
  v: number,
  filter: QueryFilter,
  filterOpen: boolean,
): boolean {
  if (topo.wallVertex[v] === 1) return true;
  return !filterOpen && aroundExcluded(tile, topo, v, filter);
}

/** True when a polygon around vertex v fails the filter's flags (out of line: rare). */
function aroundExcluded(
  tile: NavMeshTile,
  topo: TileTopology,
  v: number,
  filter: QueryFilter,
): boolean {
  const include = filter.includeFlags;
  const exclude = filter.excludeFlags;
  const flags = tile.polyFlags;
  const end = topo.vertexPolyStart[v + 1]!;
  for (let i = topo.vertexPolyStart[v]!; i < end; i++) {
    const f = flags[topo.polysOfVertex[i]!]!;
    if ((f & include) === 0 || (f & exclude) !== 0) return true;
  }
  return false;
}
