import type { DetailReuse } from "../generate/detail.js";
import { type CompactHeightfield, MESH_NULL_INDEX, type PolyMesh } from "../generate/types.js";

/*
 * Detail meshes carried from one build of a layer to the next (the tile cache's rebuilds). A
 * polygon's detail (buildPolyMeshDetail) is a function of the layer's heightfield, which never
 * changes, of the polygon's corners, and — for a polygon of one region — of which spans in
 * its height patch (one cell of margin, where the region-border test looks) belong to that
 * region. An obstacle changes the regions near it; polygons away from it keep their corners
 * and their region's spans, whatever id the region has now. So each polygon's detail is kept
 * under an exact key (corners + that span mask) and reused when a later build asks for the
 * same key: the bytes are those a fresh build makes.
 */

/** One generation of kept details: keys, world-space verts and flagged triangles. */
interface Generation {
  keys: Int32Array;
  keyStart: Int32Array;
  verts: Float32Array;
  vertStart: Int32Array;
  tris: Uint8Array;
  triStart: Int32Array;
  /** Key hash → first entry; entries chain through `next`. */
  byHash: Map<number, number>;
  next: Int32Array;
  count: number;
}

const EMPTY: Generation = {
  keys: new Int32Array(0),
  keyStart: new Int32Array(1),
  verts: new Float32Array(0),
  vertStart: new Int32Array(1),
  tris: new Uint8Array(0),
  triStart: new Int32Array(1),
  byHash: new Map(),
  next: new Int32Array(0),
  count: 0,
};

/** Growable typed-array builder. */
class Grow<T extends Int32Array | Float32Array | Uint8Array> {
  data: T;
  length = 0;
  constructor(private readonly make: (n: number) => T) {
    this.data = make(64);
  }
  reserve(extra: number): T {
    const need = this.length + extra;
    if (need > this.data.length) {
      let n = this.data.length * 2;
      while (n < need) n *= 2;
      const grown = this.make(n);
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    return this.data;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/** The details kept from a layer's last build, and the builder of the next generation. */
export class LayerDetailReuse implements DetailReuse {
  private prev: Generation;
  private pmesh: PolyMesh | null = null;
  private chf: CompactHeightfield | null = null;
  private spanRegion: Uint16Array = new Uint16Array(0);
  // The key of the polygon last asked about.
  private key = new Int32Array(64);
  private keyLength = 0;
  private keyHash = 0;
  // Next generation.
  private keys = new Grow((n) => new Int32Array(n));
  private keyStart = new Grow((n) => new Int32Array(n));
  private verts = new Grow((n) => new Float32Array(n));
  private vertStart = new Grow((n) => new Int32Array(n));
  private tris = new Grow((n) => new Uint8Array(n));
  private triStart = new Grow((n) => new Int32Array(n));
  private hashes = new Grow((n) => new Int32Array(n));

  constructor(previous: Generation = EMPTY) {
    this.prev = previous;
  }

  /** Starts a build over `pmesh` on `chf` with these span regions. */
  begin(pmesh: PolyMesh, chf: CompactHeightfield, spanRegion: Uint16Array): this {
    this.pmesh = pmesh;
    this.chf = chf;
    this.spanRegion = spanRegion;
    for (const g of [this.keys, this.verts, this.tris, this.hashes]) g.length = 0;
    for (const g of [this.keyStart, this.vertStart, this.triStart]) {
      g.length = 1;
      g.data[0] = 0;
    }
    return this;
  }

  find(p: number, patchX: number, patchZ: number, patchW: number, patchH: number): number {
    this.makeKey(p, patchX, patchZ, patchW, patchH);
    const g = this.prev;
    let e = g.byHash.get(this.keyHash) ?? -1;
    while (e >= 0) {
      const k0 = g.keyStart[e]!;
      if (g.keyStart[e + 1]! - k0 === this.keyLength) {
        let same = true;
        for (let i = 0; i < this.keyLength; i++) {
          if (g.keys[k0 + i] !== this.key[i]) {
            same = false;
            break;
          }
        }
        if (same) break;
      }
      e = g.next[e]!;
    }
    return e;
  }

  vertCount(entry: number): number {
    const g = this.prev;
    return (g.vertStart[entry + 1]! - g.vertStart[entry]!) / 3;
  }

  triCount(entry: number): number {
    const g = this.prev;
    return (g.triStart[entry + 1]! - g.triStart[entry]!) / 4;
  }

  copy(entry: number, verts: Float32Array, vertAt: number, tris: Uint8Array, triAt: number): void {
    const g = this.prev;
    const v = g.verts.subarray(g.vertStart[entry]!, g.vertStart[entry + 1]!);
    const t = g.tris.subarray(g.triStart[entry]!, g.triStart[entry + 1]!);
    verts.set(v, vertAt);
    tris.set(t, triAt);
    // Carried into the next generation, so it survives further rebuilds.
    this.keep(v, t);
  }

  keep(verts: Float32Array, tris: Uint8Array): void {
    const n = this.keyLength;
    this.keys.reserve(n).set(this.key.subarray(0, n), this.keys.length);
    this.keys.length += n;
    this.verts.reserve(verts.length).set(verts, this.verts.length);
    this.verts.length += verts.length;
    this.tris.reserve(tris.length).set(tris, this.tris.length);
    this.tris.length += tris.length;
    this.keyStart.reserve(1)[this.keyStart.length++] = this.keys.length;
    this.vertStart.reserve(1)[this.vertStart.length++] = this.verts.length;
    this.triStart.reserve(1)[this.triStart.length++] = this.tris.length;
    this.hashes.reserve(1)[this.hashes.length++] = this.keyHash;
  }

  /** The generation this build made (what the layer's next build may reuse). */
  finish(): Generation {
    const count = this.hashes.length;
    const hashes = this.hashes.data;
    const byHash = new Map<number, number>();
    const next = new Int32Array(count).fill(-1);
    for (let e = count - 1; e >= 0; e--) {
      const h = hashes[e]!;
      const head = byHash.get(h);
      if (head !== undefined) next[e] = head;
      byHash.set(h, e);
    }
    return {
      keys: this.keys.done(),
      keyStart: this.keyStart.done(),
      verts: this.verts.done(),
      vertStart: this.vertStart.done(),
      tris: this.tris.done(),
      triStart: this.triStart.done(),
      byHash,
      next,
      count,
    };
  }

  /**
   * Key of polygon p: its corner count and corners (voxels), its region flag, then (one
   * region) a bit per span of the patch grown by one cell: in the polygon's region or not.
   */
  private makeKey(p: number, px: number, pz: number, pw: number, ph: number): void {
    const pm = this.pmesh!;
    const chf = this.chf!;
    const nvp = pm.maxVertsPerPoly;
    const base = p * nvp * 2;
    const region = pm.regions[p]!;
    const bs = pm.borderSize;
    const w = chf.width;
    const x0 = Math.max(0, px + bs - 1);
    const x1 = Math.min(w - 1, px + bs + pw);
    const z0 = Math.max(0, pz + bs - 1);
    const z1 = Math.min(chf.depth - 1, pz + bs + ph);
    const maxWords = 2 + nvp * 3 + ((chf.spanCount + 31) >>> 5);
    if (this.key.length < maxWords) this.key = new Int32Array(maxWords);
    const key = this.key;
    let n = 1;
    let h = 0x811c9dc5;
    for (let j = 0; j < nvp; j++) {
      const vi = pm.polys[base + j]!;
      if (vi === MESH_NULL_INDEX) break;
      for (let k = 0; k < 3; k++) {
        const c = pm.verts[vi * 3 + k]!;
        key[n++] = c;
        h = Math.imul(h ^ c, 0x01000193);
      }
    }
    key[0] = (n - 1) / 3;
    // Several regions (region 0): the heights come from the flood alone (geometry).
    key[n++] = region === 0 ? 0 : 1;
    if (region !== 0) {
      const { cellFirst, cellCount } = chf;
      const reg = this.spanRegion;
      let word = 0;
      let bit = 0;
      for (let z = z0; z <= z1; z++) {
        for (let x = x0; x <= x1; x++) {
          const c = x + z * w;
          for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
            if (reg[i] === region) word |= 1 << bit;
            if (++bit === 32) {
              key[n++] = word;
              h = Math.imul(h ^ word, 0x01000193);
              word = 0;
              bit = 0;
            }
          }
        }
      }
      if (bit > 0) {
        key[n++] = word;
        h = Math.imul(h ^ word, 0x01000193);
      }
    }
    this.keyLength = n;
    this.keyHash = h | 0;
  }
}

export type { Generation as DetailGeneration };
