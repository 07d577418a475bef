import type { QueryFilter } from "../navmesh/filter.js";
import type { LinkPool } from "../navmesh/links.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPolyFlags, getPortalPoints } from "../navmesh/neighbours.js";
import {
  checkRefArgument,
  encodePolyRef,
  isLiveRef,
  OFF_MESH_SLOT,
  type PolyRef,
} from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { checkFilter, checkMaxNodes, checkPoint } from "./args.js";
import { callPassFilter, stepCost } from "./filter-callbacks.js";
import {
  MAX_NODE_STATES,
  NODE_CLOSED,
  NODE_OPEN,
  type NodePool,
  type NodeQueue,
  NULL_NODE,
} from "./node-pool.js";
import { areaOfRef } from "./ref-geometry.js";
import {
  buildSlotGraph,
  CROSS_STATE,
  refreshSlotGraphFlags,
  type SlotGraph,
  slotGraphCurrent,
} from "./slot-graph.js";
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

const EMPTY_U8 = new Uint8Array(0);
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_F64 = new Float64Array(0);
const EMPTY_I32 = new Int32Array(0);

/** Expansions a search may make per node of its limit before it stops with "outOfNodes". */
export const MAX_EXPANSIONS_PER_NODE = 16;

/**
 * A* over polygons, as Detour's findPath / sliced find path (Mononen): a node per polygon
 * (and per tile side it was entered across, Detour's node state), placed where the search
 * first enters the polygon (the midpoint of that portal); moving
 * from a node to the next costs the 3D distance times the area cost of the polygon crossed
 * (or an off-mesh connection's own cost); the heuristic is the distance to the end times
 * H_SCALE. When the end is unreachable the corridor leads to the node nearest to it.
 *
 * Neighbours come from each tile slot's {@link SlotGraph} (built on first visit, kept per
 * finder, rebuilt when the slot's tile or links change): same-tile edges and tile portals
 * with their midpoints precomputed, so crossing into another tile costs no more than a step
 * inside one.
 *
 * One search at a time runs in init → update(maxIterations)* → finalize; the whole-path
 * query is the same three steps, so a sliced search yields the same corridor.
 */
export class PathFinder {
  readonly navMesh: NavMesh;
  pool: NodePool;
  queue: NodeQueue;
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
  /** Area cost of the end polygon (for the last leg to the end point). */
  private endCost = 1;
  /** Crossing cost of the polygon being expanded: per metre, or fixed when >= 0. */
  private perMetre = 1;
  private fixedCost = -1;
  /** Iterations run by the last update(). */
  iterations = 0;
  /** Expansions of this search so far, over all slices, and their cap (see start()). */
  private expanded = 0;
  private maxExpansions = 0;
  /** Per slot: the search data of the tile last seen there (see SlotGraph). */
  private readonly graphBySlot: (SlotGraph | undefined)[] = [];

  constructor(navMesh: NavMesh, pool: NodePool, queue: NodeQueue) {
    this.navMesh = navMesh;
    this.pool = pool;
    this.queue = queue;
  }

  /**
   * Starts a search; positions must be finite. A stale start or end ref (its tile removed or
   * replaced) ends the search at once with "invalidRef" (finalize: empty corridor); a
   * malformed one (never valid, see classifyRef) throws. `trusted` skips those checks for
   * callers that just obtained refs and points from the mesh.
   */
  init(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    maxNodes = this.pool.maxNodes,
    trusted = false,
  ): SlicedStatus {
    const nm = this.navMesh;
    if (trusted) return this.start(startRef, endRef, startPos, endPos, filter, maxNodes);
    const startLive = checkRefArgument(nm, startRef, "findPath startRef");
    const endLive = checkRefArgument(nm, endRef, "findPath endRef");
    checkPoint(startPos, "findPath startPos");
    checkPoint(endPos, "findPath endPos");
    checkMaxNodes(maxNodes, "findPath maxNodes");
    if (!startLive || !endLive) {
      checkFilter(filter, "findPath");
      this.startRef = startRef;
      this.endRef = endRef;
      this.iterations = 0;
      this.status = "invalidRef";
      return this.status;
    }
    return this.start(startRef, endRef, startPos, endPos, filter, maxNodes);
  }

  /** init after its checks. */
  private start(
    startRef: PolyRef,
    endRef: PolyRef,
    startPos: ArrayLike<number>,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    maxNodes: number,
  ): SlicedStatus {
    const nm = this.navMesh;
    // Checked even for trusted callers: computePath passes the user's filter through.
    checkFilter(filter, "findPath");
    const sx = startPos[0]!;
    const sy = startPos[1]!;
    const sz = startPos[2]!;
    const ex = endPos[0]!;
    const ey = endPos[1]!;
    const ez = endPos[2]!;
    this.startRef = startRef;
    this.endRef = endRef;
    this.ex = ex;
    this.ey = ey;
    this.ez = ez;
    this.filter = filter;
    // An area the filter does not price (NaN) blocks like Infinity instead of poisoning the
    // open list's order (loaders refuse such areas; this keeps hand-made tiles honest too).
    const endCost = filter.areaCost[areaOfRef(nm, endRef)]!;
    this.endCost = endCost >= -Infinity ? endCost : Infinity;
    this.outOfNodes = false;
    this.iterations = 0;
    this.nodeLimit = Math.min(Math.max(1, maxNodes | 0), this.pool.maxNodes);
    // Closed nodes may be reopened (an inconsistent heuristic, or NaN step costs from points
    // near the float limits), so the node limit alone does not bound the work: cap the
    // expansions too. A sane search reopens few nodes and never gets near this.
    this.expanded = 0;
    this.maxExpansions = this.nodeLimit * MAX_EXPANSIONS_PER_NODE + 64;
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

  /**
   * Runs up to maxIterations node expansions; returns the status so far. `checkRefs` false
   * skips re-validating the start and end refs (right after init, nothing can have changed).
   */
  update(maxIterations: number, checkRefs = true): SlicedStatus {
    if (this.status !== "inProgress") return this.status;
    const nm = this.navMesh;
    if (checkRefs && (!isLiveRef(nm, this.startRef) || !isLiveRef(nm, this.endRef))) {
      this.status = "invalidRef";
      return this.status;
    }
    const pool = this.pool;
    const queue = this.queue;
    const filter = this.filter!;
    const include = filter.includeFlags;
    const exclude = filter.excludeFlags;
    const areaCost = filter.areaCost;
    // A filter with callbacks takes the general per-entry path (expandFastEntry, relax).
    const custom = !!filter.passFilter || !!filter.getCost;
    const endRef = this.endRef;
    const endCost = this.endCost;
    const ex = this.ex;
    const ey = this.ey;
    const ez = this.ez;
    const limit = this.nodeLimit;
    const slots = nm.slotTable;
    const pflags = pool.flags;
    const pref = pool.ref;
    const pparent = pool.parent;
    const pcost = pool.cost;
    const ptotal = pool.total;
    const pslot = pool.slot;
    const ppoly = pool.poly;
    const px = pool.x;
    const py = pool.y;
    const pz = pool.z;
    const tables = pool.tables;
    let iter = 0;
    let reachedEnd = false;
    let status: SlicedStatus = "inProgress";
    let lastBest = this.lastBest;
    let lastBestCost = this.lastBestCost;
    // The current tile slot's data (see the slot switch below and SlotGraph).
    let cSlot = -1;
    let cTileBase = -1;
    let cTile: NavMeshTile | null = null;
    let cLinks: LinkPool | null = null;
    let cPolyCount = 0;
    let cAreas: Uint8Array = EMPTY_U8;
    let table: Int32Array = EMPTY_I32;
    let gFirst: Int32Array = EMPTY_I32;
    let gLink: Int32Array = EMPTY_I32;
    let gFast: Uint8Array = EMPTY_U8;
    let gSlot: Int32Array = EMPTY_I32;
    let gPoly: Int32Array = EMPTY_I32;
    let gRef: Float64Array = EMPTY_F64;
    let gState: Uint8Array = EMPTY_U8;
    let gFlags: Uint16Array = EMPTY_U16;
    let gMid: Float64Array = EMPTY_F64;
    let cGraph: SlotGraph | null = null;

    let capped = false;
    while (iter < maxIterations) {
      if (this.expanded + iter >= this.maxExpansions) {
        capped = true;
        this.outOfNodes = true;
        break;
      }
      const best = queue.pop();
      if (best === NULL_NODE) break;
      iter++;
      pflags[best] = (pflags[best]! & ~NODE_OPEN) | NODE_CLOSED;
      const bestRef = pref[best]!;
      if (bestRef === endRef) {
        lastBest = best;
        reachedEnd = true;
        break;
      }
      const slotIndex = pslot[best]!;
      const poly = ppoly[best]!;
      // Refs of a tile's polygons are tileBase + poly (poly is the ref's low part).
      const tileBase = bestRef - poly;
      if (slotIndex !== cSlot) {
        // Entering another tile slot: reload its arrays (searches mostly stay in one tile,
        // so this keeps the per-node work to typed-array reads).
        const slot = slots[slotIndex];
        if (slot === undefined) {
          status = "invalidRef";
          break;
        }
        cSlot = slotIndex;
        cTile = slot.tile;
        cLinks = slot.links;
        if (cTile !== null) {
          let g = this.graphBySlot[slotIndex];
          if (!slotGraphCurrent(g, cTile, cLinks)) {
            g = buildSlotGraph(nm, slotIndex, slot.salt, cTile, cLinks);
            this.graphBySlot[slotIndex] = g;
          } else if (g.stateVersion !== nm.stateVersion) {
            // Flags changed at run time (a door): the copy in the graph is stale.
            refreshSlotGraphFlags(nm, g);
          }
          cGraph = g;
          cTileBase = g.tileBase;
          cPolyCount = g.polyCount;
          cAreas = g.polyAreas;
          // Sized for every polygon of the tile, so creating nodes never regrows it.
          table = pool.denseTable(slotIndex, cPolyCount);
          gFirst = g.first;
          gLink = g.link;
          gFast = g.fast;
          gSlot = g.slot;
          gPoly = g.poly;
          gRef = g.ref;
          gState = g.state;
          gFlags = g.flags;
          gMid = g.mid;
        } else {
          // Ref of the slot's polygon 0: refs of its live polygons are cTileBase + poly.
          cTileBase = encodePolyRef(slot.salt, slotIndex, 0);
        }
      }
      if (tileBase !== cTileBase) {
        status = "invalidRef";
        break;
      }
      // Cost of crossing this polygon: per unit length, or fixed for a priced connection.
      let perMetre: number;
      let fixedCost = -1;
      if (cTile === null) {
        const con = slotIndex === OFF_MESH_SLOT ? nm.offMeshAt(poly) : null;
        if (!con) {
          status = "invalidRef";
          break;
        }
        perMetre = areaCost[con.area]!;
        fixedCost = con.cost ?? -1;
      } else {
        if (poly >= cPolyCount) {
          status = "invalidRef";
          break;
        }
        perMetre = areaCost[cAreas[poly]!]!;
      }
      if (!(perMetre >= -Infinity)) perMetre = Infinity; // unpriced (undefined, NaN): blocks
      const parentNode = pparent[best]!;
      const parentRef = parentNode === NULL_NODE ? 0 : pref[parentNode]!;
      const bx = px[best]!;
      const by = py[best]!;
      const bz = pz[best]!;
      const bestCost = pcost[best]!;

      if (cTile !== null) {
        // Every neighbour from the slot's SlotGraph, in Detour's order (same-tile edges, then
        // links): portal midpoints precomputed, node state per entry. The relaxation is
        // relax() inlined; links it does not cover go through expandLink.
        const kEnd = gFirst[poly + 1]!;
        for (let k = gFirst[poly]!; k < kEnd; k++) {
          if (gFast[k] === 0 || custom) {
            this.perMetre = perMetre;
            this.fixedCost = fixedCost;
            this.lastBest = lastBest;
            this.lastBestCost = lastBestCost;
            if (gFast[k] === 0) this.expandLink(best, bestRef, gLink[k]!, cLinks!, parentRef);
            else this.expandFastEntry(best, bestRef, cGraph!, k, parentRef);
            lastBest = this.lastBest;
            lastBestCost = this.lastBestCost;
            continue;
          }
          const nref = gRef[k]!;
          if (nref === parentRef) continue;
          const nf = gFlags[k]!;
          if ((nf & include) === 0 || (nf & exclude) !== 0) continue;
          const npoly = gPoly[k]!;
          const nslot = gSlot[k]!;
          let node: number;
          if (nslot === slotIndex) {
            // Same tile (state 0): the dense table of this slot, read directly.
            node = table[npoly * MAX_NODE_STATES]!;
            if (node === NULL_NODE) {
              if (pool.count < limit) node = pool.addToTableBare(table, slotIndex, npoly, nref);
            } else if (pref[node] !== nref) {
              // Another salt in this table entry (stale refs): the general lookup.
              node =
                pool.count < limit
                  ? pool.getNodeAt(slotIndex, npoly, nref)
                  : pool.findNodeAt(slotIndex, npoly, nref);
            }
          } else {
            // Another slot (a tile portal): its dense table when it covers the entry, as
            // getNodeAt's fast path inlined; anything else through getNodeAt / findNodeAt.
            const nstate = gState[k]!;
            const t = nslot < tables.length ? tables[nslot]! : EMPTY_I32;
            const ti = npoly * MAX_NODE_STATES + nstate;
            node = ti < t.length ? t[ti]! : -2;
            if (node === NULL_NODE) {
              if (pool.count < limit) node = pool.addToTable(t, nslot, npoly, nref, nstate);
            } else if (node === -2 || pref[node] !== nref) {
              node =
                pool.count < limit
                  ? pool.getNodeAt(nslot, npoly, nref, nstate)
                  : pool.findNodeAt(nslot, npoly, nref, nstate);
            }
          }
          if (node === NULL_NODE) {
            this.outOfNodes = true;
            continue;
          }
          const nodeFlags = pflags[node]!;
          let nx: number;
          let ny: number;
          let nz: number;
          if (nodeFlags === 0) {
            const o = k * 3;
            nx = gMid[o]!;
            ny = gMid[o + 1]!;
            nz = gMid[o + 2]!;
            px[node] = nx;
            py[node] = ny;
            pz[node] = nz;
          } else {
            nx = px[node]!;
            ny = py[node]!;
            nz = pz[node]!;
          }
          let dx = nx - bx;
          let dy = ny - by;
          let dz = nz - bz;
          let cost = bestCost + Math.sqrt(dx * dx + dy * dy + dz * dz) * perMetre;
          dx = ex - nx;
          dy = ey - ny;
          dz = ez - nz;
          let heuristic: number;
          if (nref === endRef) {
            cost += Math.sqrt(dx * dx + dy * dy + dz * dz) * endCost;
            heuristic = 0;
          } else {
            // A visited node's heuristic is the same as last time (fixed position), so a
            // cost that is no lower cannot give a lower total: skip the square root.
            if (nodeFlags !== 0 && !(cost < pcost[node]!)) continue;
            heuristic = Math.sqrt(dx * dx + dy * dy + dz * dz) * H_SCALE;
          }
          const total = cost + heuristic;
          // Negated: a NaN total (steps between points near the float limits) never reopens a
          // node, which could otherwise loop the parent chain.
          if (nodeFlags !== 0 && !(total < ptotal[node]!)) continue;
          pparent[node] = best;
          pcost[node] = cost;
          ptotal[node] = total;
          if ((nodeFlags & NODE_OPEN) !== 0) {
            queue.modify(node, total);
          } else {
            pflags[node] = NODE_OPEN;
            queue.push(node, total);
          }
          if (heuristic < lastBestCost) {
            lastBestCost = heuristic;
            lastBest = node;
          }
        }
        continue;
      }
      // Off-mesh connection polygons: their links (kept out of line: rare, and a smaller loop
      // body keeps the hot locals in registers).
      const links = cLinks!;
      if (poly < links.first.length && links.first[poly]! >= 0) {
        this.perMetre = perMetre;
        this.fixedCost = fixedCost;
        this.lastBest = lastBest;
        this.lastBestCost = lastBestCost;
        this.expandLinks(best, bestRef, links.first[poly]!, links, parentRef);
        lastBest = this.lastBest;
        lastBestCost = this.lastBestCost;
      }
    }
    this.lastBest = lastBest;
    this.lastBestCost = lastBestCost;
    this.iterations = iter;
    this.expanded += iter;
    if (status !== "inProgress") {
      this.status = status;
    } else if (reachedEnd || capped || queue.empty()) {
      // Finished when the end was expanded or nothing is left to expand (as Detour).
      this.status = this.finalStatus();
    }
    return this.status;
  }

  /** Relaxes the link neighbours of `best` (the LinkPool list starting at `first`). */
  private expandLinks(
    best: number,
    bestRef: PolyRef,
    first: number,
    links: LinkPool,
    parentRef: PolyRef,
  ): void {
    for (let l = first; l >= 0; l = links.next[l]!) {
      this.expandLink(best, bestRef, l, links, parentRef);
    }
  }

  /** Relaxes the neighbour of `best` across link `l` of `links`. */
  private expandLink(
    best: number,
    bestRef: PolyRef,
    l: number,
    links: LinkPool,
    parentRef: PolyRef,
  ): void {
    const nm = this.navMesh;
    const filter = this.filter!;
    const pool = this.pool;
    const nref = links.ref[l]!;
    if (nref === parentRef) return;
    const nf = getPolyFlags(nm, nref);
    if ((nf & filter.includeFlags) === 0 || (nf & filter.excludeFlags) !== 0) return;
    if (filter.passFilter && !callPassFilter(nm, filter.passFilter, nref)) return;
    // Detour's node state: polygons entered across a tile side are separate nodes.
    const side = links.side[l]!;
    const node = this.nodeFor(nref, side < 4 ? CROSS_STATE[side]! : 0);
    if (node === NULL_NODE) return;
    if (pool.flags[node] === 0) {
      const l3 = this.left;
      const r3 = this.right;
      if (!getPortalPoints(nm, bestRef, nref, l3, r3)) return;
      pool.x[node] = (l3[0]! + r3[0]!) * 0.5;
      pool.y[node] = (l3[1]! + r3[1]!) * 0.5;
      pool.z[node] = (l3[2]! + r3[2]!) * 0.5;
    }
    this.relax(best, node, nref, parentRef, bestRef);
  }

  /**
   * Relaxes fast entry k of slot graph g for a filter with callbacks: what the inlined loop
   * of update() does, plus passFilter, with getCost through relax — so a callback filter
   * equal to a table gives the table's corridor.
   */
  private expandFastEntry(
    best: number,
    bestRef: PolyRef,
    g: SlotGraph,
    k: number,
    parentRef: PolyRef,
  ): void {
    const filter = this.filter!;
    const nref = g.ref[k]!;
    if (nref === parentRef) return;
    const nf = g.flags[k]!;
    if ((nf & filter.includeFlags) === 0 || (nf & filter.excludeFlags) !== 0) return;
    const pass = filter.passFilter;
    if (pass && pass(nref, this.navMesh.tileInSlot(g.slot[k]!), g.poly[k]!) !== true) return;
    const node = this.nodeFor(nref, g.state[k]!);
    if (node === NULL_NODE) return;
    const pool = this.pool;
    if (pool.flags[node] === 0) {
      pool.x[node] = g.mid[k * 3]!;
      pool.y[node] = g.mid[k * 3 + 1]!;
      pool.z[node] = g.mid[k * 3 + 2]!;
    }
    this.relax(best, node, nref, parentRef, bestRef);
  }

  /** Node of (ref, state) within the node limit; NULL_NODE (and outOfNodes) when no room. */
  private nodeFor(ref: PolyRef, state: number): number {
    const pool = this.pool;
    const node = pool.count < this.nodeLimit ? pool.getNode(ref, state) : pool.findNode(ref, state);
    if (node === NULL_NODE) this.outOfNodes = true;
    return node;
  }

  /**
   * Tries the step best → node (node already placed on its portal): cost of crossing best's
   * polygon, plus the walk to the end point when node is the end polygon; keeps it when it
   * improves the node's total, (re)queueing it.
   */
  private relax(
    best: number,
    node: number,
    nref: PolyRef,
    prevRef: PolyRef,
    curRef: PolyRef,
  ): void {
    const pool = this.pool;
    const px = pool.x;
    const py = pool.y;
    const pz = pool.z;
    const nx = px[node]!;
    const ny = py[node]!;
    const nz = pz[node]!;
    let dx = nx - px[best]!;
    let dy = ny - py[best]!;
    let dz = nz - pz[best]!;
    const fixed = this.fixedCost;
    const getCost = this.filter!.getCost;
    let cost =
      pool.cost[best]! +
      (getCost
        ? stepCost(getCost, px[best]!, py[best]!, pz[best]!, nx, ny, nz, prevRef, curRef, nref)
        : fixed >= 0
          ? fixed
          : Math.sqrt(dx * dx + dy * dy + dz * dz) * this.perMetre);
    dx = this.ex - nx;
    dy = this.ey - ny;
    dz = this.ez - nz;
    let heuristic: number;
    if (nref === this.endRef) {
      // Reaching the end polygon: add the walk from its portal to the end point.
      cost += getCost
        ? stepCost(getCost, nx, ny, nz, this.ex, this.ey, this.ez, curRef, nref, 0)
        : Math.sqrt(dx * dx + dy * dy + dz * dz) * this.endCost;
      heuristic = 0;
    } else {
      heuristic = Math.sqrt(dx * dx + dy * dy + dz * dz) * H_SCALE;
    }
    const total = cost + heuristic;
    const flags = pool.flags[node]!;
    if ((flags & (NODE_OPEN | NODE_CLOSED)) !== 0 && !(total < pool.total[node]!)) return;
    pool.parent[node] = best;
    pool.cost[node] = cost;
    pool.total[node] = total;
    if ((flags & NODE_OPEN) !== 0) {
      this.queue.modify(node, total);
    } else {
      pool.flags[node] = NODE_OPEN;
      this.queue.push(node, total);
    }
    if (heuristic < this.lastBestCost) {
      this.lastBestCost = heuristic;
      this.lastBest = node;
    }
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
    // A parent chain longer than the nodes in use loops: only costs changed during a sliced
    // search (negative ones) can do that. Then the corridor is just the start polygon.
    const maxCount = pool.count;
    let last = this.lastBest;
    for (let i = last; i !== NULL_NODE && count <= maxCount; i = pool.parent[i]!) count++;
    if (count > maxCount) {
      last = pool.getNode(this.startRef);
      pool.parent[last] = NULL_NODE;
      count = 1;
    }
    let polys = outPolys;
    if (Array.isArray(polys)) {
      polys.length = count;
    } else if (polys.length < count) {
      polys = new Float64Array(Math.max(count, polys.length * 2));
    }
    let w = count;
    for (let i = last; i !== NULL_NODE; i = pool.parent[i]!) polys[--w] = pool.ref[i]!;
    const finalStatus = status === "inProgress" ? this.finalStatus() : status;
    // A partial search's nearest node can be a second node (another entry side) of a polygon
    // already on its own parent chain, so the corridor would walk a loop back into it: cut
    // every loop out (a polygon appears once; neighbours stay neighbours).
    if (finalStatus !== "complete" && count > 2) count = this.removeLoops(polys, count);
    if (Array.isArray(polys)) polys.length = count;
    result.polys = polys;
    result.polyCount = count;
    result.status = finalStatus;
    // The search is over; a later update() does nothing.
    if (status === "inProgress") this.status = result.status;
    return result;
  }

  /** First index of each polygon seen by removeLoops (reused: no allocation once warm). */
  private readonly loopSeen = new Map<PolyRef, number>();

  /** Removes loops from polys[0..count) in place (keeping each polygon's first visit). */
  private removeLoops(polys: Float64Array | number[], count: number): number {
    const seen = this.loopSeen;
    seen.clear();
    let w = 0;
    for (let r = 0; r < count; r++) {
      const ref = polys[r]!;
      const at = seen.get(ref);
      if (at !== undefined) {
        // Back at an earlier polygon: forget what the loop visited.
        for (let k = at + 1; k < w; k++) seen.delete(polys[k]!);
        w = at + 1;
        continue;
      }
      seen.set(ref, w);
      polys[w++] = ref;
    }
    return w;
  }
}
