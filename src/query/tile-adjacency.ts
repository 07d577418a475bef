import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../navmesh/tile.js";

/**
 * A tile's same-tile polygon adjacency in compressed-row form, for graph searches: the
 * neighbours of polygon p are entries k = first[p] .. first[p + 1] - 1: neighbour polygon
 * poly[k] and the midpoint mid[3k .. 3k + 2] (x, y, z) of the shared edge. Walls and
 * tile-border edges are left out, the order is the polygon's edge order (so a search visits
 * neighbours exactly as a walk over polyNeighbours would), and the midpoint is computed as
 * (a + b) * 0.5 in doubles from the float32 vertices — bit for bit what the walk computes.
 * Saves the A* inner loop the wall test (an unpredictable branch) and four vertex reads.
 */
export interface TileAdjacency {
  readonly first: Int32Array;
  readonly poly: Int32Array;
  readonly mid: Float64Array;
}

const cache = new WeakMap<NavMeshTile, TileAdjacency>();

/** The adjacency of `tile`, built on first use and kept while the tile lives (tiles are immutable). */
export function tileAdjacency(tile: NavMeshTile): TileAdjacency {
  let adj = cache.get(tile);
  if (adj === undefined) {
    adj = buildTileAdjacency(tile);
    cache.set(tile, adj);
  }
  return adj;
}

function buildTileAdjacency(tile: NavMeshTile): TileAdjacency {
  const n = tile.polyCount;
  const nvp = tile.maxVertsPerPoly;
  const nbs = tile.polyNeighbours;
  const pv = tile.polyVerts;
  const v = tile.vertices;
  const vc = tile.polyVertCount;
  let count = 0;
  for (let p = 0; p < n; p++) {
    for (let e = 0; e < vc[p]!; e++) {
      const nb = nbs[p * nvp + e]!;
      if (nb !== EDGE_WALL && nb < EDGE_TILE_BORDER && nb - 1 < n) count++;
    }
  }
  const first = new Int32Array(n + 1);
  const poly = new Int32Array(count);
  const mid = new Float64Array(count * 3);
  let k = 0;
  for (let p = 0; p < n; p++) {
    first[p] = k;
    const base = p * nvp;
    const cnt = vc[p]!;
    for (let e = 0; e < cnt; e++) {
      const nb = nbs[base + e]!;
      if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER || nb - 1 >= n) continue;
      const va = pv[base + e]! * 3;
      const vb = pv[base + (e + 1 === cnt ? 0 : e + 1)]! * 3;
      poly[k] = nb - 1;
      mid[k * 3] = (v[va]! + v[vb]!) * 0.5;
      mid[k * 3 + 1] = (v[va + 1]! + v[vb + 1]!) * 0.5;
      mid[k * 3 + 2] = (v[va + 2]! + v[vb + 2]!) * 0.5;
      k++;
    }
  }
  first[n] = k;
  return { first, poly, mid };
}
