import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";
import { type NavMesh, OFF_MESH_SLOT } from "../navmesh/nav-mesh.js";
import {
  collectNeighbours,
  getPolyFlags,
  getPortalPoints,
  MAX_NEIGHBOURS,
} from "../navmesh/neighbours.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import { NODE_CLOSED, NODE_OPEN, type NodePool, type NodeQueue, NULL_NODE } from "./node-pool.js";
import type { QueryStatus } from "./status.js";

/** Heuristic scale below 1 keeps A* admissible despite rounding, as in Detour. */
export const H_SCALE = 0.999;

/** Status of a sliced search: still running, or finished with a query status. */
export type SlicedStatus = QueryStatus | "inProgress";

/** A corridor: polys[0..polyCount) from the start polygon to the end (or closest) polygon. */
export interface FindPathResult {
  status: QueryStatus;
  polyCount: number;
  /** The array written: the caller's, or a larger replacement when it was too short. */
  polys: Float64Array | number[];
}

const POLY_SPACE = 2 ** 20;
const SLOT_SPACE = 2 ** 20;
const SALT_DIV = 2 ** 40;

/**
 * A* over polygons, as Detour's findPath / sliced find path (Mononen): a node per polygon,
 * placed where the search first enters the polygon (the midpoint of that portal); moving
 * from a node to the next costs the 3D distance times the area cost of the polygon crossed
 * (or an off-mesh connection's own cost); the heuristic is the distance to the end times
 * H_SCALE. When the end is unreachable the corridor leads to the node nearest to it.
 *
 * One search at a time runs in init → update(maxIterations)* → finalize; the whole-path
 * query is the same three steps, so a sliced search yields the same corridor.
 */
export class PathFinder {
  readonly navMesh: NavMesh;
  pool: NodePool;
  queue: NodeQueue;
  private readonly nbRefs = new Float64Array(MAX_NEIGHBOURS);
  private readonly nbEdges = new Int32Array(MAX_NEIGHBOURS);
  private readonly left = new Float64Array(3);
  private readonly right = new Float64Array(3);

  private status: SlicedStatus = "noStart";
  private startRef: PolyRef = 0;
  private endRef: PolyRef = 0;
  private ex = 0;
  private ey = 0;
  private ez = 0;
  private filter: QueryFilter | null = null;
  private lastBest = NULL_NODE;
  private lastBestCost = 0;
  private outOfNodes = false;
  private nodeLimit = 0;
  /** Iterations run by the last update(). */
  iterations = 0;

  constructor(navMesh: NavMesh, pool: NodePool, queue: NodeQueue) {
    this.navMesh = navMesh;
    this.pool = pool;
    this.queue = queue;
  }

  /** Starts a search; refs must be live (else throws), positions finite. */
  init(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    maxNodes = this.pool.maxNodes,
  ): SlicedStatus {
    const nm = this.navMesh;
    if (!nm.isValidPolyRef(startRef)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findPath: start ref ${startRef} is not a live polygon`,
      );
    }
    if (!nm.isValidPolyRef(endRef)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findPath: end ref ${endRef} is not a live polygon`,
      );
    }
    const sx = startPos[0]!;
    const sy = startPos[1]!;
    const sz = startPos[2]!;
    const ex = endPos[0]!;
    const ey = endPos[1]!;
    const ez = endPos[2]!;
    if (!(Number.isFinite(sx) && Number.isFinite(sy) && Number.isFinite(sz))) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findPath: start position [${sx}, ${sy}, ${sz}] is not finite`,
      );
    }
    if (!(Number.isFinite(ex) && Number.isFinite(ey) && Number.isFinite(ez))) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `findPath: end position [${ex}, ${ey}, ${ez}] is not finite`,
      );
    }
    this.startRef = startRef;
    this.endRef = endRef;
    this.ex = ex;
    this.ey = ey;
    this.ez = ez;
    this.filter = filter;
    this.outOfNodes = false;
    this.iterations = 0;
    this.nodeLimit = Math.min(Math.max(1, maxNodes | 0), this.pool.maxNodes);
    const pool = this.pool;
    pool.clear();
    this.queue.clear();
    const s = pool.getNode(startRef);
    const dx = ex - sx;
    const dy = ey - sy;
    const dz = ez - sz;
    pool.x[s] = sx;
    pool.y[s] = sy;
    pool.z[s] = sz;
    pool.cost[s] = 0;
    pool.total[s] = Math.sqrt(dx * dx + dy * dy + dz * dz) * H_SCALE;
    pool.flags[s] = NODE_OPEN;
    this.queue.push(s, pool.total[s]!);
    this.lastBest = s;
    this.lastBestCost = pool.total[s]!;
    this.status = startRef === endRef ? "complete" : "inProgress";
    return this.status;
  }

  /** Runs up to maxIterations node expansions; returns the status so far. */
  update(maxIterations: number): SlicedStatus {
    if (this.status !== "inProgress") return this.status;
    const nm = this.navMesh;
    if (!nm.isValidPolyRef(this.startRef) || !nm.isValidPolyRef(this.endRef)) {
      this.status = "invalidRef";
      return this.status;
    }
    const pool = this.pool;
    const queue = this.queue;
    const filter = this.filter!;
    const include = filter.includeFlags;
    const exclude = filter.excludeFlags;
    const areaCost = filter.areaCost;
    const endRef = this.endRef;
    const ex = this.ex;
    const ey = this.ey;
    const ez = this.ez;
    const nbRefs = this.nbRefs;
    const nbEdges = this.nbEdges;
    const limit = this.nodeLimit;
    const slots = nm.slots;
    const px = pool.x;
    const py = pool.y;
    const pz = pool.z;
    const pcost = pool.cost;
    const ptotal = pool.total;
    const pflags = pool.flags;
    const pref = pool.ref;
    const pparent = pool.parent;
    let iter = 0;
    let reachedEnd = false;

    while (iter < maxIterations) {
      const best = queue.pop();
      if (best === NULL_NODE) break;
      iter++;
      pflags[best] = (pflags[best]! & ~NODE_OPEN) | NODE_CLOSED;
      const bestRef = pref[best]!;
      if (bestRef === endRef) {
        this.lastBest = best;
        reachedEnd = true;
        break;
      }
      // Resolve the polygon (ref arithmetic inlined: salt 12 | slot 20 | poly 20 bits).
      const hi = Math.floor(bestRef / POLY_SPACE);
      const slotIndex = hi % SLOT_SPACE;
      const poly = bestRef - hi * POLY_SPACE;
      const slot = slots[slotIndex];
      if (slot === undefined || slot.salt !== Math.floor(bestRef / SALT_DIV)) {
        this.status = "invalidRef";
        this.iterations = iter;
        return this.status;
      }
      const tile = slot.tile;
      // Cost of crossing this polygon: per unit length, or fixed for a priced connection.
      let perMetre: number;
      let fixedCost = -1;
      if (slotIndex === OFF_MESH_SLOT) {
        const con = nm.offMesh[poly];
        if (!con) {
          this.status = "invalidRef";
          this.iterations = iter;
          return this.status;
        }
        perMetre = areaCost[con.area]!;
        if (con.cost !== undefined) fixedCost = con.cost;
      } else {
        if (tile === null || poly >= tile.polyCount) {
          this.status = "invalidRef";
          this.iterations = iter;
          return this.status;
        }
        perMetre = areaCost[tile.polyAreas[poly]!]!;
      }
      const parentNode = pparent[best]!;
      const parentRef = parentNode === NULL_NODE ? 0 : pref[parentNode]!;
      const bx = px[best]!;
      const by = py[best]!;
      const bz = pz[best]!;
      const bestCost = pcost[best]!;

      const n = collectNeighbours(nm, bestRef, nbRefs, nbEdges);
      for (let k = 0; k < n; k++) {
        const nref = nbRefs[k]!;
        if (nref === parentRef) continue;
        const nhi = Math.floor(nref / POLY_SPACE);
        const sameTile = nhi === hi && tile !== null;
        const npoly = nref - nhi * POLY_SPACE;
        const nflags = sameTile ? tile.polyFlags[npoly]! : getPolyFlags(nm, nref);
        if ((nflags & include) === 0 || (nflags & exclude) !== 0) continue;

        let node: number;
        if (pool.count < limit) {
          node = pool.getNode(nref);
        } else {
          node = pool.findNode(nref);
        }
        if (node === NULL_NODE) {
          this.outOfNodes = true;
          continue;
        }
        const nodeFlags = pflags[node]!;
        if (nodeFlags === 0) {
          // First visit: the node sits at the middle of the portal it was entered by.
          const edge = nbEdges[k]!;
          if (sameTile && edge >= 0) {
            const nvp = tile.maxVertsPerPoly;
            const base = poly * nvp;
            const cnt = tile.polyVertCount[poly]!;
            const a = tile.polyVerts[base + edge]! * 3;
            const b = tile.polyVerts[base + (edge + 1 === cnt ? 0 : edge + 1)]! * 3;
            const v = tile.vertices;
            px[node] = (v[a]! + v[b]!) * 0.5;
            py[node] = (v[a + 1]! + v[b + 1]!) * 0.5;
            pz[node] = (v[a + 2]! + v[b + 2]!) * 0.5;
          } else {
            const l = this.left;
            const r = this.right;
            if (!getPortalPoints(nm, bestRef, nref, l, r)) continue;
            px[node] = (l[0]! + r[0]!) * 0.5;
            py[node] = (l[1]! + r[1]!) * 0.5;
            pz[node] = (l[2]! + r[2]!) * 0.5;
          }
        }
        const nx = px[node]!;
        const ny = py[node]!;
        const nz = pz[node]!;
        let dx = nx - bx;
        let dy = ny - by;
        let dz = nz - bz;
        let cost =
          bestCost +
          (fixedCost >= 0 ? fixedCost : Math.sqrt(dx * dx + dy * dy + dz * dz) * perMetre);
        dx = ex - nx;
        dy = ey - ny;
        dz = ez - nz;
        let heuristic: number;
        if (nref === endRef) {
          // Reaching the end polygon: add the walk from its portal to the end point.
          const endArea = sameTile ? tile.polyAreas[npoly]! : endAreaOf(nm, nref);
          cost += Math.sqrt(dx * dx + dy * dy + dz * dz) * areaCost[endArea]!;
          heuristic = 0;
        } else {
          heuristic = Math.sqrt(dx * dx + dy * dy + dz * dz) * H_SCALE;
        }
        const total = cost + heuristic;
        if ((nodeFlags & (NODE_OPEN | NODE_CLOSED)) !== 0 && total >= ptotal[node]!) continue;

        pparent[node] = best;
        pcost[node] = cost;
        ptotal[node] = total;
        if ((nodeFlags & NODE_OPEN) !== 0) {
          queue.modify(node, total);
        } else {
          pflags[node] = NODE_OPEN;
          queue.push(node, total);
        }
        if (heuristic < this.lastBestCost) {
          this.lastBestCost = heuristic;
          this.lastBest = node;
        }
      }
    }
    this.iterations = iter;
    // Finished when the end was expanded or nothing is left to expand (as Detour).
    if (reachedEnd || queue.empty()) this.status = this.finalStatus();
    return this.status;
  }

  private finalStatus(): QueryStatus {
    if (this.pool.ref[this.lastBest] === this.endRef) return "complete";
    return this.outOfNodes ? "outOfNodes" : "partial";
  }

  /** Current status (without running anything). */
  get currentStatus(): SlicedStatus {
    return this.status;
  }

  /**
   * Writes the corridor to the node closest to the end found so far (the end polygon when
   * complete) into outPolys and returns it in `result`. A search still in progress yields its
   * best corridor so far with status "partial"; after an "invalidRef" the corridor is empty.
   */
  finalize(outPolys: Float64Array | number[], result: FindPathResult): FindPathResult {
    result.polys = outPolys;
    const status = this.status;
    if (status === "invalidRef" || status === "noStart") {
      result.status = status;
      result.polyCount = 0;
      if (Array.isArray(outPolys)) outPolys.length = 0;
      return result;
    }
    const pool = this.pool;
    let count = 0;
    for (let i = this.lastBest; i !== NULL_NODE; i = pool.parent[i]!) count++;
    let polys = outPolys;
    if (Array.isArray(polys)) {
      polys.length = count;
    } else if (polys.length < count) {
      polys = new Float64Array(Math.max(count, polys.length * 2));
    }
    let w = count;
    for (let i = this.lastBest; i !== NULL_NODE; i = pool.parent[i]!) polys[--w] = pool.ref[i]!;
    result.polys = polys;
    result.polyCount = count;
    result.status = status === "inProgress" ? this.finalStatus() : status;
    // The search is over; a later update() does nothing.
    if (status === "inProgress") this.status = result.status;
    return result;
  }
}

function endAreaOf(navMesh: NavMesh, ref: PolyRef): number {
  const slotIndex = Math.floor(ref / POLY_SPACE) % SLOT_SPACE;
  const poly = ref % POLY_SPACE;
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly]?.area ?? 0;
  return navMesh.slots[slotIndex]?.tile?.polyAreas[poly] ?? 0;
}
