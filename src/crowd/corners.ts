import { segmentParamXZ } from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPortalPoints } from "../navmesh/neighbours.js";
import { isLiveRef, OFF_MESH_SLOT, type PolyRef, tileOfRef } from "../navmesh/poly-ref.js";
import { closestPointOnBoundaryByRef } from "../query/ref-geometry.js";
import type { QueryStatus } from "../query/status.js";
import {
  STRAIGHT_PATH_END,
  STRAIGHT_PATH_OFFMESH,
  STRAIGHT_PATH_START,
  type StraightPath,
} from "../query/straight-path.js";

/**
 * The first corners of a corridor, Detour's findStraightPath funnel (Mononen's simple stupid
 * funnel) as dtPathCorridor::findCorners calls it: portals are fetched one at a time and the
 * walk stops at `maxPoints` points, so the cost depends on how far the corners are, not on
 * the corridor's length (a whole-corridor string pull per agent per frame is the crowd's
 * largest cost otherwise). Only the polygons the funnel reaches are validated: a stale one
 * gives "invalidRef" (no points) and the crowd replans.
 */

/** Points closer than this (squared, 3D) are one point (Detour's dtVequal). */
const EQUAL_SQR = (1 / 16384) ** 2;
/** A start this close (XZ) to the first portal skips it, as Detour. */
const START_PORTAL_SQR = 0.001 * 0.001;

/** Portals kept while the funnel runs (it restarts at each new corner's portal). */
const MAX_CACHED = 64;
const cache = new Float64Array(MAX_CACHED * 6);
const left = new Float64Array(3);
const right = new Float64Array(3);
const startPt = new Float64Array(3);
const endPt = new Float64Array(3);

/** Twice the signed XZ area of (a, b, c), Detour's dtTriArea2D. */
function triArea2(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): number {
  return (cx - ax) * (bz - az) - (bx - ax) * (cz - az);
}

/**
 * The point append() adds: x, y, z, polygon ref. Passed through this array, not as arguments:
 * append is not inlined, and double arguments (refs are above 2^31) would be boxed on the heap
 * at every call.
 */
const pt = new Float64Array(4);

/**
 * Appends `pt` (merging into an equal last one); true when out is full or it is the end.
 * Writes out's arrays directly (out.capacity >= maxPoints, checked by the caller).
 */
function append(out: StraightPath, flags: number, maxPoints: number): boolean {
  const n = out.count;
  const x = pt[0]!;
  const y = pt[1]!;
  const z = pt[2]!;
  if (n > 0) {
    const o = (n - 1) * 3;
    const dx = out.points[o]! - x;
    const dy = out.points[o + 1]! - y;
    const dz = out.points[o + 2]! - z;
    if (dx * dx + dy * dy + dz * dz < EQUAL_SQR) {
      out.flags[n - 1] = flags;
      out.refs[n - 1] = pt[3]!;
      return (flags & STRAIGHT_PATH_END) !== 0;
    }
  }
  const o = n * 3;
  out.points[o] = x;
  out.points[o + 1] = y;
  out.points[o + 2] = z;
  out.flags[n] = flags;
  out.refs[n] = pt[3]!;
  out.count = n + 1;
  return n + 1 >= maxPoints || (flags & STRAIGHT_PATH_END) !== 0;
}

/** Sets pt to (x, y, z, ref). Small: inlined where it is called. */
function setPt(x: number, y: number, z: number, ref: PolyRef): void {
  pt[0] = x;
  pt[1] = y;
  pt[2] = z;
  pt[3] = ref;
}

/**
 * Writes up to `maxPoints` corners of the corridor path[0..count) from `start` to `end` to
 * `out` (flags and entered polygon per point, as findStraightPath). Returns "complete", or
 * "partial" when the corridor is broken (a portal is gone: the path ends on the last
 * reachable polygon), "noStart" for an empty corridor, "invalidRef" when a polygon the funnel
 * reached went stale.
 */
export function findCorridorCorners(
  navMesh: NavMesh,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  path: Float64Array,
  count: number,
  maxPoints: number,
  out: StraightPath,
): QueryStatus {
  out.count = 0;
  if (count <= 0 || maxPoints <= 0) return "noStart";
  // append() writes out's arrays directly: make room for maxPoints once.
  while (out.flags.length < maxPoints) out.push(0, 0, 0, 0, 0);
  out.count = 0;
  const first = path[0]!;
  const last = path[count - 1]!;
  if (!isLiveRef(navMesh, first) || !isLiveRef(navMesh, last)) return "invalidRef";
  closestPointOnBoundaryByRef(navMesh, first, start[0]!, start[1]!, start[2]!, startPt);
  closestPointOnBoundaryByRef(navMesh, last, end[0]!, end[1]!, end[2]!, endPt);
  setPt(startPt[0]!, startPt[1]!, startPt[2]!, first);
  if (append(out, STRAIGHT_PATH_START, maxPoints)) {
    return "complete";
  }
  if (count > 1) {
    let ax = startPt[0]!;
    let ay = startPt[1]!;
    let az = startPt[2]!;
    let lx = ax;
    let ly = ay;
    let lz = az;
    let rx = ax;
    let ry = ay;
    let rz = az;
    let apexIndex = 0;
    let leftIndex = 0;
    let rightIndex = 0;
    let leftOffMesh = false;
    let rightOffMesh = false;
    let leftRef = first;
    let rightRef = first;
    let fetched = 0;
    for (let i = 0; i < count; i++) {
      let toOffMesh = false;
      if (i + 1 < count) {
        const to = path[i + 1]!;
        if (i < fetched) {
          // Fetched before the funnel restarted at its apex.
          const o = i * 6;
          left[0] = cache[o]!;
          left[1] = cache[o + 1]!;
          left[2] = cache[o + 2]!;
          right[0] = cache[o + 3]!;
          right[1] = cache[o + 4]!;
          right[2] = cache[o + 5]!;
        } else {
          if (!isLiveRef(navMesh, to)) {
            out.count = 0;
            return "invalidRef";
          }
          if (!getPortalPoints(navMesh, path[i]!, to, left, right)) {
            // Broken corridor: end on the last polygon reached.
            closestPointOnBoundaryByRef(navMesh, path[i]!, end[0]!, end[1]!, end[2]!, endPt);
            setPt(endPt[0]!, endPt[1]!, endPt[2]!, path[i]!);
            append(out, 0, maxPoints);
            return "partial";
          }
          if (i < MAX_CACHED) {
            const o = i * 6;
            cache[o] = left[0]!;
            cache[o + 1] = left[1]!;
            cache[o + 2] = left[2]!;
            cache[o + 3] = right[0]!;
            cache[o + 4] = right[1]!;
            cache[o + 5] = right[2]!;
            fetched = i + 1;
          }
        }
        toOffMesh = tileOfRef(to) === OFF_MESH_SLOT;
        if (i === 0) {
          // The start on the first portal: skip it (Detour's 0.001 rule).
          const t = segmentParamXZ(ax, az, left[0]!, left[2]!, right[0]!, right[2]!);
          const px = left[0]! + (right[0]! - left[0]!) * t - ax;
          const pz = left[2]! + (right[2]! - left[2]!) * t - az;
          if (px * px + pz * pz < START_PORTAL_SQR) continue;
        }
      } else {
        left.set(endPt);
        right.set(endPt);
      }
      const nlx = left[0]!;
      const nlz = left[2]!;
      const nrx = right[0]!;
      const nrz = right[2]!;
      // Right side.
      if (triArea2(ax, az, rx, rz, nrx, nrz) <= 0) {
        if (equal3(ax, ay, az, rx, ry, rz) || triArea2(ax, az, lx, lz, nrx, nrz) > 0) {
          rx = nrx;
          ry = right[1]!;
          rz = nrz;
          rightRef = i + 1 < count ? path[i + 1]! : 0;
          rightOffMesh = toOffMesh;
          rightIndex = i;
        } else {
          ax = lx;
          ay = ly;
          az = lz;
          apexIndex = leftIndex;
          const flags = leftRef === 0 ? STRAIGHT_PATH_END : leftOffMesh ? STRAIGHT_PATH_OFFMESH : 0;
          setPt(ax, ay, az, leftRef);
          if (append(out, flags, maxPoints)) return "complete";
          lx = rx = ax;
          ly = ry = ay;
          lz = rz = az;
          leftIndex = rightIndex = apexIndex;
          i = apexIndex;
          continue;
        }
      }
      // Left side.
      if (triArea2(ax, az, lx, lz, nlx, nlz) >= 0) {
        if (equal3(ax, ay, az, lx, ly, lz) || triArea2(ax, az, rx, rz, nlx, nlz) < 0) {
          lx = nlx;
          ly = left[1]!;
          lz = nlz;
          leftRef = i + 1 < count ? path[i + 1]! : 0;
          leftOffMesh = toOffMesh;
          leftIndex = i;
        } else {
          ax = rx;
          ay = ry;
          az = rz;
          apexIndex = rightIndex;
          const flags =
            rightRef === 0 ? STRAIGHT_PATH_END : rightOffMesh ? STRAIGHT_PATH_OFFMESH : 0;
          setPt(ax, ay, az, rightRef);
          if (append(out, flags, maxPoints)) return "complete";
          lx = rx = ax;
          ly = ry = ay;
          lz = rz = az;
          leftIndex = rightIndex = apexIndex;
          i = apexIndex;
        }
      }
    }
  }
  setPt(endPt[0]!, endPt[1]!, endPt[2]!, 0);
  append(out, STRAIGHT_PATH_END, maxPoints);
  return "complete";
}

function equal3(ax: number, ay: number, az: number, bx: number, by: number, bz: number): boolean {
  const dx = ax - bx;
  const dy = ay - by;
  const dz = az - bz;
  return dx * dx + dy * dy + dz * dz < EQUAL_SQR;
}
