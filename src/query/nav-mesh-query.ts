import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { QueryFilter } from "../navmesh/filter.js";
import {
  closestPointOnDetailBoundary,
  detailHeightInside,
  distancePtSegSqrXZ,
  pointInPolyXZ,
} from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import {
  checkRefArgument,
  isLiveRef,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { checkHalfExtents, checkMaxNodes, checkPoint } from "./args.js";
import { DistanceToWallResult, findDistanceToWall } from "./distance-to-wall.js";
import { finalizeSlicedPartial } from "./finalize-partial.js";
import { type FindPathResult, PathFinder, type SlicedStatus } from "./find-path.js";
import { findLocalNeighbourhood, LocalNeighbourhoodResult } from "./local-neighbourhood.js";
import { MoveAlongSurfaceResult, moveAlongSurface } from "./move-along-surface.js";
import { NodePool, NodeQueue } from "./node-pool.js";
import { findPolysAroundCircle, PolysAroundCircleResult } from "./polys-around-circle.js";
import { findPolysAroundShape } from "./polys-around-shape.js";
import { findRandomPoint, findRandomPointAroundCircle, RandomPointResult } from "./random-point.js";
import { RaycastHit, type RaycastOptions, raycast } from "./raycast.js";
import { closestPointByRef, closestPointOnBoundaryByRef, heightByRef } from "./ref-geometry.js";
import type { QueryStatus } from "./status.js";
import {
  findStraightPath,
  StraightPath,
  type StraightPathOptions,
  stringPull,
} from "./straight-path.js";
import {
  getPolyWallSegments,
  type WallSegmentsOptions,
  WallSegmentsResult,
} from "./wall-segments.js";

export interface NavMeshQueryOptions {
  /** Size of the A* node pool (the most polygons one search may visit). Default 4096. */
  maxNodes?: number;
}

/** Output of {@link NavMeshQuery.findNearestPoly}; reuse one across calls. */
export interface NearestPolyResult {
  /** Nearest polygon, 0 when none is inside the search box. */
  ref: PolyRef;
  /** Closest point on that polygon (detail-mesh height). */
  point: Float64Array;
  /** True when the query point is over the polygon on XZ. */
  isOverPoly: boolean;
}

export function createNearestPolyResult(): NearestPolyResult {
  return { ref: 0, point: new Float64Array(3), isOverPoly: false };
}

export function createFindPathResult(): FindPathResult {
  return { status: "noStart", polyCount: 0, polys: [] };
}

export interface ComputePathOptions {
  filter?: QueryFilter;
  /** Search box half size around start and end for snapping to the mesh. Default [2, 4, 2]. */
  halfExtents?: ArrayLike<number>;
  /** Node limit for this search (the pool grows when it is larger). Default: the pool size. */
  maxNodes?: number;
  /** Straight-path options (crossings, point limit). */
  straightPath?: StraightPathOptions;
}

export interface ComputePathResult {
  status: QueryStatus;
  /** Corner points from the snapped start to the snapped (or, when partial, clamped) end. */
  points: Vec3[];
  /** The polygon corridor. */
  polys: PolyRef[];
  /** Length of the point path (3D). */
  length: number;
}

/**
 * Default search box half size (x, y, z) of computePath and findShortestPath, and what the CLI
 * snaps with: Detour's samples' (2, 4, 2) — taller than wide, so a point given at eye or ground
 * height still finds the floor below it. [world units]
 */
export const DEFAULT_HALF_EXTENTS: readonly number[] = Object.freeze([2, 4, 2]);

/** World-unit slack on polygon XZ bounds when findNearestPoly skips far candidates. */
const BOUNDS_SLACK = 0.01;

function copy3(p: ArrayLike<number>, out: Float64Array): void {
  out[0] = p[0]!;
  out[1] = p[1]!;
  out[2] = p[2]!;
}

/**
 * True when every point of the polygon's boundary detail edges is farther than sqrt(maxSqr)
 * from (x, z) on XZ, for a point outside the polygon: its XZ bounds are (cheap test), or its
 * edges are. Detail boundary edges lie on the polygon's edges up to rounding (Detour flags an
 * edge as boundary within 0.001); BOUNDS_SLACK covers that.
 */
function polyFartherThan(
  tile: NavMeshTile,
  poly: number,
  x: number,
  z: number,
  maxSqr: number,
): boolean {
  const nvp = tile.maxVertsPerPoly;
  const nv = tile.polyVertCount[poly]!;
  const pv = tile.polyVerts;
  const tv = tile.vertices;
  const base = poly * nvp;
  let x0 = Infinity;
  let x1 = -Infinity;
  let z0 = Infinity;
  let z1 = -Infinity;
  for (let k = 0; k < nv; k++) {
    const o = pv[base + k]! * 3;
    const vx = tv[o]!;
    const vz = tv[o + 2]!;
    if (vx < x0) x0 = vx;
    if (vx > x1) x1 = vx;
    if (vz < z0) z0 = vz;
    if (vz > z1) z1 = vz;
  }
  x0 -= BOUNDS_SLACK;
  x1 += BOUNDS_SLACK;
  z0 -= BOUNDS_SLACK;
  z1 += BOUNDS_SLACK;
  const gx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
  const gz = z < z0 ? z0 - z : z > z1 ? z - z1 : 0;
  if (gx * gx + gz * gz > maxSqr) return true;
  // Inside the box: the distance to the nearest edge, less the slack, bounds it.
  let e = Infinity;
  let j = pv[base + nv - 1]! * 3;
  for (let k = 0; k < nv; k++) {
    const o = pv[base + k]! * 3;
    const d = distancePtSegSqrXZ(x, z, tv[j]!, tv[j + 2]!, tv[o]!, tv[o + 2]!);
    if (d < e) e = d;
    j = o;
  }
  const gap = Math.sqrt(e) - BOUNDS_SLACK;
  return gap > 0 && gap * gap > maxSqr;
}

/**
 * Queries over one {@link NavMesh}, Detour's dtNavMeshQuery: nearest polygon, point on and
 * height of a polygon, polygons in a box, A* path (whole or sliced), straight path, and
 * computePath. The query owns its node pool, open list and scratch buffers; hot paths
 * allocate nothing (pass the out objects). Not reentrant: one query object per thread of
 * work. Queries in src/query/* (raycast, moveAlongSurface, ...) take it as first argument and
 * use `nodePool` / `openList` / `tinyNodePool`; they may run between the steps of a sliced
 * search, which has its own pool.
 *
 * This is the core without the forwarding methods: an app that calls the other queries as free
 * functions (`raycast(query, …)`) ships only those it calls. {@link NavMeshQuery} adds them all
 * as methods (issue 17: a bundler cannot drop a class's unused methods; they were ~5 KB of
 * min + gzip in a load-and-find-path app).
 */
export class NavMeshQueryCore {
  readonly navMesh: NavMesh;
  /** Node pool and open list shared by findPath and the graph searches of other queries. */
  nodePool: NodePool;
  openList: NodeQueue;
  /** Small pool for local searches (moveAlongSurface, like Detour's tiny node pool). */
  readonly tinyNodePool = new NodePool(64);
  /** Filter used when none is given: every polygon, every area cost 1. */
  readonly defaultFilter = new QueryFilter();
  /** @internal The A* finder on nodePool (findShortestPath's exact search shares its pool). */
  finder: PathFinder;
  protected sliced: PathFinder | null = null;
  private refBuffer = new Float64Array(128);
  /** findNearestPoly: candidate indices the point is not over (second pass). */
  private deferred = new Int32Array(128);
  private readonly bmin = new Float64Array(3);
  private readonly bmax = new Float64Array(3);
  private readonly scratch = new Float64Array(3);
  // computePath's (and findShortestPath's) reused buffers.
  /** @internal Where snapEnds puts the snapped start. */
  readonly cpStart = createNearestPolyResult();
  /** @internal Where snapEnds puts the snapped end. */
  readonly cpEnd = createNearestPolyResult();
  private readonly cpPath: FindPathResult = {
    status: "noStart",
    polyCount: 0,
    polys: new Float64Array(256),
  };
  private readonly cpEndPos = new Float64Array(3);
  private readonly cpStraight = new StraightPath(64);

  constructor(navMesh: NavMesh, options: NavMeshQueryOptions = {}) {
    const maxNodes = options.maxNodes ?? 4096;
    checkMaxNodes(maxNodes, "NavMeshQuery maxNodes");
    this.navMesh = navMesh;
    this.nodePool = new NodePool(maxNodes);
    this.openList = new NodeQueue(maxNodes);
    this.finder = new PathFinder(navMesh, this.nodePool, this.openList);
  }

  /**
   * Status of the last closestPointOnPoly, closestPointOnPolyBoundary or getPolyHeight call
   * (their return values carry no status): "complete", or "invalidRef" when the ref given was
   * stale (its tile removed or replaced).
   */
  refStatus: QueryStatus = "complete";

  /**
   * Sets refStatus from `ref`: true when live, false when stale; throws for a malformed ref
   * (never valid, see classifyRef).
   */
  private checkRef(what: string, ref: PolyRef): boolean {
    const live = checkRefArgument(this.navMesh, ref, what);
    this.refStatus = live ? "complete" : "invalidRef";
    return live;
  }

  /**
   * Refs of the ground polygons whose bounds overlap the box center ± halfExtents and that
   * pass the filter, written to outRefs (at most its length); returns the count.
   */
  queryPolygons(
    center: ArrayLike<number>,
    halfExtents: ArrayLike<number>,
    filter: QueryFilter,
    outRefs: Float64Array,
  ): number {
    checkPoint(center, "queryPolygons center");
    checkHalfExtents(halfExtents, "queryPolygons halfExtents");
    this.setBox(center, halfExtents);
    return this.navMesh.queryPolygons(this.bmin, this.bmax, filter, outRefs);
  }

  private setBox(c: ArrayLike<number>, e: ArrayLike<number>): void {
    for (let k = 0; k < 3; k++) {
      this.bmin[k] = c[k]! - e[k]!;
      this.bmax[k] = c[k]! + e[k]!;
    }
  }

  /**
   * The polygon nearest to `center` among those overlapping center ± halfExtents (Detour's
   * findNearestPoly): a polygon the point is over wins when the point is within the agent's
   * climb above or below its surface; otherwise the 3D distance to the closest point counts.
   * Writes ref (0 when none), the closest point and isOverPoly to `out` and returns the ref.
   */
  findNearestPoly(
    center: ArrayLike<number>,
    halfExtents: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
    out: NearestPolyResult = createNearestPolyResult(),
  ): PolyRef {
    checkPoint(center, "findNearestPoly center");
    checkHalfExtents(halfExtents, "findNearestPoly halfExtents");
    this.setBox(center, halfExtents);
    const nm = this.navMesh;
    let count = nm.queryPolygons(this.bmin, this.bmax, filter, this.refBuffer);
    while (count === this.refBuffer.length) {
      this.refBuffer = new Float64Array(this.refBuffer.length * 2);
      count = nm.queryPolygons(this.bmin, this.bmax, filter, this.refBuffer);
    }
    const cx = center[0]!;
    const cy = center[1]!;
    const cz = center[2]!;
    const climb = nm.agentMaxClimb;
    const refs = this.refBuffer;
    if (this.deferred.length < refs.length) this.deferred = new Int32Array(refs.length);
    const deferred = this.deferred;
    const slots = nm.slotTable;
    const p = this.scratch;
    const outPoint = out.point;
    // The answer is the candidate with the smallest distance, the first in candidate order
    // on ties (Detour's rule). Found in two passes so the costly detail-edge search runs
    // only where it can matter: first the polygons the point is over (their distance is a
    // height test), stopping at the first at distance 0; then the others in order, skipped
    // when a lower bound of their distance already loses.
    let bestRef = 0;
    let bestD = Infinity;
    let bestIndex = count;
    let bestOver = false;
    let nDeferred = 0;
    for (let i = 0; i < count; i++) {
      const ref = refs[i]!;
      const poly = polyOfRef(ref);
      const tile = slots[tileOfRef(ref)]!.tile!;
      if (!pointInPolyXZ(tile, poly, cx, cz)) {
        deferred[nDeferred++] = i;
        continue;
      }
      const h = detailHeightInside(tile, poly, cx, cz);
      // Over the polygon: only the height gap beyond the climb counts.
      const dy = Math.abs(cy - h) - climb;
      const d = dy > 0 ? dy * dy : 0;
      if (d < bestD) {
        bestD = d;
        bestIndex = i;
        bestRef = ref;
        bestOver = true;
        outPoint[0] = cx;
        outPoint[1] = h;
        outPoint[2] = cz;
        if (d === 0) break;
      }
    }
    for (let j = 0; j < nDeferred; j++) {
      const i = deferred[j]!;
      // Later candidates must be strictly nearer; nothing is nearer than 0.
      if (i > bestIndex && bestD === 0) break;
      const ref = refs[i]!;
      const poly = polyOfRef(ref);
      const tile = slots[tileOfRef(ref)]!.tile!;
      if (bestD !== Infinity && polyFartherThan(tile, poly, cx, cz, bestD)) continue;
      closestPointOnDetailBoundary(tile, poly, cx, cz, p);
      const dx = cx - p[0]!;
      const dy = cy - p[1]!;
      const dz = cz - p[2]!;
      const d = dx * dx + dy * dy + dz * dz;
      if (d < bestD || (d === bestD && i < bestIndex)) {
        bestD = d;
        bestIndex = i;
        bestRef = ref;
        bestOver = false;
        outPoint[0] = p[0]!;
        outPoint[1] = p[1]!;
        outPoint[2] = p[2]!;
      }
    }
    out.ref = bestRef;
    out.isOverPoly = bestOver;
    if (bestRef === 0) {
      outPoint[0] = cx;
      outPoint[1] = cy;
      outPoint[2] = cz;
    }
    return bestRef;
  }

  /**
   * Closest point to `pos` on polygon `ref`'s detail surface, written to `out`; returns true
   * when `pos` is over the polygon on XZ (then out = pos with the surface height). A stale
   * ref (its tile removed or replaced) returns false with out = pos and sets refStatus to
   * "invalidRef"; a malformed one (never valid) throws.
   */
  closestPointOnPoly(ref: PolyRef, pos: ArrayLike<number>, out: Float64Array): boolean {
    checkPoint(pos, "closestPointOnPoly pos");
    if (!this.checkRef("closestPointOnPoly ref", ref)) {
      copy3(pos, out);
      return false;
    }
    return closestPointByRef(this.navMesh, ref, pos[0]!, pos[1]!, pos[2]!, out) === 1;
  }

  /**
   * `pos` itself when inside polygon `ref` on XZ, else the closest point on its edges
   * (Detour's closestPointOnPolyBoundary; heights from the polygon, not the detail mesh).
   * Returns "complete", or "invalidRef" (out = pos) when `ref` is stale (its tile removed or
   * replaced; also in refStatus); a malformed ref (never valid) throws.
   */
  closestPointOnPolyBoundary(ref: PolyRef, pos: ArrayLike<number>, out: Float64Array): QueryStatus {
    checkPoint(pos, "closestPointOnPolyBoundary pos");
    if (!this.checkRef("closestPointOnPolyBoundary ref", ref)) {
      copy3(pos, out);
      return "invalidRef";
    }
    closestPointOnBoundaryByRef(this.navMesh, ref, pos[0]!, pos[1]!, pos[2]!, out);
    return "complete";
  }

  /**
   * Detail-mesh height of polygon `ref` at pos's XZ; NaN when pos is outside the polygon, and
   * NaN with refStatus "invalidRef" when `ref` is stale (its tile removed or replaced); a
   * malformed ref (never valid) throws.
   */
  getPolyHeight(ref: PolyRef, pos: ArrayLike<number>): number {
    checkPoint(pos, "getPolyHeight pos");
    if (!this.checkRef("getPolyHeight ref", ref)) return Number.NaN;
    return heightByRef(this.navMesh, ref, pos[0]!, pos[2]!);
  }

  /** Replaces the pool and open list with larger ones (a search asked for more nodes). */
  private growPool(maxNodes: number): void {
    this.nodePool = new NodePool(maxNodes);
    this.openList = new NodeQueue(maxNodes);
    this.finder = new PathFinder(this.navMesh, this.nodePool, this.openList);
  }

  /**
   * A* corridor from startRef (at startPos) to endRef (at endPos); see {@link PathFinder}.
   * Writes the refs to outPolys — a number[] is resized, a too-short Float64Array replaced by
   * a larger one (use result.polys) — so no corridor is ever truncated. Status "complete",
   * "partial" (end unreachable: the corridor leads to the polygon nearest to it) or
   * "outOfNodes" (the node limit stopped the search; best corridor so far), or
   * "invalidRef" with an empty corridor when startRef or endRef is stale (its tile removed or
   * replaced). Malformed refs (never valid, see classifyRef) and non-finite positions throw.
   */
  findPath(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
    outPolys: Float64Array | number[] = [],
    result: FindPathResult = createFindPathResult(),
    maxNodes?: number,
  ): FindPathResult {
    if (maxNodes !== undefined) {
      checkMaxNodes(maxNodes, "findPath maxNodes");
      if (maxNodes > this.nodePool.maxNodes) this.growPool(maxNodes);
    }
    const f = this.finder;
    if (f.init(startRef, endRef, startPos, endPos, filter, maxNodes) === "inProgress") {
      f.update(Infinity, false);
    }
    return f.finalize(outPolys, result);
  }

  /**
   * Starts a sliced findPath (same search and result as findPath, run a slice at a time by
   * updateSlicedFindPath). The sliced search has its own node pool, so other queries may run
   * between slices; a stale startRef or endRef, or tiles removed meanwhile, end it with
   * "invalidRef". Malformed refs and non-finite positions throw.
   */
  initSlicedFindPath(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
  ): SlicedStatus {
    if (this.sliced === null || this.sliced.pool.maxNodes !== this.nodePool.maxNodes) {
      const n = this.nodePool.maxNodes;
      this.sliced = new PathFinder(this.navMesh, new NodePool(n), new NodeQueue(n));
    }
    return this.sliced.init(startRef, endRef, startPos, endPos, filter);
  }

  /** Expands up to maxIterations nodes; "inProgress" until the search is over. */
  updateSlicedFindPath(maxIterations: number): SlicedStatus {
    if (this.sliced === null) return "noStart";
    return this.sliced.update(maxIterations);
  }

  /** Node expansions done by the last updateSlicedFindPath. */
  get slicedIterations(): number {
    return this.sliced?.iterations ?? 0;
  }

  /** The sliced search's corridor (best so far when it is still running; that ends it). */
  finalizeSlicedFindPath(
    outPolys: Float64Array | number[] = [],
    result: FindPathResult = createFindPathResult(),
  ): FindPathResult {
    if (this.sliced === null) {
      result.status = "noStart";
      result.polyCount = 0;
      result.polys = outPolys;
      return result;
    }
    const r = this.sliced.finalize(outPolys, result);
    // A tile removed after the search's last slice leaves dead refs in its corridor: like a
    // removal during the search, that ends it with "invalidRef" and no corridor.
    for (let i = 0; i < r.polyCount; i++) {
      if (!isLiveRef(this.navMesh, r.polys[i]!)) {
        r.status = "invalidRef";
        r.polyCount = 0;
        if (Array.isArray(r.polys)) r.polys.length = 0;
        break;
      }
    }
    return r;
  }

  /**
   * String-pulls a corridor into corner points (see findStraightPath in straight-path.ts).
   * "invalidRef" (no points) when a corridor polygon is stale (its tile removed or replaced
   * since the corridor was found); a malformed ref throws.
   */
  findStraightPath(
    start: ArrayLike<number>,
    end: ArrayLike<number>,
    polys: ArrayLike<number>,
    polyCount: number,
    out: StraightPath,
    options?: StraightPathOptions,
  ): QueryStatus {
    checkPoint(start, "findStraightPath start");
    checkPoint(end, "findStraightPath end");
    if (!(polyCount >= 0 && polyCount <= polys.length)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findStraightPath: polyCount ${polyCount} out of 0..${polys.length}`,
      );
    }
    return findStraightPath(this.navMesh, start, end, polys, polyCount, out, options);
  }

  /**
   * Snaps start and end to the mesh (findNearestPoly within halfExtents), finds the corridor
   * and string-pulls it. Status "noStart" / "noEnd" when a point has no polygon nearby (no
   * points then); when the end is unreachable the path ends at the point of the last corridor
   * polygon closest to it, with status "partial" (or "outOfNodes").
   */
  computePath(
    start: ArrayLike<number>,
    end: ArrayLike<number>,
    options: ComputePathOptions = {},
  ): ComputePathResult {
    checkPoint(start, "computePath start");
    checkPoint(end, "computePath end");
    const filter = options.filter ?? this.defaultFilter;
    const missed = this.snapEnds(start, end, options, filter);
    if (missed !== null) return missed;
    const s = this.cpStart;
    const e = this.cpEnd;
    // findPath without re-validating refs and points just produced by findNearestPoly.
    const maxNodes = options.maxNodes;
    if (maxNodes !== undefined) {
      checkMaxNodes(maxNodes, "computePath maxNodes");
      if (maxNodes > this.nodePool.maxNodes) this.growPool(maxNodes);
    }
    const f = this.finder;
    if (f.init(s.ref, e.ref, s.point, e.point, filter, maxNodes, true) === "inProgress") {
      f.update(Infinity, false);
    }
    const path = f.finalize(this.cpPath.polys, this.cpPath);
    const polyCount = path.polyCount;
    const polys = path.polys;
    const endPos = this.cpEndPos;
    if (polys[polyCount - 1] === e.ref) {
      endPos[0] = e.point[0]!;
      endPos[1] = e.point[1]!;
      endPos[2] = e.point[2]!;
    } else {
      // Partial: aim at the point of the last polygon closest to the end.
      closestPointByRef(
        this.navMesh,
        polys[polyCount - 1]!,
        e.point[0]!,
        e.point[1]!,
        e.point[2]!,
        endPos,
      );
    }
    const sp = this.cpStraight;
    stringPull(this.navMesh, s.point, endPos, polys, polyCount, sp, options.straightPath);
    const q = sp.points;
    const points: Vec3[] = new Array(sp.count);
    let length = 0;
    for (let i = 0; i < sp.count; i++) {
      points[i] = [q[i * 3]!, q[i * 3 + 1]!, q[i * 3 + 2]!];
      if (i > 0) {
        const dx = q[i * 3]! - q[i * 3 - 3]!;
        const dy = q[i * 3 + 1]! - q[i * 3 - 2]!;
        const dz = q[i * 3 + 2]! - q[i * 3 - 1]!;
        length += Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
    }
    return { status: path.status, points, polys: refsArray(polys, polyCount), length };
  }

  /**
   * @internal computePath's and findShortestPath's first step: snaps start and end into cpStart
   * and cpEnd; the "noStart" / "noEnd" result when one has no polygon within the half extents.
   */
  snapEnds(
    start: ArrayLike<number>,
    end: ArrayLike<number>,
    options: ComputePathOptions,
    filter: QueryFilter,
  ): ComputePathResult | null {
    const ext = options.halfExtents ?? DEFAULT_HALF_EXTENTS;
    if (this.findNearestPoly(start, ext, filter, this.cpStart) === 0) {
      return { status: "noStart", points: [], polys: [], length: 0 };
    }
    if (this.findNearestPoly(end, ext, filter, this.cpEnd) === 0) {
      return { status: "noEnd", points: [], polys: [], length: 0 };
    }
    return null;
  }
}

/**
 * {@link NavMeshQueryCore} and every other query as a method: raycast, moveAlongSurface,
 * findDistanceToWall, random points, polygons around a circle or shape, local neighbourhood,
 * wall segments, partial finalization of a sliced search. They live in their own modules
 * (src/query/<name>.ts, functions taking the query first); these methods forward to them, each
 * with an optional reusable result.
 */
export class NavMeshQuery extends NavMeshQueryCore {
  /** Walkability ray from `start` (in startRef) towards `end`; see raycast.ts. */
  raycast(
    startRef: PolyRef,
    start: ArrayLike<number>,
    end: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
    options?: RaycastOptions,
    out: RaycastHit = new RaycastHit(),
  ): RaycastHit {
    return raycast(this, startRef, start, end, filter, options, out);
  }

  /** Slides from `start` towards `end` along the surface; see move-along-surface.ts. */
  moveAlongSurface(
    startRef: PolyRef,
    start: ArrayLike<number>,
    end: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
    out: MoveAlongSurfaceResult = new MoveAlongSurfaceResult(),
  ): MoveAlongSurfaceResult {
    return moveAlongSurface(this, startRef, start, end, filter, out);
  }

  /** Distance from `center` to the nearest wall within maxRadius; see distance-to-wall.ts. */
  findDistanceToWall(
    startRef: PolyRef,
    center: ArrayLike<number>,
    maxRadius: number,
    filter: QueryFilter = this.defaultFilter,
    out: DistanceToWallResult = new DistanceToWallResult(),
  ): DistanceToWallResult {
    return findDistanceToWall(this, startRef, center, maxRadius, filter, out);
  }

  /** Random point on the mesh, area-weighted, from a seedable rng; see random-point.ts. */
  findRandomPoint(
    filter: QueryFilter,
    rng: () => number,
    out: RandomPointResult = new RandomPointResult(),
  ): RandomPointResult {
    return findRandomPoint(this, filter, rng, out);
  }

  /** Random point reachable from startRef within maxRadius of center; see random-point.ts. */
  findRandomPointAroundCircle(
    startRef: PolyRef,
    center: ArrayLike<number>,
    maxRadius: number,
    filter: QueryFilter,
    rng: () => number,
    out: RandomPointResult = new RandomPointResult(),
  ): RandomPointResult {
    return findRandomPointAroundCircle(this, startRef, center, maxRadius, filter, rng, out);
  }

  /** Polygons reachable from startRef that touch the circle; see polys-around-circle.ts. */
  findPolysAroundCircle(
    startRef: PolyRef,
    center: ArrayLike<number>,
    radius: number,
    filter: QueryFilter = this.defaultFilter,
    out: PolysAroundCircleResult = new PolysAroundCircleResult(),
  ): PolysAroundCircleResult {
    return findPolysAroundCircle(this, startRef, center, radius, filter, out);
  }
  // Crowd support (issue 13): local neighbourhood, wall segments, shape search and partial
  // finalization; each lives in its own module.

  /** Non-overlapping polygons around `centre` within `radius`; see local-neighbourhood.ts. */
  findLocalNeighbourhood(
    startRef: PolyRef,
    centre: ArrayLike<number>,
    radius: number,
    filter: QueryFilter = this.defaultFilter,
    out: LocalNeighbourhoodResult = new LocalNeighbourhoodResult(),
  ): LocalNeighbourhoodResult {
    return findLocalNeighbourhood(this, startRef, centre, radius, filter, out);
  }

  /** Wall segments (and portals with includePortals) of one polygon; see wall-segments.ts. */
  getPolyWallSegments(
    ref: PolyRef,
    filter: QueryFilter = this.defaultFilter,
    out: WallSegmentsResult = new WallSegmentsResult(),
    options?: WallSegmentsOptions,
  ): WallSegmentsResult {
    return getPolyWallSegments(this, ref, filter, out, options);
  }

  /** Polygons reachable from startRef whose portals meet a convex shape; see polys-around-shape.ts. */
  findPolysAroundShape(
    startRef: PolyRef,
    verts: ArrayLike<number>,
    filter: QueryFilter = this.defaultFilter,
    out: PolysAroundCircleResult = new PolysAroundCircleResult(),
  ): PolysAroundCircleResult {
    return findPolysAroundShape(this, startRef, verts, filter, out);
  }

  /**
   * Ends the sliced search with the corridor to the furthest polygon of `existingCorridor`
   * it reached (replanning); see finalize-partial.ts.
   */
  finalizeSlicedFindPathPartial(
    existingCorridor: ArrayLike<PolyRef>,
    outPolys: Float64Array | number[] = [],
    result: FindPathResult = createFindPathResult(),
    existingCount: number = existingCorridor.length,
  ): FindPathResult {
    if (this.sliced === null) return this.finalizeSlicedFindPath(outPolys, result);
    return finalizeSlicedPartial(
      this.navMesh,
      this.sliced,
      existingCorridor,
      existingCount,
      outPolys,
      result,
    );
  }
}

/** The first `count` refs as a plain array, for results handed to the caller. */
export function refsArray(polys: ArrayLike<PolyRef>, count: number): PolyRef[] {
  // Pushed, not preallocated: a holey array would turn double-valued on the first ref.
  const refs: PolyRef[] = [];
  for (let i = 0; i < count; i++) refs.push(polys[i]!);
  return refs;
}
