import type { NavMesh } from "../navmesh/nav-mesh.js";
import { NavMeshQuery } from "../query/nav-mesh-query.js";
import { findShortestPath } from "../query/shortest-path/find-shortest-path.js";
import { polylineLength } from "./geometry.js";

/** The exact (any-angle) shortest path on a navmesh surface, XZ points in world units. */
export interface ExactPath {
  /** findShortestPath's status ("complete" when the goal was reached). */
  status: string;
  /** x, z pairs from the snapped start to the (snapped or, when partial, nearest) end. */
  points: Float64Array;
  /** Length in XZ (the quantity findShortestPath minimises; the lesson is flat anyway). */
  length: number;
  /** Points findShortestPath returned where the path goes straight on (merged, see below). */
  straightThrough: number;
}

const queries = new WeakMap<NavMesh, NavMeshQuery>();

/**
 * One query per navmesh, reused: a NavMeshQuery's node pool and the exact search's state
 * cost more to set up than a lesson-sized search (each call resets what it uses).
 */
export function lessonQuery(navMesh: NavMesh): NavMeshQuery {
  let q = queries.get(navMesh);
  if (!q) {
    q = new NavMeshQuery(navMesh);
    queries.set(navMesh, q);
  }
  return q;
}

/** |cross| ≤ this × |a| × |b|: the path does not turn at the point. */
const STRAIGHT_ON = 1e-9;

/**
 * The exact shortest path from start to goal on `navMesh`: `NavMeshQuery.findShortestPath`
 * (Polyanya-style any-angle search, docs/shortest-path.md), points projected to XZ. The same
 * snapping box as section 4's funnel ([1, 1, 1]), so both start and end at the same points.
 * Null when the start is not on the mesh (no path to draw).
 */
export function computeExactPath(
  navMesh: NavMesh,
  start: readonly [number, number],
  goal: readonly [number, number],
): ExactPath | null {
  const q = lessonQuery(navMesh);
  const r = findShortestPath(q, [start[0], 0, start[1]], [goal[0], 0, goal[1]], {
    halfExtents: [1, 1, 1],
  });
  if (r.points.length === 0) return null;
  // A shortest path can graze a wall corner lying exactly on its line (the cells' staircase
  // does that); findShortestPath reports such a corner as a point although the path does not
  // turn there. Merged here so every point left is a real bend; the length is unchanged.
  const xz: number[] = [r.points[0]![0], r.points[0]![2]];
  let straightThrough = 0;
  for (let i = 1; i < r.points.length; i++) {
    const [x, , z] = r.points[i]!;
    const n = xz.length;
    if (i + 1 < r.points.length && n >= 2) {
      const [nx, , nz] = r.points[i + 1]!;
      const ax = x - xz[n - 2]!;
      const az = z - xz[n - 1]!;
      const bx = nx - x;
      const bz = nz - z;
      const cross = ax * bz - az * bx;
      const dot = ax * bx + az * bz;
      if (dot > 0 && Math.abs(cross) <= STRAIGHT_ON * Math.hypot(ax, az) * Math.hypot(bx, bz)) {
        straightThrough++;
        continue;
      }
    }
    xz.push(x, z);
  }
  const points = Float64Array.from(xz);
  return { status: r.status, points, length: polylineLength(points), straightThrough };
}
