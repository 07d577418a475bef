import { MeshwayError } from "../errors.js";
import { scratchInt32, scratchUint8 } from "./scratch.js";
import { type CompactHeightfield, NOT_CONNECTED, NULL_AREA } from "./types.js";

// Module-local copies of the shared constants: hot loops then read plain constants even
// where a test runner rewrites imports into property loads on a module object.
const NO_LINK = NOT_CONNECTED;
const UNWALKABLE = NULL_AREA;

// Shared scratch slots (see scratch.ts); every entry used is rewritten.
const SLOT_DISTANCE = 2;
const SLOT_SPAN_COLUMN = 1;

/**
 * Marks every span closer than `radiusVoxels` to an obstruction as NULL_AREA, as in Recast's
 * rcErodeWalkableArea (Mononen): a two-pass chamfer distance transform (2 per straight step,
 * 3 per diagonal, i.e. half-cells) seeded at boundary spans — NULL_AREA spans and walkable
 * spans with a missing or NULL_AREA 4-neighbour — then spans with distance < 2 * radius drop.
 * Distances saturate at 255; unlike Recast's 8-bit threshold, 2 * radius does not wrap.
 */
export function erodeWalkableArea(chf: CompactHeightfield, radiusVoxels: number): void {
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
  const dist = scratchUint8(SLOT_DISTANCE, spanCount);
  computeBoundaryDistance(chf, dist);
  for (let i = 0; i < spanCount; i++) {
    if (dist[i] < threshold) areas[i] = UNWALKABLE;
  }
}

/**
 * Chamfer distance (half-cells, saturating at 255) from each span to the nearest boundary
 * span. Writes `dist[0 .. chf.spanCount)`.
 */
export function computeBoundaryDistance(chf: CompactHeightfield, dist: Uint8Array): void {
  // The sweeps walk spans, not columns (most columns are empty), so they need each span's
  // column. Spans are stored column by column, so span order is Recast's sweep order.
  // Separate functions so V8 optimizes each loop on its own type feedback.
  const spanColumn = scratchInt32(SLOT_SPAN_COLUMN, chf.spanCount);
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
    const first = cellFirst[c];
    const end = first + cellCount[c];
    for (let i = first; i < end; i++) {
      spanColumn[i] = c;
      if (areas[i] === UNWALKABLE) {
        dist[i] = 0;
        continue;
      }
      const s = con[i];
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
        areas[cellFirst[c - 1] + c0] !== UNWALKABLE &&
        areas[cellFirst[c + w] + c1] !== UNWALKABLE &&
        areas[cellFirst[c + 1] + c2] !== UNWALKABLE &&
        areas[cellFirst[c - w] + c3] !== UNWALKABLE;
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
    let best = dist[i];
    if (best === 0) continue;
    const c = spanColumn[i];
    const s = con[i];
    const c0 = s & 0xff;
    if (c0 !== NO_LINK) {
      const ac = c - 1;
      const a = cellFirst[ac] + c0;
      const da = dist[a] + 2;
      if (da < best) best = da;
      const b3 = con[a] >>> 24;
      if (b3 !== NO_LINK) {
        const db = dist[cellFirst[ac - w] + b3] + 3;
        if (db < best) best = db;
      }
    }
    const c3 = s >>> 24;
    if (c3 !== NO_LINK) {
      const ac = c - w;
      const a = cellFirst[ac] + c3;
      const da = dist[a] + 2;
      if (da < best) best = da;
      const b2 = (con[a] >>> 16) & 0xff;
      if (b2 !== NO_LINK) {
        const db = dist[cellFirst[ac + 1] + b2] + 3;
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
    let best = dist[i];
    if (best === 0) continue;
    const c = spanColumn[i];
    const s = con[i];
    const c2 = (s >>> 16) & 0xff;
    if (c2 !== NO_LINK) {
      const ac = c + 1;
      const a = cellFirst[ac] + c2;
      const da = dist[a] + 2;
      if (da < best) best = da;
      const b1 = (con[a] >>> 8) & 0xff;
      if (b1 !== NO_LINK) {
        const db = dist[cellFirst[ac + w] + b1] + 3;
        if (db < best) best = db;
      }
    }
    const c1 = (s >>> 8) & 0xff;
    if (c1 !== NO_LINK) {
      const ac = c + w;
      const a = cellFirst[ac] + c1;
      const da = dist[a] + 2;
      if (da < best) best = da;
      const b0 = con[a] & 0xff;
      if (b0 !== NO_LINK) {
        const db = dist[cellFirst[ac - 1] + b0] + 3;
        if (db < best) best = db;
      }
    }
    dist[i] = best;
  }
}
