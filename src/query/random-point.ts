import { MeshwayError } from "../errors.js";
import { triArea2XZ } from "../math/predicates2d.js";
import type { QueryFilter } from "../navmesh/filter.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import { collectNeighbours, getPortalPoints } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { checkFilter, checkPoint, checkRadius, checkRef } from "./args.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { NODE_CLOSED, NODE_OPEN, NULL_NODE } from "./node-pool.js";
import { passesFilter } from "./ref-geometry.js";
import { openSearchAt, relaxAtPortalMidpoint } from "./relax.js";
import { neighbourEdges, neighbourRefs } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * Random points on the navmesh, as in Detour's findRandomPoint / findRandomPointAroundCircle
 * (Mononen), uniform over the XZ-projected area: a polygon is chosen with probability
 * proportional to its area, then one of its detail triangles by area, then a uniform point
 * in that triangle — which puts the point exactly on the detail surface, so no height lookup
 * is needed. Every random number comes from the caller's `rng`, so a seeded generator such
 * as {@link mulberry32} makes results reproducible.
 */

/**
 * A small, fast seeded PRNG (Tommy Ettinger's Mulberry32): returns a function yielding
 * uniform numbers in [0, 1) with 32 bits of state. Same seed, same sequence.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Result of {@link findRandomPoint} and {@link findRandomPointAroundCircle}, reused. */
export class RandomPointResult {
  /** Polygon the point lies in; 0 when none could be chosen. */
  ref: PolyRef = 0;
  /** The point, on the polygon's detail surface. */
  readonly point = new Float64Array(3);
  /**
   * "complete"; "noStart" when no polygon passes the filter (findRandomPoint) or none was
   * reachable (around a circle: when the start polygon is rejected by the filter);
   * "outOfNodes" when the circle search ran out of nodes (a point was still chosen among the
   * polygons reached); "invalidRef" when findRandomPointAroundCircle's startRef was stale
   * (its tile removed or replaced): ref 0, point unchanged.
   */
  status: QueryStatus = "complete";
}

/** Twice the XZ area of polygon `poly`, triArea2XZ's sign (positive for the build's winding). */
function polyArea2(tile: NavMeshTile, poly: number): number {
  const nvp = tile.maxVertsPerPoly;
  const base = poly * nvp;
  const n = tile.polyVertCount[poly]!;
  const v = tile.vertices;
  const a = tile.polyVerts[base]! * 3;
  const ax = v[a]!;
  const az = v[a + 2]!;
  let sum = 0;
  let b = tile.polyVerts[base + 1]! * 3;
  for (let i = 2; i < n; i++) {
    const c = tile.polyVerts[base + i]! * 3;
    sum += triArea2XZ(ax, az, v[b]!, v[b + 2]!, v[c]!, v[c + 2]!);
    b = c;
  }
  return sum;
}

/** Keeps a caller's random number inside [0, 1) so a sloppy rng cannot index past the end. */
function unit(r: number): number {
  return r >= 0 && r < 1 ? r : r >= 1 ? 0.9999999999999999 : 0;
}

/**
 * Offset into the vertex array of corner k (0..2) of triangle i of polygon `poly`: its
 * detail triangle, or with `fan` the polygon's own fan triangle (v0, v[i+1], v[i+2]).
 */
function triCorner(tile: NavMeshTile, poly: number, fan: boolean, i: number, k: number): number {
  if (fan) return tile.polyVerts[poly * tile.maxVertsPerPoly + (k === 0 ? 0 : i + k)]! * 3;
  return (
    (tile.detailMeshes[poly * 4]! +
      tile.detailTriangles[(tile.detailMeshes[poly * 4 + 2]! + i) * 4 + k]!) *
    3
  );
}

/** Twice the XZ area of triangle i (see {@link triCorner}), unsigned. */
function triangleArea2Abs(
  tile: NavMeshTile,
  verts: Float32Array,
  poly: number,
  fan: boolean,
  i: number,
): number {
  const a = triCorner(tile, poly, fan, i, 0);
  const b = triCorner(tile, poly, fan, i, 1);
  const c = triCorner(tile, poly, fan, i, 2);
  return Math.abs(
    triArea2XZ(verts[a]!, verts[a + 2]!, verts[b]!, verts[b + 2]!, verts[c]!, verts[c + 2]!),
  );
}

/**
 * Writes a uniform random point of polygon `poly` to out: a detail triangle chosen by XZ area
 * with `s` (its remainder reused as one barycentric coordinate, like Detour's
 * dtRandomPointInConvexPoly), `t` for the other. Polygons without detail triangles use a fan
 * of their own vertices.
 */
function randomPointInPoly(
  tile: NavMeshTile,
  poly: number,
  s: number,
  t: number,
  out: Float64Array,
): void {
  const triCount = tile.detailMeshes[poly * 4 + 3]!;
  const fan = triCount === 0;
  const verts = fan ? tile.vertices : tile.detailVertices;
  const triangles = fan ? tile.polyVertCount[poly]! - 2 : triCount;
  let total = 0;
  for (let i = 0; i < triangles; i++) total += triangleArea2Abs(tile, verts, poly, fan, i);
  const threshold = s * total;
  let tri = triangles - 1;
  let u = 1;
  let acc = 0;
  for (let i = 0; i < triangles; i++) {
    const ai = triangleArea2Abs(tile, verts, poly, fan, i);
    if (ai > 0 && threshold < acc + ai) {
      tri = i;
      u = (threshold - acc) / ai;
      break;
    }
    acc += ai;
  }
  const v = Math.sqrt(t);
  const wa = 1 - v;
  const wb = (1 - u) * v;
  const wc = u * v;
  const a = triCorner(tile, poly, fan, tri, 0);
  const b = triCorner(tile, poly, fan, tri, 1);
  const c = triCorner(tile, poly, fan, tri, 2);
  for (let k = 0; k < 3; k++) out[k] = wa * verts[a + k]! + wb * verts[b + k]! + wc * verts[c + k]!;
}

/**
 * Picks a random point on the polygons that pass `filter`, uniformly over their XZ area
 * across all tiles, and writes it and its polygon to `out`. Uses three numbers from `rng`
 * (values in [0, 1)). Status "noStart" (ref 0) when no polygon with area passes the filter.
 *
 * Deviation from Detour, which first picks a tile uniformly (biased towards sparse tiles)
 * and draws one number per polygon: here the choice is area-weighted over every tile.
 */
export function findRandomPoint(
  query: NavMeshQueryCore,
  filter: QueryFilter,
  rng: () => number,
  out: RandomPointResult,
): RandomPointResult {
  checkFilter(filter, "findRandomPoint");
  checkRng(rng);
  const navMesh = query.navMesh;
  const slotCount = navMesh.slotCount;
  const pass = filter.passFilter;
  let total = 0;
  for (let s = 1; s < slotCount; s++) {
    const tile = navMesh.tileInSlot(s);
    if (!tile) continue;
    for (let p = 0; p < tile.polyCount; p++) {
      const flags = tile.polyFlags[p]!;
      if ((flags & filter.includeFlags) === 0 || (flags & filter.excludeFlags) !== 0) continue;
      if (pass && pass(navMesh.polyRef(s, p), tile, p) !== true) continue;
      const a = polyArea2(tile, p);
      if (a > 0) total += a;
    }
  }
  if (!(total > 0)) {
    out.ref = 0;
    out.status = "noStart";
    return out;
  }
  const threshold = unit(rng()) * total;
  let acc = 0;
  let chosenSlot = -1;
  let chosenPoly = -1;
  search: for (let s = 1; s < slotCount; s++) {
    const tile = navMesh.tileInSlot(s);
    if (!tile) continue;
    for (let p = 0; p < tile.polyCount; p++) {
      const flags = tile.polyFlags[p]!;
      if ((flags & filter.includeFlags) === 0 || (flags & filter.excludeFlags) !== 0) continue;
      if (pass && pass(navMesh.polyRef(s, p), tile, p) !== true) continue;
      const a = polyArea2(tile, p);
      if (!(a > 0)) continue;
      // The last candidate stays chosen if rounding leaves threshold just past the sum.
      chosenSlot = s;
      chosenPoly = p;
      acc += a;
      if (threshold < acc) break search;
    }
  }
  const tile = navMesh.tileInSlot(chosenSlot)!;
  randomPointInPoly(tile, chosenPoly, unit(rng()), unit(rng()), out.point);
  out.ref = navMesh.polyRef(chosenSlot, chosenPoly);
  out.status = "complete";
  return out;
}

const portalA = new Float64Array(3);
const portalB = new Float64Array(3);

/**
 * Picks a random point on the polygons reachable from `startRef` within the circle (those
 * {@link findPolysAroundCircle} would return, found by the same Dijkstra search; plain
 * distance costs like Detour), each polygon weighted by its XZ area, and writes it to `out`.
 * As in Detour the point is uniform over those whole polygons, so it can lie outside the
 * circle (though never farther than one polygon beyond it). One number from `rng` per ground
 * polygon reached, plus two.
 *
 * A stale startRef (its tile removed or replaced) gives status "invalidRef" and ref 0 (no
 * number drawn from rng). Throws MeshwayError("INVALID_ARGUMENT") for a non-finite center, a
 * negative or non-finite radius, a malformed startRef (never valid) or a non-function rng.
 */
export function findRandomPointAroundCircle(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  center: ArrayLike<number>,
  maxRadius: number,
  filter: QueryFilter,
  rng: () => number,
  out: RandomPointResult,
): RandomPointResult {
  const navMesh = query.navMesh;
  checkPoint(center, "findRandomPointAroundCircle center");
  checkRadius(maxRadius, "findRandomPointAroundCircle maxRadius");
  checkFilter(filter, "findRandomPointAroundCircle");
  checkRng(rng);
  const live = checkRef(navMesh, startRef, "findRandomPointAroundCircle startRef", false);
  out.ref = 0;
  if (!live) {
    out.status = "invalidRef";
    return out;
  }
  if (!passesFilter(navMesh, filter, startRef)) {
    out.status = "noStart";
    return out;
  }

  const cx = center[0]!;
  const cz = center[2]!;
  const radiusSqr = maxRadius * maxRadius;
  // The query's shared search pool and open list (as Detour's Dijkstra queries use them).
  const pool = query.nodePool;
  const queue = query.openList;
  openSearchAt(pool, queue, startRef, cx, center[1]!, cz);

  let status: QueryStatus = "complete";
  let areaSum = 0;
  let chosen: PolyRef = 0;
  while (!queue.empty()) {
    const best = queue.pop();
    pool.flags[best] = (pool.flags[best]! & ~NODE_OPEN) | NODE_CLOSED;
    const bestRef = pool.ref[best]!;
    const slot = tileOfRef(bestRef);
    if (slot !== OFF_MESH_SLOT) {
      // Reservoir sampling weighted by area: keeps one polygon, each with P ∝ area.
      const a = polyArea2(navMesh.tileInSlot(slot)!, polyOfRef(bestRef));
      if (a > 0) {
        areaSum += a;
        if (unit(rng()) * areaSum <= a) chosen = bestRef;
      }
    }
    const parent = pool.parent[best]!;
    const parentRef = parent === NULL_NODE ? 0 : pool.ref[parent]!;
    const n = collectNeighbours(navMesh, bestRef, neighbourRefs, neighbourEdges);
    for (let k = 0; k < n; k++) {
      const nref = neighbourRefs[k]!;
      if (nref === parentRef || !passesFilter(navMesh, filter, nref)) continue;
      if (!getPortalPoints(navMesh, bestRef, nref, portalA, portalB)) continue;
      if (
        distancePtSegSqrXZ(cx, cz, portalA[0]!, portalA[2]!, portalB[0]!, portalB[2]!) > radiusSqr
      ) {
        continue;
      }
      if (!relaxAtPortalMidpoint(pool, queue, best, nref, portalA, portalB)) status = "outOfNodes";
    }
  }
  if (chosen === 0) {
    out.status = "noStart";
    return out;
  }
  const tile = navMesh.tileInSlot(tileOfRef(chosen))!;
  randomPointInPoly(tile, polyOfRef(chosen), unit(rng()), unit(rng()), out.point);
  out.ref = chosen;
  out.status = status;
  return out;
}

function checkRng(rng: () => number): void {
  if (typeof rng !== "function") {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      "rng must be a function returning numbers in [0, 1)",
    );
  }
}
