import { type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { checkMaxNodes } from "./args.js";

/** Node flag: the node is in the open list. */
export const NODE_OPEN = 1;
/** Node flag: the node has been expanded. */
export const NODE_CLOSED = 2;
/** Node flag: the parent is not adjacent (any-angle / raycast shortcut); free for queries to use. */
export const NODE_PARENT_DETACHED = 4;

/** Node index meaning "no node" (parent of a start node, or a full pool). */
export const NULL_NODE = -1;

const TWO_POW_32 = 4294967296;

function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

const EMPTY_MAP = new Int32Array(0);

/**
 * Nodes a polygon may have: one per "state". Detour's A* keeps a polygon entered across a
 * tile border apart from the same polygon entered from inside its tile (state = the crossed
 * side, 0..3); every other search uses state 0.
 */
export const MAX_NODE_STATES = 4;

/**
 * Search nodes for graph queries over polygons, one node per (polygon reference, state), as a
 * struct of arrays indexed by node index 0..count-1 (Detour's dtNodePool).
 *
 * Fields per node i: ref[i], parent[i] (node index or NULL_NODE), cost[i] (g: cost from the
 * start), total[i] (f: cost + heuristic), flags[i] (NODE_OPEN / NODE_CLOSED / ...), a
 * position x[i], y[i], z[i] (where the search enters the polygon, e.g. on a portal), state[i],
 * and the decoded ref: slot[i] (tile slot) and poly[i] (polygon in the tile).
 *
 * Lookup: a node is found through a dense per-tile-slot table indexed by
 * poly * MAX_NODE_STATES + state (one array read instead of hashing — the A* inner loop does
 * this for every neighbour); a ref whose table entry is taken by another salt (a stale ref)
 * falls back to a chained hash table on the ref number. clear() resets only what was used,
 * so a short query pays only for the nodes it touched.
 */
export class NodePool {
  readonly maxNodes: number;
  readonly ref: Float64Array;
  readonly parent: Int32Array;
  readonly cost: Float64Array;
  readonly total: Float64Array;
  readonly flags: Uint8Array;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly state: Uint8Array;
  readonly slot: Int32Array;
  readonly poly: Int32Array;
  /** Number of nodes handed out since the last clear(). */
  count = 0;
  /** Per tile slot: node index per (polygon, state), NULL_NODE when none (grown on demand). */
  private readonly maps: Int32Array[] = [];
  /**
   * 1 when node i lives in the hash table instead of its slot's dense table (0 otherwise,
   * reset by clear(), so the common path never writes it).
   */
  private readonly hashed: Uint8Array;
  private hashedCount = 0;
  private readonly bucketHead: Int32Array;
  private readonly nextInBucket: Int32Array;
  private readonly bucketOf: Int32Array;
  private readonly mask: number;

  constructor(maxNodes: number) {
    checkMaxNodes(maxNodes, "NodePool maxNodes");
    this.maxNodes = maxNodes;
    this.ref = new Float64Array(maxNodes);
    this.parent = new Int32Array(maxNodes);
    this.cost = new Float64Array(maxNodes);
    this.total = new Float64Array(maxNodes);
    this.flags = new Uint8Array(maxNodes);
    this.x = new Float64Array(maxNodes);
    this.y = new Float64Array(maxNodes);
    this.z = new Float64Array(maxNodes);
    this.state = new Uint8Array(maxNodes);
    this.slot = new Int32Array(maxNodes);
    this.poly = new Int32Array(maxNodes);
    this.hashed = new Uint8Array(maxNodes);
    const buckets = nextPow2(Math.max(16, maxNodes >> 2));
    this.mask = buckets - 1;
    this.bucketHead = new Int32Array(buckets).fill(NULL_NODE);
    this.nextInBucket = new Int32Array(maxNodes);
    this.bucketOf = new Int32Array(maxNodes);
  }

  /** Index of the node of (`ref`, `state`), or NULL_NODE when it has none. */
  findNode(ref: PolyRef, state = 0): number {
    return this.findNodeAt(tileOfRef(ref), polyOfRef(ref), ref, state);
  }

  /** findNode for a ref already decoded into its tile slot and polygon. */
  findNodeAt(slot: number, poly: number, ref: PolyRef, state = 0): number {
    const map = slot < this.maps.length ? this.maps[slot]! : EMPTY_MAP;
    const k = poly * MAX_NODE_STATES + state;
    if (k < map.length) {
      const i = map[k]!;
      if (i === NULL_NODE || this.ref[i] === ref) return i;
    }
    return this.hashedCount > 0 ? this.findHashed(ref, state) : NULL_NODE;
  }

  /**
   * Index of the node of (`ref`, `state`), creating it (parent NULL_NODE, costs 0, flags 0,
   * position 0) when missing; NULL_NODE when the pool is full.
   */
  getNode(ref: PolyRef, state = 0): number {
    return this.getNodeAt(tileOfRef(ref), polyOfRef(ref), ref, state);
  }

  /** getNode for a ref already decoded into its tile slot and polygon. */
  getNodeAt(slot: number, poly: number, ref: PolyRef, state = 0): number {
    // Fast path (small enough to inline): the slot's table exists and covers the polygon.
    const maps = this.maps;
    if (slot < maps.length) {
      const map = maps[slot]!;
      const k = poly * MAX_NODE_STATES + state;
      if (k < map.length) {
        const i = map[k]!;
        if (i === NULL_NODE) {
          if (this.count >= this.maxNodes) return NULL_NODE;
          const n = this.newNode(slot, poly, ref, state);
          map[k] = n;
          return n;
        }
        if (this.ref[i] === ref) return i;
      }
    }
    return this.getNodeSlow(slot, poly, ref, state);
  }

  /**
   * Creates the node of (slot, poly, ref, state) whose entry in `table` (this slot's
   * denseTable) is NULL_NODE, skipping the lookup getNodeAt would repeat; NULL_NODE when full.
   */
  addToTable(table: Int32Array, slot: number, poly: number, ref: PolyRef, state = 0): number {
    if (this.count >= this.maxNodes) return NULL_NODE;
    const n = this.newNode(slot, poly, ref, state);
    table[poly * MAX_NODE_STATES + state] = n;
    return n;
  }

  /**
   * addToTable for callers that set the node's parent, costs and position themselves before
   * reading them (the A* loop): only the identity and flags (0) are written.
   */
  addToTableBare(table: Int32Array, slot: number, poly: number, ref: PolyRef): number {
    if (this.count >= this.maxNodes) return NULL_NODE;
    const i = this.count++;
    this.ref[i] = ref;
    this.slot[i] = slot;
    this.poly[i] = poly;
    this.state[i] = 0;
    this.flags[i] = 0;
    table[poly * MAX_NODE_STATES] = i;
    return i;
  }

  /** getNodeAt when the table must grow or another salt holds the table entry. */
  private getNodeSlow(slot: number, poly: number, ref: PolyRef, state: number): number {
    const k = poly * MAX_NODE_STATES + state;
    let map = slot < this.maps.length ? this.maps[slot]! : EMPTY_MAP;
    if (k >= map.length) map = this.growMap(slot, poly + 1);
    let i = map[k]!;
    if (i === NULL_NODE) {
      if (this.count >= this.maxNodes) return NULL_NODE;
      i = this.newNode(slot, poly, ref, state);
      map[k] = i;
      return i;
    }
    if (this.ref[i] === ref) return i;
    // Same slot, polygon and state, other salt: keep it in the hash table.
    i = this.findHashed(ref, state);
    if (i !== NULL_NODE || this.count >= this.maxNodes) return i;
    i = this.newNode(slot, poly, ref, state);
    this.hashed[i] = 1;
    this.hashedCount++;
    const b = this.bucket(ref, state);
    this.bucketOf[i] = b;
    this.nextInBucket[i] = this.bucketHead[b]!;
    this.bucketHead[b] = i;
    return i;
  }

  private newNode(slot: number, poly: number, ref: PolyRef, state: number): number {
    const i = this.count++;
    this.ref[i] = ref;
    this.slot[i] = slot;
    this.poly[i] = poly;
    this.state[i] = state;
    this.parent[i] = NULL_NODE;
    this.cost[i] = 0;
    this.total[i] = 0;
    this.flags[i] = 0;
    this.x[i] = 0;
    this.y[i] = 0;
    this.z[i] = 0;
    return i;
  }

  /**
   * The dense node table of tile slot `slot`, sized for at least `polyCount` polygons:
   * table[poly * MAX_NODE_STATES + state] is the node of (slot, poly, state) or NULL_NODE —
   * when the node's ref is the one expected (check pool.ref; another salt lives in the hash
   * table). Hot loops read it directly and call getNodeAt / addToTable for missing nodes.
   * Valid until a getNode* call for a polygon beyond polyCount in this slot.
   */
  denseTable(slot: number, polyCount: number): Int32Array {
    const map = slot < this.maps.length ? this.maps[slot]! : EMPTY_MAP;
    return polyCount * MAX_NODE_STATES <= map.length ? map : this.growMap(slot, polyCount);
  }

  /**
   * Every slot's dense table by slot index (missing or EMPTY for slots without one), for
   * hot loops that look nodes up in many slots; same contract as {@link denseTable}. The
   * array itself is never replaced.
   */
  get tables(): readonly Int32Array[] {
    return this.maps;
  }

  /** Grows slot `slot`'s table to cover at least `polys` polygons. */
  private growMap(slot: number, polys: number): Int32Array {
    const maps = this.maps;
    while (maps.length <= slot) maps.push(EMPTY_MAP);
    const old = maps[slot]!;
    const map = new Int32Array(
      Math.max(polys * MAX_NODE_STATES, old.length * 2, 64 * MAX_NODE_STATES),
    ).fill(NULL_NODE);
    map.set(old);
    maps[slot] = map;
    return map;
  }

  /** Bucket of (ref, state): refs are up to 52-bit integers, so mix both 32-bit halves. */
  private bucket(ref: number, state: number): number {
    const lo = ref >>> 0;
    const hi = (ref / TWO_POW_32) >>> 0;
    let h = Math.imul(lo ^ Math.imul(hi ^ (state << 24), 0x27d4eb2d), 0x9e3779b1);
    h ^= h >>> 15;
    return h & this.mask;
  }

  private findHashed(ref: PolyRef, state: number): number {
    let i = this.bucketHead[this.bucket(ref, state)]!;
    while (i !== NULL_NODE) {
      if (this.ref[i] === ref && this.state[i] === state) return i;
      i = this.nextInBucket[i]!;
    }
    return NULL_NODE;
  }

  /** Forgets every node; O(nodes used). */
  clear(): void {
    const maps = this.maps;
    const slot = this.slot;
    const poly = this.poly;
    const state = this.state;
    if (this.hashedCount === 0) {
      // Nodes come in runs of one tile: reload the table only when the slot changes.
      let last = -1;
      let map: Int32Array = EMPTY_MAP;
      for (let i = 0; i < this.count; i++) {
        const sl = slot[i]!;
        if (sl !== last) {
          map = maps[sl]!;
          last = sl;
        }
        map[poly[i]! * MAX_NODE_STATES + state[i]!] = NULL_NODE;
      }
    } else {
      for (let i = 0; i < this.count; i++) {
        if (this.hashed[i] === 1) {
          this.bucketHead[this.bucketOf[i]!] = NULL_NODE;
          this.hashed[i] = 0;
        } else {
          maps[slot[i]!]![poly[i]! * MAX_NODE_STATES + state[i]!] = NULL_NODE;
        }
      }
      this.hashedCount = 0;
    }
    this.count = 0;
  }
}

/**
 * Open list for best-first searches: a binary min-heap of node indices (0..capacity-1)
 * keyed by a cost the caller passes (normally pool.total[node]). Keys live in the heap
 * next to the indices, so sifting touches one contiguous array pair; a position table makes
 * modify() O(log n) instead of Detour's linear search.
 */
export class NodeQueue {
  readonly capacity: number;
  private readonly heapNode: Int32Array;
  private readonly heapKey: Float64Array;
  /** Heap slot of each node index, -1 when not queued. */
  private readonly slotOf: Int32Array;
  private n = 0;

  constructor(capacity: number) {
    checkMaxNodes(capacity, "NodeQueue capacity");
    this.capacity = capacity;
    this.heapNode = new Int32Array(capacity);
    this.heapKey = new Float64Array(capacity);
    this.slotOf = new Int32Array(capacity).fill(-1);
  }

  get size(): number {
    return this.n;
  }

  empty(): boolean {
    return this.n === 0;
  }

  /** True when `node` is queued. */
  contains(node: number): boolean {
    return this.slotOf[node]! >= 0;
  }

  /** Removes every entry; O(entries). */
  clear(): void {
    for (let i = 0; i < this.n; i++) this.slotOf[this.heapNode[i]!] = -1;
    this.n = 0;
  }

  /** Node with the smallest key, without removing it; -1 when empty. */
  peek(): number {
    return this.n > 0 ? this.heapNode[0]! : -1;
  }

  /** Queues `node` (must not be queued already; node < capacity) with `key`. */
  push(node: number, key: number): void {
    const i = this.n++;
    this.siftUp(i, node, key);
  }

  /** Removes and returns the node with the smallest key; -1 when empty. */
  pop(): number {
    if (this.n === 0) return -1;
    const top = this.heapNode[0]!;
    this.slotOf[top] = -1;
    const last = --this.n;
    if (last > 0) this.siftDown(0, this.heapNode[last]!, this.heapKey[last]!);
    return top;
  }

  /** Changes the key of a queued node (up or down); queues it when absent. */
  modify(node: number, key: number): void {
    const i = this.slotOf[node]!;
    if (i < 0) {
      this.push(node, key);
    } else if (key < this.heapKey[i]!) {
      this.siftUp(i, node, key);
    } else {
      this.siftDown(i, node, key);
    }
  }

  /** Places (node, key) at hole `i` or above. */
  private siftUp(i: number, node: number, key: number): void {
    const nodes = this.heapNode;
    const keys = this.heapKey;
    const slotOf = this.slotOf;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = keys[p]!;
      if (pk <= key) break;
      const pn = nodes[p]!;
      nodes[i] = pn;
      keys[i] = pk;
      slotOf[pn] = i;
      i = p;
    }
    nodes[i] = node;
    keys[i] = key;
    slotOf[node] = i;
  }

  /** Places (node, key) at hole `i` or below. */
  private siftDown(i: number, node: number, key: number): void {
    const nodes = this.heapNode;
    const keys = this.heapKey;
    const slotOf = this.slotOf;
    const n = this.n;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      let ck = keys[c]!;
      const r = c + 1;
      if (r < n) {
        const rk = keys[r]!;
        if (rk < ck) {
          c = r;
          ck = rk;
        }
      }
      if (ck >= key) break;
      const cn = nodes[c]!;
      nodes[i] = cn;
      keys[i] = ck;
      slotOf[cn] = i;
      i = c;
    }
    nodes[i] = node;
    keys[i] = key;
    slotOf[node] = i;
  }
}
