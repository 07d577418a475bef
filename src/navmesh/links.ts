// Zero-length, never written: grow() replaces them before the first entry is stored.
const NO_I32 = new Int32Array(0);
const NO_F64 = new Float64Array(0);
const NO_U8 = new Uint8Array(0);

/**
 * Links that polyNeighbours cannot express: portals to polygons of other tiles and the two
 * ends of off-mesh connections. Per tile slot, a singly linked list per polygon in a pool of
 * struct-of-arrays entries; removed entries go to a free list.
 */
export class LinkPool {
  /** Head link of each polygon, -1 when none. Grows with the polygon count. */
  first: Int32Array;
  next: Int32Array;
  /** Target polygon reference. */
  ref: Float64Array;
  /** Edge of the source polygon the link leaves through (0xff for off-mesh ends). */
  edge: Uint8Array;
  /** Tile side (0..3) for portals across tiles, 0xff otherwise. */
  side: Uint8Array;
  /** Sub-range of the edge the portal covers, 0..255 along the edge (0, 255 = whole edge). */
  bmin: Uint8Array;
  bmax: Uint8Array;
  /**
   * Bumped by every add and removal, so per-query caches derived from the links (the A*
   * portal table, src/query/slot-links.ts) can tell when to rebuild.
   */
  version = 0;
  private used = 0;
  private freeHead = -1;

  /**
   * Entry arrays start as shared zero-length ones and are allocated on the first add, so a
   * tile without links (every empty tile of a 2^20-tile file) costs no arrays of its own.
   */
  constructor(polyCount: number) {
    this.first = polyCount > 0 ? new Int32Array(polyCount).fill(-1) : NO_I32;
    this.next = NO_I32;
    this.ref = NO_F64;
    this.edge = NO_U8;
    this.side = NO_U8;
    this.bmin = NO_U8;
    this.bmax = NO_U8;
  }

  /** Makes room for polygons [0, polyCount). */
  ensurePolys(polyCount: number): void {
    if (polyCount <= this.first.length) return;
    const first = new Int32Array(Math.max(polyCount, this.first.length * 2)).fill(-1);
    first.set(this.first);
    this.first = first;
  }

  /** Prepends a link from `poly` and returns its index. */
  add(poly: number, ref: number, edge: number, side: number, bmin = 0, bmax = 255): number {
    this.version++;
    let i = this.freeHead;
    if (i >= 0) {
      this.freeHead = this.next[i]!;
    } else {
      if (this.used === this.next.length) this.grow();
      i = this.used++;
    }
    this.ref[i] = ref;
    this.edge[i] = edge;
    this.side[i] = side;
    this.bmin[i] = bmin;
    this.bmax[i] = bmax;
    this.next[i] = this.first[poly]!;
    this.first[poly] = i;
    return i;
  }

  /** Removes every link of `poly` for which `drop(ref)` is true. */
  removeWhere(poly: number, drop: (ref: number) => boolean): void {
    this.version++;
    let prev = -1;
    let i = this.first[poly]!;
    while (i >= 0) {
      const nxt = this.next[i]!;
      if (drop(this.ref[i]!)) {
        if (prev < 0) this.first[poly] = nxt;
        else this.next[prev] = nxt;
        this.next[i] = this.freeHead;
        this.freeHead = i;
      } else {
        prev = i;
      }
      i = nxt;
    }
  }

  private grow(): void {
    const n = Math.max(16, this.next.length * 2);
    const g = <T extends Int32Array | Float64Array | Uint8Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.next = g(this.next, (k) => new Int32Array(k));
    this.ref = g(this.ref, (k) => new Float64Array(k));
    this.edge = g(this.edge, (k) => new Uint8Array(k));
    this.side = g(this.side, (k) => new Uint8Array(k));
    this.bmin = g(this.bmin, (k) => new Uint8Array(k));
    this.bmax = g(this.bmax, (k) => new Uint8Array(k));
  }
}
