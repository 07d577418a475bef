import { MeshwayError } from "../errors.js";
import { triArea2XZ } from "../math/predicates2d.js";
import { distancePtSegSqrXZ, pointInPolyXZ } from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPortalPoints } from "../navmesh/neighbours.js";
import {
  checkRefArgument,
  classifyRef,
  isLiveRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileBaseOfRef,
  tileOfRef,
} from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { areaOfRef, closestPointOnBoundaryByRef, groundTileOf } from "./ref-geometry.js";
import type { QueryStatus } from "./status.js";

/** Straight-path point flag: the start point. */
export const STRAIGHT_PATH_START = 1;
/** Straight-path point flag: the end point. */
export const STRAIGHT_PATH_END = 2;
/** Straight-path point flag: the start of an off-mesh connection (its ref is the connection). */
export const STRAIGHT_PATH_OFFMESH = 4;

export interface StraightPathOptions {
  /** Add a point where the path crosses between polygons of different areas. */
  areaCrossings?: boolean;
  /** Add a point at every polygon crossing. */
  allCrossings?: boolean;
  /** Stop after this many points (status "partial" when the path was cut). Default unlimited. */
  maxPoints?: number;
}

/**
 * A straight path: `count` points as xyz triples in `points`, per point its flags
 * (STRAIGHT_PATH_*) and the polygon entered at it (`refs`; 0 for the end point). Buffers grow
 * by doubling and are reused across queries.
 */
export class StraightPath {
  count = 0;
  points: Float64Array;
  flags: Uint8Array;
  refs: Float64Array;

  constructor(capacity = 32) {
    const c = Math.max(1, capacity | 0);
    this.points = new Float64Array(c * 3);
    this.flags = new Uint8Array(c);
    this.refs = new Float64Array(c);
  }

  /** Appends a point (growing the buffers when full). */
  push(x: number, y: number, z: number, flags: number, ref: PolyRef): void {
    const i = this.count;
    if (i === this.flags.length) this.grow();
    const o = i * 3;
    this.points[o] = x;
    this.points[o + 1] = y;
    this.points[o + 2] = z;
    this.flags[i] = flags;
    this.refs[i] = ref;
    this.count = i + 1;
  }

  private grow(): void {
    const c = this.flags.length * 2;
    const points = new Float64Array(c * 3);
    points.set(this.points);
    const flags = new Uint8Array(c);
    flags.set(this.flags);
    const refs = new Float64Array(c);
    refs.set(this.refs);
    this.points = points;
    this.flags = flags;
    this.refs = refs;
  }
}

/** Points closer than this (squared, 3D) are one point, as Detour's dtVequal. */
const EQUAL_SQR = (1 / 16384) ** 2;
/** A start this close (XZ) to the first portal skips it, as in Detour. */
const START_PORTAL_SQR = 0.001 * 0.001;

// appendVertex outcomes.
const IN_PROGRESS = 0;
const DONE = 1;
const FULL = 2;

// Scratch (module level: the funnel allocates nothing per call).
const left = new Float64Array(3);
const right = new Float64Array(3);
const startPt = new Float64Array(3);
const endPt = new Float64Array(3);

/** A corner this close (XZ) to the segment joining its neighbours is redundant. */
const COLLINEAR_SQR = 1e-6 * 1e-6;

/**
 * The point appendVertex adds: x, y, z, polygon ref. Passed through this array, not as
 * arguments: appendVertex is not always inlined, and double arguments (refs are above 2^31)
 * would be boxed on the heap at every call.
 */
const pt = new Float64Array(4);

/** Sets pt to (x, y, z, ref). Small: inlined where it is called. */
function setPt(x: number, y: number, z: number, ref: PolyRef): void {
  pt[0] = x;
  pt[1] = y;
  pt[2] = z;
  pt[3] = ref;
}

/**
 * Appends `pt`, merging it into the previous point when they coincide (Detour's
 * appendVertex). Unlike Detour, with `dropCollinear` a plain corner left lying on the segment
 * from its predecessor to the new point (the funnel emits those when the apex sits on a wall
 * line) is replaced by the new point, so every interior corner is a real turn. Corners after
 * an off-mesh start are kept: that segment is the link, not ground.
 */
function appendVertex(
  out: StraightPath,
  flags: number,
  maxPoints: number,
  dropCollinear: boolean,
): number {
  const x = pt[0]!;
  const y = pt[1]!;
  const z = pt[2]!;
  const n = out.count;
  if (n > 0) {
    const pts = out.points;
    const o = (n - 1) * 3;
    const dx = pts[o]! - x;
    const dy = pts[o + 1]! - y;
    const dz = pts[o + 2]! - z;
    if (dx * dx + dy * dy + dz * dz < EQUAL_SQR) {
      out.flags[n - 1] = flags;
      out.refs[n - 1] = pt[3]!;
      return IN_PROGRESS;
    }
    if (
      dropCollinear &&
      n >= 2 &&
      out.flags[n - 1] === 0 &&
      (out.flags[n - 2]! & STRAIGHT_PATH_OFFMESH) === 0 &&
      distancePtSegSqrXZ(pts[o]!, pts[o + 2]!, pts[o - 3]!, pts[o - 1]!, x, z) <= COLLINEAR_SQR
    ) {
      out.count = n - 1;
    }
  }
  const m = out.count;
  if (m === out.flags.length) {
    out.push(x, y, z, flags, pt[3]!); // grows the buffers (push is not inlined: boxes)
  } else {
    const o = m * 3;
    out.points[o] = x;
    out.points[o + 1] = y;
    out.points[o + 2] = z;
    out.flags[m] = flags;
    out.refs[m] = pt[3]!;
    out.count = m + 1;
  }
  if (out.count >= maxPoints) return FULL;
  return (flags & STRAIGHT_PATH_END) !== 0 ? DONE : IN_PROGRESS;
}

/** Portal end points of the corridor, 6 per portal (left xyz, right xyz); grown on demand. */
let portals = new Float64Array(6 * 64);
/** Per portal: 1 when the polygon entered through it is an off-mesh connection. */
let portalToOffMesh = new Uint8Array(64);
/** Portals [0, portalsFetched) of the current pull are in `portals`. */
let portalsFetched = 0;
// The tile of the last (salt, slot) seen by fetchPortal, keyed by its base ref (in an array:
// a module-level number above 2^31 is boxed at every store): corridors mostly stay in one tile.
const cachedHi = new Float64Array(1);
let cachedTile: NavMeshTile | null = null;
let cachedOffMesh = false;

// fetchPortal outcomes.
const PORTAL_OK = 0;
/** No portal between the two polygons (the corridor is broken). */
const PORTAL_BROKEN = 1;
/** The polygon entered is stale (only when asked to validate). */
const PORTAL_STALE = 2;

/** Starts a pull over polyCount polygons: room for every portal, none fetched yet. */
function beginPortals(polyCount: number): void {
  const need = (polyCount - 1) * 6;
  if (portals.length < need) {
    portals = new Float64Array(Math.max(need, portals.length * 2));
    portalToOffMesh = new Uint8Array(portals.length / 6);
  }
  portalsFetched = 0;
  cachedHi[0] = -1;
  cachedTile = null;
  cachedOffMesh = false;
}

/**
 * Fetches portal i = portalsFetched (from polys[i] into polys[i + 1]) into `portals`. Portals
 * are fetched as the funnel first reaches them and kept, so each is computed once although
 * the funnel revisits them after every corner, and a pull cut short by maxPoints reads no
 * further. Neighbours in one tile take a fast path (a scan of the polygon's adjacency);
 * everything else goes through getPortalPoints. With `validate`, a stale polygon entered
 * gives PORTAL_STALE (a live tile's polygon index is checked here, other refs by isLiveRef).
 * Refs are read from `polys` here, not passed: a call not inlined would box each one.
 */
function fetchPortal(navMesh: NavMesh, polys: ArrayLike<number>, validate: boolean): number {
  const i = portalsFetched;
  const from = polys[i]!;
  const to = polys[i + 1]!;
  const fh = tileBaseOfRef(from);
  const th = tileBaseOfRef(to);
  if (th !== cachedHi[0]) {
    const slotIndex = tileOfRef(to);
    cachedHi[0] = th;
    cachedOffMesh = slotIndex === OFF_MESH_SLOT;
    cachedTile =
      !cachedOffMesh && navMesh.slotSalt(slotIndex) === saltOfRef(to)
        ? navMesh.tileInSlot(slotIndex)
        : null;
  }
  const tile = cachedTile;
  if (validate && !(tile !== null && to - th < tile.polyCount) && !isLiveRef(navMesh, to)) {
    return PORTAL_STALE;
  }
  portalToOffMesh[i] = cachedOffMesh ? 1 : 0;
  const buf = portals;
  const o = i * 6;
  if (fh === th && tile !== null) {
    const poly = from - fh;
    const want = to - th + 1;
    if (poly < tile.polyCount) {
      const nvp = tile.maxVertsPerPoly;
      const base = poly * nvp;
      const cnt = tile.polyVertCount[poly]!;
      const nbs = tile.polyNeighbours;
      for (let e = 0; e < cnt; e++) {
        if (nbs[base + e] !== want) continue;
        const v = tile.vertices;
        const va = tile.polyVerts[base + e]! * 3;
        const vb = tile.polyVerts[base + (e + 1 === cnt ? 0 : e + 1)]! * 3;
        buf[o] = v[va]!;
        buf[o + 1] = v[va + 1]!;
        buf[o + 2] = v[va + 2]!;
        buf[o + 3] = v[vb]!;
        buf[o + 4] = v[vb + 1]!;
        buf[o + 5] = v[vb + 2]!;
        portalsFetched = i + 1;
        return PORTAL_OK;
      }
    }
  }
  if (!getPortalPoints(navMesh, from, to, left, right)) return PORTAL_BROKEN;
  buf[o] = left[0]!;
  buf[o + 1] = left[1]!;
  buf[o + 2] = left[2]!;
  buf[o + 3] = right[0]!;
  buf[o + 4] = right[1]!;
  buf[o + 5] = right[2]!;
  portalsFetched = i + 1;
  return PORTAL_OK;
}

/**
 * Adds the points where the segment from the last point to (ex, ez) crosses the portals
 * between polys[startIdx..endIdx] (all of them, or only those changing area).
 */
function appendPortals(
  navMesh: NavMesh,
  startIdx: number,
  endIdx: number,
  ex: number,
  ez: number,
  polys: ArrayLike<number>,
  out: StraightPath,
  areaOnly: boolean,
  maxPoints: number,
): number {
  const o = (out.count - 1) * 3;
  const sx = out.points[o]!;
  const sz = out.points[o + 2]!;
  const ux = ex - sx;
  const uz = ez - sz;
  for (let i = startIdx; i < endIdx; i++) {
    const from = polys[i]!;
    const to = polys[i + 1]!;
    if (areaOnly && areaOfRef(navMesh, from) === areaOfRef(navMesh, to)) continue;
    // Segment/segment intersection on XZ (dtIntersectSegSeg2D), t along the portal.
    const o = i * 6;
    const lx = portals[o]!;
    const ly = portals[o + 1]!;
    const lz = portals[o + 2]!;
    const vx = portals[o + 3]! - lx;
    const vz = portals[o + 5]! - lz;
    const d = ux * vz - uz * vx;
    if (Math.abs(d) < 1e-6) continue;
    const wx = sx - lx;
    const wz = sz - lz;
    let t = (ux * wz - uz * wx) / d;
    t = Math.min(Math.max(t, 0), 1);
    setPt(lx + vx * t, ly + (portals[o + 4]! - ly) * t, lz + vz * t, to);
    const r = appendVertex(out, 0, maxPoints, false);
    if (r !== IN_PROGRESS) return r;
  }
  return IN_PROGRESS;
}

/** Status of a finished append sequence: cut short by maxPoints unless the end got in. */
function outcome(r: number, out: StraightPath): QueryStatus {
  return r === FULL && (out.flags[out.count - 1]! & STRAIGHT_PATH_END) === 0
    ? "partial"
    : "complete";
}

/** Boundary moves shorter than this (XZ) keep the given point: it is on the polygon. */
const ON_BOUNDARY_SQR = 1e-4 * 1e-4;

/**
 * Clamps p onto polygon `ref` (Detour's closestPointOnPolyBoundary: p itself when inside,
 * else the closest edge point with the edge's height). A point on the boundary within rounding
 * counts as inside and keeps its own height: snapped points (findNearestPoly,
 * closestPointOnPoly) lie on edges and carry the detail surface's height, which Detour, in
 * float32, also keeps in the usual case.
 */
function clampToPoly(
  navMesh: NavMesh,
  ref: PolyRef,
  p: ArrayLike<number>,
  out: Float64Array,
): void {
  const x = p[0]!;
  const y = p[1]!;
  const z = p[2]!;
  // Usually inside: the cheap even-odd test settles it without measuring every edge.
  const tile = groundTileOf(navMesh, ref);
  if (tile !== null && pointInPolyXZ(tile, polyOfRef(ref), x, z)) {
    out[0] = x;
    out[1] = y;
    out[2] = z;
    return;
  }
  closestPointOnBoundaryByRef(navMesh, ref, x, y, z, out);
  const dx = out[0]! - x;
  const dz = out[2]! - z;
  if (dx * dx + dz * dz <= ON_BOUNDARY_SQR) {
    out[0] = x;
    out[1] = y;
    out[2] = z;
  }
}

/**
 * String-pulls the corridor polys[0..polyCount) from `start` to `end` into `out` with the
 * simple stupid funnel algorithm, as Detour's findStraightPath (Mononen): the funnel's apex
 * advances to a portal end point whenever the next portal crosses the opposite side. Start
 * and end are first clamped onto the first and last polygons. Returns "complete", or
 * "partial" when the corridor is broken (a portal no longer exists; the path then ends on the
 * last reachable polygon) or maxPoints cut it short; "noStart" for an empty corridor;
 * "invalidRef" (no points) when a corridor polygon is stale — its tile was removed or replaced
 * since the corridor was found: find a new corridor. A malformed ref (never valid, see
 * classifyRef) throws MeshwayError("INVALID_ARGUMENT") naming `polys[i]`.
 *
 * Portal "left"/"right" are getPortalPoints'; triArea2XZ (math/predicates2d.ts) has Detour's
 * sign, so the funnel tightens the same way as Detour's for polygons wound like Recast's. Differences from Detour, both about degenerate input: a corner
 * left on the XZ segment between its neighbours (within 1e-6; the funnel makes those when
 * the apex lies on a wall's line) is dropped unless crossings are requested or it lands an
 * off-mesh link; and a start or end within 1e-4 of the polygon's boundary keeps its own
 * height instead of the edge's.
 */
export function findStraightPath(
  navMesh: NavMesh,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  polys: ArrayLike<number>,
  polyCount: number,
  out: StraightPath,
  options?: StraightPathOptions,
): QueryStatus {
  checkStraightPathOut(out);
  if (corridorIsStale(navMesh, polys, polyCount)) {
    out.count = 0;
    return "invalidRef";
  }
  return stringPull(navMesh, start, end, polys, polyCount, out, options);
}

/** A caller's `out` that cannot take the answer is a programmer error: say so, not TypeError. */
function checkStraightPathOut(out: StraightPath): void {
  if (
    out === null ||
    typeof out !== "object" ||
    typeof out.push !== "function" ||
    !(out.points instanceof Float64Array) ||
    Object.isFrozen(out)
  ) {
    const got =
      out === null
        ? "null"
        : Array.isArray(out)
          ? "an array"
          : Object.isFrozen(out)
            ? "a frozen object"
            : typeof out;
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `findStraightPath: out must be a writable StraightPath (new StraightPath()), got ${got}`,
    );
  }
}

/**
 * True when a corridor polygon is stale; throws for a malformed one. Corridors mostly stay in
 * one tile, so a ref with the (salt, slot) of the last live ground ref only has its polygon
 * index checked: a few operations per polygon, against a funnel that reads every portal.
 */
function corridorIsStale(navMesh: NavMesh, polys: ArrayLike<number>, polyCount: number): boolean {
  let stale = false;
  let liveHi = -1;
  let liveCount = 0;
  for (let i = 0; i < polyCount; i++) {
    const ref = polys[i]!;
    const hi = tileBaseOfRef(ref);
    if (hi === liveHi) {
      const poly = ref - hi;
      if (poly < liveCount && poly === Math.floor(poly)) continue;
    }
    const c = classifyRef(navMesh, ref);
    if (c === "stale") {
      stale = true;
    } else if (c === "malformed") {
      checkRefArgument(navMesh, ref, `findStraightPath polys[${i}]`);
    } else {
      const tile = groundTileOf(navMesh, ref);
      if (tile !== null) {
        liveHi = hi;
        liveCount = tile.polyCount;
      }
    }
  }
  return stale;
}

/** findStraightPath on a corridor known to be live (computePath's own). @internal */
export function stringPull(
  navMesh: NavMesh,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  polys: ArrayLike<number>,
  polyCount: number,
  out: StraightPath,
  options?: StraightPathOptions,
): QueryStatus {
  out.count = 0;
  if (polyCount <= 0) return "noStart";
  const crossings = options?.allCrossings === true || options?.areaCrossings === true;
  clampToPoly(navMesh, polys[0]!, start, startPt);
  clampToPoly(navMesh, polys[polyCount - 1]!, end, endPt);
  return funnel(
    navMesh,
    end,
    polys,
    polyCount,
    out,
    options?.maxPoints ?? Infinity,
    crossings,
    options?.allCrossings !== true,
    false,
  );
}

/**
 * The first `maxPoints` corners of a crowd agent's corridor, as Detour's
 * dtPathCorridor::findCorners asks findStraightPath for them: portals are fetched as the
 * funnel reaches them, so the cost depends on how far the corners are, not on the corridor's
 * length (a whole-corridor pull per agent per frame is the crowd's largest cost otherwise),
 * and only those polygons are validated: a stale one gives "invalidRef" (no points). Detour's
 * points exactly: start and end clamped by closestPointOnPolyBoundary (no 1e-4 rule) and
 * collinear corners kept. Otherwise findStraightPath's statuses ("partial": broken corridor
 * or cut at maxPoints). @internal
 */
export function findCorridorCorners(
  navMesh: NavMesh,
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  polys: Float64Array,
  polyCount: number,
  maxPoints: number,
  out: StraightPath,
): QueryStatus {
  out.count = 0;
  if (polyCount <= 0 || maxPoints <= 0) return "noStart";
  if (!clampExact(navMesh, polys, 0, start, startPt)) return "invalidRef";
  if (!clampExact(navMesh, polys, polyCount - 1, end, endPt)) return "invalidRef";
  return funnel(navMesh, end, polys, polyCount, out, maxPoints, false, true, true);
}

/**
 * Detour's closestPointOnPolyBoundary of p on polys[index] into out (p itself when inside:
 * the even-odd test first, as cheap as the answer usually is); false when that ref is not
 * live. The ref is read here, not passed (see fetchPortal).
 */
function clampExact(
  navMesh: NavMesh,
  polys: ArrayLike<number>,
  index: number,
  p: ArrayLike<number>,
  out: Float64Array,
): boolean {
  const ref = polys[index]!;
  if (!isLiveRef(navMesh, ref)) return false;
  const x = p[0]!;
  const y = p[1]!;
  const z = p[2]!;
  const tile = groundTileOf(navMesh, ref);
  if (tile !== null && pointInPolyXZ(tile, polyOfRef(ref), x, z)) {
    out[0] = x;
    out[1] = y;
    out[2] = z;
    return true;
  }
  return closestPointOnBoundaryByRef(navMesh, ref, x, y, z, out);
}

/**
 * The simple stupid funnel from startPt to endPt (both already clamped) through
 * polys[0..polyCount). `crowd`: findCorridorCorners' variant (portals validated as fetched,
 * Detour's clamp on a broken corridor, collinear corners kept).
 */
function funnel(
  navMesh: NavMesh,
  end: ArrayLike<number>,
  polys: ArrayLike<number>,
  polyCount: number,
  out: StraightPath,
  maxPoints: number,
  crossings: boolean,
  areaOnly: boolean,
  crowd: boolean,
): QueryStatus {
  const dropCollinear = !crossings && !crowd;
  setPt(startPt[0]!, startPt[1]!, startPt[2]!, polys[0]!);
  let r = appendVertex(out, STRAIGHT_PATH_START, maxPoints, dropCollinear);
  if (r !== IN_PROGRESS) return outcome(r, out);

  if (polyCount > 1) {
    beginPortals(polyCount);
    const ex = endPt[0]!;
    const ey = endPt[1]!;
    const ez = endPt[2]!;
    // Funnel state as scalars: apex, and the left and right portal points.
    let ax = startPt[0]!;
    let ay = startPt[1]!;
    let az = startPt[2]!;
    let plx = ax;
    let ply = ay;
    let plz = az;
    let prx = ax;
    let pry = ay;
    let prz = az;
    let apexIndex = 0;
    let leftIndex = 0;
    let rightIndex = 0;
    let leftRef: PolyRef = polys[0]!;
    let rightRef: PolyRef = polys[0]!;
    let leftOffMesh = false;
    let rightOffMesh = false;

    for (let i = 0; i < polyCount; i++) {
      let toRef: PolyRef = 0;
      let toOffMesh = false;
      let lx: number;
      let ly: number;
      let lz: number;
      let rx: number;
      let ry: number;
      let rz: number;
      if (i + 1 < polyCount) {
        toRef = polys[i + 1]!;
        if (i >= portalsFetched) {
          const got = fetchPortal(navMesh, polys, crowd);
          if (got === PORTAL_STALE) {
            out.count = 0;
            return "invalidRef";
          }
          if (got === PORTAL_BROKEN) {
            // Broken corridor: end on the closest point of the last polygon we can reach.
            if (crowd) clampExact(navMesh, polys, i, end, endPt);
            else clampToPoly(navMesh, polys[i]!, end, endPt);
            if (crossings) {
              r = appendPortals(
                navMesh,
                apexIndex,
                i,
                endPt[0]!,
                endPt[2]!,
                polys,
                out,
                areaOnly,
                maxPoints,
              );
              if (r === FULL) return "partial";
            }
            setPt(endPt[0]!, endPt[1]!, endPt[2]!, polys[i]!);
            appendVertex(out, 0, maxPoints, dropCollinear);
            return "partial";
          }
        }
        const o = i * 6;
        const buf = portals;
        lx = buf[o]!;
        ly = buf[o + 1]!;
        lz = buf[o + 2]!;
        rx = buf[o + 3]!;
        ry = buf[o + 4]!;
        rz = buf[o + 5]!;
        toOffMesh = portalToOffMesh[i] === 1;
        // Starting right at the first portal: skip it.
        if (i === 0 && distancePtSegSqrXZ(ax, az, lx, lz, rx, rz) < START_PORTAL_SQR) continue;
      } else {
        lx = rx = ex;
        ly = ry = ey;
        lz = rz = ez;
      }

      // Right side of the funnel.
      if (triArea2XZ(ax, az, prx, prz, rx, rz) <= 0) {
        const dx = ax - prx;
        const dy = ay - pry;
        const dz = az - prz;
        if (dx * dx + dy * dy + dz * dz < EQUAL_SQR || triArea2XZ(ax, az, plx, plz, rx, rz) > 0) {
          prx = rx;
          pry = ry;
          prz = rz;
          rightRef = toRef;
          rightOffMesh = toOffMesh;
          rightIndex = i;
        } else {
          // The right side crossed the left: the left end point becomes a corner.
          if (crossings) {
            r = appendPortals(
              navMesh,
              apexIndex,
              leftIndex,
              plx,
              plz,
              polys,
              out,
              areaOnly,
              maxPoints,
            );
            if (r !== IN_PROGRESS) return outcome(r, out);
          }
          ax = plx;
          ay = ply;
          az = plz;
          apexIndex = leftIndex;
          const flags = leftRef === 0 ? STRAIGHT_PATH_END : leftOffMesh ? STRAIGHT_PATH_OFFMESH : 0;
          setPt(ax, ay, az, leftRef);
          r = appendVertex(out, flags, maxPoints, dropCollinear);
          if (r !== IN_PROGRESS) return outcome(r, out);
          prx = ax;
          pry = ay;
          prz = az;
          leftIndex = apexIndex;
          rightIndex = apexIndex;
          i = apexIndex;
          continue;
        }
      }
      // Left side of the funnel.
      if (triArea2XZ(ax, az, plx, plz, lx, lz) >= 0) {
        const dx = ax - plx;
        const dy = ay - ply;
        const dz = az - plz;
        if (dx * dx + dy * dy + dz * dz < EQUAL_SQR || triArea2XZ(ax, az, prx, prz, lx, lz) < 0) {
          plx = lx;
          ply = ly;
          plz = lz;
          leftRef = toRef;
          leftOffMesh = toOffMesh;
          leftIndex = i;
        } else {
          // The left side crossed the right: the right end point becomes a corner.
          if (crossings) {
            r = appendPortals(
              navMesh,
              apexIndex,
              rightIndex,
              prx,
              prz,
              polys,
              out,
              areaOnly,
              maxPoints,
            );
            if (r !== IN_PROGRESS) return outcome(r, out);
          }
          ax = prx;
          ay = pry;
          az = prz;
          apexIndex = rightIndex;
          const flags =
            rightRef === 0 ? STRAIGHT_PATH_END : rightOffMesh ? STRAIGHT_PATH_OFFMESH : 0;
          setPt(ax, ay, az, rightRef);
          r = appendVertex(out, flags, maxPoints, dropCollinear);
          if (r !== IN_PROGRESS) return outcome(r, out);
          plx = ax;
          ply = ay;
          plz = az;
          leftIndex = apexIndex;
          rightIndex = apexIndex;
          i = apexIndex;
        }
      }
    }
    if (crossings) {
      r = appendPortals(navMesh, apexIndex, polyCount - 1, ex, ez, polys, out, areaOnly, maxPoints);
      if (r !== IN_PROGRESS) return outcome(r, out);
    }
  }
  setPt(endPt[0]!, endPt[1]!, endPt[2]!, 0);
  r = appendVertex(out, STRAIGHT_PATH_END, maxPoints, dropCollinear);
  return outcome(r, out);
}
