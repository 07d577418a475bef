/**
 * STAND-IN for src/crowd/proximity-grid.ts (branch crowd-avoidance), same interface; the
 * lead swaps the import in crowd.ts and deletes this file at merge. A uniform hash grid of
 * item boxes, like Detour's dtProximityGrid; query results in insertion order, deduplicated.
 */
const BUCKETS = 4096;

export class ProximityGrid {
  private readonly inv: number;
  private readonly head = new Int32Array(BUCKETS);
  private next: Int32Array;
  private ids: Int32Array;
  private cx: Int32Array;
  private cz: Int32Array;
  private used = 0;
  private stamp: Int32Array = new Int32Array(0);
  private query = 0;

  constructor(maxItems: number, cellSize: number) {
    this.inv = 1 / cellSize;
    const n = Math.max(16, maxItems);
    this.next = new Int32Array(n);
    this.ids = new Int32Array(n);
    this.cx = new Int32Array(n);
    this.cz = new Int32Array(n);
    this.head.fill(-1);
  }

  clear(): void {
    this.head.fill(-1);
    this.used = 0;
  }

  private bucket(x: number, z: number): number {
    return (Math.imul(x, 73856093) ^ Math.imul(z, 19349663)) & (BUCKETS - 1);
  }

  addItem(id: number, minX: number, minZ: number, maxX: number, maxZ: number): void {
    const x0 = Math.floor(minX * this.inv);
    const z0 = Math.floor(minZ * this.inv);
    const x1 = Math.floor(maxX * this.inv);
    const z1 = Math.floor(maxZ * this.inv);
    for (let z = z0; z <= z1; z++) {
      for (let x = x0; x <= x1; x++) {
        if (this.used === this.ids.length) this.grow();
        const i = this.used++;
        const b = this.bucket(x, z);
        this.ids[i] = id;
        this.cx[i] = x;
        this.cz[i] = z;
        this.next[i] = this.head[b]!;
        this.head[b] = i;
      }
    }
    if (id >= this.stamp.length) {
      const s = new Int32Array(Math.max(id + 1, this.stamp.length * 2));
      s.set(this.stamp);
      this.stamp = s;
    }
  }

  private grow(): void {
    const n = this.ids.length * 2;
    for (const k of ["next", "ids", "cx", "cz"] as const) {
      const a = new Int32Array(n);
      a.set(this[k]);
      this[k] = a;
    }
  }

  queryItems(minX: number, minZ: number, maxX: number, maxZ: number, out: Int32Array): number {
    const x0 = Math.floor(minX * this.inv);
    const z0 = Math.floor(minZ * this.inv);
    const x1 = Math.floor(maxX * this.inv);
    const z1 = Math.floor(maxZ * this.inv);
    this.query++;
    let n = 0;
    for (let z = z0; z <= z1; z++) {
      for (let x = x0; x <= x1; x++) {
        for (let i = this.head[this.bucket(x, z)]!; i >= 0; i = this.next[i]!) {
          if (this.cx[i] !== x || this.cz[i] !== z) continue;
          const id = this.ids[i]!;
          if (this.stamp[id] === this.query) continue;
          if (n >= out.length) return n;
          this.stamp[id] = this.query;
          out[n++] = id;
        }
      }
    }
    return n;
  }
}
