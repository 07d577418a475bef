import { MeshwayError } from "../errors.js";
import { type CompactHeightfield, NOT_CONNECTED, NULL_AREA } from "./types.js";

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
  const dist = new Uint8Array(spanCount);
  computeBoundaryDistance(chf, dist);
  for (let i = 0; i < spanCount; i++) {
    if (dist[i] < threshold) areas[i] = NULL_AREA;
  }
}

/**
 * Chamfer distance (half-cells, saturating at 255) from each span to the nearest boundary
 * span. Writes `dist[0 .. chf.spanCount)`.
 */
export function computeBoundaryDistance(chf: CompactHeightfield, dist: Uint8Array): void {
  const w = chf.width;
  const d = chf.depth;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const con = chf.spanCon;
  const areas = chf.areas;
  const columns = w * d;

  // Seed: 0 on the boundary, 255 ("far") elsewhere.
  for (let z = 0; z < d; z++) {
    for (let x = 0; x < w; x++) {
      const c = x + z * w;
      const first = cellFirst[c];
      const end = first + cellCount[c];
      for (let i = first; i < end; i++) {
        if (areas[i] === NULL_AREA) {
          dist[i] = 0;
          continue;
        }
        const s = con[i];
        const c0 = s & 0xff;
        const c1 = (s >>> 8) & 0xff;
        const c2 = (s >>> 16) & 0xff;
        const c3 = s >>> 24;
        const inside =
          c0 !== NOT_CONNECTED &&
          c1 !== NOT_CONNECTED &&
          c2 !== NOT_CONNECTED &&
          c3 !== NOT_CONNECTED &&
          areas[cellFirst[c - 1] + c0] !== NULL_AREA &&
          areas[cellFirst[c + w] + c1] !== NULL_AREA &&
          areas[cellFirst[c + 1] + c2] !== NULL_AREA &&
          areas[cellFirst[c - w] + c3] !== NULL_AREA;
        dist[i] = inside ? 255 : 0;
      }
    }
  }

  // Forward pass: neighbours at (-1,0), (-1,-1), (0,-1), (1,-1).
  for (let c = 0; c < columns; c++) {
    const first = cellFirst[c];
    const end = first + cellCount[c];
    for (let i = first; i < end; i++) {
      let best = dist[i];
      if (best === 0) continue;
      const s = con[i];
      const c0 = s & 0xff;
      if (c0 !== NOT_CONNECTED) {
        const ac = c - 1;
        const a = cellFirst[ac] + c0;
        const da = dist[a] + 2;
        if (da < best) best = da;
        const b3 = con[a] >>> 24;
        if (b3 !== NOT_CONNECTED) {
          const db = dist[cellFirst[ac - w] + b3] + 3;
          if (db < best) best = db;
        }
      }
      const c3 = s >>> 24;
      if (c3 !== NOT_CONNECTED) {
        const ac = c - w;
        const a = cellFirst[ac] + c3;
        const da = dist[a] + 2;
        if (da < best) best = da;
        const b2 = (con[a] >>> 16) & 0xff;
        if (b2 !== NOT_CONNECTED) {
          const db = dist[cellFirst[ac + 1] + b2] + 3;
          if (db < best) best = db;
        }
      }
      dist[i] = best;
    }
  }

  // Backward pass: neighbours at (1,0), (1,1), (0,1), (-1,1).
  for (let c = columns - 1; c >= 0; c--) {
    const first = cellFirst[c];
    const end = first + cellCount[c];
    for (let i = first; i < end; i++) {
      let best = dist[i];
      if (best === 0) continue;
      const s = con[i];
      const c2 = (s >>> 16) & 0xff;
      if (c2 !== NOT_CONNECTED) {
        const ac = c + 1;
        const a = cellFirst[ac] + c2;
        const da = dist[a] + 2;
        if (da < best) best = da;
        const b1 = (con[a] >>> 8) & 0xff;
        if (b1 !== NOT_CONNECTED) {
          const db = dist[cellFirst[ac + w] + b1] + 3;
          if (db < best) best = db;
        }
      }
      const c1 = (s >>> 8) & 0xff;
      if (c1 !== NOT_CONNECTED) {
        const ac = c + w;
        const a = cellFirst[ac] + c1;
        const da = dist[a] + 2;
        if (da < best) best = da;
        const b0 = con[a] & 0xff;
        if (b0 !== NOT_CONNECTED) {
          const db = dist[cellFirst[ac - 1] + b0] + 3;
          if (db < best) best = db;
        }
      }
      dist[i] = best;
    }
  }
}
