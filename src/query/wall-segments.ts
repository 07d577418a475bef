import type { QueryFilter } from "../navmesh/filter.js";
import { LINK_SIDE_NONE } from "../navmesh/neighbours.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../navmesh/tile.js";
import { checkFilterShape, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { groundTileOf, passesFilter } from "./ref-geometry.js";
import { growFloat64 } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * The wall segments of one polygon, as Detour's dtNavMeshQuery::getPolyWallSegments
 * (Mononen): every edge without a neighbour that passes the filter is a wall; a tile-border
 * edge whose portals cover only parts of it (tiles of different polygonisation) contributes
 * the uncovered parts. With `includePortals`, the portals come out too, with the neighbour's
 * ref (walls have ref 0).
 */

/** Options of {@link getPolyWallSegments}. */
export interface WallSegmentsOptions {
  /** Also output the portal segments (ref = the neighbour). Default false. */
  includePortals?: boolean;
}

/** Result of {@link getPolyWallSegments}, reused across calls (arrays grow as needed). */
export class WallSegmentsResult {
  /** 6 numbers per segment: start xyz, end xyz, in the polygon's winding order. */
  segments: Float64Array;
  /** refs[i]: the polygon across segment i, 0 for a wall. */
  refs: Float64Array;
  count = 0;
  /** "complete", or "invalidRef" when the ref was stale (its tile removed or replaced). */
  status: QueryStatus = "complete";

  constructor(initialCapacity = 16) {
    const n = Math.max(1, initialCapacity);
    this.segments = new Float64Array(n * 6);
    this.refs = new Float64Array(n);
  }
}

/** Portal intervals on one edge, sorted by start, in 1/255 of the edge (Detour's). */
const MAX_INTERVALS = 16;
const intMin = new Int32Array(MAX_INTERVALS);
const intMax = new Int32Array(MAX_INTERVALS);
const intRef = new Float64Array(MAX_INTERVALS);

function insertInterval(n: number, tmin: number, tmax: number, ref: PolyRef): number {
  if (n + 1 > MAX_INTERVALS) return n;
  let idx = 0;
  while (idx < n && tmax > intMin[idx]!) idx++;
  for (let k = n; k > idx; k--) {
    intMin[k] = intMin[k - 1]!;
    intMax[k] = intMax[k - 1]!;
    intRef[k] = intRef[k - 1]!;
  }
  intMin[idx] = tmin;
  intMax[idx] = tmax;
  intRef[idx] = ref;
  return n + 1;
}

function pushSegment(
  out: WallSegmentsResult,
  v: Float32Array,
  a: number,
  b: number,
  t0: number,
  t1: number,
  ref: PolyRef,
): void {
  const n = out.count;
  if (n === out.refs.length) {
    out.refs = growFloat64(out.refs, n + 1);
    out.segments = growFloat64(out.segments, out.refs.length * 6);
  }
  const s = out.segments;
  const o = n * 6;
  for (let k = 0; k < 3; k++) {
    const va = v[a + k]!;
    const d = v[b + k]! - va;
    s[o + k] = t0 === 0 ? va : va + d * t0;
    s[o + 3 + k] = t1 === 1 ? v[b + k]! : va + d * t1;
  }
  out.refs[n] = ref;
  out.count = n + 1;
}

/**
 * Writes polygon `ref`'s wall segments (and its portals with `includePortals`) to `out`.
 * A stale ref gives status "invalidRef" and no segments; a malformed ref or an off-mesh
 * connection's throws MeshwayError("INVALID_ARGUMENT").
 */
export function getPolyWallSegments(
  query: NavMeshQueryCore,
  ref: PolyRef,
  filter: QueryFilter,
  out: WallSegmentsResult,
  options?: WallSegmentsOptions,
): WallSegmentsResult {
  const navMesh = query.navMesh;
  // Costs are never read here: the shape only (as raycast without useCosts).
  checkFilterShape(filter, "getPolyWallSegments");
  out.count = 0;
  if (!checkRef(navMesh, ref, "getPolyWallSegments ref", true)) {
    out.status = "invalidRef";
    return out;
  }
  const storePortals = options?.includePortals === true;
  const tile = groundTileOf(navMesh, ref)!;
  const slotIndex = tileOfRef(ref);
  const poly = polyOfRef(ref);
  const links = navMesh.slotLinks(slotIndex);
  const base = poly * tile.maxVertsPerPoly;
  const n = tile.polyVertCount[poly]!;
  const v = tile.vertices;
  const refBase = ref - poly;
  for (let j = 0; j < n; j++) {
    const a = tile.polyVerts[base + j]! * 3;
    const b = tile.polyVerts[base + (j + 1 === n ? 0 : j + 1)]! * 3;
    const nb = tile.polyNeighbours[base + j]!;
    if ((nb & EDGE_TILE_BORDER) === 0) {
      // Whole edge: a wall, or a portal to a polygon of this tile.
      let nref = 0;
      if (nb !== EDGE_WALL) {
        nref = refBase + (nb - 1);
        if (!passesFilter(navMesh, filter, nref)) nref = 0;
      }
      if (nref !== 0 && !storePortals) continue;
      pushSegment(out, v, a, b, 0, 1, nref);
      continue;
    }
    // Tile border: portals cover intervals of the edge; the gaps are walls.
    let ni = 0;
    if (poly < links.first.length) {
      for (let l = links.first[poly]!; l >= 0; l = links.next[l]!) {
        if (links.edge[l] !== j || links.side[l] === LINK_SIDE_NONE) continue;
        const lref = links.ref[l]!;
        if (!passesFilter(navMesh, filter, lref)) continue;
        ni = insertInterval(ni, links.bmin[l]!, links.bmax[l]!, lref);
      }
    }
    ni = insertInterval(ni, -1, 0, 0);
    ni = insertInterval(ni, 255, 256, 0);
    for (let k = 1; k < ni; k++) {
      if (storePortals && intRef[k] !== 0) {
        pushSegment(out, v, a, b, intMin[k]! / 255, intMax[k]! / 255, intRef[k]!);
      }
      const imin = intMax[k - 1]!;
      const imax = intMin[k]!;
      if (imin !== imax) pushSegment(out, v, a, b, imin / 255, imax / 255, 0);
    }
  }
  out.status = "complete";
  return out;
}
