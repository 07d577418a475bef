import type { QueryFilter } from "../navmesh/filter.js";
import { getPortalPoints } from "../navmesh/neighbours.js";
import {
  liveGroundSlot,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../navmesh/tile.js";
import { checkAreaCosts, checkCoords, checkFilterShape, checkRef } from "./args.js";
import { callPassFilter, stepCost } from "./filter-callbacks.js";
import type { NavMeshQueryCore } from "./nav-mesh-query.js";
import { passesFilter } from "./ref-geometry.js";
import { growFloat64 } from "./scratch.js";
import type { QueryStatus } from "./status.js";

/**
 * Walkability raycast along the navmesh surface, as in Detour's dtNavMeshQuery::raycast
 * (Mononen): clip the XZ segment start→end against the current convex polygon, leave it
 * through the edge where the segment exits and continue in the neighbour across that edge,
 * until the end point is inside a polygon (no hit) or the exit edge is a wall (hit).
 */

/** Options of {@link raycast}. */
export interface RaycastOptions {
  /**
   * Accumulate `pathCost`: the 3D length walked inside each polygon times its area cost
   * (Detour's DT_RAYCAST_USE_COSTS). Off by default (it costs a little).
   */
  useCosts?: boolean;
}

/**
 * Result of {@link raycast}, reused across calls (allocation-free once `path` has grown).
 *
 * - `t`: Infinity when the ray reached the end point without hitting a wall (Detour's
 *   FLT_MAX); otherwise the hit parameter in [0, 1]: hit point = start + (end - start) * t.
 *   t = 0 with hitEdgeIndex -1 means the start point is not inside the start polygon.
 * - `hitNormal`: the hit wall's XZ normal, unit length, pointing back into the walkable
 *   polygon (towards the ray's side); zero when there was no hit.
 * - `hitEdgeIndex`: the edge of the last visited polygon the ray left through (the wall on a
 *   hit), -1 when the ray ended inside it.
 * - `path[0 .. pathCount)`: the polygons visited, in order, starting with startRef.
 * - `pathCost`: with `useCosts`, the cost of walking the visited part of the ray.
 * - `status`: "complete", or "invalidRef" when startRef was stale (its tile removed or
 *   replaced): then t = 0, hitEdgeIndex -1, no normal, no path — check it before `hit`.
 */
export class RaycastHit {
  t = 0;
  status: QueryStatus = "complete";
  readonly hitNormal = new Float64Array(3);
  hitEdgeIndex = -1;
  path: Float64Array;
  pathCount = 0;
  pathCost = 0;

  constructor(initialPathCapacity = 16) {
    this.path = new Float64Array(Math.max(1, initialPathCapacity));
  }

  /** True when the ray hit a wall (t is finite). */
  get hit(): boolean {
    return this.t !== Number.POSITIVE_INFINITY;
  }
}

const PARALLEL_EPS = 1e-6;

/**
 * Most polygons one raycast walks through. A ray crosses each polygon at most once, so a walk
 * this long means the mesh's links loop (possible only in a crafted or corrupt file); the ray
 * then stops where it is, reported like a start outside its polygon: t at the last polygon
 * entered, hitEdgeIndex -1, no normal.
 */
export const RAYCAST_MAX_POLYS = 1 << 16;

const portalA = new Float64Array(3);
const portalB = new Float64Array(3);

/** Tolerance on the edge parameter when testing a hit against a partial tile portal. */
const PORTAL_EPS = 1e-6;

/**
 * Casts a "walkability" ray from `start` (in polygon `startRef`) towards `end` on XZ, through
 * the polygons that pass `filter`, and reports the first wall it hits in `out` (see
 * {@link RaycastHit}). The end point's y is ignored, as in Detour: this is a 2D test meant
 * for short distances (on layered meshes a ray may "reach" an end point on another floor).
 * Off-mesh connections are never followed.
 *
 * A stale startRef (its tile removed or replaced) gives status "invalidRef" (see
 * {@link RaycastHit}). Throws MeshwayError("INVALID_ARGUMENT") for non-finite points, a
 * malformed startRef (never valid) or an off-mesh connection's, and, with useCosts, a NaN or
 * negative area cost (without it the costs are never read, so they are not checked).
 */
export function raycast(
  query: NavMeshQueryCore,
  startRef: PolyRef,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  filter: QueryFilter,
  options: RaycastOptions | undefined,
  out: RaycastHit,
): RaycastHit {
  const navMesh = query.navMesh;
  // Read here (null-safe), at sites that see only this caller's arrays, then checked as
  // numbers: checkPoint is shared by every query, so its reads see every array type.
  const sx = start?.[0] as number;
  const sy = start?.[1] as number;
  const sz = start?.[2] as number;
  const ex = end?.[0] as number;
  const ey = end?.[1] as number;
  const ez = end?.[2] as number;
  // x − x is 0 only for a finite x; checkCoords (naming the bad point) only on failure: the
  // call would box six doubles every time.
  if (sx - sx + (sy - sy) + (sz - sz) !== 0) checkCoords(sx, sy, sz, "raycast start");
  if (ex - ex + (ey - ey) + (ez - ez) !== 0) checkCoords(ex, ey, ez, "raycast end");
  checkFilterShape(filter, "raycast");
  const useCosts = options?.useCosts === true;
  // Costs are read only with useCosts (a NaN or negative one would then spoil pathCost).
  if (useCosts) checkAreaCosts(filter, "raycast");
  // The common case (a live ground polygon) decoded once; anything else is classified by
  // checkRef, which throws for a malformed or off-mesh ref and returns false for a stale one.
  let slot = liveGroundSlot(navMesh, startRef);
  const live = slot >= 0 || checkRef(navMesh, startRef, "raycast startRef", true);
  out.status = live ? "complete" : "invalidRef";
  if (!live) {
    out.t = 0;
    out.hitEdgeIndex = -1;
    out.hitNormal.fill(0);
    out.pathCount = 0;
    out.pathCost = 0;
    return out;
  }

  const dx = ex - sx;
  const dz = ez - sz;
  const areaCost = filter.areaCost;
  const include = filter.includeFlags;
  const exclude = filter.excludeFlags;
  const pass = filter.passFilter;
  const getCost = filter.getCost;

  let t = 0;
  let hitEdge = -1;
  let path = out.path;
  let pathCount = 0;
  let pathCost = 0;
  const normal = out.hitNormal;
  normal[0] = 0;
  normal[1] = 0;
  normal[2] = 0;

  // Last point the cost was accumulated up to (with useCosts).
  let curX = sx;
  let curY = sy;
  let curZ = sz;
  let curRef = startRef;
  let prevRef = 0;
  // The current polygon decoded; its tile's arrays reloaded only when the slot changes.
  if (slot < 0) slot = tileOfRef(curRef);
  // Refs are doubles (52 bits); `| 0` (exact: polygon indices are < 2^20) keeps the polygon
  // index, and so every typed-array index derived from it, in int32 arithmetic: a double index
  // costs a double→int conversion and check at each of the edge loop's reads.
  let poly = polyOfRef(curRef) | 0;
  const slots = navMesh.slotTable;
  let tile = slots[slot]!.tile!;
  let nvp = tile.maxVertsPerPoly;
  let v = tile.vertices;
  let pv = tile.polyVerts;
  for (let steps = 0; ; steps++) {
    if (steps === RAYCAST_MAX_POLYS) {
      // A straight ray meets each convex polygon once, so only neighbour links that contradict
      // the geometry (a crafted or corrupt file) get here: stop as for a ray that misses.
      hitEdge = -1;
      break;
    }
    // Clip the XZ segment against the polygon (Cyrus–Beck, as dtIntersectSegmentPoly2D).
    // Relies on the build's winding (polygonAreaXZ < 0, Recast's): the inside of edge a→b
    // is where (b-a)z·(p-a)x − (b-a)x·(p-a)z ≥ 0.
    const base = poly * nvp;
    const n = tile.polyVertCount[poly]!;
    let tmin = 0;
    let tmax = 1;
    let segMax = -1;
    let missed = false;
    let j = n - 1;
    // Edge j runs from vertex j to vertex i; its start is the previous edge's end (one vertex
    // read per edge, not two).
    const vlast = pv[base + j]! * 3;
    let ax = v[vlast]!;
    let az = v[vlast + 2]!;
    for (let i = 0; i < n; i++) {
      const vi = pv[base + i]! * 3;
      const bx = v[vi]!;
      const bz = v[vi + 2]!;
      const edx = bx - ax;
      const edz = bz - az;
      const num = edz * (sx - ax) - edx * (sz - az);
      const den = dz * edx - dx * edz;
      if (Math.abs(den) < PARALLEL_EPS) {
        // Parallel to edge j: outside it means no overlap at all.
        if (num < 0) {
          missed = true;
          break;
        }
      } else {
        const te = num / den;
        if (den < 0) {
          // Entering across edge j.
          if (te > tmin) {
            tmin = te;
            if (tmin > tmax) {
              missed = true;
              break;
            }
          }
        } else if (te < tmax) {
          // Leaving across edge j.
          tmax = te;
          segMax = j;
          if (tmax < tmin) {
            missed = true;
            break;
          }
        }
      }
      j = i;
      ax = bx;
      az = bz;
    }
    if (missed) {
      // The ray misses this polygon (only possible for the start polygon when the start
      // point lies outside it): keep t and report a hit without a wall.
      break;
    }
    hitEdge = segMax;
    if (tmax > t) t = tmax;
    if (pathCount === path.length) {
      path = growFloat64(path, pathCount + 1);
      out.path = path;
    }
    path[pathCount++] = curRef;

    if (segMax === -1) {
      // The end point is inside this polygon: no hit.
      t = Number.POSITIVE_INFINITY;
      if (useCosts) {
        const ddx = ex - curX;
        const ddy = ey - curY;
        const ddz = ez - curZ;
        pathCost += getCost
          ? stepCost(getCost, curX, curY, curZ, ex, ey, ez, prevRef, curRef, 0)
          : Math.sqrt(ddx * ddx + ddy * ddy + ddz * ddz) * areaCost[tile.polyAreas[poly]!]!;
      }
      break;
    }

    // Next polygon across the exit edge: the same-tile neighbour there when it passes the
    // filter, else the first link across it (a tile portal) that passes the filter and,
    // covering part of the edge, contains the exit point. Ground links exist only on tile
    // border edges (tile-links.ts; off-mesh ends have edge 0xff), so walls and inner edges
    // skip the walk (same order as collectNeighbours: edge, then links).
    let nextRef = 0;
    let nextSlot = slot;
    let nextPoly = -1;
    const nb = tile.polyNeighbours[base + segMax]!;
    if (nb !== EDGE_WALL && (nb & EDGE_TILE_BORDER) === 0) {
      const nf = tile.polyFlags[nb - 1]!;
      if ((nf & include) !== 0 && (nf & exclude) === 0) {
        nextPoly = nb - 1;
        nextRef = curRef - poly + nextPoly;
        if (pass !== undefined && !callPassFilter(navMesh, pass, nextRef)) {
          nextPoly = -1;
          nextRef = 0;
        }
      }
    }
    if (nextRef === 0 && (nb & EDGE_TILE_BORDER) !== 0) {
      const links = slots[slot]!.links;
      if (poly < links.first.length) {
        for (let l = links.first[poly]!; l >= 0; l = links.next[l]!) {
          if (links.edge[l] !== segMax) continue;
          const ref = links.ref[l]!;
          const nslot = tileOfRef(ref);
          if (nslot === OFF_MESH_SLOT || !passesFilter(navMesh, filter, ref)) continue;
          if (nslot !== slot) {
            if (!getPortalPoints(navMesh, curRef, ref, portalA, portalB)) continue;
            const hx = sx + dx * tmax;
            const hz = sz + dz * tmax;
            const px = portalB[0]! - portalA[0]!;
            const pz = portalB[2]! - portalA[2]!;
            const len2 = px * px + pz * pz;
            const s = len2 > 0 ? ((hx - portalA[0]!) * px + (hz - portalA[2]!) * pz) / len2 : 0;
            if (s < -PORTAL_EPS || s > 1 + PORTAL_EPS) continue;
          }
          nextRef = ref;
          nextSlot = nslot;
          nextPoly = polyOfRef(ref) | 0;
          break;
        }
      }
    }
    // Rounding at a vertex could send the ray back where it came from; stop there instead of
    // cycling (exact arithmetic never leaves a polygon through the edge it entered by).
    if (nextRef === prevRef) nextRef = 0;

    const va = pv[base + segMax]! * 3;
    const vb = pv[base + (segMax + 1 < n ? segMax + 1 : 0)]! * 3;
    if (useCosts) {
      // Walk to the exit point; its height comes from the exit edge (the ray itself is 2D).
      const lastX = curX;
      const lastY = curY;
      const lastZ = curZ;
      curX = sx + dx * t;
      curZ = sz + dz * t;
      const edx = v[vb]! - v[va]!;
      const edy = v[vb + 1]! - v[va + 1]!;
      const edz = v[vb + 2]! - v[va + 2]!;
      const s = edx * edx > edz * edz ? (curX - v[va]!) / edx : (curZ - v[va + 2]!) / edz;
      curY = v[va + 1]! + edy * s;
      const ddx = curX - lastX;
      const ddy = curY - lastY;
      const ddz = curZ - lastZ;
      pathCost += getCost
        ? stepCost(getCost, lastX, lastY, lastZ, curX, curY, curZ, prevRef, curRef, nextRef)
        : Math.sqrt(ddx * ddx + ddy * ddy + ddz * ddz) * areaCost[tile.polyAreas[poly]!]!;
    }

    if (nextRef === 0) {
      // Wall: its normal (dz, 0, -dx) of edge a→b points into the polygon for our winding.
      const nx = v[vb + 2]! - v[va + 2]!;
      const nz = -(v[vb]! - v[va]!);
      const len = Math.sqrt(nx * nx + nz * nz);
      if (len > 0) {
        normal[0] = nx / len;
        normal[2] = nz / len;
      }
      break;
    }
    prevRef = curRef;
    curRef = nextRef;
    poly = nextPoly;
    if (nextSlot !== slot) {
      slot = nextSlot;
      tile = slots[slot]!.tile!;
      nvp = tile.maxVertsPerPoly;
      v = tile.vertices;
      pv = tile.polyVerts;
    }
  }
  out.t = t;
  out.hitEdgeIndex = hitEdge;
  out.pathCount = pathCount;
  out.pathCost = pathCost;
  return out;
}
