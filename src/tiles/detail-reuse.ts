import type { DetailReuse } from "../generate/detail.js";
import {
  type CompactHeightfield,
  MESH_NULL_INDEX,
  type PolyMesh,
  type PolyMeshDetail,
} from "../generate/types.js";

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

/** One generation of kept details: exact keys, and where each polygon's detail lies. */
interface Generation {
  keys: Int32Array;
  keyStart: Int32Array;
  /** Per entry: the polygon of `detail` it describes. */
  poly: Int32Array;
  hash: Int32Array;
  /** Open-addressing table over entries (entry + 1, 0 = empty); size a power of two. */
  table: Int32Array;
  detail: PolyMeshDetail | null;
}

const EMPTY: Generation = {
  keys: new Int32Array(0),
  keyStart: new Int32Array(1),
  poly: new Int32Array(0),
  hash: new Int32Array(0),
  table: new Int32Array(1),
  detail: null,
};

/** @internal Details copied so far, by where they came from (read by tests). */
export const detailReuseCounts = { fromLast: 0, fromBase: 0 };

/*
 * The next generation's buffers, shared by every build (builds run one at a time and finish
 * slices them): a rebuild then allocates only the generation it keeps.
 */
let nextKey = new Int32Array(64);
let nextKeys = new Int32Array(256);
let nextKeyStart = new Int32Array(65);
let nextPolys = new Int32Array(64);
let nextHashes = new Int32Array(64);

function grown(a: Int32Array, size: number, used: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a.subarray(0, used));
  return b;
}

/**
 * The details kept from a layer's last build (and, as a fallback, from its obstacle-free
 * build: an obstacle that left takes its polygons with it, the floor it uncovers is the
 * obstacle-free one), and the record of the next generation.
 */
export class LayerDetailReuse implements DetailReuse {
  private readonly prev: Generation;
  private readonly base: Generation;
  /** Entries of `prev` come first; `base`'s follow, numbered from here. */
  private readonly baseFrom: number;
  private pmesh: PolyMesh | null = null;
  private chf: CompactHeightfield | null = null;
  private spanRegion: Uint16Array = new Uint16Array(0);
  // The key of the polygon last asked about (in nextKey).
  private keyLength = 0;
  private keyHash = 0;
  private keyPoly = 0;
  // Next generation (in the shared buffers).
  private keysUsed = 0;
  private count = 0;

  constructor(previous: Generation = EMPTY, base: Generation = EMPTY) {
    this.prev = previous;
    this.base = base === previous ? EMPTY : base;
    this.baseFrom = previous.poly.length;
  }

  /** Starts a build over `pmesh` on `chf` with these span regions. */
  begin(pmesh: PolyMesh, chf: CompactHeightfield, spanRegion: Uint16Array): this {
    this.pmesh = pmesh;
    this.chf = chf;
    this.spanRegion = spanRegion;
    nextKeyStart[0] = 0;
    return this;
  }

  find(p: number, patchX: number, patchZ: number, patchW: number, patchH: number): number {
    this.makeKey(p, patchX, patchZ, patchW, patchH);
    const e = lookUp(this.prev, nextKey, this.keyLength, this.keyHash);
    if (e >= 0) {
      detailReuseCounts.fromLast++;
      return e;
    }
    const b = lookUp(this.base, nextKey, this.keyLength, this.keyHash);
    if (b < 0) return -1;
    detailReuseCounts.fromBase++;
    return this.baseFrom + b;
  }

  /** The generation holding `entry`, and where its polygon's mesh starts in its `meshes`. */
  private genOf(entry: number): Generation {
    return entry < this.baseFrom ? this.prev : this.base;
  }

  private meshAt(entry: number): number {
    const g = this.genOf(entry);
    return g.poly[entry < this.baseFrom ? entry : entry - this.baseFrom]! * 4;
  }

  vertCount(entry: number): number {
    return this.genOf(entry).detail!.meshes[this.meshAt(entry) + 1]!;
  }

  triCount(entry: number): number {
    return this.genOf(entry).detail!.meshes[this.meshAt(entry) + 3]!;
  }

  copy(entry: number, verts: Float32Array, vertAt: number, tris: Uint8Array, triAt: number): void {
    const d = this.genOf(entry).detail!;
    const m = this.meshAt(entry);
    const v0 = d.meshes[m]! * 3;
    const t0 = d.meshes[m + 2]! * 4;
    verts.set(d.verts.subarray(v0, v0 + d.meshes[m + 1]! * 3), vertAt);
    tris.set(d.tris.subarray(t0, t0 + d.meshes[m + 3]! * 4), triAt);
    // Carried into the next generation, so it survives further rebuilds.
    this.keep();
  }

  keep(): void {
    const n = this.keyLength;
    if (this.keysUsed + n > nextKeys.length) {
      nextKeys = grown(nextKeys, Math.max(2 * nextKeys.length, this.keysUsed + n), this.keysUsed);
    }
    nextKeys.set(nextKey.subarray(0, n), this.keysUsed);
    this.keysUsed += n;
    const e = this.count++;
    if (e >= nextPolys.length) {
      nextPolys = grown(nextPolys, 2 * nextPolys.length, e);
      nextHashes = grown(nextHashes, 2 * nextHashes.length, e);
    }
    if (e + 1 >= nextKeyStart.length) {
      nextKeyStart = grown(nextKeyStart, 2 * nextKeyStart.length, e + 1);
    }
    nextPolys[e] = this.keyPoly;
    nextHashes[e] = this.keyHash;
    nextKeyStart[e + 1] = this.keysUsed;
  }

  /** The generation this build made, over its detail (what the layer's next build may reuse). */
  finish(detail: PolyMeshDetail): Generation {
    const count = this.count;
    let size = 4;
    while (size < 2 * count) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let e = 0; e < count; e++) {
      let slot = nextHashes[e]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = e + 1;
    }
    return {
      keys: nextKeys.slice(0, this.keysUsed),
      keyStart: nextKeyStart.slice(0, count + 1),
      poly: nextPolys.slice(0, count),
      hash: nextHashes.slice(0, count),
      table,
      detail,
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
    if (nextKey.length < maxWords) nextKey = new Int32Array(Math.max(maxWords, 2 * nextKey.length));
    const key = nextKey;
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
    this.keyPoly = p;
  }
}

/** Entry of `g` whose key equals key[0..n) (hash h), or -1. */
function lookUp(g: Generation, key: Int32Array, n: number, h: number): number {
  if (g.detail === null) return -1;
  const mask = g.table.length - 1;
  for (let slot = h & mask; ; slot = (slot + 1) & mask) {
    const e = g.table[slot]! - 1;
    if (e < 0) return -1;
    if (g.hash[e] !== h) continue;
    const k0 = g.keyStart[e]!;
    if (g.keyStart[e + 1]! - k0 !== n) continue;
    let i = 0;
    while (i < n && g.keys[k0 + i] === key[i]) i++;
    if (i === n) return e;
  }
}

export type { Generation as DetailGeneration };
