import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPortalPoints } from "../navmesh/neighbours.js";
import { polyOfRef } from "../navmesh/poly-ref.js";
import { createNearestPolyResult } from "../query/nav-mesh-query.js";
import { NODE_CLOSED } from "../query/node-pool.js";
import { StraightPath } from "../query/straight-path.js";
import type { Adjacency } from "./adjacency.js";
import { computeExactPath, type ExactPath, lessonQuery } from "./exact-path.js";
import { type DropRun, type FunnelRun, orientPortal, recordDrops, runFunnel } from "./funnel.js";
import { type ConvexSurface, polylineLength } from "./geometry.js";
import { LESSON_SCENE } from "./scene.js";
import type { LessonMethod } from "./settings.js";

/** Spacing of the samples taken along a final path to test it lies on the surface [world units]. */
export const PATH_SAMPLE_STEP = 0.05;

/** A polyline with its measures. */
export interface LessonPolyline {
  /** x, z pairs, start first. */
  points: Float64Array;
  /** Number of points. */
  count: number;
  length: number;
  /** Interior points whose neighbours see each other on the surface (drop test). */
  removable: number;
}

/** Section 4 for one method. */
export interface LessonPath {
  method: LessonMethod;
  /** Polygon holding the start / the goal (index into the method's polygons), -1 when none. */
  startPolygon: number;
  goalPolygon: number;
  /** "complete", "partial" (goal unreachable: ends at the polygon nearest to it) or "noStart". */
  status: "complete" | "partial" | "noStart";
  /** The polygon sequence A* returned, start polygon first. */
  polygons: number[];
  /** Polygons A* settled (closed) before stopping. */
  settled: number;
  /** Through the start, every portal's midpoint, and the goal (or the partial end). */
  midpoint: LessonPolyline;
  /** The midpoint polyline straightened by dropping points while the shortcut stays on the surface. */
  dropped: LessonPolyline;
  /**
   * The funnel: meshway's findStraightPath, or for the simple method the lesson's own funnel
   * (src/lesson/funnel.ts) through the rectangles' portals. Null only when there is no path.
   */
  funnel: LessonPolyline | null;
  /** The portals crossed, 4 numbers each (left x, z, right x, z as seen walking the path). */
  portals: Float64Array;
  /** Every test point-dropping made, in order (the step slider plays it). */
  drops: DropRun;
  /** The lesson's funnel through `portals`, step by step (its end equals `funnel`). */
  funnelRun: FunnelRun;
  /**
   * The exact shortest path (NavMeshQuery.findShortestPath) on the method's surface: meshway's
   * navmesh, or for the simple method a navmesh of the kept cells (the rectangles' very
   * surface; src/lesson/simple-navmesh.ts). Null when the start is off the surface.
   */
  exact: LessonPolyline | null;
  /** findShortestPath's status for `exact` ("complete", "partial", ...; "" when null). */
  exactStatus: string;
  /** Samples taken along the exact path and how many lie on the method's surface. */
  exactSamples: number;
  exactSamplesOnSurface: number;
  /** The method's final straightened path: the funnel for both methods (dropped when none). */
  final: "dropped" | "funnel";
  /** Samples taken along the final path and how many lie on the surface. */
  samples: number;
  samplesOnSurface: number;
}

function polyline(points: number[], surface: ConvexSurface): LessonPolyline {
  const p = Float64Array.from(points);
  return {
    points: p,
    count: p.length / 2,
    length: polylineLength(p),
    removable: countRemovable(p, surface),
  };
}

/** Interior points i whose neighbours i - 1 and i + 1 are joined by a segment on the surface. */
export function countRemovable(pts: Float64Array, surface: ConvexSurface): number {
  let n = 0;
  for (let i = 2; i + 3 < pts.length; i += 2) {
    if (surface.containsSegment(pts[i - 2]!, pts[i - 1]!, pts[i + 2]!, pts[i + 3]!)) n++;
  }
  return n;
}

/**
 * The lesson's simple straightening: sweep the points, dropping each one whose neighbours
 * see each other on the surface, until a sweep drops nothing. Bounded: each drop removes a
 * point, so at most n sweeps.
 */
export function dropStraighten(points: readonly number[], surface: ConvexSurface): number[] {
  const out = points.slice();
  let changed = true;
  for (let sweep = 0; changed && sweep <= points.length; sweep++) {
    changed = false;
    for (let i = 2; i + 3 < out.length; ) {
      if (surface.containsSegment(out[i - 2]!, out[i - 1]!, out[i + 2]!, out[i + 3]!)) {
        out.splice(i, 2);
        changed = true;
      } else {
        i += 2;
      }
    }
  }
  return out;
}

/** Samples every PATH_SAMPLE_STEP along the polyline (and its corners) and tests each on the surface. */
export function samplePath(
  pts: Float64Array,
  surface: ConvexSurface,
): { samples: number; onSurface: number } {
  let samples = 0;
  let onSurface = 0;
  const test = (x: number, z: number) => {
    samples++;
    if (surface.contains(x, z)) onSurface++;
  };
  if (pts.length >= 2) test(pts[0]!, pts[1]!);
  for (let i = 2; i + 1 < pts.length; i += 2) {
    const ax = pts[i - 2]!;
    const az = pts[i - 1]!;
    const bx = pts[i]!;
    const bz = pts[i + 1]!;
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, bz - az) / PATH_SAMPLE_STEP));
    for (let s = 1; s <= steps; s++)
      test(ax + ((bx - ax) * s) / steps, az + ((bz - az) * s) / steps);
  }
  return { samples, onSurface };
}

function centroid(ring: Float64Array): [number, number] {
  let x = 0;
  let z = 0;
  const n = ring.length >> 1;
  for (let i = 0; i < n; i++) {
    x += ring[i * 2]!;
    z += ring[i * 2 + 1]!;
  }
  return [x / n, z / n];
}

/**
 * The lesson's own A* over the polygon graph (nodes = polygons, edges = shared segments).
 * A node's position is its centroid (the start and goal points for their polygons); the cost
 * of an edge is the distance between positions, the heuristic the distance to the goal.
 * Selection is a linear scan (the graph has tens of nodes), ties to the lower index.
 */
export function polygonAStar(
  surface: ConvexSurface,
  adjacency: Adjacency,
  start: readonly [number, number],
  goal: readonly [number, number],
): {
  status: "complete" | "partial" | "noStart";
  polygons: number[];
  settled: number;
  startPolygon: number;
  goalPolygon: number;
} {
  const n = surface.polys.length;
  const s = surface.find(start[0], start[1]);
  const g = surface.find(goal[0], goal[1]);
  if (s < 0)
    return { status: "noStart", polygons: [], settled: 0, startPolygon: -1, goalPolygon: g };
  const px = new Float64Array(n);
  const pz = new Float64Array(n);
  for (let p = 0; p < n; p++) [px[p], pz[p]] = centroid(surface.polys[p] as Float64Array);
  px[s] = start[0];
  pz[s] = start[1];
  if (g >= 0 && g !== s) {
    px[g] = goal[0];
    pz[g] = goal[1];
  }
  const gs = new Float64Array(n).fill(Infinity);
  const fs = new Float64Array(n).fill(Infinity);
  const parent = new Int32Array(n).fill(-1);
  const closed = new Uint8Array(n);
  const h = (p: number) => Math.hypot(px[p]! - goal[0], pz[p]! - goal[1]);
  gs[s] = 0;
  fs[s] = h(s);
  let settled = 0;
  let best = s; // closest to the goal so far, for a partial answer
  let reached = false;
  for (let iter = 0; iter < n; iter++) {
    let u = -1;
    let bf = Infinity;
    for (let p = 0; p < n; p++) {
      if (!closed[p] && fs[p]! < bf) {
        bf = fs[p]!;
        u = p;
      }
    }
    if (u < 0) break;
    closed[u] = 1;
    settled++;
    if (h(u) < h(best)) best = u;
    if (u === g) {
      reached = true;
      break;
    }
    for (const v of adjacency.neighbours[u]!) {
      if (closed[v]) continue;
      const cost = gs[u]! + Math.hypot(px[v]! - px[u]!, pz[v]! - pz[u]!);
      if (cost < gs[v]!) {
        gs[v] = cost;
        fs[v] = cost + h(v);
        parent[v] = u;
      }
    }
  }
  const end = reached ? g : best;
  const polygons: number[] = [];
  for (let p = end, k = 0; p >= 0 && k <= n; p = parent[p]!, k++) polygons.push(p);
  polygons.reverse();
  return {
    status: reached ? "complete" : "partial",
    polygons,
    settled,
    startPolygon: s,
    goalPolygon: g,
  };
}

/** The shared segment between polygons a and b (from the adjacency): x0, z0, x1, z1. */
function portalSegment(
  adjacency: Adjacency,
  a: number,
  b: number,
): [number, number, number, number] {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const pairs = adjacency.pairs;
  for (let k = 0; k < pairs.length; k += 2) {
    if (pairs[k] === lo && pairs[k + 1] === hi) {
      const s = adjacency.segments;
      return [s[k * 2]!, s[k * 2 + 1]!, s[k * 2 + 2]!, s[k * 2 + 3]!];
    }
  }
  throw new Error(`lesson: polygons ${a} and ${b} are not adjacent`);
}

/** Portal segments (4 numbers each) oriented left/right seen from the polygon before each. */
function orientFrom(
  surface: ConvexSurface,
  polygons: readonly number[],
  segments: readonly number[],
): Float64Array {
  const out = new Float64Array(segments.length);
  for (let k = 0; k * 4 < segments.length; k++) {
    const [cx, cz] = centroid(surface.polys[polygons[k]!] as Float64Array);
    const o = orientPortal(
      cx,
      cz,
      segments[k * 4]!,
      segments[k * 4 + 1]!,
      segments[k * 4 + 2]!,
      segments[k * 4 + 3]!,
    );
    out.set(o, k * 4);
  }
  return out;
}

/** The point of polygon p closest to (x, z) (the goal, for a partial path): its centroid when outside. */
function endPointFor(
  surface: ConvexSurface,
  p: number,
  goal: readonly [number, number],
): [number, number] {
  return surface.containsIn(p, goal[0], goal[1])
    ? [goal[0], goal[1]]
    : centroid(surface.polys[p] as Float64Array);
}

function finish(
  method: LessonMethod,
  surface: ConvexSurface,
  base: {
    status: LessonPath["status"];
    polygons: number[];
    settled: number;
    startPolygon: number;
    goalPolygon: number;
  },
  mid: number[],
  segments: number[],
  funnel: number[] | null,
  exact: ExactPath | null,
): LessonPath {
  const midpoint = polyline(mid, surface);
  const dropped = polyline(dropStraighten(mid, surface), surface);
  const portals = orientFrom(surface, base.polygons, segments);
  const n = mid.length;
  const funnelRun =
    n >= 4
      ? runFunnel([mid[0]!, mid[1]!], [mid[n - 2]!, mid[n - 1]!], portals)
      : runFunnel([0, 0], [0, 0], new Float64Array(0));
  const lessonFunnel = n >= 4 ? Array.from(funnelRun.points) : null;
  const drawn = funnel ?? lessonFunnel;
  const funnelLine = drawn ? polyline(drawn, surface) : null;
  const exactLine = exact ? polyline(Array.from(exact.points), surface) : null;
  const finalLine = funnelLine ?? dropped;
  const { samples, onSurface } = samplePath(finalLine.points, surface);
  const exactSampled = exactLine ? samplePath(exactLine.points, surface) : null;
  return {
    method,
    ...base,
    midpoint,
    dropped,
    funnel: funnelLine,
    portals,
    drops: recordDrops(mid, surface),
    funnelRun,
    exact: exactLine,
    exactStatus: exact ? exact.status : "",
    exactSamples: exactSampled ? exactSampled.samples : 0,
    exactSamplesOnSurface: exactSampled ? exactSampled.onSurface : 0,
    final: funnelLine ? "funnel" : "dropped",
    samples,
    samplesOnSurface: onSurface,
  };
}

/**
 * Section 4 with the simple method: own A* over the rectangles, midpoints, drop-straightening;
 * `exact` is the exact shortest path on the same surface (computed by the caller on the cells).
 */
export function simplePath(
  surface: ConvexSurface,
  adjacency: Adjacency,
  exact: ExactPath | null,
  start: readonly [number, number] = LESSON_SCENE.start,
  goal: readonly [number, number] = LESSON_SCENE.goal,
): LessonPath {
  const a = polygonAStar(surface, adjacency, start, goal);
  const mid: number[] = [];
  const segments: number[] = [];
  if (a.status !== "noStart") {
    mid.push(start[0], start[1]);
    for (let k = 1; k < a.polygons.length; k++) {
      const seg = portalSegment(adjacency, a.polygons[k - 1]!, a.polygons[k]!);
      segments.push(...seg);
      mid.push((seg[0] + seg[2]) / 2, (seg[1] + seg[3]) / 2);
    }
    mid.push(...endPointFor(surface, a.polygons[a.polygons.length - 1]!, goal));
  }
  return finish("simple", surface, a, mid, segments, null, a.status === "noStart" ? null : exact);
}

/**
 * Section 4 with meshway: NavMeshQuery.findPath on the built navmesh (A* over polygons),
 * the portal midpoints from getPortalPoints, the funnel from findStraightPath, the exact
 * shortest path from findShortestPath.
 */
export function meshwayPath(
  navMesh: NavMesh,
  surface: ConvexSurface,
  start: readonly [number, number] = LESSON_SCENE.start,
  goal: readonly [number, number] = LESSON_SCENE.goal,
): LessonPath {
  const q = lessonQuery(navMesh);
  const ext = [1, 1, 1];
  const s = createNearestPolyResult();
  const e = createNearestPolyResult();
  const sref = q.findNearestPoly([start[0], 0, start[1]], ext, q.defaultFilter, s);
  const eref = q.findNearestPoly([goal[0], 0, goal[1]], ext, q.defaultFilter, e);
  const empty = {
    status: "noStart" as const,
    polygons: [],
    settled: 0,
    startPolygon: -1,
    goalPolygon: -1,
  };
  if (sref === 0) return finish("meshway", surface, empty, [], [], null, null);
  const result = q.findPath(
    sref,
    eref === 0 ? sref : eref,
    s.point,
    eref === 0 ? s.point : e.point,
  );
  const refs: number[] = [];
  for (let i = 0; i < result.polyCount; i++) refs.push(result.polys[i]!);
  let settled = 0;
  const pool = q.nodePool;
  for (let i = 0; i < pool.count; i++) if (pool.flags[i]! & NODE_CLOSED) settled++;
  const last = refs[refs.length - 1]!;
  const complete = eref !== 0 && last === eref && result.status === "complete";
  const endPos = new Float64Array(3);
  if (complete) endPos.set(e.point);
  else q.closestPointOnPoly(last, e.point, endPos);
  const mid: number[] = [s.point[0]!, s.point[2]!];
  const segments: number[] = [];
  const left = new Float64Array(3);
  const right = new Float64Array(3);
  for (let k = 1; k < refs.length; k++) {
    if (getPortalPoints(navMesh, refs[k - 1]!, refs[k]!, left, right)) {
      segments.push(left[0]!, left[2]!, right[0]!, right[2]!);
      mid.push((left[0]! + right[0]!) / 2, (left[2]! + right[2]!) / 2);
    }
  }
  mid.push(endPos[0]!, endPos[2]!);
  const sp = new StraightPath(64);
  q.findStraightPath(s.point, endPos, refs, refs.length, sp);
  const funnel: number[] = [];
  for (let i = 0; i < sp.count; i++) funnel.push(sp.points[i * 3]!, sp.points[i * 3 + 2]!);
  const base = {
    status: complete ? ("complete" as const) : ("partial" as const),
    polygons: refs.map((r) => polyOfRef(r)),
    settled,
    startPolygon: polyOfRef(sref),
    goalPolygon: eref === 0 ? -1 : polyOfRef(eref),
  };
  return finish(
    "meshway",
    surface,
    base,
    mid,
    segments,
    funnel,
    computeExactPath(navMesh, start, goal),
  );
}
