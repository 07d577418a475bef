import type { QueryFilter } from "../navmesh/filter.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { collectNeighbours, getPortalPoints } from "../navmesh/neighbours.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { passesFilter } from "../query/ref-geometry.js";

/**
 * Whether an agent's step — the straight XZ segment from its old to its new position — stays
 * on the navmesh. moveAlongSurface (Detour's) accepts an end point in any polygon reached
 * through portals near the step, so a step past a polygon corner may cut across the wall
 * there by a few millimetres; this walk follows the segment itself through the portals it
 * crosses (raycast-like, each polygon widened by STEP_TOL) and, when it meets a wall, tells
 * where and which, so the crowd can slide to a point the straight step reaches.
 */

/** How far outside a polygon edge a step may pass and still count as on it. [Units: wu] */
export const STEP_TOL = 1e-5;
/** Polygons one step may cross (a step is a fraction of a metre). */
const MAX_STEP_POLYS = 32;

/** Where the last failing walk met a wall: the exit parameter and the wall's ends (xyz, xyz). */
export class StepWall {
  t = 0;
  readonly wall = new Float64Array(6);
}

const refs = new Float64Array(64);
const edges = new Int32Array(64);
const walked = new Float64Array(MAX_STEP_POLYS);
const left = new Float64Array(3);
const right = new Float64Array(3);

/**
 * True when the segment (sx, sz)→(ex, ez), starting in polygon `startRef`, reaches its end
 * through portals into polygons `filter` admits; false with `hit` filled when it leaves through
 * a wall (or the walk gives up: then hit.t = 0 and the wall is the start point, twice).
 */
export function stepStaysOnMesh(
  navMesh: NavMesh,
  filter: QueryFilter,
  startRef: PolyRef,
  sx: number,
  sz: number,
  ex: number,
  ez: number,
  hit: StepWall,
): boolean {
  const dx = ex - sx;
  const dz = ez - sz;
  const len = Math.sqrt(dx * dx + dz * dz);
  if (len <= STEP_TOL) return true;
  const tTie = STEP_TOL / len;
  let cur = startRef;
  for (let steps = 0; steps < MAX_STEP_POLYS; steps++) {
    walked[steps] = cur;
    const slot = tileOfRef(cur);
    if (slot === OFF_MESH_SLOT) break;
    const tile = navMesh.tileInSlot(slot);
    const poly = polyOfRef(cur);
    if (!tile || poly >= tile.polyCount) break;
    const nvp = tile.maxVertsPerPoly;
    const base = poly * nvp;
    const n = tile.polyVertCount[poly]!;
    const v = tile.vertices;
    const pv = tile.polyVerts;
    // Exit parameter: the first leaving edge (Cyrus–Beck on the leaving side only; the start
    // is in the polygon up to rounding). Inside of edge a→b: (b−a)z·(p−a)x − (b−a)x·(p−a)z ≥ 0.
    let tExit = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      const a = pv[base + j]! * 3;
      const b = pv[base + (j + 1 === n ? 0 : j + 1)]! * 3;
      const wx = v[b]! - v[a]!;
      const wz = v[b + 2]! - v[a + 2]!;
      const den = dz * wx - dx * wz;
      if (den <= 0) continue;
      const num = wz * (sx - v[a]!) - wx * (sz - v[a + 2]!);
      const te = (num + STEP_TOL * Math.sqrt(wx * wx + wz * wz)) / den;
      if (te < tExit) tExit = te;
    }
    if (tExit >= 1 - tTie) return true;
    if (tExit < 0) tExit = 0;
    const px = sx + dx * tExit;
    const pz = sz + dz * tExit;
    // Through a portal on any edge the segment leaves by at that point (several at a vertex).
    const count = collectNeighbours(navMesh, cur, refs, edges);
    let next: PolyRef = 0;
    let wallEdge = -1;
    for (let j = 0; j < n && next === 0; j++) {
      const a = pv[base + j]! * 3;
      const b = pv[base + (j + 1 === n ? 0 : j + 1)]! * 3;
      const wx = v[b]! - v[a]!;
      const wz = v[b + 2]! - v[a + 2]!;
      const den = dz * wx - dx * wz;
      if (den <= 0) continue;
      const num = wz * (sx - v[a]!) - wx * (sz - v[a + 2]!);
      const te = (num + STEP_TOL * Math.sqrt(wx * wx + wz * wz)) / den;
      if (te > tExit + tTie) continue;
      if (wallEdge < 0) wallEdge = j;
      for (let k = 0; k < count; k++) {
        if (edges[k] !== j) continue;
        const r = refs[k]!;
        if (tileOfRef(r) === OFF_MESH_SLOT || !passesFilter(navMesh, filter, r)) continue;
        // Not back into a polygon already walked (at a vertex the polygons around it tie).
        let seen = false;
        for (let m = 0; m <= steps && !seen; m++) seen = walked[m] === r;
        if (seen) continue;
        if (!getPortalPoints(navMesh, cur, r, left, right)) continue;
        if (
          distancePtSegSqrXZ(px, pz, left[0]!, left[2]!, right[0]!, right[2]!) <=
          4 * STEP_TOL * STEP_TOL
        ) {
          next = r;
          break;
        }
      }
    }
    if (next === 0) {
      if ((1 - tExit) * len <= STEP_TOL) return true;
      hit.t = tExit;
      const w = hit.wall;
      if (wallEdge < 0) break;
      const a = pv[base + wallEdge]! * 3;
      const b = pv[base + (wallEdge + 1 === n ? 0 : wallEdge + 1)]! * 3;
      for (let k = 0; k < 3; k++) {
        w[k] = v[a + k]!;
        w[3 + k] = v[b + k]!;
      }
      return false;
    }
    cur = next;
  }
  hit.t = 0;
  const w = hit.wall;
  w[0] = sx;
  w[2] = sz;
  w[3] = sx;
  w[5] = sz;
  w[1] = 0;
  w[4] = 0;
  return false;
}
