import { MeshwayError } from "../errors.js";
import { type BuildScratch, sharedBuildScratch } from "./scratch.js";
import { type CompactHeightfield, NOT_CONNECTED, NULL_AREA } from "./types.js";

// Module-local copies of the shared constants: hot loops then read plain constants even
// where a test runner rewrites imports into property loads on a module object.
const NO_LINK = NOT_CONNECTED;
const UNWALKABLE = NULL_AREA;

/**
 * Marks every span closer than `radiusVoxels` to an obstruction as NULL_AREA, as in Recast's
 * rcErodeWalkableArea (Mononen): a two-pass chamfer distance transform (2 per straight step,
 * 3 per diagonal, i.e. half-cells) seeded at boundary spans — NULL_AREA spans and walkable
 * spans with a missing or NULL_AREA 4-neighbour — then spans with distance < 2 * radius drop.
 * Distances saturate at 255; unlike Recast's 8-bit threshold, 2 * radius does not wrap.
 */
export function erodeWalkableArea(
  chf: CompactHeightfield,
  radiusVoxels: number,
  scratch: BuildScratch = sharedBuildScratch,
): void {
  if (!(radiusVoxels >= 0)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `erodeWalkableArea: radiusVoxels must be >= 0, got ${radiusVoxels}`,
    );
  }
  const spanCount = chf.spanCount;
  if (spanCount === 0) return;
  const threshold = radiusVoxels * 2;
  if (threshold <= 0) return;
  const areas = chf.areas;
  const dist = scratch.uint8("distance", spanCount);
  computeBoundaryDistance(chf, dist, scratch);
  for (let i = 0; i < spanCount; i++) {
    if (dist[i]! < threshold) areas[i] = UNWALKABLE;
  }
}

/**
 * Chamfer distance (half-cells, saturating at 255) from each span to the nearest boundary
 * span. Writes `dist[0 .. chf.spanCount)`.
 */
export function computeBoundaryDistance(
  chf: CompactHeightfield,
  dist: Uint8Array,
  scratch: BuildScratch = sharedBuildScratch,
): void {
  // The sweeps walk spans, not columns (most columns are empty), so they need each span's
  // column. Spans are stored column by column, so span order is Recast's sweep order.
  // Separate functions so V8 optimizes each loop on its own type feedback.
  const spanColumn = scratch.int32("spanColumn", chf.spanCount);
  seedBoundary(chf, dist, spanColumn);
  forwardPass(chf, dist, spanColumn);
  backwardPass(chf, dist, spanColumn);
}

/**
 * Seeds 0 on boundary spans (NULL_AREA, or a missing / NULL_AREA 4-neighbour), 255 elsewhere,
 * and records each span's column.
 */
function seedBoundary(chf: CompactHeightfield, dist: Uint8Array, spanColumn: Int32Array): void {
  const w = chf.width;
  const columns = w * chf.depth;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const con = chf.spanCon;
  const areas = chf.areas;
  for (let c = 0; c < columns; c++) {
    const first = cellFirst[c]!;
    const end = first + cellCount[c]!;
    for (let i = first; i < end; i++) {
      spanColumn[i] = c;
      if (areas[i] === UNWALKABLE) {
        dist[i] = 0;
        continue;
      }
      const s = con[i]!;
      const c0 = s & 0xff;
      const c1 = (s >>> 8) & 0xff;
      const c2 = (s >>> 16) & 0xff;
      const c3 = s >>> 24;
      // Missing links short-circuit before their (possibly off-grid) column is read.
      const inside =
        c0 !== NO_LINK &&
        c1 !== NO_LINK &&
        c2 !== NO_LINK &&
        c3 !== NO_LINK &&
        areas[cellFirst[c - 1]! + c0] !== UNWALKABLE &&
        areas[cellFirst[c + w]! + c1] !== UNWALKABLE &&
        areas[cellFirst[c + 1]! + c2] !== UNWALKABLE &&
        areas[cellFirst[c - w]! + c3] !== UNWALKABLE;
      dist[i] = inside ? 255 : 0;
    }
  }
}

/** Forward sweep: relax from neighbours at (-1,0), (-1,-1), (0,-1), (1,-1). */
function forwardPass(chf: CompactHeightfield, dist: Uint8Array, spanColumn: Int32Array): void {
  const w = chf.width;
  const n = chf.spanCount;
  const cellFirst = chf.cellFirst;
  const con = chf.spanCon;
  for (let i = 0; i < n; i++) {
    let best = dist[i]!;
    if (best === 0) continue;
    const c = spanColumn[i]!;
    const s = con[i]!;
    const c0 = s & 0xff;
    if (c0 !== NO_LINK) {
      const ac = c - 1;
      const a = cellFirst[ac]! + c0;
      const da = dist[a]! + 2;
      if (da < best) best = da;
      const b3 = con[a]! >>> 24;
      if (b3 !== NO_LINK) {
        const db = dist[cellFirst[ac - w]! + b3]! + 3;
        if (db < best) best = db;
      }
    }
    const c3 = s >>> 24;
    if (c3 !== NO_LINK) {
      const ac = c - w;
      const a = cellFirst[ac]! + c3;
      const da = dist[a]! + 2;
      if (da < best) best = da;
      const b2 = (con[a]! >>> 16) & 0xff;
      if (b2 !== NO_LINK) {
        const db = dist[cellFirst[ac + 1]! + b2]! + 3;
        if (db < best) best = db;
      }
    }
    dist[i] = best;
  }
}

/** Backward sweep: relax from neighbours at (1,0), (1,1), (0,1), (-1,1). */
function backwardPass(chf: CompactHeightfield, dist: Uint8Array, spanColumn: Int32Array): void {
  const w = chf.width;
  const n = chf.spanCount;
  const cellFirst = chf.cellFirst;
  const con = chf.spanCon;
  for (let i = n - 1; i >= 0; i--) {
    let best = dist[i]!;
    if (best === 0) continue;
    const c = spanColumn[i]!;
    const s = con[i]!;
    const c2 = (s >>> 16) & 0xff;
    if (c2 !== NO_LINK) {
      const ac = c + 1;
      const a = cellFirst[ac]! + c2;
      const da = dist[a]! + 2;
      if (da < best) best = da;
      const b1 = (con[a]! >>> 8) & 0xff;
      if (b1 !== NO_LINK) {
        const db = dist[cellFirst[ac + w]! + b1]! + 3;
        if (db < best) best = db;
      }
    }
    const c1 = (s >>> 8) & 0xff;
    if (c1 !== NO_LINK) {
      const ac = c + w;
      const a = cellFirst[ac]! + c1;
      const da = dist[a]! + 2;
      if (da < best) best = da;
      const b0 = con[a]! & 0xff;
      if (b0 !== NO_LINK) {
        const db = dist[cellFirst[ac - 1]! + b0]! + 3;
        if (db < best) best = db;
      }
    }
    dist[i] = best;
  }
}

/**
 * Erosion after new obstructions, without redoing the whole heightfield: `before` are span
 * areas whose erosion (erodeWalkableArea, same radius) is `erodedBefore`, and `after` is
 * `before` with some walkable spans set NULL_AREA (obstacles). Writes into `out` exactly what
 * erodeWalkableArea would make of `after`.
 *
 * Why it is exact: the two chamfer sweeps only read the span links, never the areas, so each
 * is a min-plus linear map of the seed vector (0 at boundary spans, 255 elsewhere), and the
 * seeds of `after` are those of `before` plus the changed spans and their 4-neighbours. So
 * the distance after is the minimum of the distance before and the distance from the new
 * seeds alone. The latter matters only below 2 * radius, i.e. within `radius` cells of a new
 * seed (every step costs at least 2), so it is swept in a window of the changed spans'
 * columns grown by radius + 1 cells, framed by a ring of 255s; no path that leaves the
 * window costs less than 2 * radius.
 * Returns false (and leaves `out` untouched) when nothing changed.
 */
export function erodeNewObstructions(
  chf: CompactHeightfield,
  before: Uint8Array,
  after: Uint8Array,
  erodedBefore: Uint8Array,
  radiusVoxels: number,
  out: Uint8Array,
  scratch: BuildScratch = sharedBuildScratch,
): boolean {
  const w = chf.width;
  const d = chf.depth;
  const n = chf.spanCount;
  // int32 views: a Uint32Array load may be handled as a double by the JIT.
  const cellFirst = int32Of(chf.cellFirst);
  const cellCount = chf.cellCount;
  // First and last changed span, then the columns holding a changed span (only columns whose
  // spans overlap that range are looked into).
  let lo = 0;
  while (lo < n && before[lo] === after[lo]) lo++;
  let hi = n - 1;
  while (hi > lo && before[hi] === after[hi]) hi--;
  let x0 = w;
  let x1 = -1;
  let z0 = d;
  let z1 = -1;
  if (lo < n) {
    for (let z = 0; z < d; z++) {
      const row = z * w;
      for (let x = 0; x < w; x++) {
        const c = row + x;
        const first = cellFirst[c]!;
        const end = first + cellCount[c]!;
        if (end <= lo || first > hi) continue;
        for (let i = first; i < end; i++) {
          if (before[i] !== after[i]) {
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (z < z0) z0 = z;
            if (z > z1) z1 = z;
            break;
          }
        }
      }
    }
  }
  out.set(erodedBefore.subarray(0, chf.spanCount));
  if (x1 < 0) return false;
  const threshold = radiusVoxels * 2;
  if (threshold <= 0) {
    for (let i = 0; i < chf.spanCount; i++) if (after[i] === UNWALKABLE) out[i] = UNWALKABLE;
    return true;
  }
  const grow = radiusVoxels + 1;
  // Swept window, and around it a ring read as 255 (never swept).
  const wx0 = Math.max(0, x0 - grow);
  const wx1 = Math.min(w - 1, x1 + grow);
  const wz0 = Math.max(0, z0 - grow);
  const wz1 = Math.min(d - 1, z1 + grow);
  const dist = scratch.uint8("distance", chf.spanCount);
  const con = int32Of(chf.spanCon);
  for (let z = Math.max(0, wz0 - 1); z <= Math.min(d - 1, wz1 + 1); z++) {
    for (let x = Math.max(0, wx0 - 1); x <= Math.min(w - 1, wx1 + 1); x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) dist[i] = 255;
    }
  }
  // New seeds: changed spans and their linked 4-neighbours.
  for (let z = Math.max(0, z0); z <= z1; z++) {
    for (let x = x0; x <= x1; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        if (before[i] === after[i]) continue;
        dist[i] = 0;
        const s = con[i]!;
        const c0 = s & 0xff;
        const c1 = (s >>> 8) & 0xff;
        const c2 = (s >>> 16) & 0xff;
        const c3 = s >>> 24;
        if (c0 !== NO_LINK) dist[cellFirst[c - 1]! + c0] = 0;
        if (c1 !== NO_LINK) dist[cellFirst[c + w]! + c1] = 0;
        if (c2 !== NO_LINK) dist[cellFirst[c + 1]! + c2] = 0;
        if (c3 !== NO_LINK) dist[cellFirst[c - w]! + c3] = 0;
      }
    }
  }
  windowForwardPass(chf, dist, wx0, wx1, wz0, wz1);
  windowBackwardPass(chf, dist, wx0, wx1, wz0, wz1);
  for (let z = wz0; z <= wz1; z++) {
    for (let x = wx0; x <= wx1; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) if (dist[i]! < threshold) out[i] = UNWALKABLE;
    }
  }
  return true;
}

/**
 * forwardPass over the spans of columns [x0, x1] × [z0, z1], in the same order. A window's
 * spans are not contiguous, so this walks columns; the whole-tile passes walk spans instead
 * (measured: running them through these over the full grid is 1.25–1.65× slower, from the
 * empty columns).
 */
function windowForwardPass(
  chf: CompactHeightfield,
  dist: Uint8Array,
  x0: number,
  x1: number,
  z0: number,
  z1: number,
): void {
  const w = chf.width;
  const cellFirst = int32Of(chf.cellFirst);
  const cellCount = chf.cellCount;
  const con = int32Of(chf.spanCon);
  for (let z = z0; z <= z1; z++) {
    for (let x = x0; x <= x1; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        let best = dist[i]!;
        if (best === 0) continue;
        const s = con[i]!;
        const c0 = s & 0xff;
        if (c0 !== NO_LINK) {
          const ac = c - 1;
          const a = cellFirst[ac]! + c0;
          const da = dist[a]! + 2;
          if (da < best) best = da;
          const b3 = con[a]! >>> 24;
          if (b3 !== NO_LINK) {
            const db = dist[cellFirst[ac - w]! + b3]! + 3;
            if (db < best) best = db;
          }
        }
        const c3 = s >>> 24;
        if (c3 !== NO_LINK) {
          const ac = c - w;
          const a = cellFirst[ac]! + c3;
          const da = dist[a]! + 2;
          if (da < best) best = da;
          const b2 = (con[a]! >>> 16) & 0xff;
          if (b2 !== NO_LINK) {
            const db = dist[cellFirst[ac + 1]! + b2]! + 3;
            if (db < best) best = db;
          }
        }
        dist[i] = best;
      }
    }
  }
}

/** backwardPass over the spans of columns [x0, x1] × [z0, z1], in the same order. */
function windowBackwardPass(
  chf: CompactHeightfield,
  dist: Uint8Array,
  x0: number,
  x1: number,
  z0: number,
  z1: number,
): void {
  const w = chf.width;
  const cellFirst = int32Of(chf.cellFirst);
  const cellCount = chf.cellCount;
  const con = int32Of(chf.spanCon);
  for (let z = z1; z >= z0; z--) {
    for (let x = x1; x >= x0; x--) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      for (let i = first + cellCount[c]! - 1; i >= first; i--) {
        let best = dist[i]!;
        if (best === 0) continue;
        const s = con[i]!;
        const c2 = (s >>> 16) & 0xff;
        if (c2 !== NO_LINK) {
          const ac = c + 1;
          const a = cellFirst[ac]! + c2;
          const da = dist[a]! + 2;
          if (da < best) best = da;
          const b1 = (con[a]! >>> 8) & 0xff;
          if (b1 !== NO_LINK) {
            const db = dist[cellFirst[ac + w]! + b1]! + 3;
            if (db < best) best = db;
          }
        }
        const c1 = (s >>> 8) & 0xff;
        if (c1 !== NO_LINK) {
          const ac = c + w;
          const a = cellFirst[ac]! + c1;
          const da = dist[a]! + 2;
          if (da < best) best = da;
          const b0 = con[a]! & 0xff;
          if (b0 !== NO_LINK) {
            const db = dist[cellFirst[ac - 1]! + b0]! + 3;
            if (db < best) best = db;
          }
        }
        dist[i] = best;
      }
    }
  }
}

/** The same memory as an Int32Array (values < 2^31, or only bit-sliced), read as int32. */
function int32Of(a: Uint32Array): Int32Array {
  return new Int32Array(a.buffer, a.byteOffset, a.length);
}
