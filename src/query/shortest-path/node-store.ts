/**
 * Storage of the any-angle search: search nodes as a struct of typed arrays (grown on demand
 * up to the node limit, reused across queries), a binary min-heap of node indices on f (ties:
 * larger g first, so the goal node wins a tie), and the roots (points a path may bend at)
 * with the best g seen for each (root-level pruning).
 */

/** Node kinds. */
export const KIND_INTERVAL = 0;
/** A point the search stands on inside a polygon (the start, an off-mesh landing). */
export const KIND_POINT = 1;
/** The goal reached: f is the exact length of the path it closes. */
export const KIND_GOAL = 2;

/** No node / no root. */
export const NONE = -1;

/**
 * Node fields, interleaved per node (one node's fields share a cache line or two, and a node
 * is read or written through two array objects instead of sixteen): doubles at
 * F[n * NF + F_*], integers at I[n * NI + I_*].
 */
export const NF = 8;
/** Interval end points, in the winding of `poly`'s entry edge (a first). */
export const F_AX = 0;
export const F_AZ = 1;
export const F_BX = 2;
export const F_BZ = 3;
export const F_G = 4;
export const F_F = 5;
/** Polygon the node expands into (interval nodes), stands in (point) or ends in (goal). */
export const F_POLY = 6;
/** Point nodes reached over an off-mesh connection: its index * 2 + the end left from (else unset). */
export const F_CONN = 7;
export const NI = 8;
export const I_KIND = 0;
export const I_PARENT = 1;
export const I_ROOT = 2;
/** Tile slot of `poly` (interval nodes; saves decoding the ref). */
export const I_SLOT = 3;
/** Entry edge of `poly` that holds the interval. */
export const I_EDGE = 4;
/** Tile vertex index of `poly` at a / b when the interval ends on that vertex, else NONE. */
export const I_AVERT = 5;
export const I_BVERT = 6;
/** Point/goal nodes: the root bent at before the last leg (NONE when straight; not set on interval nodes). */
export const I_VIA = 7;

export class SearchNodes {
  capacity: number;
  count = 0;
  F: Float64Array;
  I: Int32Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.F = new Float64Array(capacity * NF);
    this.I = new Int32Array(capacity * NI);
  }

  /** Doubles the capacity (up to `limit`); false when already at the limit. */
  grow(limit: number): boolean {
    if (this.capacity >= limit) return false;
    const n = Math.min(limit, this.capacity * 2);
    const f = new Float64Array(n * NF);
    f.set(this.F);
    this.F = f;
    const i = new Int32Array(n * NI);
    i.set(this.I);
    this.I = i;
    this.capacity = n;
    return true;
  }
}

/**
 * Binary min-heap of node indices keyed by (f, -g). The keys live in the heap beside the
 * indices (K[i * 2] = f, K[i * 2 + 1] = g of the entry at i): sifting compares neighbours in
 * one array instead of reading each node's fields from the node store (a cache miss per
 * comparison on long searches).
 */
export class NodeHeap {
  heap: Int32Array;
  keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.heap = new Int32Array(capacity);
    this.keys = new Float64Array(capacity * 2);
  }

  clear(): void {
    this.size = 0;
  }

  /** Adds node with cost estimate f and cost so far g. */
  push(node: number, f: number, g: number): void {
    if (this.size === this.heap.length) this.grow();
    const heap = this.heap;
    const K = this.keys;
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      const uf = K[up * 2]!;
      if (uf < f || (uf === f && K[up * 2 + 1]! >= g)) break;
      heap[i] = heap[up]!;
      K[i * 2] = uf;
      K[i * 2 + 1] = K[up * 2 + 1]!;
      i = up;
    }
    heap[i] = node;
    K[i * 2] = f;
    K[i * 2 + 1] = g;
  }

  /** Out of line: push stays small enough to be inlined where nodes are made. */
  private grow(): void {
    const h = new Int32Array(this.heap.length * 2);
    h.set(this.heap);
    this.heap = h;
    const k = new Float64Array(this.keys.length * 2);
    k.set(this.keys);
    this.keys = k;
  }

  /** Removes and returns the node of least (f, -g); -1 when empty. */
  pop(): number {
    if (this.size === 0) return -1;
    const heap = this.heap;
    const K = this.keys;
    const top = heap[0]!;
    const size = --this.size;
    if (size > 0) {
      const last = heap[size]!;
      const lf = K[size * 2]!;
      const lg = K[size * 2 + 1]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        let cf = K[c * 2]!;
        let cg = K[c * 2 + 1]!;
        if (c + 1 < size) {
          const df = K[c * 2 + 2]!;
          const dg = K[c * 2 + 3]!;
          if (df < cf || (df === cf && dg > cg)) {
            c++;
            cf = df;
            cg = dg;
          }
        }
        if (lf < cf || (lf === cf && lg >= cg)) break;
        heap[i] = heap[c]!;
        K[i * 2] = cf;
        K[i * 2 + 1] = cg;
        i = c;
      }
      heap[i] = last;
      K[i * 2] = lf;
      K[i * 2 + 1] = lg;
    }
    return top;
  }
}

/**
 * Roots: the start, mesh vertices (per tile slot) and off-mesh connection ends, each with a
 * point (x, y, z) and the best g found for it. Vertex roots are found through a dense table
 * per tile slot; only the entries touched are reset between queries.
 */
export class RootTable {
  count = 0;
  x = new Float64Array(256);
  y = new Float64Array(256);
  z = new Float64Array(256);
  g = new Float64Array(256);
  /** 1 for a mesh-vertex root (its y is the vertex's; the output takes the surface height). */
  vertex = new Uint8Array(256);
  /** Per tile slot: root index per vertex (NONE when not a root yet). */
  private vertexMaps: Int32Array[] = [];
  /** Per off-mesh connection end (index * 2 + end): root index or NONE. */
  private offMeshMap = new Int32Array(0);
  /** Table entries to reset: slot, index pairs (slot -1 = off-mesh map). */
  private touched = new Int32Array(512);
  private touchedCount = 0;

  clear(): void {
    const t = this.touched;
    for (let i = 0; i < this.touchedCount; i++) {
      const slot = t[i * 2]!;
      const k = t[i * 2 + 1]!;
      if (slot < 0) this.offMeshMap[k] = NONE;
      else this.vertexMaps[slot]![k] = NONE;
    }
    this.touchedCount = 0;
    this.count = 0;
  }

  /** A new root at (x, y, z) with best g = Infinity; returns its index. */
  add(x: number, y: number, z: number): number {
    if (this.count === this.x.length) this.growRoots();
    const i = this.count++;
    this.x[i] = x;
    this.y[i] = y;
    this.z[i] = z;
    this.g[i] = Infinity;
    this.vertex[i] = 0;
    return i;
  }

  /** Root of vertex `v` (coordinates at `o` in `verts`) of the tile in `slot`, created on demand. */
  vertexRoot(slot: number, v: number, vertexCount: number, verts: Float32Array): number {
    let map = this.vertexMaps[slot];
    if (map === undefined || map.length < vertexCount) map = this.growMap(slot, vertexCount);
    let r = map[v]!;
    if (r === NONE) {
      r = this.add(verts[v * 3]!, verts[v * 3 + 1]!, verts[v * 3 + 2]!);
      this.vertex[r] = 1;
      map[v] = r;
      this.touch(slot, v);
    }
    return r;
  }

  /** The vertex map of `slot`, made or grown to `vertexCount` entries (out of line). */
  private growMap(slot: number, vertexCount: number): Int32Array {
    const map = this.vertexMaps[slot];
    const m = new Int32Array(Math.max(vertexCount, 16)).fill(NONE);
    if (map !== undefined) m.set(map);
    while (this.vertexMaps.length <= slot) this.vertexMaps.push(new Int32Array(0));
    this.vertexMaps[slot] = m;
    return m;
  }

  /** Root of off-mesh connection end `key` (index * 2 + end) at (x, y, z), created on demand. */
  offMeshRoot(key: number, x: number, y: number, z: number): number {
    if (this.offMeshMap.length <= key) {
      const m = new Int32Array(Math.max(key + 1, this.offMeshMap.length * 2, 16)).fill(NONE);
      m.set(this.offMeshMap);
      this.offMeshMap = m;
    }
    let r = this.offMeshMap[key]!;
    if (r === NONE) {
      r = this.add(x, y, z);
      this.offMeshMap[key] = r;
      this.touch(-1, key);
    }
    return r;
  }

  private touch(slot: number, k: number): void {
    if ((this.touchedCount + 1) * 2 > this.touched.length) {
      const t = new Int32Array(this.touched.length * 2);
      t.set(this.touched);
      this.touched = t;
    }
    this.touched[this.touchedCount * 2] = slot;
    this.touched[this.touchedCount * 2 + 1] = k;
    this.touchedCount++;
  }

  private growRoots(): void {
    const n = this.x.length * 2;
    const g = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.x = g(this.x);
    this.y = g(this.y);
    this.z = g(this.z);
    this.g = g(this.g);
    const v = new Uint8Array(n);
    v.set(this.vertex);
    this.vertex = v;
  }
}

/**
 * Set of (root, polygon) pairs: a node whose root lies on its entry edge sees the whole next
 * polygon, so that expansion is done once per pair (this also stops a fan of such nodes
 * around a vertex from circling forever). Open addressing, cleared by generation stamps.
 */
export class RootPolySet {
  private roots = new Int32Array(1024);
  private polys = new Float64Array(1024);
  private gs = new Float64Array(1024);
  private stamps = new Uint32Array(1024);
  private stamp = 1;
  private size = 0;

  clear(): void {
    this.stamp++;
    this.size = 0;
    if (this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /**
   * Records the pair with cost g; false when it is already there with a cost no higher than
   * g + eps (the expansion it stands for was done as cheaply).
   */
  add(root: number, poly: number, g: number, eps: number): boolean {
    if ((this.size + 1) * 2 > this.roots.length) this.rehash();
    const mask = this.roots.length - 1;
    let h = (Math.imul(root, 0x9e3779b1) ^ Math.imul(poly | 0, 0x85ebca6b)) & mask;
    for (;;) {
      if (this.stamps[h] !== this.stamp) {
        this.stamps[h] = this.stamp;
        this.roots[h] = root;
        this.polys[h] = poly;
        this.gs[h] = g;
        this.size++;
        return true;
      }
      if (this.roots[h] === root && this.polys[h] === poly) {
        if (this.gs[h]! <= g + eps) return false;
        this.gs[h] = g;
        return true;
      }
      h = (h + 1) & mask;
    }
  }

  private rehash(): void {
    const oldRoots = this.roots;
    const oldPolys = this.polys;
    const oldGs = this.gs;
    const oldStamps = this.stamps;
    const stamp = this.stamp;
    const n = oldRoots.length * 2;
    this.roots = new Int32Array(n);
    this.polys = new Float64Array(n);
    this.gs = new Float64Array(n);
    this.stamps = new Uint32Array(n);
    this.stamp = 1;
    this.size = 0;
    for (let i = 0; i < oldRoots.length; i++) {
      if (oldStamps[i] === stamp) this.add(oldRoots[i]!, oldPolys[i]!, oldGs[i]!, 0);
    }
  }
}
