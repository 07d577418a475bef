/**
 * Region outlines: trace, simplify and join holes.
 *
 * Contour tracing, Douglas–Peucker-style simplification with mandatory portal vertices,
 * wall tessellation and hole merging as in Recast's rcBuildContours (Mononen).
 */
import { MeshwayError } from "../errors.js";
import { onSegmentXZ, triArea2XZ } from "../math/predicates2d.js";
import type { BuildContext } from "./context.js";
import type { CompactHeightfield, Contour, ContourSet, Regions } from "./types.js";
import * as T from "./types.js";

// Module-local copies of the shared constants: hot loops then read plain constants even when
// a test runner or bundler turns imports into property getters.
const AREA_BORDER = T.AREA_BORDER;
const BORDER_REGION = T.BORDER_REGION;
const BORDER_VERTEX = T.BORDER_VERTEX;
const CONTOUR_REG_MASK = T.CONTOUR_REG_MASK;
const NOT_CONNECTED = T.NOT_CONNECTED;

/** Split wall edges (no region on the other side) longer than maxEdgeLenVoxels. */
export const CONTOUR_TESS_WALL_EDGES = 1;
/** Split edges between different areas longer than maxEdgeLenVoxels. */
export const CONTOUR_TESS_AREA_EDGES = 2;

const DX = /* @__PURE__ */ new Int32Array([-1, 0, 1, 0]);
const DZ = /* @__PURE__ */ new Int32Array([0, 1, 0, -1]);
const f32 = Math.fround;

/** What the contour walk reads, with cell starts and links as Int32 views. */
interface Grid {
  first: Int32Array;
  links: Int32Array;
  spanY: Uint16Array;
  areas: Uint8Array;
  spanRegion: Uint16Array;
  width: number;
}

/** Growable Int32 scratch; `data` is replaced (doubled) when too small. */
interface IntScratch {
  data: Int32Array;
}

function reserve(s: IntScratch, ints: number): Int32Array {
  if (s.data.length < ints) {
    const next = new Int32Array(Math.max(ints, s.data.length * 2));
    next.set(s.data);
    s.data = next;
  }
  return s.data;
}

/**
 * Height of the contour corner between span i's edge `dir` and the next edge (dir + 1):
 * the highest floor of the up to four spans sharing the corner. Adds BORDER_VERTEX when the
 * corner sits where a tile-border region meets two interior cells of one area, so the
 * polygon mesh stage can drop it. Returns height | (BORDER_VERTEX or 0).
 */
function cornerHeight(g: Grid, x: number, z: number, i: number, dir: number): number {
  const { first, links, spanY, areas, spanRegion, width } = g;
  const dirp = (dir + 1) & 3;
  let h = spanY[i]!;
  // Region and area combined so corners between two areas are never removed.
  const r0 = spanRegion[i]! | (areas[i]! << 16);
  let r1 = 0;
  let r2 = 0;
  let r3 = 0;
  const con = links[i]!;
  let c = (con >>> (dir << 3)) & 0xff;
  if (c !== NOT_CONNECTED) {
    const ax = x + DX[dir]!;
    const az = z + DZ[dir]!;
    const a = first[ax + az * width]! + c;
    if (spanY[a]! > h) h = spanY[a]!;
    r1 = spanRegion[a]! | (areas[a]! << 16);
    c = (links[a]! >>> (dirp << 3)) & 0xff;
    if (c !== NOT_CONNECTED) {
      const b = first[ax + DX[dirp]! + (az + DZ[dirp]!) * width]! + c;
      if (spanY[b]! > h) h = spanY[b]!;
      r2 = spanRegion[b]! | (areas[b]! << 16);
    }
  }
  c = (con >>> (dirp << 3)) & 0xff;
  if (c !== NOT_CONNECTED) {
    const ax = x + DX[dirp]!;
    const az = z + DZ[dirp]!;
    const a = first[ax + az * width]! + c;
    if (spanY[a]! > h) h = spanY[a]!;
    r3 = spanRegion[a]! | (areas[a]! << 16);
    c = (links[a]! >>> (dir << 3)) & 0xff;
    if (c !== NOT_CONNECTED) {
      const b = first[ax + DX[dir]! + (az + DZ[dir]!) * width]! + c;
      if (spanY[b]! > h) h = spanY[b]!;
      r2 = spanRegion[b]! | (areas[b]! << 16);
    }
  }
  if (r0 !== 0 && r1 !== 0 && r2 !== 0 && r3 !== 0) {
    if (
      isBorderCorner(r0, r1, r2, r3) ||
      isBorderCorner(r1, r2, r3, r0) ||
      isBorderCorner(r2, r3, r0, r1) ||
      isBorderCorner(r3, r0, r1, r2)
    ) {
      return h | BORDER_VERTEX;
    }
  }
  return h;
}

/** Two equal tile-border cells in a row followed by two interior cells of the same area. */
function isBorderCorner(a: number, b: number, c: number, d: number): boolean {
  return (
    (a & b & BORDER_REGION) !== 0 &&
    a === b &&
    ((c | d) & BORDER_REGION) === 0 &&
    c >>> 16 === d >>> 16
  );
}

/**
 * Walks the boundary of span `start`'s region, keeping the region on the right-hand side,
 * clearing the edge flags it consumes. Writes raw vertices (4 ints) into `out`; returns
 * their count, or -count when the step cap was hit (corrupt connectivity).
 */
function traceContour(
  g: Grid,
  edgeFlags: Uint8Array,
  startX: number,
  startZ: number,
  start: number,
  out: IntScratch,
  maxSteps: number,
): number {
  const { first, links, areas, spanRegion, width } = g;
  let dir = 0;
  while ((edgeFlags[start]! & (1 << dir)) === 0) dir++;
  const startDir = dir;
  const area = areas[start];
  let x = startX;
  let z = startZ;
  let i = start;
  let n = 0;
  let data = out.data;
  for (let step = 0; ; step++) {
    if (step >= maxSteps) return -(n >> 2);
    const bit = 1 << dir;
    const c = (links[i]! >>> (dir << 3)) & 0xff;
    if ((edgeFlags[i]! & bit) !== 0) {
      const corner = cornerHeight(g, x, z, i, dir);
      // The corner shared by this edge and the next one (dir + 1), where this edge ends.
      const px = dir === 1 || dir === 2 ? x + 1 : x;
      const pz = dir === 0 || dir === 1 ? z + 1 : z;
      let r = corner & BORDER_VERTEX;
      if (c !== NOT_CONNECTED) {
        const ni = first[x + DX[dir]! + (z + DZ[dir]!) * width]! + c;
        r |= spanRegion[ni]!;
        if (areas[ni] !== area) r |= AREA_BORDER;
      }
      if (n + 4 > data.length) data = reserve(out, n + 4);
      data[n] = px;
      data[n + 1] = corner & 0xffff;
      data[n + 2] = pz;
      data[n + 3] = r;
      n += 4;
      edgeFlags[i]! &= ~bit;
      dir = (dir + 1) & 3;
    } else {
      if (c === NOT_CONNECTED) break; // cannot happen with consistent links
      x += DX[dir]!;
      z += DZ[dir]!;
      i = first[x + z * width]! + c;
      dir = (dir + 3) & 3;
    }
    if (i === start && dir === startDir) break;
  }
  return n >> 2;
}

/** Squared distance from (x, z) to segment p–q, in float32 steps like Recast's. */
function distPtSegSq(x: number, z: number, px: number, pz: number, qx: number, qz: number): number {
  const pqx = qx - px;
  const pqz = qz - pz;
  const d = f32(f32(pqx * pqx) + f32(pqz * pqz));
  let t = f32(f32(pqx * (x - px)) + f32(pqz * (z - pz)));
  if (d > 0) t = f32(t / d);
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = f32(f32(px + f32(t * pqx)) - x);
  const dz = f32(f32(pz + f32(t * pqz)) - z);
  return f32(f32(dx * dx) + f32(dz * dz));
}

/** Inserts raw vertex `ri` after simplified vertex `at`; returns the new count. */
function insertAfter(
  out: IntScratch,
  count: number,
  at: number,
  raw: Int32Array,
  ri: number,
): number {
  const s = reserve(out, (count + 1) * 4);
  const dst = (at + 1) * 4;
  s.copyWithin(dst + 4, dst, count * 4);
  s[dst] = raw[ri * 4]!;
  s[dst + 1] = raw[ri * 4 + 1]!;
  s[dst + 2] = raw[ri * 4 + 2]!;
  s[dst + 3] = ri;
  return count + 1;
}

/**
 * Simplifies raw contour `raw` (pn vertices) into `out`. While working, the 4th component of
 * a simplified vertex is its raw index; at the end it becomes the neighbour region and
 * AREA_BORDER of the edge it starts plus its own BORDER_VERTEX flag. Returns the count.
 */
function simplifyContour(
  raw: Int32Array,
  pn: number,
  out: IntScratch,
  maxErrorSq: number,
  maxEdgeLen: number,
  buildFlags: number,
): number {
  let n = 0;
  let s = out.data;
  let hasConnections = false;
  for (let i = 0; i < pn; i++) {
    if ((raw[i * 4 + 3]! & CONTOUR_REG_MASK) !== 0) {
      hasConnections = true;
      break;
    }
  }
  if (hasConnections) {
    // Every place where the neighbour region or the area-border state changes is mandatory,
    // so both regions sharing a portal keep the same vertices.
    for (let i = 0; i < pn; i++) {
      const a = raw[i * 4 + 3]!;
      const b = raw[((i + 1) % pn) * 4 + 3]!;
      if (
        (a & CONTOUR_REG_MASK) !== (b & CONTOUR_REG_MASK) ||
        (a & AREA_BORDER) !== (b & AREA_BORDER)
      ) {
        if ((n + 1) * 4 > s.length) s = reserve(out, (n + 1) * 4);
        s[n * 4] = raw[i * 4]!;
        s[n * 4 + 1] = raw[i * 4 + 1]!;
        s[n * 4 + 2] = raw[i * 4 + 2]!;
        s[n * 4 + 3] = i;
        n++;
      }
    }
  }
  if (n === 0) {
    // An island: seed with the lowest-left and highest-right vertices.
    let lli = 0;
    let uri = 0;
    for (let i = 1; i < pn; i++) {
      const x = raw[i * 4]!;
      const z = raw[i * 4 + 2]!;
      const llx = raw[lli * 4]!;
      if (x < llx || (x === llx && z < raw[lli * 4 + 2]!)) lli = i;
      const urx = raw[uri * 4]!;
      if (x > urx || (x === urx && z > raw[uri * 4 + 2]!)) uri = i;
    }
    s = reserve(out, 8);
    for (let k = 0; k < 3; k++) {
      s[k] = raw[lli * 4 + k]!;
      s[4 + k] = raw[uri * 4 + k]!;
    }
    s[3] = lli;
    s[7] = uri;
    n = 2;
  }

  // Refine: split each segment at its farthest raw vertex until all lie within maxError.
  for (let i = 0; i < n; ) {
    s = out.data;
    const ii = (i + 1) % n;
    let ax = s[i * 4]!;
    let az = s[i * 4 + 2]!;
    const ai = s[i * 4 + 3]!;
    let bx = s[ii * 4]!;
    let bz = s[ii * 4 + 2]!;
    const bi = s[ii * 4 + 3]!;
    // Walk the raw run in lexicographic order so shared edges of two regions simplify alike.
    let ci: number;
    let cinc: number;
    let endi: number;
    if (bx > ax || (bx === ax && bz > az)) {
      cinc = 1;
      ci = (ai + 1) % pn;
      endi = bi;
    } else {
      cinc = pn - 1;
      ci = (bi + cinc) % pn;
      endi = ai;
      let t = ax;
      ax = bx;
      bx = t;
      t = az;
      az = bz;
      bz = t;
    }
    let maxd = 0;
    let maxi = -1;
    // Only walls and area borders are simplified; portals stay exact.
    const cr = raw[ci * 4 + 3]!;
    if ((cr & CONTOUR_REG_MASK) === 0 || (cr & AREA_BORDER) !== 0) {
      while (ci !== endi) {
        const d = distPtSegSq(raw[ci * 4]!, raw[ci * 4 + 2]!, ax, az, bx, bz);
        if (d > maxd) {
          maxd = d;
          maxi = ci;
        }
        ci = (ci + cinc) % pn;
      }
    }
    if (maxi !== -1 && maxd > maxErrorSq) n = insertAfter(out, n, i, raw, maxi);
    else i++;
  }

  // Split long wall / area edges at the middle raw vertex.
  if (maxEdgeLen > 0 && (buildFlags & (CONTOUR_TESS_WALL_EDGES | CONTOUR_TESS_AREA_EDGES)) !== 0) {
    const maxLenSq = maxEdgeLen * maxEdgeLen;
    for (let i = 0; i < n; ) {
      s = out.data;
      const ii = (i + 1) % n;
      const ax = s[i * 4]!;
      const az = s[i * 4 + 2]!;
      const ai = s[i * 4 + 3]!;
      const bx = s[ii * 4]!;
      const bz = s[ii * 4 + 2]!;
      const bi = s[ii * 4 + 3]!;
      const cr = raw[((ai + 1) % pn) * 4 + 3]!;
      const tess =
        ((buildFlags & CONTOUR_TESS_WALL_EDGES) !== 0 && (cr & CONTOUR_REG_MASK) === 0) ||
        ((buildFlags & CONTOUR_TESS_AREA_EDGES) !== 0 && (cr & AREA_BORDER) !== 0);
      let maxi = -1;
      if (tess) {
        const dx = bx - ax;
        const dz = bz - az;
        if (dx * dx + dz * dz > maxLenSq) {
          const span = bi < ai ? bi + pn - ai : bi - ai;
          if (span > 1) {
            // Round toward the lexicographically smaller end so both sides split alike.
            const half = bx > ax || (bx === ax && bz > az) ? span >> 1 : (span + 1) >> 1;
            maxi = (ai + half) % pn;
          }
        }
      }
      if (maxi !== -1) n = insertAfter(out, n, i, raw, maxi);
      else i++;
    }
  }

  s = out.data;
  for (let i = 0; i < n; i++) {
    const bi = s[i * 4 + 3]!;
    const ai = (bi + 1) % pn;
    s[i * 4 + 3] =
      (raw[ai * 4 + 3]! & (CONTOUR_REG_MASK | AREA_BORDER)) | (raw[bi * 4 + 3]! & BORDER_VERTEX);
  }
  return n;
}

/** Drops a vertex equal on XZ to its successor (the triangulator needs distinct neighbours). */
function removeDegenerateSegments(s: Int32Array, n: number): number {
  for (let i = 0; i < n; i++) {
    const ni = i + 1 < n ? i + 1 : 0;
    if (s[i * 4] === s[ni * 4] && s[i * 4 + 2] === s[ni * 4 + 2]) {
      s.copyWithin(i * 4, (i + 1) * 4, n * 4);
      n--;
    }
  }
  return n;
}

/** True when the n contour vertices in `s` (integer cells) all lie on one line in XZ. */
function collinearXZ(s: Int32Array, n: number): boolean {
  const ax = s[0]!;
  const az = s[2]!;
  // The first vertex distinct from the first (neighbours differ after removeDegenerateSegments).
  const bx = s[4]!;
  const bz = s[6]!;
  for (let i = 2; i < n; i++) {
    if (triArea2XZ(ax, az, s[i * 4]!, s[i * 4 + 2]!, bx, bz) !== 0) return false;
  }
  return true;
}

/** Twice the signed XZ area, rounded like Recast's (positive = outline, negative = hole). */
function signedArea(v: Int32Array): number {
  const n = v.length >> 2;
  let area = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    area += v[i * 4]! * v[j * 4 + 2]! - v[j * 4]! * v[i * 4 + 2]!;
  }
  return Math.trunc((area + 1) / 2);
}

// Orientation: Recast's area2(a, b, c) is triArea2XZ(a, c, b) (math/predicates2d.ts), so the
// Recast-ported tests below pass their last two points swapped.

/** Segments a–b and c–d touch or cross (endpoints included). */
function segmentsIntersect(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
  dx: number,
  dz: number,
): boolean {
  const abc = triArea2XZ(ax, az, cx, cz, bx, bz);
  const abd = triArea2XZ(ax, az, dx, dz, bx, bz);
  const cda = triArea2XZ(cx, cz, ax, az, dx, dz);
  const cdb = triArea2XZ(cx, cz, bx, bz, dx, dz);
  if (abc !== 0 && abd !== 0 && cda !== 0 && cdb !== 0) {
    return abc < 0 !== abd < 0 && cda < 0 !== cdb < 0;
  }
  return (
    onSegmentXZ(ax, az, bx, bz, cx, cz) ||
    onSegmentXZ(ax, az, bx, bz, dx, dz) ||
    onSegmentXZ(cx, cz, dx, dz, ax, az) ||
    onSegmentXZ(cx, cz, dx, dz, bx, bz)
  );
}

/**
 * Does segment d0–d1 hit an edge of contour `v`? Edges sharing an endpoint with the segment
 * are ignored (the segment's ends are contour vertices).
 */
function segmentHitsContour(
  d0x: number,
  d0z: number,
  d1x: number,
  d1z: number,
  v: Int32Array,
): boolean {
  const n = v.length >> 2;
  for (let k = 0; k < n; k++) {
    const k1 = k + 1 < n ? k + 1 : 0;
    const p0x = v[k * 4]!;
    const p0z = v[k * 4 + 2]!;
    const p1x = v[k1 * 4]!;
    const p1z = v[k1 * 4 + 2]!;
    if (
      (d0x === p0x && d0z === p0z) ||
      (d1x === p0x && d1z === p0z) ||
      (d0x === p1x && d0z === p1z) ||
      (d1x === p1x && d1z === p1z)
    ) {
      continue;
    }
    if (segmentsIntersect(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z)) return true;
  }
  return false;
}

/** Is (px, pz) inside the interior angle of contour vertex j (so a diagonal j–p can start there)? */
function inCone(v: Int32Array, j: number, px: number, pz: number): boolean {
  const n = v.length >> 2;
  const jn = j + 1 < n ? j + 1 : 0;
  const jp = j > 0 ? j - 1 : n - 1;
  const x = v[j * 4]!;
  const z = v[j * 4 + 2]!;
  const nx = v[jn * 4]!;
  const nz = v[jn * 4 + 2]!;
  const qx = v[jp * 4]!;
  const qz = v[jp * 4 + 2]!;
  if (triArea2XZ(qx, qz, nx, nz, x, z) <= 0) {
    // Convex vertex.
    return triArea2XZ(x, z, qx, qz, px, pz) < 0 && triArea2XZ(px, pz, nx, nz, x, z) < 0;
  }
  // Reflex vertex.
  return !(triArea2XZ(x, z, nx, nz, px, pz) <= 0 && triArea2XZ(px, pz, qx, qz, x, z) <= 0);
}

/** Outline from vertex ia round to ia again, then the hole from ib round to ib: one polygon. */
function bridge(outline: Int32Array, hole: Int32Array, ia: number, ib: number): Int32Array {
  const na = outline.length >> 2;
  const nb = hole.length >> 2;
  const out = new Int32Array((na + nb + 2) * 4);
  let o = 0;
  for (let k = 0; k <= na; k++, o += 4) {
    const src = ((ia + k) % na) * 4;
    out[o] = outline[src]!;
    out[o + 1] = outline[src + 1]!;
    out[o + 2] = outline[src + 2]!;
    out[o + 3] = outline[src + 3]!;
  }
  for (let k = 0; k <= nb; k++, o += 4) {
    const src = ((ib + k) % nb) * 4;
    out[o] = hole[src]!;
    out[o + 1] = hole[src + 1]!;
    out[o + 2] = hole[src + 2]!;
    out[o + 3] = hole[src + 3]!;
  }
  return out;
}

/**
 * Joins every hole of one region into its outline, left to right, each through the shortest
 * diagonal from a hole vertex (leftmost first) to an outline vertex that crosses neither the
 * outline nor the holes still to merge (Recast's mergeRegionHoles).
 */
function mergeHoles(
  outline: Contour,
  holes: Contour[],
  holeLeftmost: Int32Array,
  diagKeys: { data: Float64Array },
  ctx: BuildContext | undefined,
): void {
  for (let h = 0; h < holes.length; h++) {
    const hole = holes[h]!;
    const hv = hole.verts;
    const hn = hv.length >> 2;
    let best = holeLeftmost[h]!;
    let index = -1;
    for (let iter = 0; iter < hn && index === -1; iter++) {
      const ov = outline.verts;
      const on = ov.length >> 2;
      const cx = hv[best * 4]!;
      const cz = hv[best * 4 + 2]!;
      if (diagKeys.data.length < on)
        diagKeys.data = new Float64Array(Math.max(on, diagKeys.data.length * 2));
      const keys = diagKeys.data;
      let nd = 0;
      for (let j = 0; j < on; j++) {
        if (inCone(ov, j, cx, cz)) {
          const dx = ov[j * 4]! - cx;
          const dz = ov[j * 4 + 2]! - cz;
          // Sort key (distance, vertex): exact in a double for any realistic grid.
          keys[nd++] = (dx * dx + dz * dz) * on + j;
        }
      }
      const sorted = keys.subarray(0, nd).sort();
      for (let k = 0; k < nd; k++) {
        const j = sorted[k]! % on;
        const px = ov[j * 4]!;
        const pz = ov[j * 4 + 2]!;
        let hit = segmentHitsContour(px, pz, cx, cz, ov);
        for (let r = h; r < holes.length && !hit; r++) {
          hit = segmentHitsContour(px, pz, cx, cz, holes[r]!.verts);
        }
        if (!hit) {
          index = j;
          break;
        }
      }
      if (index === -1) best = (best + 1) % hn;
    }
    if (index === -1) {
      ctx?.warn(
        `buildContours: no bridge found for a hole of region ${outline.region}; hole left open`,
      );
      continue;
    }
    outline.verts = bridge(outline.verts, hv, index, best);
    hole.verts = new Int32Array(0);
  }
}

/**
 * Sets each region span's edge bits (a direction whose neighbour lies in another region or
 * is missing) and lists the spans that may start a walk as (span, column) pairs in `starts`;
 * returns how many.
 */
function markEdges(
  g: Grid,
  cellCount: Uint16Array,
  depth: number,
  edgeFlags: Uint8Array,
  starts: IntScratch,
): number {
  const { first, links, spanRegion, width } = g;
  let startCount = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const col = x + z * width;
      for (let i = first[col]!, end = i + cellCount[col]!; i < end; i++) {
        const reg = spanRegion[i]!;
        if (reg === 0 || (reg & BORDER_REGION) !== 0) continue;
        const con = links[i]!;
        let f = 0;
        let c = con & 0xff;
        if (c === NOT_CONNECTED || spanRegion[first[col - 1]! + c] !== reg) f = 1;
        c = (con >>> 8) & 0xff;
        if (c === NOT_CONNECTED || spanRegion[first[col + width]! + c] !== reg) f |= 2;
        c = (con >>> 16) & 0xff;
        if (c === NOT_CONNECTED || spanRegion[first[col + 1]! + c] !== reg) f |= 4;
        c = con >>> 24;
        if (c === NOT_CONNECTED || spanRegion[first[col - width]! + c] !== reg) f |= 8;
        edgeFlags[i] = f;
        // A one-span region (all four bits) has no interior to outline, as in Recast.
        if (f !== 0 && f !== 0xf) {
          if (startCount * 2 + 2 > starts.data.length) reserve(starts, startCount * 2 + 2);
          starts.data[startCount * 2] = i;
          starts.data[startCount * 2 + 1] = col;
          startCount++;
        }
      }
    }
  }
  return startCount;
}

/**
 * Builds the simplified outline of every region (Recast's rcBuildContours).
 *
 * @param chf compact heightfield the regions were built on (not modified).
 * @param regions region id per span; 0 and BORDER_REGION spans produce no contours.
 * @param maxErrorVoxels largest distance a simplified wall edge may stray from the raw
 *   outline. [Units: cells, Limit: >= 0]
 * @param maxEdgeLenVoxels longest tessellated edge; 0 disables splitting. [Units: cells, integer]
 * @param buildFlags CONTOUR_TESS_WALL_EDGES | CONTOUR_TESS_AREA_EDGES.
 *
 * Output vertices are in voxels relative to the tile without its border (x, z reduced by
 * chf.borderSize). In `verts` the 4th component describes the edge starting at the vertex; in
 * `rawVerts` (one vertex per cell edge, as Recast) it describes the edge ending there.
 *
 * Each traced outline gives one contour. A region's holes are joined into its outline through
 * a bridge, leaving the hole contour with empty `verts` (its `rawVerts` remain), exactly as
 * Recast's contour set does; later stages skip contours with fewer than 3 vertices. Outlines
 * simplifying to fewer than three vertices are dropped, and one-span regions give none.
 * When several bridges are equally short, the one to the lowest-index outline vertex wins
 * (Recast leaves this to qsort's tie order).
 */
export function buildContours(
  chf: CompactHeightfield,
  regions: Regions,
  maxErrorVoxels: number,
  maxEdgeLenVoxels: number,
  buildFlags: number = CONTOUR_TESS_WALL_EDGES,
  ctx?: BuildContext,
): ContourSet {
  const { width, depth, borderSize, cellFirst, cellCount, spanCount, areas } = chf;
  const spanRegion = regions.spanRegion;
  if (spanRegion.length < spanCount) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `buildContours: regions.spanRegion has ${spanRegion.length} entries, compact heightfield has ${spanCount} spans`,
    );
  }
  // Int32 views: index arithmetic stays in small integers (Uint32 loads may leave int range).
  const first = new Int32Array(cellFirst.buffer, cellFirst.byteOffset, cellFirst.length);
  const links = new Int32Array(chf.spanCon.buffer, chf.spanCon.byteOffset, chf.spanCon.length);
  const g: Grid = { first, links, spanY: chf.spanY, areas, spanRegion, width };

  // Per span, one bit per direction whose neighbour lies in another region (or none).
  // Spans with some but not all bits set may start a walk; they are listed in scan order
  // (span, column) so the walk loop need not rescan the grid. A function of its own, so the
  // walk loop below is not left in the interpreter when this loop's optimized code exits.
  const edgeFlags = new Uint8Array(spanCount);
  const starts: IntScratch = { data: new Int32Array(1024) };
  const startCount = markEdges(g, cellCount, depth, edgeFlags, starts);

  const contours: Contour[] = [];
  const raw: IntScratch = { data: new Int32Array(1024) };
  const simp: IntScratch = { data: new Int32Array(256) };
  const maxErrorSq = f32(f32(maxErrorVoxels) * f32(maxErrorVoxels));
  const maxEdgeLen = Math.trunc(maxEdgeLenVoxels);
  // Guard against corrupt links only. Recast stops a walk after 40000 steps, truncating very
  // long outlines; a walk on consistent links closes well within this bound.
  const maxSteps = 8 * spanCount + 16;

  const startList = starts.data;
  for (let k = 0; k < startCount; k++) {
    const i = startList[k * 2]!;
    if (edgeFlags[i] === 0) continue; // consumed by an earlier walk
    const col = startList[k * 2 + 1]!;
    const z = (col / width) | 0;
    const x = col - z * width;
    const reg = spanRegion[i]!;
    let nraw = traceContour(g, edgeFlags, x, z, i, raw, maxSteps);
    if (nraw < 0) {
      nraw = -nraw;
      ctx?.warn(`buildContours: contour walk of region ${reg} did not close; links inconsistent`);
    }
    const rawData = raw.data;
    let n = simplifyContour(rawData, nraw, simp, maxErrorSq, maxEdgeLen, buildFlags);
    n = removeDegenerateSegments(simp.data, n);
    if (n < 3) continue;
    // A contour whose simplified vertices all lie on one line bounds no area (a sliver of
    // region thinner than the simplification error, collapsed onto the vertices it must keep,
    // e.g. along a tile border). Recast keeps it and triangulates it into zero-area polygons;
    // it is dropped here (docs/differences-from-recast.md).
    if (collinearXZ(simp.data, n)) continue;
    const verts = simp.data.slice(0, n * 4);
    const rawVerts = rawData.slice(0, nraw * 4);
    if (borderSize > 0) {
      for (let v = 0; v < verts.length; v += 4) {
        verts[v]! -= borderSize;
        verts[v + 2]! -= borderSize;
      }
      for (let v = 0; v < rawVerts.length; v += 4) {
        rawVerts[v]! -= borderSize;
        rawVerts[v + 2]! -= borderSize;
      }
    }
    contours.push({ verts, rawVerts, region: reg, area: areas[i]! });
  }

  mergeAllHoles(contours, ctx);

  const pad = borderSize * chf.cellSize;
  return {
    contours,
    bmin: [chf.bmin[0] + pad, chf.bmin[1], chf.bmin[2] + pad],
    bmax: [chf.bmax[0] - pad, chf.bmax[1], chf.bmax[2] - pad],
    cellSize: chf.cellSize,
    cellHeight: chf.cellHeight,
    width: width - 2 * borderSize,
    depth: depth - 2 * borderSize,
    borderSize,
    maxError: maxErrorVoxels,
  };
}

/** Finds holes (clockwise in XZ, negative area) and merges each region's into its outline. */
function mergeAllHoles(contours: Contour[], ctx: BuildContext | undefined): void {
  const nc = contours.length;
  if (nc === 0) return;
  const isHole = new Uint8Array(nc);
  let holeTotal = 0;
  let maxRegion = 0;
  for (let c = 0; c < nc; c++) {
    const cont = contours[c]!;
    if (signedArea(cont.verts) < 0) {
      isHole[c] = 1;
      holeTotal++;
    }
    if (cont.region > maxRegion) maxRegion = cont.region;
  }
  if (holeTotal === 0) return;

  const outlineOf = new Int32Array(maxRegion + 1).fill(-1);
  const holeStart = new Int32Array(maxRegion + 2);
  for (let c = 0; c < nc; c++) {
    const reg = contours[c]!.region;
    if (isHole[c]) holeStart[reg + 1]!++;
    else {
      if (outlineOf[reg] !== -1) ctx?.warn(`buildContours: region ${reg} has several outlines`);
      outlineOf[reg] = c;
    }
  }
  for (let r = 0; r <= maxRegion; r++) holeStart[r + 1]! += holeStart[r]!;
  const holeList = new Int32Array(holeTotal);
  const fill = holeStart.slice(0, maxRegion + 1);
  for (let c = 0; c < nc; c++) if (isHole[c]) holeList[fill[contours[c]!.region]!++] = c;

  // Leftmost (then lowest z) vertex of each hole, which also orders the holes.
  const leftX = new Int32Array(nc);
  const leftZ = new Int32Array(nc);
  const leftIdx = new Int32Array(nc);
  for (let k = 0; k < holeTotal; k++) {
    const c = holeList[k]!;
    const v = contours[c]!.verts;
    let best = 0;
    for (let i = 1, n = v.length >> 2; i < n; i++) {
      const x = v[i * 4]!;
      const z = v[i * 4 + 2]!;
      if (x < v[best * 4]! || (x === v[best * 4] && z < v[best * 4 + 2]!)) best = i;
    }
    leftX[c] = v[best * 4]!;
    leftZ[c] = v[best * 4 + 2]!;
    leftIdx[c] = best;
  }

  const diagKeys = { data: new Float64Array(64) };
  for (let r = 0; r <= maxRegion; r++) {
    const h0 = holeStart[r]!;
    const h1 = holeStart[r + 1]!;
    if (h0 === h1) continue;
    if (outlineOf[r] === -1) {
      ctx?.warn(
        `buildContours: region ${r} has holes but no outline; contour simplification is likely too aggressive`,
      );
      continue;
    }
    // Insertion sort by (leftX, leftZ): few holes per region, and stable.
    for (let a = h0 + 1; a < h1; a++) {
      const c = holeList[a]!;
      let b = a - 1;
      while (
        b >= h0 &&
        (leftX[holeList[b]!]! > leftX[c]! ||
          (leftX[holeList[b]!] === leftX[c] && leftZ[holeList[b]!]! > leftZ[c]!))
      ) {
        holeList[b + 1] = holeList[b]!;
        b--;
      }
      holeList[b + 1] = c;
    }
    const holes: Contour[] = [];
    const lm = new Int32Array(h1 - h0);
    for (let k = h0; k < h1; k++) {
      holes.push(contours[holeList[k]!]!);
      lm[k - h0] = leftIdx[holeList[k]!]!;
    }
    mergeHoles(contours[outlineOf[r]!]!, holes, lm, diagKeys, ctx);
  }
}
