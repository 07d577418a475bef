import type { NavMesh } from "../navmesh/nav-mesh.js";
import {
  CLOSED_LIST_COLOUR,
  CORRIDOR_COLOUR,
  type Colour,
  END_COLOUR,
  OPEN_LIST_COLOUR,
  PATH_COLOUR,
  START_COLOUR,
} from "../navmesh/palette.js";
import { polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { NODE_CLOSED, NODE_OPEN, type NodePool, NULL_NODE } from "../query/node-pool.js";
import { forEachPolyTriangle, polyUsesDetail } from "./navmesh.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder } from "./primitive.js";

/** Lift above the surface so search overlays are not hidden in the navmesh fill. */
const LIFT = 0.05;

export function fillPoly(
  b: PrimitiveBuilder,
  tile: NavMeshTile,
  p: number,
  c: Colour,
  lift: number,
): void {
  const useDetail = polyUsesDetail(tile, p, true);
  const src = useDetail ? tile.detailVertices : tile.vertices;
  forEachPolyTriangle(tile, p, useDetail, (x, y, z) => {
    b.vertex(src[x]!, src[x + 1]! + lift, src[x + 2]!, c);
    b.vertex(src[y]!, src[y + 1]! + lift, src[y + 2]!, c);
    b.vertex(src[z]!, src[z + 1]! + lift, src[z + 2]!, c);
  });
}

/**
 * The nodes of the last search in a node pool (NavMeshQuery's `nodePool` after findPath or
 * computePath): each node as a point where the search entered its polygon (closed nodes in
 * the closed-list colour, open ones orange) and a segment to its parent — Detour's
 * duDebugDrawNavMeshNodes.
 */
export function drawNodePool(pool: NodePool, lift = 0.5): DebugPrimitive[] {
  const points = new PrimitiveBuilder("points", 4);
  const lines = new PrimitiveBuilder("lines", 2);
  for (let i = 0; i < pool.count; i++) {
    const flags = pool.flags[i]!;
    if ((flags & (NODE_OPEN | NODE_CLOSED)) === 0) continue;
    const c = (flags & NODE_CLOSED) !== 0 ? CLOSED_LIST_COLOUR : OPEN_LIST_COLOUR;
    const x = pool.x[i]!;
    const y = pool.y[i]! + lift;
    const z = pool.z[i]!;
    points.vertex(x, y, z, c);
    const parent = pool.parent[i]!;
    if (parent !== NULL_NODE) {
      lines.segment(x, y, z, pool.x[parent]!, pool.y[parent]! + lift, pool.z[parent]!, c);
    }
  }
  return finishAll(points, lines);
}

/**
 * The polygons of the closed list of the last search (every polygon A* expanded), filled —
 * Detour's duDebugDrawNavMeshWithClosedList. Nodes of off-mesh connections are skipped.
 */
export function drawClosedList(navMesh: NavMesh, pool: NodePool): DebugPrimitive[] {
  const tris = new PrimitiveBuilder("triangles");
  const seen = new Set<number>();
  for (let i = 0; i < pool.count; i++) {
    if ((pool.flags[i]! & NODE_CLOSED) === 0) continue;
    const ref = pool.ref[i]!;
    if (seen.has(ref) || !navMesh.isValidPolyRef(ref)) continue;
    seen.add(ref);
    const tile = navMesh.tileInSlot(pool.slot[i]!);
    if (tile === null) continue;
    fillPoly(tris, tile, pool.poly[i]!, withA(CLOSED_LIST_COLOUR, 100), LIFT);
  }
  return finishAll(tris);
}

function withA(c: Colour, a: number): Colour {
  return [c[0], c[1], c[2], a];
}

/**
 * A polygon corridor (findPath's `polys`, computePath's `polys`) filled, first and last
 * polygon in the start and end colours; stale or off-mesh refs are skipped.
 */
export function drawCorridor(
  navMesh: NavMesh,
  polys: ArrayLike<number>,
  count = polys.length,
): DebugPrimitive[] {
  const tris = new PrimitiveBuilder("triangles");
  for (let i = 0; i < count; i++) {
    const ref = polys[i]!;
    if (!navMesh.isValidPolyRef(ref)) continue;
    const tile = navMesh.tileInSlot(tileOfRef(ref));
    if (tile === null) continue;
    const c = i === 0 ? START_COLOUR : i === count - 1 ? END_COLOUR : CORRIDOR_COLOUR;
    fillPoly(tris, tile, polyOfRef(ref), withA(c, 110), LIFT);
  }
  return finishAll(tris);
}

/**
 * A path's corners (computePath's `points` as [x, y, z] triples, or a flat x, y, z array such
 * as StraightPath's `points` with `count` corners) as a polyline with its corners as points,
 * start and end in their colours.
 */
export function drawPath(
  points: ArrayLike<ArrayLike<number>> | ArrayLike<number>,
  count?: number,
  lift = 0.1,
): DebugPrimitive[] {
  const flat = points.length === 0 || typeof points[0] === "number";
  const n = count ?? (flat ? Math.floor(points.length / 3) : points.length);
  const at = (i: number, k: number): number =>
    flat
      ? (points as ArrayLike<number>)[i * 3 + k]!
      : (points as ArrayLike<ArrayLike<number>>)[i]![k]!;
  const lines = new PrimitiveBuilder("lines", 4);
  const dots = new PrimitiveBuilder("points", 8);
  for (let i = 0; i < n; i++) {
    const x = at(i, 0);
    const y = at(i, 1) + lift;
    const z = at(i, 2);
    if (i > 0) lines.segment(at(i - 1, 0), at(i - 1, 1) + lift, at(i - 1, 2), x, y, z, PATH_COLOUR);
    dots.vertex(x, y, z, i === 0 ? START_COLOUR : i === n - 1 ? END_COLOUR : PATH_COLOUR);
  }
  return finishAll(lines, dots);
}
