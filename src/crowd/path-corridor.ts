import type { QueryFilter } from "../navmesh/filter.js";
import { offMeshLanding } from "../navmesh/off-mesh.js";
import {
  isLiveRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileBaseOfRef,
  tileOfRef,
} from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { MoveAlongSurfaceResult } from "../query/move-along-surface.js";
import { createFindPathResult, type NavMeshQuery } from "../query/nav-mesh-query.js";
import { RaycastHit } from "../query/raycast.js";
import { closestPointOnBoundaryByRef, passesFilter } from "../query/ref-geometry.js";
import type { QueryStatus } from "../query/status.js";
import {
  findCorridorCorners,
  STRAIGHT_PATH_OFFMESH,
  StraightPath,
} from "../query/straight-path.js";
import { SurfaceHeightCache } from "./hinted-height.js";

/**
 * A path corridor, Detour's dtPathCorridor (Mononen): the polygons from the agent's polygon
 * (path[0]) to the target's (path[count-1]), kept valid while the agent moves inexactly —
 * movePosition slides the position along the surface and merges the polygons it walked
 * through into the front of the corridor; moveTargetPosition does the same at the end.
 * findCorners string-pulls the next few corners; optimizePathVisibility and
 * optimizePathTopology shorten the corridor when local steering pushed the agent off the
 * planned line. A corridor never contains ref 0; refs that went stale (tile removed or
 * replaced) are reported by isValid and cut by trimInvalidPath, never followed.
 */

/** The target and the last corner closer than this (XZ) to the position are dropped. */
const MIN_TARGET_DIST = 0.01;
/** Polygons a visibility shortcut or topology replan may splice in (Detour's MAX_RES). */
const MAX_RES = 32;
/** Node expansions of optimizePathTopology's local search (Detour's MAX_ITER). */
const TOPOLOGY_ITERATIONS = 32;

// Scratch shared by every corridor (queries do not nest). The query results are made on first
// use, not on import: a cold `import("meshway")` then runs none of their code (issue 17).
const goal = new Float64Array(3);
const scratch3 = new Float64Array(3);
let shared: {
  straight: StraightPath;
  moved: MoveAlongSurfaceResult;
  hit: RaycastHit;
  topoResult: ReturnType<typeof createFindPathResult>;
} | null = null;
function corridorScratch(): NonNullable<typeof shared> {
  if (shared === null) {
    shared = {
      straight: new StraightPath(8),
      moved: new MoveAlongSurfaceResult(16),
      hit: new RaycastHit(MAX_RES),
      topoResult: createFindPathResult(),
    };
  }
  return shared;
}
let topoPolys: Float64Array = new Float64Array(MAX_RES * 2);

/**
 * True when `ref` is live and its polygon passes `filter`, its passFilter included (Detour's
 * isValidPolyRef with filter): flags read now, so a door closed at run time fails it.
 */
export function refPassesFilter(query: NavMeshQuery, ref: PolyRef, filter: QueryFilter): boolean {
  return isLiveRef(query.navMesh, ref) && passesFilter(query.navMesh, filter, ref);
}

/**
 * Base ref of the tile refsPassFilter last looked up (in an array: a module-level number above
 * 2^31 is boxed at every store).
 */
const lastTileBase = new Float64Array(1);

/**
 * refPassesFilter for each of refs[0..count) (the crowd checks a corridor's first polygons
 * and an agent's wall polygons every update): refs in the tile of the previous one are
 * checked on the tile's arrays directly, with the ref read here rather than passed (a call
 * not inlined boxes it); off-mesh connections, other tiles' refs and filters with a
 * passFilter go through refPassesFilter.
 */
export function refsPassFilter(
  query: NavMeshQuery,
  refs: Float64Array,
  count: number,
  filter: QueryFilter,
): boolean {
  const nm = query.navMesh;
  const include = filter.includeFlags;
  const exclude = filter.excludeFlags;
  const plain = filter.passFilter === undefined;
  let tile: NavMeshTile | null = null;
  lastTileBase[0] = -1;
  for (let i = 0; i < count; i++) {
    const ref = refs[i]!;
    const base = tileBaseOfRef(ref);
    if (base !== lastTileBase[0]) {
      const slot = tileOfRef(ref);
      tile = null;
      if (plain && slot !== OFF_MESH_SLOT && ref > 0 && nm.slotSalt(slot) === saltOfRef(ref)) {
        tile = nm.tileInSlot(slot);
      }
      lastTileBase[0] = tile === null ? -1 : base;
    }
    const poly = ref - base;
    if (tile !== null && poly < tile.polyCount && poly === Math.floor(poly)) {
      const flags = tile.polyFlags[poly]!;
      if ((flags & include) === 0 || (flags & exclude) !== 0) return false;
    } else if (!refPassesFilter(query, ref, filter)) {
      return false;
    }
  }
  return true;
}

/** Index in `visited` of the polygon furthestShared found (set by it). */
let sharedVisited = -1;

/**
 * The furthest corridor polygon (highest index in path[0..npath)) that `visited` also holds:
 * its corridor index, or -1; its index in visited goes to sharedVisited (the first match).
 */
function furthestShared(
  path: Float64Array,
  npath: number,
  visited: ArrayLike<number>,
  nvisited: number,
): number {
  for (let i = npath - 1; i >= 0; i--) {
    const ref = path[i]!;
    for (let j = 0; j < nvisited; j++) {
      if (ref === visited[j]) {
        sharedVisited = j;
        return i;
      }
    }
  }
  sharedVisited = -1;
  return -1;
}

/**
 * dtMergeCorridorStartMoved: the agent walked `visited` (start polygon first) from path[0];
 * the corridor now starts with the walk reversed down to the furthest corridor polygon it
 * touched. Returns the new count.
 */
export function mergeCorridorStartMoved(
  path: Float64Array,
  npath: number,
  maxPath: number,
  visited: ArrayLike<number>,
  nvisited: number,
): number {
  const fp = furthestShared(path, npath, visited, nvisited);
  if (fp < 0) return npath;
  const fv = sharedVisited;
  const req = nvisited - fv;
  const orig = Math.min(fp + 1, npath);
  let size = Math.max(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) path.copyWithin(req, orig, orig + size);
  const n = Math.min(req, maxPath);
  for (let i = 0; i < n; i++) path[i] = visited[nvisited - 1 - i]!;
  return Math.max(0, Math.min(req + size, maxPath));
}

/** dtMergeCorridorEndMoved: the target walked `visited` from path[count-1]. */
export function mergeCorridorEndMoved(
  path: Float64Array,
  npath: number,
  maxPath: number,
  visited: ArrayLike<number>,
  nvisited: number,
): number {
  let fp = -1;
  let fv = -1;
  for (let i = 0; i < npath && fp < 0; i++) {
    for (let j = 0; j < nvisited; j++) {
      if (path[i] === visited[j]) {
        fp = i;
        fv = j;
        break;
      }
    }
  }
  if (fp < 0) return npath;
  const ppos = fp + 1;
  const vpos = fv + 1;
  const count = Math.max(0, Math.min(nvisited - vpos, maxPath - ppos));
  for (let k = 0; k < count; k++) path[ppos + k] = visited[vpos + k]!;
  return ppos + count;
}

/**
 * dtMergeCorridorStartShortcut: `visited` (from path[0]) reaches a corridor polygon further
 * on; the corridor is cut to the shortcut plus the rest.
 */
export function mergeCorridorStartShortcut(
  path: Float64Array,
  npath: number,
  maxPath: number,
  visited: ArrayLike<number>,
  nvisited: number,
): number {
  const fp = furthestShared(path, npath, visited, nvisited);
  if (fp < 0) return npath;
  const fv = sharedVisited;
  const req = fv;
  if (req <= 0) return npath;
  let size = Math.max(0, npath - fp);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) path.copyWithin(req, fp, fp + size);
  for (let i = 0; i < req; i++) path[i] = visited[i]!;
  return req + size;
}

/** Corners written by {@link PathCorridor.findCorners}: xyz, flags and polygon per corner. */
export interface CornerBuffers {
  verts: Float64Array;
  flags: Uint8Array;
  polys: Float64Array;
}

export class PathCorridor {
  /** Agent position on the corridor's first polygon (world units). */
  readonly pos: Float64Array;
  /** Target on its last polygon. */
  readonly target: Float64Array;
  /** path[0..count): polygon refs, never 0. */
  readonly path: Float64Array;
  readonly maxPath: number;
  count = 0;
  /** Status of the last findCorners' string pull ("invalidRef": a corridor polygon went stale). */
  lastCornersStatus: QueryStatus = "complete";
  /** The detail triangle movePosition took the height from last. */
  private readonly surface = new SurfaceHeightCache();

  /**
   * `maxPath` polygons at most (Detour's crowd uses 256). Storage may be given as views into
   * larger arrays (the crowd keeps every agent's corridor in one buffer).
   */
  constructor(
    maxPath = 256,
    path: Float64Array = new Float64Array(maxPath),
    pos: Float64Array = new Float64Array(3),
    target: Float64Array = new Float64Array(3),
  ) {
    this.maxPath = maxPath;
    this.path = path;
    this.pos = pos;
    this.target = target;
  }

  get firstPoly(): PolyRef {
    return this.count > 0 ? this.path[0]! : 0;
  }

  get lastPoly(): PolyRef {
    return this.count > 0 ? this.path[this.count - 1]! : 0;
  }

  /** The corridor becomes polygon `ref` alone (0: none), position and target = pos. */
  reset(ref: PolyRef, pos: ArrayLike<number>): void {
    for (let k = 0; k < 3; k++) {
      this.pos[k] = pos[k]!;
      this.target[k] = pos[k]!;
    }
    this.path[0] = ref;
    this.count = ref === 0 ? 0 : 1;
  }

  /** Loads a corridor (first polygon = the agent's) and its target. */
  setCorridor(target: ArrayLike<number>, path: ArrayLike<number>, count: number): void {
    const n = Math.min(count, this.maxPath);
    for (let k = 0; k < 3; k++) this.target[k] = target[k]!;
    for (let i = 0; i < n; i++) this.path[i] = path[i]!;
    this.count = n;
  }

  /**
   * The next corners (at most maxCorners - 1, as Detour), written to `out` from `offset`
   * (corner index): string-pulls from pos to target, drops corners within 0.01 (XZ) of pos,
   * and stops after an off-mesh connection's start. Returns the count (0 when the corridor is
   * empty or stale).
   */
  findCorners(out: CornerBuffers, offset: number, maxCorners: number, query: NavMeshQuery): number {
    if (this.count === 0) {
      this.lastCornersStatus = "noStart";
      return 0;
    }
    const straight = corridorScratch().straight;
    const status = findCorridorCorners(
      query.navMesh,
      this.pos,
      this.target,
      this.path,
      this.count,
      maxCorners,
      straight,
    );
    this.lastCornersStatus = status;
    if (status === "invalidRef" || status === "noStart") return 0;
    const pts = straight.points;
    const px = this.pos[0]!;
    const pz = this.pos[2]!;
    let first = 0;
    const n = straight.count;
    while (first < n) {
      if ((straight.flags[first]! & STRAIGHT_PATH_OFFMESH) !== 0) break;
      const dx = pts[first * 3]! - px;
      const dz = pts[first * 3 + 2]! - pz;
      if (dx * dx + dz * dz > MIN_TARGET_DIST * MIN_TARGET_DIST) break;
      first++;
    }
    let count = 0;
    for (let i = first; i < n; i++) {
      const o = (offset + count) * 3;
      out.verts[o] = pts[i * 3]!;
      out.verts[o + 1] = pts[i * 3 + 1]!;
      out.verts[o + 2] = pts[i * 3 + 2]!;
      out.flags[offset + count] = straight.flags[i]!;
      out.polys[offset + count] = straight.refs[i]!;
      count++;
      if ((straight.flags[i]! & STRAIGHT_PATH_OFFMESH) !== 0) break;
    }
    return count;
  }

  /**
   * Shortcut towards `next` (normally the second corner): a raycast from pos up to
   * pathOptimizationRange; when it reaches (t > 0.99) through more than one polygon, the
   * polygons it crossed replace the corridor up to the furthest one it shares.
   */
  optimizePathVisibility(
    next: ArrayLike<number>,
    pathOptimizationRange: number,
    query: NavMeshQuery,
    filter: QueryFilter,
  ): void {
    if (this.count === 0) return;
    const p = this.pos;
    const dx0 = next[0]! - p[0]!;
    const dz0 = next[2]! - p[2]!;
    let dist = Math.sqrt(dx0 * dx0 + dz0 * dz0);
    if (dist < 0.01) return;
    dist = Math.min(dist + 0.01, pathOptimizationRange);
    const s = pathOptimizationRange / dist;
    goal[0] = p[0]! + (next[0]! - p[0]!) * s;
    goal[1] = p[1]! + (next[1]! - p[1]!) * s;
    goal[2] = p[2]! + (next[2]! - p[2]!) * s;
    const hit = corridorScratch().hit;
    query.raycast(this.path[0]!, p, goal, filter, undefined, hit);
    if (hit.status !== "complete") return;
    const nres = Math.min(hit.pathCount, MAX_RES);
    if (nres > 1 && hit.t > 0.99) {
      this.count = mergeCorridorStartShortcut(this.path, this.count, this.maxPath, hit.path, nres);
    }
  }

  /**
   * Re-plans the corridor's start with a short sliced search (32 expansions) to the last
   * polygon and splices the result in up to the furthest corridor polygon it reached. Uses
   * the query's sliced search (it ends any search in progress there). True when it changed.
   */
  optimizePathTopology(query: NavMeshQuery, filter: QueryFilter): boolean {
    if (this.count < 3) return false;
    const topoResult = corridorScratch().topoResult;
    const s = query.initSlicedFindPath(
      this.path[0]!,
      this.path[this.count - 1]!,
      this.pos,
      this.target,
      filter,
    );
    if (s === "invalidRef") {
      query.finalizeSlicedFindPath(topoPolys, topoResult);
      return false;
    }
    query.updateSlicedFindPath(TOPOLOGY_ITERATIONS);
    const r = query.finalizeSlicedFindPathPartial(this.path, topoPolys, topoResult, this.count);
    topoPolys = r.polys as Float64Array;
    if (r.status === "invalidRef" || r.status === "noStart" || r.polyCount === 0) return false;
    this.count = mergeCorridorStartShortcut(
      this.path,
      this.count,
      this.maxPath,
      r.polys,
      Math.min(r.polyCount, MAX_RES),
    );
    return true;
  }

  /**
   * The agent takes off-mesh connection `offMeshRef` (a corridor polygon): the corridor drops
   * everything up to and including it, pos becomes the landing point. Writes the polygon
   * before the connection and the connection to refs[0..2), the take-off and landing points
   * to startPos / endPos. False (nothing changed) when the connection is not on the corridor
   * or is gone.
   */
  moveOverOffMeshConnection(
    offMeshRef: PolyRef,
    refs: Float64Array,
    startPos: Float64Array,
    endPos: Float64Array,
    query: NavMeshQuery,
  ): boolean {
    const nm = query.navMesh;
    let prevRef = 0;
    let polyRef = this.path[0]!;
    let npos = 0;
    while (npos < this.count && polyRef !== offMeshRef) {
      prevRef = polyRef;
      polyRef = this.path[npos]!;
      npos++;
    }
    // Detour refuses a connection that ends the corridor (no polygon to land on) too.
    if (npos === 0 || npos === this.count || polyRef !== offMeshRef) return false;
    if (tileOfRef(offMeshRef) !== OFF_MESH_SLOT || !isLiveRef(nm, offMeshRef)) return false;
    const index = polyOfRef(offMeshRef);
    // Take off from the end linked to the polygon the agent comes from.
    const fromStart = offMeshLanding(nm, index, 0) === prevRef;
    const pts = nm.offMeshPoints;
    const a = index * 6 + (fromStart ? 0 : 3);
    const b = index * 6 + (fromStart ? 3 : 0);
    for (let k = 0; k < 3; k++) {
      startPos[k] = pts[a + k]!;
      endPos[k] = pts[b + k]!;
    }
    this.path.copyWithin(0, npos, this.count);
    this.count -= npos;
    refs[0] = prevRef;
    refs[1] = polyRef;
    for (let k = 0; k < 3; k++) this.pos[k] = endPos[k]!;
    return true;
  }

  /**
   * Moves the position towards `npos` along the surface (moveAlongSurface from the first
   * polygon) and merges the polygons walked through into the corridor's front; y follows the
   * detail surface. False (nothing moved) when the first polygon went stale.
   */
  movePosition(npos: ArrayLike<number>, query: NavMeshQuery, filter: QueryFilter): boolean {
    if (this.count === 0) return false;
    const moved = corridorScratch().moved;
    query.moveAlongSurface(this.path[0]!, this.pos, npos, filter, moved);
    if (moved.status === "invalidRef") return false;
    this.count = mergeCorridorStartMoved(
      this.path,
      this.count,
      this.maxPath,
      moved.visited,
      moved.visitedCount,
    );
    const r = moved.resultPos;
    const h = this.surface.height(query.navMesh, this.path[0]!, r[0]!, r[2]!);
    this.pos[0] = r[0]!;
    this.pos[1] = Number.isNaN(h) ? this.pos[1]! : h;
    this.pos[2] = r[2]!;
    return true;
  }

  /** Moves the target along the surface from the last polygon, merging at the end. */
  moveTargetPosition(npos: ArrayLike<number>, query: NavMeshQuery, filter: QueryFilter): boolean {
    if (this.count === 0) return false;
    const last = this.path[this.count - 1]!;
    if (tileOfRef(last) === OFF_MESH_SLOT) return false;
    const moved = corridorScratch().moved;
    query.moveAlongSurface(last, this.target, npos, filter, moved);
    if (moved.status === "invalidRef") return false;
    this.count = mergeCorridorEndMoved(
      this.path,
      this.count,
      this.maxPath,
      moved.visited,
      moved.visitedCount,
    );
    const r = moved.resultPos;
    this.target[0] = r[0]!;
    this.target[1] = r[1]!;
    this.target[2] = r[2]!;
    return true;
  }

  /**
   * The agent is at safePos on safeRef but the corridor's start is no longer usable: the
   * corridor restarts there (alone: the caller replans; Detour leaves a 0 ref to force that,
   * a corridor here never holds one).
   */
  fixPathStart(safeRef: PolyRef, safePos: ArrayLike<number>): boolean {
    for (let k = 0; k < 3; k++) this.pos[k] = safePos[k]!;
    this.path[0] = safeRef;
    this.count = safeRef === 0 ? 0 : 1;
    return true;
  }

  /**
   * Cuts the corridor before its first polygon that is stale or fails the filter (restarting
   * at safeRef / safePos when that is the first) and clamps the target onto the new last
   * polygon.
   */
  trimInvalidPath(
    safeRef: PolyRef,
    safePos: ArrayLike<number>,
    query: NavMeshQuery,
    filter: QueryFilter,
  ): boolean {
    let n = 0;
    while (n < this.count && refPassesFilter(query, this.path[n]!, filter)) n++;
    if (n === this.count) return true;
    if (n === 0) {
      for (let k = 0; k < 3; k++) this.pos[k] = safePos[k]!;
      this.path[0] = safeRef;
      this.count = safeRef === 0 ? 0 : 1;
    } else {
      this.count = n;
    }
    if (this.count > 0) {
      const t = this.target;
      closestPointOnBoundaryByRef(
        query.navMesh,
        this.path[this.count - 1]!,
        t[0]!,
        t[1]!,
        t[2]!,
        scratch3,
      );
      t[0] = scratch3[0]!;
      t[1] = scratch3[1]!;
      t[2] = scratch3[2]!;
    }
    return true;
  }

  /** True when the first min(count, maxLookAhead) polygons are live and pass the filter. */
  isValid(maxLookAhead: number, query: NavMeshQuery, filter: QueryFilter): boolean {
    if (this.count === 0) return false;
    return refsPassFilter(query, this.path, Math.min(this.count, maxLookAhead), filter);
  }
}
