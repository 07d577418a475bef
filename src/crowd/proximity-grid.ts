import { MeshwayError } from "../errors.js";

/** Empty bucket / end of a bucket's chain. */
const NONE = -1;

/**
 * A spatial hash of axis-aligned boxes in the XZ plane, for "which agents are near here"
 * (Detour's dtProximityGrid idea): each box is entered in every square cell it overlaps; a query
 * walks the cells its box overlaps and reports each id once.
 *
 * Unlike Detour the pool of cell entries grows (doubling) if boxes span more cells than it was
 * sized for, instead of silently dropping items; once it has held the crowd's worst frame it
 * never allocates again. Ids are deduplicated with a per-item stamp (O(1)), not a scan of the
 * output. Query order is deterministic: cells row by row (z, then x), and within a cell the
 * most recently added item first, as Detour's chains.
 */
export class ProximityGrid {
  /** Side of a square cell. [Units: world units] [Limit: > 0] */
  readonly cellSize: number;
  private readonly invCellSize: number;
  private readonly maxItems: number;
  /** Items added since clear(); an item's index is its order of addition. */
  private itemCount = 0;
  /** Caller's id per item. */
  private readonly itemIds: Int32Array;
  /** Query stamp per item, so an item spanning several cells is reported once. */
  private readonly itemStamps: Uint32Array;
  private stamp = 0;
  /** Head entry of each hash bucket, or NONE. Length is a power of two. */
  private readonly buckets: Int32Array;
  private readonly bucketMask: number;
  /**
   * Cell entries, 4 int32 each — cell x, cell z, item index, next entry in the bucket — side by
   * side because a chain walk reads all four.
   */
  private entries: Int32Array;
  private entryCount = 0;

  /**
   * @param maxItems addItem calls allowed between two clear() calls. [Limit: integer >= 1]
   * @param cellSize side of a cell; Detour uses 3 × the largest agent radius. [Units: world units]
   */
  constructor(maxItems: number, cellSize: number) {
    if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > 1 << 24) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `ProximityGrid: maxItems must be an integer in [1, 16777216], got ${maxItems}`,
      );
    }
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `ProximityGrid: cellSize must be a finite number > 0, got ${cellSize}`,
      );
    }
    this.cellSize = cellSize;
    this.invCellSize = 1 / cellSize;
    this.maxItems = maxItems;
    this.itemIds = new Int32Array(maxItems);
    this.itemStamps = new Uint32Array(maxItems);
    // A box no larger than a cell touches at most 4 cells (Detour sizes its pool the same way).
    const entries = maxItems * 4;
    let buckets = 1;
    while (buckets < entries) buckets <<= 1;
    this.buckets = new Int32Array(buckets).fill(NONE);
    this.bucketMask = buckets - 1;
    this.entries = new Int32Array(entries * 4);
  }

  /** Removes every item. */
  clear(): void {
    this.buckets.fill(NONE);
    this.itemCount = 0;
    this.entryCount = 0;
  }

  /** Items added since the last clear(). */
  get size(): number {
    return this.itemCount;
  }

  /** Enters `id` (any int32) in every cell the box overlaps. [Units: world units] */
  addItem(id: number, minX: number, minZ: number, maxX: number, maxZ: number): void {
    if (this.itemCount >= this.maxItems) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `ProximityGrid.addItem: more than maxItems = ${this.maxItems} items since clear()`,
      );
    }
    checkBox("addItem", minX, minZ, maxX, maxZ);
    const item = this.itemCount++;
    this.itemIds[item] = id | 0;
    this.itemStamps[item] = this.stamp;
    const x0 = this.cell(minX);
    const z0 = this.cell(minZ);
    const x1 = this.cell(maxX);
    const z1 = this.cell(maxZ);
    checkSpan("addItem", x1 - x0 + 1, z1 - z0 + 1);
    const needed = this.entryCount + (x1 - x0 + 1) * (z1 - z0 + 1);
    if (needed * 4 > this.entries.length) this.grow(needed * 4);
    const entries = this.entries;
    for (let z = z0; z <= z1; z++) {
      for (let x = x0; x <= x1; x++) {
        const h = hashCell(x, z) & this.bucketMask;
        const e = this.entryCount++;
        entries[e * 4] = x;
        entries[e * 4 + 1] = z;
        entries[e * 4 + 2] = item;
        entries[e * 4 + 3] = this.buckets[h]!;
        this.buckets[h] = e;
      }
    }
  }

  /**
   * Unique ids whose cells overlap the box, up to out.length; returns the count. Deterministic
   * order (cells by z then x; newest first within a cell). Cell-level, as Detour: callers check
   * the actual distance.
   */
  queryItems(minX: number, minZ: number, maxX: number, maxZ: number, out: Int32Array): number {
    checkBox("queryItems", minX, minZ, maxX, maxZ);
    // A fresh stamp per query; on wrap-around reset the stamps so none matches by accident.
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.itemStamps.fill(0);
      this.stamp = 1;
    }
    const stamp = this.stamp;
    const x0 = this.cell(minX);
    const z0 = this.cell(minZ);
    const x1 = this.cell(maxX);
    const z1 = this.cell(maxZ);
    checkSpan("queryItems", x1 - x0 + 1, z1 - z0 + 1);
    const max = out.length;
    const entries = this.entries;
    let n = 0;
    for (let z = z0; z <= z1; z++) {
      for (let x = x0; x <= x1; x++) {
        let e = this.buckets[hashCell(x, z) & this.bucketMask]!;
        while (e !== NONE) {
          if (entries[e * 4] === x && entries[e * 4 + 1] === z) {
            const item = entries[e * 4 + 2]!;
            if (this.itemStamps[item] !== stamp) {
              if (n >= max) return n;
              this.itemStamps[item] = stamp;
              out[n++] = this.itemIds[item]!;
            }
          }
          e = entries[e * 4 + 3]!;
        }
      }
    }
    return n;
  }

  /** Cell coordinate of a world coordinate, clamped to int32 range (far-out boxes stay finite). */
  private cell(v: number): number {
    const c = Math.floor(v * this.invCellSize);
    return Math.max(-0x40000000, Math.min(c, 0x3fffffff));
  }

  private grow(needed: number): void {
    let size = this.entries.length * 2;
    while (size < needed) size *= 2;
    const bigger = new Int32Array(size);
    bigger.set(this.entries);
    this.entries = bigger;
  }
}

/** Detour's spatial hash of a cell (Teschner et al. primes), in int32 arithmetic. */
function hashCell(x: number, z: number): number {
  return Math.imul(x, 73856093) ^ Math.imul(z, 19349663);
}

function checkBox(where: string, minX: number, minZ: number, maxX: number, maxZ: number): void {
  // Also false for NaN; infinite bounds would make a query walk forever.
  if (!(minX <= maxX && minZ <= maxZ) || !Number.isFinite(minX + minZ + maxX + maxZ)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `ProximityGrid.${where}: box must be finite with min <= max, got (${minX}, ${minZ})–(${maxX}, ${maxZ})`,
    );
  }
}

/** Most cells one box may span: more means a cellSize far too small for the boxes (or a runaway box). */
const MAX_SPAN_CELLS = 1 << 20;

function checkSpan(where: string, cellsX: number, cellsZ: number): void {
  if (cellsX * cellsZ > MAX_SPAN_CELLS) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `ProximityGrid.${where}: box spans ${cellsX} × ${cellsZ} cells (at most ${MAX_SPAN_CELLS}); use a larger cellSize`,
    );
  }
}
