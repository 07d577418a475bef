/**
 * The crowd's "who is near me" structure, rebuilt every update: agents bucketed by the XZ
 * cell of their position (a spatial hash, Teschner et al.'s primes as Detour's
 * dtProximityGrid), stored cell-sorted by a counting sort so a bucket is one contiguous run
 * of typed-array reads — no chains, no per-query dedup stamps (each agent sits in one cell).
 *
 * nearest() answers Detour's getNeighbours question — the k nearest agents within a range,
 * vertically within the mean of the two heights — exactly: cells are visited in rings of
 * growing Chebyshev distance from the agent's cell, and the walk stops as soon as no unvisited
 * cell can hold anything nearer than the k-th found (Detour instead reads the first 32 agents
 * the grid returns over the whole range, which in a dense crowd are not the nearest). In a
 * crowd that makes the cost a few cells per agent instead of the whole range's.
 *
 * When the agents' cells span a box of at most DENSE_CELLS cells (every crowd on one level),
 * buckets are the box's cells themselves, row by row, instead of hash buckets: no collisions,
 * so a bucket is exactly one cell and a ring's rows are consecutive buckets. The cells walked,
 * their order and the agents in each are the same either way, so are the answers.
 *
 * Deterministic: buckets keep the order agents were added; rings and cells are walked in a
 * fixed order; ties in distance keep the earlier candidate first. Allocation-free once built
 * for the crowd's capacity.
 */

/** Most cells of the dense layout: the agents' box on a 560 m square level at 1.6 m cells. */
const DENSE_CELLS = 1 << 17;

/** Spatial hash of a cell (int32 arithmetic). */
function hashCell(x: number, z: number): number {
  return Math.imul(x, 73856093) ^ Math.imul(z, 19349663);
}

export class NeighbourGrid {
  /** Side of a cell. [Units: wu] */
  readonly cellSize: number;
  private readonly inv: number;
  private readonly mask: number;
  /** Bucket b's items are sorted[start[b] .. start[b + 1]). */
  private readonly start: Int32Array;
  private readonly fill: Int32Array;
  /** Per sorted item: agent id, cell x / z, position and height (copied for locality). */
  private readonly id: Int32Array;
  private readonly cx: Int32Array;
  private readonly cz: Int32Array;
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly z: Float64Array;
  private readonly h: Float64Array;
  /** Per input item (scratch of build). */
  private readonly bucketOf: Int32Array;
  private count = 0;
  /** Buckets the hash layout uses (a power of two). */
  private readonly hashBuckets: number;
  /** Dense layout: bucket = (cz - z0) * w + (cx - x0); w = 0 in the hash layout. */
  private x0 = 0;
  private z0 = 0;
  private w = 0;
  private hgt = 0;
  /** Cell x / z per input item (scratch of build). */
  private readonly inCx: Int32Array;
  private readonly inCz: Int32Array;
  // The current nearest() query, as fields for scanCell (a call not inlined would box each
  // double argument).
  private qSelf = 0;
  private qx = 0;
  private qy = 0;
  private qz = 0;
  private qh = 0;
  private qRange = 0;
  private qRangeSqr = 0;
  private qk = 0;
  private qOffset = 0;
  private qIds: Int32Array = new Int32Array(0);
  private qDist: Float64Array = new Float64Array(0);

  constructor(maxItems: number, cellSize: number) {
    this.cellSize = cellSize;
    this.inv = 1 / cellSize;
    // About four buckets per agent: few hold another cell's agents, so the many empty cells a
    // sparse crowd's queries visit cost a hash and two reads each.
    let buckets = 16;
    while (buckets < maxItems * 4) buckets <<= 1;
    this.mask = buckets - 1;
    this.hashBuckets = buckets;
    const size = Math.max(buckets, Math.min(DENSE_CELLS, maxItems * 64));
    this.start = new Int32Array(size + 1);
    this.fill = new Int32Array(size);
    this.id = new Int32Array(maxItems);
    this.cx = new Int32Array(maxItems);
    this.cz = new Int32Array(maxItems);
    this.x = new Float64Array(maxItems);
    this.y = new Float64Array(maxItems);
    this.z = new Float64Array(maxItems);
    this.h = new Float64Array(maxItems);
    this.bucketOf = new Int32Array(maxItems);
    this.inCx = new Int32Array(maxItems);
    this.inCz = new Int32Array(maxItems);
  }

  private cell(v: number): number {
    const c = Math.floor(v * this.inv);
    // Clamped to int32 range (far-out positions stay finite cells).
    return Math.max(-0x40000000, Math.min(c, 0x3fffffff));
  }

  /** Buckets ids[0..n) by position (xyz per agent id in pos) with heights per id. */
  build(ids: Int32Array, n: number, pos: Float64Array, height: Float64Array): void {
    const start = this.start;
    const fill = this.fill;
    const bucketOf = this.bucketOf;
    // The agents' cell box picks the layout.
    let minX = 0x3fffffff;
    let minZ = 0x3fffffff;
    let maxX = -0x40000000;
    let maxZ = -0x40000000;
    let finite = true;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const cx = this.cell(pos[i * 3]!);
      const cz = this.cell(pos[i * 3 + 2]!);
      this.inCx[k] = cx;
      this.inCz[k] = cz;
      if (Number.isNaN(cx + cz)) finite = false; // NaN: hash layout (as before)
      if (cx < minX) minX = cx;
      if (cx > maxX) maxX = cx;
      if (cz < minZ) minZ = cz;
      if (cz > maxZ) maxZ = cz;
    }
    const w = maxX - minX + 1;
    const hgt = maxZ - minZ + 1;
    const dense = finite && n > 0 && w * hgt <= start.length - 1;
    this.w = dense ? w : 0;
    this.hgt = dense ? hgt : 0;
    this.x0 = minX;
    this.z0 = minZ;
    const buckets = dense ? w * hgt : this.hashBuckets;
    start.fill(0, 0, buckets + 1);
    const mask = this.mask;
    for (let k = 0; k < n; k++) {
      const b = dense
        ? (this.inCz[k]! - minZ) * w + (this.inCx[k]! - minX)
        : hashCell(this.inCx[k]!, this.inCz[k]!) & mask;
      bucketOf[k] = b;
      start[b + 1]!++;
    }
    for (let b = 0; b < buckets; b++) {
      start[b + 1] = start[b + 1]! + start[b]!;
      fill[b] = start[b]!;
    }
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const s = fill[bucketOf[k]!]!++;
      const px = pos[i * 3]!;
      const pz = pos[i * 3 + 2]!;
      this.id[s] = i;
      this.x[s] = px;
      this.y[s] = pos[i * 3 + 1]!;
      this.z[s] = pz;
      this.h[s] = height[i]!;
      this.cx[s] = this.inCx[k]!;
      this.cz[s] = this.inCz[k]!;
    }
    this.count = n;
  }

  /** Agents in the grid. */
  get size(): number {
    return this.count;
  }

  /**
   * The up-to-`k` nearest agents to agent `self` at (px, py, pz) of height `h`, within
   * `range` (XZ), vertically closer than the mean height; written sorted by squared XZ
   * distance to outIds / outDist from `offset`. Returns the count.
   */
  nearest(
    self: number,
    px: number,
    py: number,
    pz: number,
    h: number,
    range: number,
    k: number,
    outIds: Int32Array,
    outDist: Float64Array,
    offset: number,
  ): number {
    // Small, so it inlines into the caller; search() reads the query from fields (passed as
    // arguments to a call not inlined, the doubles would be boxed).
    this.qSelf = self;
    this.qx = px;
    this.qy = py;
    this.qz = pz;
    this.qh = h;
    this.qRange = range;
    this.qRangeSqr = range * range;
    this.qk = k;
    this.qOffset = offset;
    this.qIds = outIds;
    this.qDist = outDist;
    return this.search();
  }

  /** nearest() for the query in the q* fields. */
  private search(): number {
    if (!(this.qk >= 1)) return 0;
    const px = this.qx;
    const pz = this.qz;
    const rangeSqr = this.qRangeSqr;
    const k = this.qk;
    const offset = this.qOffset;
    const outDist = this.qDist;
    const cs = this.cellSize;
    const c0x = this.cell(px);
    const c0z = this.cell(pz);
    const range = this.qRange;
    // Distances from the point to the four sides of its cell: after rings 0..r-1, every
    // unvisited cell lies beyond the square they cover, at least `reach` away.
    const fx = px - c0x * cs;
    const fz = pz - c0z * cs;
    const side = Math.min(fx, cs - fx, fz, cs - fz);
    const maxRing = Math.ceil(range * this.inv) + 1;
    // Rows of the query's square known to hold agents within it, bit |dz| of `up` (dz >= 0)
    // or `down` (dz < 0): in the dense layout a row's run of cells is one prefix-sum
    // difference, so an empty row is skipped whole (a sparse crowd's range is mostly empty).
    // Filled as rings reach the rows; all set when rows cannot be tested.
    const rowTest = this.w > 0 && maxRing <= 30;
    const xa = c0x - maxRing;
    const xb = c0x + maxRing;
    let up = rowTest ? this.rowBit(xa, xb, c0z, 0) : -1;
    let down = 0;
    let n = 0;
    for (let r = 0; r <= maxRing; r++) {
      if (r > 0) {
        const reach = Math.max(0, (r - 1) * cs + side);
        if (reach * reach > rangeSqr) break;
        if (n === k && outDist[offset + n - 1]! <= reach * reach) break;
      }
      if (r === 0) {
        if (up !== 0) n = this.scanCell(this.bucketOfCell(c0x, c0z), c0x, c0z, n);
        continue;
      }
      if (rowTest) {
        down |= this.rowBit(xa, xb, c0z - r, r);
        up |= this.rowBit(xa, xb, c0z + r, r);
      } else {
        down = -1;
        up = -1;
      }
      // The ring's top and bottom rows, then its left and right columns; empty buckets are
      // skipped here (most cells of a sparse crowd's range), without the call.
      const start = this.start;
      if (((down >> r) & 1) !== 0) {
        for (let x = c0x - r; x <= c0x + r; x++) {
          const b = this.bucketOfCell(x, c0z - r);
          if (b >= 0 && start[b] !== start[b + 1]) n = this.scanCell(b, x, c0z - r, n);
        }
      }
      if (((up >> r) & 1) !== 0) {
        for (let x = c0x - r; x <= c0x + r; x++) {
          const b = this.bucketOfCell(x, c0z + r);
          if (b >= 0 && start[b] !== start[b + 1]) n = this.scanCell(b, x, c0z + r, n);
        }
      }
      for (let dz = -r + 1; dz <= r - 1; dz++) {
        if ((((dz < 0 ? down : up) >> (dz < 0 ? -dz : dz)) & 1) === 0) continue;
        const z = c0z + dz;
        let b = this.bucketOfCell(c0x - r, z);
        if (b >= 0 && start[b] !== start[b + 1]) n = this.scanCell(b, c0x - r, z, n);
        b = this.bucketOfCell(c0x + r, z);
        if (b >= 0 && start[b] !== start[b + 1]) n = this.scanCell(b, c0x + r, z, n);
      }
    }
    return n;
  }

  /**
   * Dense layout: 1 << bit when row z holds an agent in cells xa..xb, else 0 (rows outside the
   * box hold none).
   */
  private rowBit(xa: number, xb: number, z: number, bit: number): number {
    const dz = z - this.z0;
    if (dz < 0 || dz >= this.hgt) return 0;
    const a = Math.max(xa - this.x0, 0);
    const b = Math.min(xb - this.x0, this.w - 1);
    if (a > b) return 0;
    const row = dz * this.w;
    return this.start[row + b + 1]! !== this.start[row + a]! ? 1 << bit : 0;
  }

  /** Bucket of cell (x, z); -1 outside the dense layout's box (no agent there). */
  private bucketOfCell(x: number, z: number): number {
    const w = this.w;
    if (w === 0) return hashCell(x, z) & this.mask;
    const dx = x - this.x0;
    const dz = z - this.z0;
    return dx >= 0 && dx < w && dz >= 0 && dz < this.hgt ? dz * w + dx : -1;
  }

  /**
   * Candidates of cell (x, z), in bucket b, into the sorted list of length n; returns the new
   * length.
   */
  private scanCell(b: number, x: number, z: number, n: number): number {
    if (b < 0) return n;
    const hashed = this.w === 0;
    const end = this.start[b + 1]!;
    let s = this.start[b]!;
    if (s === end) return n;
    const self = this.qSelf;
    const px = this.qx;
    const py = this.qy;
    const pz = this.qz;
    const h = this.qh;
    const rangeSqr = this.qRangeSqr;
    const k = this.qk;
    const offset = this.qOffset;
    const outIds = this.qIds;
    const outDist = this.qDist;
    const xs = this.x;
    const zs = this.z;
    // Full: a candidate must beat the k-th found (which is within range); else be in range.
    let full = n >= k;
    let worst = full ? outDist[offset + n - 1]! : rangeSqr;
    for (; s < end; s++) {
      // The distance tests first: in a crowd most candidates are farther than the k found so
      // far. The tests are a conjunction, so their order does not change who is kept.
      const dx = px - xs[s]!;
      const dz = pz - zs[s]!;
      const d = dx * dx + dz * dz;
      if (full ? d >= worst : d > rangeSqr) continue;
      if (hashed && (this.cx[s] !== x || this.cz[s] !== z)) continue;
      const j = this.id[s]!;
      if (j === self) continue;
      const dy = py - this.y[s]!;
      if (Math.abs(dy) >= (h + this.h[s]!) * 0.5) continue;
      // Sorted insertion (before equal distances, as Detour), the farthest dropped when full.
      let slot: number;
      if (n > 0 && d >= outDist[offset + n - 1]!) {
        slot = n;
      } else {
        slot = 0;
        while (slot < n && d > outDist[offset + slot]!) slot++;
        const last = n < k ? n : k - 1;
        for (let m = last; m > slot; m--) {
          outIds[offset + m] = outIds[offset + m - 1]!;
          outDist[offset + m] = outDist[offset + m - 1]!;
        }
      }
      outIds[offset + slot] = j;
      outDist[offset + slot] = d;
      if (n < k) n++;
      if (n >= k) {
        full = true;
        worst = outDist[offset + k - 1]!;
      }
    }
    return n;
  }
}
