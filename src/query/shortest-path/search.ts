import type { QueryFilter } from "../../navmesh/filter.js";
import type { LinkPool } from "../../navmesh/links.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { getPolyFlags, LINK_EDGE_OFF_MESH, LINK_SIDE_NONE } from "../../navmesh/neighbours.js";
import { offMeshLanding } from "../../navmesh/off-mesh.js";
import {
  encodePolyRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "../../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../navmesh/tile.js";
import { checkMaxNodes, checkPoint, checkRef } from "../args.js";
import { type FindPathResult, PathFinder } from "../find-path.js";
import { NodePool, NodeQueue } from "../node-pool.js";
import { closestPointByRef } from "../ref-geometry.js";
import type { QueryStatus } from "../status.js";
import { distanceThroughInterval, distXZ } from "./interval.js";
import {
  F_AX,
  F_AZ,
  F_BX,
  F_BZ,
  F_CONN,
  F_F,
  F_G,
  F_POLY,
  I_AVERT,
  I_BVERT,
  I_EDGE,
  I_KIND,
  I_PARENT,
  I_ROOT,
  I_SLOT,
  I_VIA,
  KIND_GOAL,
  KIND_INTERVAL,
  KIND_POINT,
  NF,
  NI,
  NONE,
  NodeHeap,
  RootPolySet,
  RootTable,
  SearchNodes,
} from "./node-store.js";
import { componentLabel, componentMembers, componentSize, mayConnect } from "./reachability.js";
import { type ShortestPath, writeChain, writePartialChain } from "./reconstruct.js";
import { isCornerVertex, type TileTopology, tileTopology } from "./topology.js";

/** Components up to this many polygons are searched polygon by polygon for a partial end. */
const SMALL_COMPONENT = 64;

/** Default node limit of one search. */
export const DEFAULT_SHORTEST_MAX_NODES = 1 << 18;
/** Largest maxNodes findShortestPath accepts (its node store grows on demand up to this). */
export const MAX_SHORTEST_NODES = 2 ** 26;

/** Distances below this (world units, XZ) count as zero: side tests, pruning, snapping. */
const EPS = 1e-9;
/** Interval pieces shorter than this fraction of their edge are dropped. */
const T_EPS = 1e-9;
/**
 * Cross-tile interval ends this close to the neighbour's vertex are snapped onto it: 1e-4
 * plus a few float32 ulps of the coordinates, because each tile rounds its own vertices to
 * float32 (from its own origin), so the same border vertex can differ by an ulp between two
 * tiles — 0.5 mm at 5000 m from the origin.
 */
const SNAP = 1e-4;
/** Relative part of the snap tolerance: 8 float32 ulps (2^-23 each, relative). */
const SNAP_REL = 2 ** -20;
const EMPTY_F32 = new Float32Array(0);
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_U16 = new Uint16Array(0);
const EMPTY_U8 = new Uint8Array(0);

/**
 * Exact Euclidean shortest paths on the navmesh's XZ projection, within its polygon
 * connectivity: an any-angle A* in the style of Polyanya (Cui, Harabor & Grastien,
 * "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017). A search node is an
 * interval of a polygon edge seen from a root (the start, a wall corner or an off-mesh
 * landing); its f is g(root) plus the exact plane distance from the root through the interval
 * to the goal. Expanding a node projects the interval through the next polygon: the part of
 * the far boundary seen from the root keeps the root (observable successors); the parts
 * hidden behind an interval end that is a wall corner get that corner as root (non-observable
 * successors). A root reached again with a larger g is pruned (root-level pruning); trees of
 * polygons hanging off the rest by one edge are entered only toward the start or the end.
 *
 * Walls are polygon edges without a neighbour, tile-border edges outside their portals and
 * edges to polygons the filter excludes. Area costs are not used (the metric is length);
 * off-mesh connections cost their `cost` or else their XZ length.
 *
 * Not reentrant; reuse one per thread of work. After warm-up a search allocates nothing.
 */
export class ShortestPathFinder {
  readonly navMesh: NavMesh;
  private nodes = new SearchNodes(1024);
  private readonly heap = new NodeHeap(1024);
  private readonly roots = new RootTable();
  private readonly seen = new RootPolySet();
  private chain = new Int32Array(256);
  /** Corridor-piece nodes waiting to be expanded before the next pop. */
  private stack = new Int32Array(64);
  private stackCount = 0;

  // Per-search state.
  private filter: QueryFilter | null = null;
  private filterOpen = true;
  private nodeLimit = DEFAULT_SHORTEST_MAX_NODES;
  private outOfNodes = false;
  private endRef: PolyRef = 0;
  private tx = 0;
  private ty = 0;
  private tz = 0;
  private hScale = 1;
  private hasOffMesh = false;

  // The tile of the polygon being expanded (reloaded when the slot changes).
  private cSlot = -1;
  private cTile: NavMeshTile | null = null;
  private cTopo: TileTopology | null = null;
  private cLinks: LinkPool | null = null;
  private cBase = 0;
  private cFilterOpen = true;
  private cVerts: Float32Array = EMPTY_F32;
  private cPverts: Uint32Array = EMPTY_U32;
  private cNbs: Uint32Array = EMPTY_U32;
  private cFlags: Uint16Array = EMPTY_U16;
  private cBack: Uint8Array = EMPTY_U8;
  private cDeadEnd: Uint8Array = EMPTY_U8;
  /** chainMarks of the current slot (EMPTY when the slot has none). */
  private cChain: Uint32Array = EMPTY_U32;
  /**
   * Per tile slot: chainStamp at the polygons of a peeled tree (topology deadTree) leading
   * from the start's and the end's polygons to the rest, which the search must enter.
   */
  private chainMarks: (Uint32Array | undefined)[] = [];
  private chainStamp = 0;
  private cNvp = 0;

  private polyFinder: PathFinder | null;
  private readonly corridor: FindPathResult = {
    status: "noStart",
    polyCount: 0,
    polys: new Float64Array(256),
  };

  /** Node expansions of the last search. */
  expansions = 0;
  /** Nodes created by the last search. */
  nodesCreated = 0;

  /**
   * `polyFinder`: the polygon A* used to pick where a path to an unreachable end goes
   * (NavMeshQuery passes its own, so both queries end partial paths at the same point).
   */
  constructor(navMesh: NavMesh, polyFinder: PathFinder | null = null) {
    this.navMesh = navMesh;
    this.polyFinder = polyFinder;
  }

  /**
   * Shortest path from startPos (in ground polygon startRef) to endPos (in endRef), written
   * to `out`. Status "complete"; "partial" when the end is unreachable (the path then ends at
   * the point of the reachable polygons closest to endPos, itself by a shortest path); or
   * "outOfNodes" when maxNodes stopped the search (the path leads to the closest point of the
   * polygons seen so far). Positions should lie on their polygons (as findNearestPoly puts
   * them). A stale startRef or endRef (its tile removed or replaced) gives "invalidRef" and an
   * empty `out` (no points, no polygons, length 0). Throws MeshwayError for malformed refs
   * (never valid, see classifyRef), off-mesh connections' refs and non-finite positions.
   */
  findPath(
    startRef: PolyRef,
    startPos: ArrayLike<number>,
    endRef: PolyRef,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    out: ShortestPath,
    maxNodes = DEFAULT_SHORTEST_MAX_NODES,
  ): QueryStatus {
    const startLive = checkRef(this.navMesh, startRef, "findShortestPath startRef", true);
    const endLive = checkRef(this.navMesh, endRef, "findShortestPath endRef", true);
    checkPoint(startPos, "findShortestPath startPos");
    checkPoint(endPos, "findShortestPath endPos");
    checkMaxNodes(maxNodes, "findShortestPath maxNodes", MAX_SHORTEST_NODES);
    if (!startLive || !endLive) {
      out.reset();
      out.status = "invalidRef";
      return "invalidRef";
    }
    // Ends in different components (for a filter passing everything): no search needed.
    const open = filter.excludeFlags === 0 && (filter.includeFlags & 0xffff) === 0xffff;
    const status =
      open && !mayConnect(this.navMesh, startRef, endRef)
        ? "partial"
        : this.search(startRef, startPos, endRef, endPos, filter, maxNodes);
    if (status === "complete") {
      this.writeResult(out, startRef, "complete");
      return "complete";
    }
    if (status === "partial") {
      const target = out.scratch;
      // Unreachable. In another component: the closest point of the start's component (a
      // spatial search around the end), by a shortest path. Otherwise (or if that point is
      // not reachable after all: one-way connections) where computePath goes — the point
      // closest to the end of the polygon its A* gets nearest to.
      if (open && !mayConnect(this.navMesh, startRef, endRef)) {
        const near = this.closestInComponent(startRef, endPos, target);
        if (near !== 0) {
          const again = this.search(startRef, startPos, near, target, filter, maxNodes);
          if (again === "complete") {
            this.writeResult(out, startRef, "partial");
            return "partial";
          }
        }
      }
      const targetRef = this.partialTarget(startRef, startPos, endRef, endPos, filter, target);
      const again = this.search(startRef, startPos, targetRef, target, filter, maxNodes);
      if (again === "complete") {
        this.writeResult(out, startRef, "partial");
        return "partial";
      }
      this.search(startRef, startPos, endRef, endPos, filter, maxNodes);
    }
    // Cut short: lead to the closest point of what the search reached.
    const best = this.closestReached(startRef, endPos, out.scratch);
    this.ensureChain();
    writePartialChain(
      this.nodes,
      this.roots,
      best.node,
      startRef,
      out.scratch[0]!,
      out.scratch[1]!,
      out.scratch[2]!,
      this.navMesh,
      this.chain,
      out,
    );
    out.status = status === "partial" ? "partial" : "outOfNodes";
    return out.status;
  }

  /**
   * The polygon of startRef's component whose (detail-surface) closest point is nearest to
   * pos in 3D, found by querying boxes around pos that double in size until one holds a point
   * no farther than its half size; that point goes to `out`. 0 when the component is empty.
   */
  private closestInComponent(
    startRef: PolyRef,
    pos: ArrayLike<number>,
    out: Float64Array,
  ): PolyRef {
    const nm = this.navMesh;
    const label = componentLabel(nm, startRef);
    if (label < 0) return 0;
    const px = pos[0]!;
    const py = pos[1]!;
    const pz = pos[2]!;
    const bmin = this.boxMin;
    const bmax = this.boxMax;
    // Beyond the navmesh's extent from pos, a box holds every polygon.
    const reach =
      Math.max(
        Math.abs(px - nm.bmin[0]),
        Math.abs(px - nm.bmax[0]),
        Math.abs(py - nm.bmin[1]),
        Math.abs(py - nm.bmax[1]),
        Math.abs(pz - nm.bmin[2]),
        Math.abs(pz - nm.bmax[2]),
      ) + 1;
    let r = Math.max(nm.cellSize * 8, 1e-3);
    this.nearRef = 0;
    this.nearD2 = Infinity;
    if (componentSize(nm, label) <= SMALL_COMPONENT) {
      // A small component (a rooftop, an island): look at each of its polygons.
      const members = componentMembers(nm, label);
      for (let i = 0; i < members.length; i++) {
        const ref = members[i]!;
        this.considerNearest(ref, pos, out);
      }
      return this.nearRef;
    }
    for (let step = 0; step < 64; step++) {
      bmin[0] = px - r;
      bmin[1] = py - r;
      bmin[2] = pz - r;
      bmax[0] = px + r;
      bmax[1] = py + r;
      bmax[2] = pz + r;
      let count = nm.queryPolygons(bmin, bmax, null, this.boxRefs);
      while (count === this.boxRefs.length) {
        this.boxRefs = new Float64Array(this.boxRefs.length * 2);
        count = nm.queryPolygons(bmin, bmax, null, this.boxRefs);
      }
      for (let i = 0; i < count; i++) {
        const ref = this.boxRefs[i]!;
        if (ref === this.nearRef || componentLabel(nm, ref) !== label) continue;
        this.considerNearest(ref, pos, out);
      }
      // Every polygon with a point closer than r meets the box: the best is final.
      if (this.nearD2 <= r * r || r > reach) break;
      r *= 2;
    }
    return this.nearRef;
  }

  /** Best so far of considerNearest: the polygon and its closest point's squared distance. */
  private nearRef: PolyRef = 0;
  private nearD2 = Infinity;

  /** Takes polygon `ref` as nearRef when its closest point to pos (written to out) is nearer. */
  private considerNearest(ref: PolyRef, pos: ArrayLike<number>, out: Float64Array): boolean {
    const p = this.farScratch;
    closestPointByRef(this.navMesh, ref, pos[0]!, pos[1]!, pos[2]!, p);
    const d = distSq3(p, pos);
    if (!(d < this.nearD2)) return false;
    this.nearD2 = d;
    this.nearRef = ref;
    out[0] = p[0]!;
    out[1] = p[1]!;
    out[2] = p[2]!;
    return true;
  }

  private readonly boxMin = new Float64Array(3);
  private readonly boxMax = new Float64Array(3);
  private boxRefs = new Float64Array(256);

  /**
   * computePath's end for an unreachable end: A* over the polygons (PathFinder) finds the
   * polygon nearest the end; its closest point to endPos goes to `out`. Returns that polygon.
   */
  private partialTarget(
    startRef: PolyRef,
    startPos: ArrayLike<number>,
    endRef: PolyRef,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    out: Float64Array,
  ): PolyRef {
    let f = this.polyFinder;
    if (f === null) {
      f = new PathFinder(this.navMesh, new NodePool(4096), new NodeQueue(4096));
      this.polyFinder = f;
    }
    if (
      f.init(startRef, endRef, startPos, endPos, filter, f.pool.maxNodes, true) === "inProgress"
    ) {
      f.update(Infinity, false);
    }
    const r = f.finalize(this.corridor.polys, this.corridor);
    this.corridor.polys = r.polys;
    const nm = this.navMesh;
    const last = r.polys[r.polyCount - 1]!;
    if (tileOfRef(last) !== OFF_MESH_SLOT || r.polyCount < 2) {
      closestPointByRef(nm, last, endPos[0]!, endPos[1]!, endPos[2]!, out);
      return last;
    }
    // The corridor ends on an off-mesh connection (a point in the air): take the nearer of
    // the polygon it was entered from and the polygon its far end lands on.
    const before = r.polys[r.polyCount - 2]!;
    const c = polyOfRef(last);
    const far =
      offMeshLanding(nm, c, 0) === before ? offMeshLanding(nm, c, 1) : offMeshLanding(nm, c, 0);
    closestPointByRef(nm, before, endPos[0]!, endPos[1]!, endPos[2]!, out);
    if (far === 0) return before;
    const p = this.farScratch;
    closestPointByRef(nm, far, endPos[0]!, endPos[1]!, endPos[2]!, p);
    const d0 = distSq3(out, endPos);
    if (distSq3(p, endPos) >= d0) return before;
    out[0] = p[0]!;
    out[1] = p[1]!;
    out[2] = p[2]!;
    return far;
  }

  private readonly farScratch = new Float64Array(3);

  /** Chains are bounded by the node count: keep the scratch at least that long. */
  private ensureChain(): void {
    if (this.chain.length < this.nodes.count) {
      this.chain = new Int32Array(Math.max(this.nodes.count, this.chain.length * 2));
    }
  }

  private writeResult(out: ShortestPath, startRef: PolyRef, status: QueryStatus): void {
    this.ensureChain();
    writeChain(
      this.nodes,
      this.roots,
      this.goalNode,
      startRef,
      this.tx,
      this.ty,
      this.tz,
      this.navMesh,
      this.chain,
      out,
    );
    out.status = status;
  }

  private goalNode = NONE;

  /**
   * Of the polygons the last search reached, the one whose (detail-surface) closest point is
   * nearest to pos in 3D; that point goes to `outPoint`. Returns its ref and a node in it.
   */
  private closestReached(
    startRef: PolyRef,
    pos: ArrayLike<number>,
    outPoint: Float64Array,
  ): { ref: PolyRef; node: number } {
    const nodes = this.nodes;
    this.nearRef = startRef;
    this.nearD2 = Infinity;
    let bestNode = 0;
    const done = new Set<number>();
    for (let i = 0; i < nodes.count; i++) {
      if (nodes.I[i * NI + I_KIND] === KIND_GOAL) continue;
      const ref = nodes.F[i * NF + F_POLY]!;
      if (done.has(ref)) continue;
      done.add(ref);
      if (this.considerNearest(ref, pos, outPoint)) bestNode = i;
    }
    return { ref: this.nearRef, node: bestNode };
  }

  /** The A* itself; leaves the goal node in this.goalNode when complete. */
  private search(
    startRef: PolyRef,
    startPos: ArrayLike<number>,
    endRef: PolyRef,
    endPos: ArrayLike<number>,
    filter: QueryFilter,
    maxNodes: number,
  ): QueryStatus {
    const nodes = this.nodes;
    const heap = this.heap;
    const roots = this.roots;
    nodes.count = 0;
    heap.clear();
    roots.clear();
    this.seen.clear();
    this.filter = filter;
    this.filterOpen = filter.excludeFlags === 0 && (filter.includeFlags & 0xffff) === 0xffff;
    this.nodeLimit = maxNodes;
    this.outOfNodes = false;
    this.endRef = endRef;
    this.tx = endPos[0]!;
    this.ty = endPos[1]!;
    this.tz = endPos[2]!;
    this.cSlot = -1;
    this.goalNode = NONE;
    this.expansions = 0;
    this.prepareOffMesh(filter);
    if (++this.chainStamp > 0xffffffff) {
      // Stamps are Uint32: start over with cleared marks.
      for (const m of this.chainMarks) m?.fill(0);
      this.chainStamp = 1;
    }
    this.markChain(startRef);
    this.markChain(endRef);
    const sx = startPos[0]!;
    const sz = startPos[2]!;
    const start = roots.add(sx, startPos[1]!, sz);
    roots.g[start] = 0;
    const n = this.newNode();
    nodes.I[n * NI + I_KIND] = KIND_POINT;
    nodes.I[n * NI + I_PARENT] = NONE;
    nodes.I[n * NI + I_ROOT] = start;
    nodes.F[n * NF + F_POLY] = startRef;
    nodes.F[n * NF + F_G] = 0;
    nodes.F[n * NF + F_F] = distXZ(sx, sz, this.tx, this.tz) * this.hScale;
    nodes.I[n * NI + I_VIA] = NONE;
    nodes.F[n * NF + F_CONN] = NONE;
    heap.push(n, nodes.F[n * NF + F_F]!, 0);
    let status: QueryStatus = "partial";
    this.stackCount = 0;
    for (;;) {
      const best = this.stackCount > 0 ? this.stack[--this.stackCount]! : heap.pop();
      if (best === NONE) break;
      const kind = nodes.I[best * NI + I_KIND]!;
      if (kind === KIND_GOAL) {
        this.goalNode = best;
        status = "complete";
        break;
      }
      // Root-level pruning: the root has since been reached more cheaply.
      if (nodes.F[best * NF + F_G]! > roots.g[nodes.I[best * NI + I_ROOT]!]! + EPS) continue;
      this.expansions++;
      if (kind === KIND_POINT) this.expandPoint(best);
      else this.expandInterval(best);
      if (this.outOfNodes) {
        status = "outOfNodes";
        break;
      }
    }
    this.nodesCreated = nodes.count;
    return status;
  }

  /**
   * Off-mesh connections: the heuristic stays a lower bound only when no usable connection
   * costs less than its XZ length; otherwise it is switched off (plain Dijkstra order).
   */
  private prepareOffMesh(filter: QueryFilter): void {
    const nm = this.navMesh;
    this.hScale = 1;
    this.hasOffMesh = false;
    const pts = nm.offMeshEndPoints;
    for (let c = 0; c < nm.offMeshCount; c++) {
      const con = nm.offMeshAt(c);
      if (!con || !filter.passes(con.flags)) continue;
      this.hasOffMesh = true;
      if (con.cost !== undefined) {
        const len = distXZ(pts[c * 6]!, pts[c * 6 + 2]!, pts[c * 6 + 3]!, pts[c * 6 + 5]!);
        if (con.cost < len - EPS) this.hScale = 0;
      }
    }
  }

  /** Marks the way out of a peeled tree from polygon `ref` (its tile's treeExit walk). */
  private markChain(ref: PolyRef): void {
    const nm = this.navMesh;
    const slot = tileOfRef(ref);
    const tile = nm.tileInSlot(slot);
    if (tile === null) return;
    const topo = tileTopology(tile);
    let p = ref - encodePolyRef(nm.slotSalt(slot), slot, 0);
    if (p < 0 || p >= tile.polyCount) return;
    let marks = this.chainMarks[slot];
    if (marks === undefined || marks.length < tile.polyCount) {
      marks = new Uint32Array(Math.max(tile.polyCount, 16));
      while (this.chainMarks.length <= slot) this.chainMarks.push(undefined);
      this.chainMarks[slot] = marks;
    }
    const stamp = this.chainStamp;
    // Exits point to polygons peeled later: the walk ends (at the tree's attachment or root).
    while (p >= 0 && topo.deadTree[p] === 1 && marks[p] !== stamp) {
      marks[p] = stamp;
      p = topo.treeExit[p]!;
    }
  }

  /** True when polygon q of the current tile is on a marked chain (out of line). */
  private onChain(q: number): boolean {
    const chain = this.cChain;
    return q < chain.length && chain[q] === this.chainStamp;
  }

  private newNode(): number {
    const nodes = this.nodes;
    if (nodes.count === nodes.capacity) {
      if (nodes.count >= this.nodeLimit || !nodes.grow(this.nodeLimit)) {
        this.outOfNodes = true;
        return NONE;
      }
    }
    if (nodes.count >= this.nodeLimit) {
      this.outOfNodes = true;
      return NONE;
    }
    return nodes.count++;
  }

  /** Makes the tile of `slot` current. */
  private loadSlot(slot: number): boolean {
    // The common case stays small enough for the expansions to inline.
    if (slot === this.cSlot) return this.cTile !== null;
    return this.switchSlot(slot);
  }

  private switchSlot(slot: number): boolean {
    const nm = this.navMesh;
    const tile = nm.tileInSlot(slot);
    this.cSlot = slot;
    if (tile === null) {
      this.cTile = null;
      return false;
    }
    const topo = tileTopology(tile);
    this.cTile = tile;
    this.cTopo = topo;
    this.cLinks = nm.slotLinks(slot);
    this.cBase = encodePolyRef(nm.slotSalt(slot), slot, 0);
    this.cFilterOpen = this.filterOpen && !topo.hasZeroFlags;
    this.cVerts = tile.vertices;
    this.cPverts = tile.polyVerts;
    this.cNbs = tile.polyNeighbours;
    this.cFlags = tile.polyFlags;
    this.cBack = topo.backEdge;
    // Whole peeled trees only without off-mesh connections (a link could start inside one).
    this.cDeadEnd = nm.offMeshCount === 0 ? topo.deadTree : topo.deadEnd;
    this.cChain = this.chainMarks[slot] ?? EMPTY_U32;
    this.cNvp = tile.maxVertsPerPoly;
    return true;
  }

  /** A point node (start or off-mesh landing) sees its whole polygon. */
  private expandPoint(n: number): void {
    const nodes = this.nodes;
    const ref = nodes.F[n * NF + F_POLY]!;
    if (!this.loadSlot(tileOfRef(ref))) return;
    const pd = ref - this.cBase;
    const tile = this.cTile!;
    if (pd < 0 || pd >= tile.polyCount) return;
    // Refs are doubles: an int32 index keeps every typed-array index derived from it in
    // integer arithmetic (exact after the range check).
    const p = pd | 0;
    this.curRef = ref;
    this.expandWhole(n, ref, p, tile.polyVertCount[p]!, -1);
  }

  /**
   * Node n's root sees the whole of polygon p (ref `ref`, nv vertices): successors on every
   * open edge after edge `skip` (the entry edge; −1 for none) round to it, then the goal and
   * off-mesh start points inside.
   */
  private expandWhole(n: number, ref: PolyRef, p: number, nv: number, skip: number): void {
    const nodes = this.nodes;
    const root = nodes.I[n * NI + I_ROOT]!;
    const g = nodes.F[n * NF + F_G]!;
    const count = skip < 0 ? nv : nv - 1;
    for (let m = 1; m <= count; m++) {
      const i = skip + m;
      this.pushPiece(n, p, i < nv ? i : i - nv, nv, 0, 1, root, g);
      if (this.outOfNodes) return;
    }
    if (ref === this.endRef) {
      const rx = this.roots.x[root]!;
      const rz = this.roots.z[root]!;
      this.pushGoal(n, ref, root, NONE, g + distXZ(rx, rz, this.tx, this.tz));
    }
    if (this.hasOffMesh) this.offMeshFrom(n, ref, p, true);
  }

  /** Projects interval node n through its next polygon (the heart of the search). */
  private expandInterval(n: number): void {
    const nodes = this.nodes;
    const roots = this.roots;
    // Read before any successor is made (a new node may grow the store).
    const F = nodes.F;
    const I = nodes.I;
    const nf = n * NF;
    const ni = n * NI;
    const ref = F[nf + F_POLY]!;
    if (!this.loadSlot(I[ni + I_SLOT]!)) return;
    const pd = ref - this.cBase;
    const tile = this.cTile!;
    if (pd < 0 || pd >= tile.polyCount) return;
    const p = pd | 0;
    this.curRef = ref;
    const root = I[ni + I_ROOT]!;
    const g = F[nf + F_G]!;
    const rx = roots.x[root]!;
    const rz = roots.z[root]!;
    const ax = F[nf + F_AX]!;
    const az = F[nf + F_AZ]!;
    const bx = F[nf + F_BX]!;
    const bz = F[nf + F_BZ]!;
    const k = I[ni + I_EDGE]!;
    const nv = tile.polyVertCount[p]!;
    const ex = bx - ax;
    const ez = bz - az;
    const elen2 = ex * ex + ez * ez;
    // Root side of the interval's line, scaled by its length (positive: the side it looks from).
    const cr = ex * (rz - az) - ez * (rx - ax);
    if (cr <= 0 || cr * cr <= EPS * EPS * elen2) {
      const sr = cr / Math.sqrt(elen2);

      // The root lies on the interval's line. Within the interval it sees the whole polygon
      // (convex, root on its boundary); elsewhere on the line it sees none of its inside.
      if (sr < -EPS) return;
      const t = ((rx - ax) * ex + (rz - az) * ez) / elen2;
      if (t < -T_EPS || t > 1 + T_EPS) return;
      if (!this.seen.add(root, ref, g, EPS)) return;
      this.expandWhole(n, ref, p, nv, k);
      return;
    }
    // Directions of the cone's rays r→a and r→b (not normalised: side tests compare squared
    // cross products with EPS² times the squared ray length).
    const dax = ax - rx;
    const daz = az - rz;
    const dbx = bx - rx;
    const dbz = bz - rz;
    const epsA2 = EPS * EPS * (dax * dax + daz * daz);
    const epsB2 = EPS * EPS * (dbx * dbx + dbz * dbz);
    // Walk the edges after the entry edge (from b's end round to a's end), skipping walls;
    // for each open edge the signed distances of its ends from both rays give its split.
    const verts = this.cVerts;
    const pv = this.cPverts;
    const nbs = this.cNbs;
    const base = p * this.cNvp;
    const aVert = I[ni + I_AVERT]!;
    const bVert = I[ni + I_BVERT]!;
    const filter = this.filter!;
    const flags = this.cFlags;
    const backEdge = this.cBack;
    const deadEnd = this.cDeadEnd;
    const chain = this.cChain;
    const chainStamp = this.chainStamp;
    const cBase = this.cBase;
    const slot = this.cSlot;
    const tx = this.tx;
    const tz = this.tz;
    // Turning roots, resolved when first needed: NONE = not yet, -2 = not allowed.
    let rootA = NONE;
    let rootB = NONE;
    // Costs of bending at a or b, computed when first needed.
    let gA = -1;
    let gB = -1;
    const last = nv - 1;
    for (let m = 0; m < last; m++) {
      const i = k + 1 + m;
      const j = i < nv ? i : i - nv;
      if (nbs[base + j] === EDGE_WALL) continue;
      const va = pv[base + j]!;
      const vb = pv[base + (j + 1 < nv ? j + 1 : 0)]!;
      const x0 = verts[va * 3]!;
      const z0 = verts[va * 3 + 2]!;
      const x1 = verts[vb * 3]!;
      const z1 = verts[vb * 3 + 2]!;
      const q0x = x0 - rx;
      const q0z = z0 - rz;
      const q1x = x1 - rx;
      const q1z = z1 - rz;
      // The part hidden behind b (s > 0 from ray r→b) is a prefix of the walk, the part
      // hidden behind a (s < 0 from ray r→a) a suffix: an edge ending behind b lies wholly
      // there, one starting behind a too. The entry edge's ends lie on the rays exactly when
      // the interval reaches them.
      let s0 = m === 0 && bVert !== NONE ? 0 : dbx * q0z - dbz * q0x;
      let s1 = dbx * q1z - dbz * q1x;
      let a0 = dax * q0z - daz * q0x;
      let a1 = m + 1 === last && aVert !== NONE ? 0 : dax * q1z - daz * q1x;
      if (s0 * s0 <= epsB2) s0 = 0;
      if (s1 * s1 <= epsB2) s1 = 0;
      if (a0 * a0 <= epsA2) a0 = 0;
      if (a1 * a1 <= epsA2) a1 = 0;
      let tB = s1 > 0 ? 1 : s0 > 0 ? s0 / (s0 - s1) : 0;
      let tA = a0 < 0 ? 0 : a1 < 0 ? a0 / (a0 - a1) : 1;
      // An edge lying along a ray of the cone is seen edge-on from the root: nothing beyond
      // it is visible, so it belongs to the hidden side (reached by bending at that end).
      if (s0 === 0 && s1 === 0) tB = 1;
      if (a0 === 0 && a1 === 0) tA = 0;
      if (tB < T_EPS) tB = 0;
      else if (tB > 1 - T_EPS) tB = 1;
      if (tA < T_EPS) tA = 0;
      else if (tA > 1 - T_EPS) tA = 1;
      if (tA < tB) tA = tB;
      // Turning roots first (making a piece touches no root, so roots and their g come out
      // as when each piece was made right after its root).
      if (tB > 0 && rootB === NONE) {
        gB = g + Math.sqrt(dbx * dbx + dbz * dbz);
        rootB = this.turnRoot(bVert, gB);
      }
      if (tA < 1 && rootA === NONE) {
        gA = g + Math.sqrt(dax * dax + daz * daz);
        rootA = this.turnRoot(aVert, gA);
      }
      const nb = nbs[base + j]!;
      if (nb >= EDGE_TILE_BORDER) {
        if (tB > 0 && rootB >= 0) this.pushPiece(n, p, j, nv, 0, tB, rootB, gB);
        if (tA > tB) this.pushPiece(n, p, j, nv, tB, tA, root, g);
        if (tA < 1 && rootA >= 0) this.pushPiece(n, p, j, nv, tA, 1, rootA, gA);
        if (this.outOfNodes) return;
        continue;
      }
      // Same-tile successors, made here rather than by pushPiece (the same steps, without a
      // call and the edge's checks per piece): polygon q, entered by its edge back (m).
      const q = nb - 1;
      if (!passesFlags(filter, flags[q]!)) continue;
      const back = backEdge[base + j]!;
      if (back === 255) continue;
      // Dead ends and corridor pieces: see pushPiece.
      const kind = deadEnd[q]!;
      let now = false;
      const qRef = cBase + q;
      if (kind !== 0 && qRef !== this.endRef) {
        const links = this.cLinks!;
        if (q >= links.first.length || links.first[q]! < 0) {
          if (kind !== 1) now = true;
          else if (!(q < chain.length && chain[q] === chainStamp)) continue;
        }
      }
      for (let piece = 0; piece < 3; piece++) {
        let t0: number;
        let t1: number;
        let pr: number;
        let pg: number;
        if (piece === 0) {
          if (!(tB > 0 && rootB >= 0)) continue;
          t0 = 0;
          t1 = tB;
          pr = rootB;
          pg = gB;
        } else if (piece === 1) {
          if (!(tA > tB)) continue;
          t0 = tB;
          t1 = tA;
          pr = root;
          pg = g;
        } else {
          if (!(tA < 1 && rootA >= 0)) continue;
          t0 = tA;
          t1 = 1;
          pr = rootA;
          pg = gA;
        }
        const c = this.newNode();
        if (c === NONE) return;
        // In q the edge runs vb → va: its a end is at t1, its b end at t0; whole-edge ends
        // stay exact (and remember their vertex).
        const cax = t1 === 1 ? x1 : x0 + (x1 - x0) * t1;
        const caz = t1 === 1 ? z1 : z0 + (z1 - z0) * t1;
        const cbx = t0 === 0 ? x0 : x0 + (x1 - x0) * t0;
        const cbz = t0 === 0 ? z0 : z0 + (z1 - z0) * t0;
        // Re-read: making a node may have grown the store.
        const CF = nodes.F;
        const CI = nodes.I;
        const cf = c * NF;
        const ci = c * NI;
        CI[ci + I_AVERT] = t1 === 1 ? vb : NONE;
        CI[ci + I_BVERT] = t0 === 0 ? va : NONE;
        CI[ci + I_KIND] = KIND_INTERVAL;
        CI[ci + I_PARENT] = n;
        CI[ci + I_ROOT] = pr;
        CF[cf + F_POLY] = qRef;
        CI[ci + I_SLOT] = slot;
        CI[ci + I_EDGE] = back;
        CF[cf + F_AX] = cax;
        CF[cf + F_AZ] = caz;
        CF[cf + F_BX] = cbx;
        CF[cf + F_BZ] = cbz;
        CF[cf + F_G] = pg;
        if (now) {
          // Expanded before the next pop (its f is not needed).
          CF[cf + F_F] = pg;
          this.pushStack(c);
        } else {
          // h = distanceThroughInterval(root, a, b, target) (interval.ts), the same
          // arithmetic step for step, written out: a call V8 does not inline (its inlining
          // budget here is spent) boxes its eight doubles, a heap allocation each.
          const prx = roots.x[pr]!;
          const prz = roots.z[pr]!;
          const ex = cbx - cax;
          const ez = cbz - caz;
          const len2 = ex * ex + ez * ez;
          let h: number;
          if (!(len2 > 0) || ex * (prz - caz) - ez * (prx - cax) <= 0) {
            const dx = tx - prx;
            const dz = tz - prz;
            h = Math.sqrt(dx * dx + dz * dz);
          } else {
            let mx = tx;
            let mz = tz;
            const st = ex * (mz - caz) - ez * (mx - cax);
            if (st > 0) {
              const km = (2 * st) / len2;
              mx += km * ez;
              mz -= km * ex;
            }
            const qx = mx - prx;
            const qz = mz - prz;
            // Bend point (a or b) when the straight line misses the interval.
            let bpx = cax;
            let bpz = caz;
            let bend = (cax - prx) * qz - (caz - prz) * qx < 0;
            if (!bend && (cbx - prx) * qz - (cbz - prz) * qx > 0) {
              bpx = cbx;
              bpz = cbz;
              bend = true;
            }
            if (bend) {
              const d1x = bpx - prx;
              const d1z = bpz - prz;
              const d2x = mx - bpx;
              const d2z = mz - bpz;
              h = Math.sqrt(d1x * d1x + d1z * d1z) + Math.sqrt(d2x * d2x + d2z * d2z);
            } else {
              h = Math.sqrt(qx * qx + qz * qz);
            }
          }
          CF[cf + F_F] = pg + this.hScale * h;
          this.heap.push(c, CF[cf + F_F]!, pg);
        }
      }
    }
    if (ref === this.endRef) this.reachTarget(n, ref, this.tx, this.tz, -1);
    if (this.hasOffMesh) this.offMeshFrom(n, ref, p, false);
  }

  /**
   * Root for bending at vertex v of the current tile with cost g, or -2 when v is not a
   * corner (a shortest path bends only around obstacles) or the vertex was reached more
   * cheaply already (root-level pruning).
   */
  private turnRoot(v: number, g: number): number {
    if (v === NONE) return -2;
    const tile = this.cTile!;
    if (!isCornerVertex(tile, this.cTopo!, v, this.filter!, this.cFilterOpen)) return -2;
    return this.vertexRoot(v, g);
  }

  /** Root of vertex v of the current tile at cost g, or -2 when pruned. */
  private vertexRoot(v: number, g: number): number {
    const roots = this.roots;
    const r = roots.vertexRoot(this.cSlot, v, this.cTile!.vertexCount, this.cVerts);
    const best = roots.g[r]!;
    if (g > best + EPS) return -2;
    if (g < best) roots.g[r] = g;
    return r;
  }

  /**
   * Successor on edge j of polygon p (current tile) covering edge parameters [t0, t1]
   * (0 at the edge's first vertex in p's winding), with the given root and cost, into every
   * polygon the edge's portals lead to.
   */
  private pushPiece(
    parent: number,
    p: number,
    j: number,
    nv: number,
    t0: number,
    t1: number,
    root: number,
    g: number,
  ): void {
    const nvp = this.cNvp;
    const nb = this.cNbs[p * nvp + j]!;
    if (nb === EDGE_WALL) return;
    // The edge's vertices are read only once a successor is certain (most calls into dead
    // ends and excluded polygons end before).
    const verts = this.cVerts;
    const pv = this.cPverts;
    const vo = p * nvp + j;
    const vo1 = p * nvp + (j + 1 === nv ? 0 : j + 1);
    if (nb < EDGE_TILE_BORDER) {
      const q = nb - 1;
      const f = this.cFlags[q]!;
      if (!passesFlags(this.filter!, f)) return;
      const m = this.cBack[p * nvp + j]!;
      if (m === 255) return;
      // A dead end (a polygon of a peeled tree, topology deadTree, not on the start's or the
      // end's way out of it) leads nowhere but back; a corridor piece leads on through one edge only,
      // so its node is expanded right away instead of waiting in the open list (Polyanya's
      // cheap successors: the order of expansions does not affect what is found, only the
      // goal node must come from the open list). Neither applies with the goal or a link inside.
      const kind = this.cDeadEnd[q]!;
      let now = false;
      if (kind !== 0 && this.cBase + q !== this.endRef) {
        const links = this.cLinks!;
        if (q >= links.first.length || links.first[q]! < 0) {
          if (kind !== 1) now = true;
          else if (!this.onChain(q)) return;
        }
      }
      // In q the edge runs vb → va: its a end is at t1, its b end at t0.
      const n = this.newNode();
      if (n === NONE) return;
      const va = pv[vo]!;
      const vb = pv[vo1]!;
      const x0 = verts[va * 3]!;
      const z0 = verts[va * 3 + 2]!;
      const x1 = verts[vb * 3]!;
      const z1 = verts[vb * 3 + 2]!;
      const I = this.nodes.I;
      // Whole-edge ends stay exact (and remember their vertex).
      const ax = t1 === 1 ? x1 : x0 + (x1 - x0) * t1;
      const az = t1 === 1 ? z1 : z0 + (z1 - z0) * t1;
      const bx = t0 === 0 ? x0 : x0 + (x1 - x0) * t0;
      const bz = t0 === 0 ? z0 : z0 + (z1 - z0) * t0;
      I[n * NI + I_AVERT] = t1 === 1 ? vb : NONE;
      I[n * NI + I_BVERT] = t0 === 0 ? va : NONE;
      this.fillInterval(n, parent, root, g, this.cSlot, this.cBase + q, m, ax, az, bx, bz, now);
      return;
    }
    // Tile border: one successor per cross-tile portal overlapping [t0, t1].
    const links = this.cLinks!;
    if (p >= links.first.length) return;
    const va = pv[vo]!;
    const vb = pv[vo1]!;
    const x0 = verts[va * 3]!;
    const z0 = verts[va * 3 + 2]!;
    const x1 = verts[vb * 3]!;
    const z1 = verts[vb * 3 + 2]!;
    for (let l = links.first[p]!; l >= 0; l = links.next[l]!) {
      if (links.edge[l] !== j || links.side[l] === LINK_SIDE_NONE) continue;
      const lo = Math.max(t0, links.bmin[l]! / 255);
      const hi = Math.min(t1, links.bmax[l]! / 255);
      if (hi - lo <= T_EPS) continue;
      this.pushCrossTile(parent, links.ref[l]!, root, g, x0, z0, x1, z1, lo, hi);
      if (this.outOfNodes) return;
    }
  }

  /** Successor into polygon qRef of another tile through the portal piece [lo, hi]. */
  private pushCrossTile(
    parent: number,
    qRef: PolyRef,
    root: number,
    g: number,
    x0: number,
    z0: number,
    x1: number,
    z1: number,
    lo: number,
    hi: number,
  ): void {
    const nm = this.navMesh;
    const qSlot = tileOfRef(qRef);
    const qt = nm.tileInSlot(qSlot);
    if (qt === null) return;
    const qBase = encodePolyRef(nm.slotSalt(qSlot), qSlot, 0);
    const q = qRef - qBase;
    if (q < 0 || q >= qt.polyCount) return;
    const f = qt.polyFlags[q]!;
    if (!passesFlags(this.filter!, f)) return;
    // The entry edge of q: its link back to the polygon being expanded.
    const pRef = this.curRef;
    const ql = nm.slotLinks(qSlot);
    let m = -1;
    if (q < ql.first.length) {
      for (let l = ql.first[q]!; l >= 0; l = ql.next[l]!) {
        if (ql.ref[l] === pRef && ql.side[l] !== LINK_SIDE_NONE) {
          m = ql.edge[l]!;
          break;
        }
      }
    }
    if (m < 0) return;
    const nvp = qt.maxVertsPerPoly;
    const qn = qt.polyVertCount[q]!;
    const qa = qt.polyVerts[q * nvp + m]!;
    const qb = qt.polyVerts[q * nvp + (m + 1 === qn ? 0 : m + 1)]!;
    const qv = qt.vertices;
    const n = this.newNode();
    if (n === NONE) return;
    const nodes = this.nodes;
    let ax = x0 + (x1 - x0) * hi;
    let az = z0 + (z1 - z0) * hi;
    let bx = x0 + (x1 - x0) * lo;
    let bz = z0 + (z1 - z0) * lo;
    if (hi === 1) {
      ax = x1;
      az = z1;
    }
    if (lo === 0) {
      bx = x0;
      bz = z0;
    }
    nodes.I[n * NI + I_AVERT] = NONE;
    nodes.I[n * NI + I_BVERT] = NONE;
    const snap = SNAP + SNAP_REL * Math.max(Math.abs(x0), Math.abs(z0), Math.abs(x1), Math.abs(z1));
    if (distXZ(ax, az, qv[qa * 3]!, qv[qa * 3 + 2]!) < snap) {
      ax = qv[qa * 3]!;
      az = qv[qa * 3 + 2]!;
      nodes.I[n * NI + I_AVERT] = qa;
    }
    if (distXZ(bx, bz, qv[qb * 3]!, qv[qb * 3 + 2]!) < snap) {
      bx = qv[qb * 3]!;
      bz = qv[qb * 3 + 2]!;
      nodes.I[n * NI + I_BVERT] = qb;
    }
    this.fillInterval(n, parent, root, g, qSlot, qRef, m, ax, az, bx, bz, false);
  }

  /** Ref of the polygon whose expansion is running (for cross-tile back links). */
  private curRef: PolyRef = 0;

  private fillInterval(
    n: number,
    parent: number,
    root: number,
    g: number,
    slot: number,
    polyRef: PolyRef,
    edge: number,
    ax: number,
    az: number,
    bx: number,
    bz: number,
    now: boolean,
  ): void {
    const F = this.nodes.F;
    const I = this.nodes.I;
    const nf = n * NF;
    const ni = n * NI;
    I[ni + I_KIND] = KIND_INTERVAL;
    I[ni + I_PARENT] = parent;
    I[ni + I_ROOT] = root;
    F[nf + F_POLY] = polyRef;
    I[ni + I_SLOT] = slot;
    I[ni + I_EDGE] = edge;
    F[nf + F_AX] = ax;
    F[nf + F_AZ] = az;
    F[nf + F_BX] = bx;
    F[nf + F_BZ] = bz;
    F[nf + F_G] = g;
    if (now) {
      // Expanded before the next pop (its f is not needed).
      F[nf + F_F] = g;
      this.pushStack(n);
      return;
    }
    const roots = this.roots;
    F[nf + F_F] =
      g +
      this.hScale *
        distanceThroughInterval(roots.x[root]!, roots.z[root]!, ax, az, bx, bz, this.tx, this.tz);
    this.heap.push(n, F[nf + F_F]!, g);
  }

  /** Puts node n on the stack of nodes expanded before the next pop. */
  private pushStack(n: number): void {
    if (this.stackCount === this.stack.length) {
      const grown = new Int32Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.stackCount++] = n;
  }

  private pushGoal(parent: number, ref: PolyRef, root: number, via: number, cost: number): void {
    const n = this.newNode();
    if (n === NONE) return;
    const nodes = this.nodes;
    nodes.I[n * NI + I_KIND] = KIND_GOAL;
    nodes.I[n * NI + I_PARENT] = parent;
    nodes.I[n * NI + I_ROOT] = root;
    nodes.F[n * NF + F_POLY] = ref;
    nodes.F[n * NF + F_G] = cost;
    nodes.F[n * NF + F_F] = cost;
    nodes.I[n * NI + I_VIA] = via;
    nodes.F[n * NF + F_CONN] = NONE;
    this.heap.push(n, cost, cost);
  }

  /**
   * Reaches the point (qx, qz) of the current polygon from interval node n: straight when it
   * is inside the node's cone, else bending at the interval end on its side when that end is
   * a vertex. Pushes the goal (conn < 0) or crosses off-mesh connection conn (index * 2 +
   * end left from) to its other end.
   */
  private reachTarget(n: number, ref: PolyRef, qx: number, qz: number, conn: number): void {
    const nodes = this.nodes;
    const root = nodes.I[n * NI + I_ROOT]!;
    const g = nodes.F[n * NF + F_G]!;
    const rx = this.roots.x[root]!;
    const rz = this.roots.z[root]!;
    const ax = nodes.F[n * NF + F_AX]!;
    const az = nodes.F[n * NF + F_AZ]!;
    const bx = nodes.F[n * NF + F_BX]!;
    const bz = nodes.F[n * NF + F_BZ]!;
    const dax = ax - rx;
    const daz = az - rz;
    const dbx = bx - rx;
    const dbz = bz - rz;
    const vx = qx - rx;
    const vz = qz - rz;
    let via = NONE;
    let cost: number;
    // Signed distances of q from the rays (directions need not be unit vectors).
    const la = Math.sqrt(dax * dax + daz * daz);
    const lb = Math.sqrt(dbx * dbx + dbz * dbz);
    if (dax * vz - daz * vx < -EPS * la) {
      const aVert = nodes.I[n * NI + I_AVERT]!;
      if (aVert === NONE) return;
      via = this.vertexRoot(aVert, g + la);
      if (via < 0) return;
      cost = g + la + distXZ(ax, az, qx, qz);
    } else if (dbx * vz - dbz * vx > EPS * lb) {
      const bVert = nodes.I[n * NI + I_BVERT]!;
      if (bVert === NONE) return;
      via = this.vertexRoot(bVert, g + lb);
      if (via < 0) return;
      cost = g + lb + distXZ(bx, bz, qx, qz);
    } else {
      cost = g + Math.sqrt(vx * vx + vz * vz);
    }
    if (conn < 0) this.pushGoal(n, ref, root, via, cost);
    else this.crossOffMesh(n, root, via, cost, conn);
  }

  /**
   * Off-mesh connections leaving polygon `ref` (index p in the current tile): their start
   * point is reached from node n (straight when `whole`, the node seeing all of the
   * polygon), then the connection is crossed.
   */
  private offMeshFrom(n: number, ref: PolyRef, p: number, whole: boolean): void {
    const links = this.cLinks!;
    if (p >= links.first.length) return;
    const nm = this.navMesh;
    const pts = nm.offMeshEndPoints;
    const filter = this.filter!;
    const nodes = this.nodes;
    const roots = this.roots;
    for (let l = links.first[p]!; l >= 0; l = links.next[l]!) {
      if (links.edge[l] !== LINK_EDGE_OFF_MESH) continue;
      const c = polyOfRef(links.ref[l]!);
      const con = nm.offMeshAt(c);
      if (!con || !filter.passes(con.flags)) continue;
      for (let end = 0; end < 2; end++) {
        if (end === 1 && !con.bidirectional) break;
        if (offMeshLanding(nm, c, end) !== ref) continue;
        // The far end must land on a polygon the filter lets in (regression: a connection
        // into a closed door's polygon was taken).
        const far = offMeshLanding(nm, c, 1 - end);
        if (far === 0 || !passesFlags(filter, getPolyFlags(nm, far))) continue;
        const qx = pts[c * 6 + end * 3]!;
        const qz = pts[c * 6 + end * 3 + 2]!;
        if (whole) {
          const root = nodes.I[n * NI + I_ROOT]!;
          const d = distXZ(roots.x[root]!, roots.z[root]!, qx, qz);
          this.crossOffMesh(n, root, NONE, nodes.F[n * NF + F_G]! + d, c * 2 + end);
        } else {
          this.reachTarget(n, ref, qx, qz, c * 2 + end);
        }
        if (this.outOfNodes) return;
      }
    }
  }

  /** Crosses off-mesh connection `conn` (index * 2 + end left from), reached at cost g. */
  private crossOffMesh(parent: number, _root: number, via: number, g: number, conn: number): void {
    const nm = this.navMesh;
    const c = conn >> 1;
    const from = conn & 1;
    const to = 1 - from;
    const con = nm.offMeshAt(c)!;
    const pts = nm.offMeshEndPoints;
    const o = c * 6 + to * 3;
    const ex = pts[o]!;
    const ey = pts[o + 1]!;
    const ez = pts[o + 2]!;
    const cost = con.cost ?? distXZ(pts[c * 6 + from * 3]!, pts[c * 6 + from * 3 + 2]!, ex, ez);
    const g2 = g + cost;
    const roots = this.roots;
    const r = roots.offMeshRoot(c * 2 + to, ex, ey, ez);
    if (g2 > roots.g[r]! + EPS) return;
    if (g2 < roots.g[r]!) roots.g[r] = g2;
    const n = this.newNode();
    if (n === NONE) return;
    const nodes = this.nodes;
    nodes.I[n * NI + I_KIND] = KIND_POINT;
    nodes.I[n * NI + I_PARENT] = parent;
    nodes.I[n * NI + I_ROOT] = r;
    nodes.F[n * NF + F_POLY] = offMeshLanding(nm, c, to);
    nodes.F[n * NF + F_G] = g2;
    nodes.F[n * NF + F_F] = g2 + this.hScale * distXZ(ex, ez, this.tx, this.tz);
    nodes.I[n * NI + I_VIA] = via;
    nodes.F[n * NF + F_CONN] = conn;
    this.heap.push(n, nodes.F[n * NF + F_F]!, g2);
  }
}

/** The filter's flag test alone (polygon flags f), as QueryFilter.passes. */
function passesFlags(filter: QueryFilter, f: number): boolean {
  return (f & filter.includeFlags) !== 0 && (f & filter.excludeFlags) === 0;
}

/** Squared 3D distance. */
function distSq3(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const dx = a[0]! - b[0]!;
  const dy = a[1]! - b[1]!;
  const dz = a[2]! - b[2]!;
  return dx * dx + dy * dy + dz * dz;
}
