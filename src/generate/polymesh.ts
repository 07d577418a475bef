/**
 * Polygon mesh from simplified contours, as in Recast's rcBuildPolyMesh (Mononen): ear-clip each
 * contour in XZ, weld vertices through a spatial hash, greedily merge triangles into convex
 * polygons (longest shared edge first), drop tile-border vertices by re-triangulating the hole
 * they leave, then link polygons across shared edges and mark tile-border portals.
 *
 * Everything is typed arrays; the per-contour scratch buffers are sized once for the largest
 * contour and reused.
 */

import { MeshwayError } from "../errors.js";
import { betweenOnLineXZ, triArea2XZ } from "../math/predicates2d.js";
import type { Vec3 } from "../math/vec3.js";
import type { BuildContext } from "./context.js";
import {
  BORDER_VERTEX,
  type ContourSet,
  MESH_NULL_INDEX,
  PORTAL_FLAG,
  type PolyMesh,
} from "./types.js";

const NULL_IDX = MESH_NULL_INDEX;
/** Index bits of a triangulation slot; the sign bit marks "the vertex here is an ear tip". */
const INDEX_MASK = 0x0fffffff;
const EAR_FLAG = 0x80000000 | 0;
const VERTEX_BUCKET_COUNT = 1 << 12;
/** Region id given to hole polygons that straddle several regions (Recast's RC_MULTIPLE_REGS). */
const MULTIPLE_REGIONS = 0;

// ---------------------------------------------------------------------------------------------
// Triangulation. `verts` holds 4 ints per vertex (x, y, z, flags); only x and z matter.
// Points are passed as base offsets into `verts`.

/**
 * (i, j) hits no polygon edge other than those incident to i or j, nor edges that merely share
 * an endpoint position with it. Strict mode rejects any contact (crossing, touching, collinear
 * overlap); `loose` rejects proper crossings only.
 */
function clearOfEdges(
  i: number,
  j: number,
  n: number,
  v: Int32Array,
  idx: Int32Array,
  loose: boolean,
): boolean {
  const d0 = (idx[i]! & INDEX_MASK) * 4;
  const d1 = (idx[j]! & INDEX_MASK) * 4;
  const ax = v[d0]!;
  const az = v[d0 + 2]!;
  const bx = v[d1]!;
  const bz = v[d1 + 2]!;
  const ex = bx - ax;
  const ez = bz - az;
  for (let k = 0; k < n; k++) {
    const k1 = k + 1 < n ? k + 1 : 0;
    if (k === i || k1 === i || k === j || k1 === j) continue;
    const p0 = (idx[k]! & INDEX_MASK) * 4;
    const p1 = (idx[k1]! & INDEX_MASK) * 4;
    const cx = v[p0]!;
    const cz = v[p0 + 2]!;
    const dx = v[p1]!;
    const dz = v[p1 + 2]!;
    if (
      (cx === ax && cz === az) ||
      (cx === bx && cz === bz) ||
      (dx === ax && dz === az) ||
      (dx === bx && dz === bz)
    ) {
      continue;
    }
    // Signed areas (Recast's area2 = triArea2XZ(a, c, b)) of c and d against a-b, inlined for
    // speed; both strictly on one side: no contact.
    const abc = ex * (cz - az) - (cx - ax) * ez;
    const abd = ex * (dz - az) - (dx - ax) * ez;
    if ((abc > 0 && abd > 0) || (abc < 0 && abd < 0)) continue;
    const fx = dx - cx;
    const fz = dz - cz;
    const cda = fx * (az - cz) - (ax - cx) * fz;
    const cdb = fx * (bz - cz) - (bx - cx) * fz;
    if (abc !== 0 && abd !== 0 && cda !== 0 && cdb !== 0) {
      // Proper crossing: a and b on opposite sides of c-d (c, d already are of a-b).
      if (cda < 0 !== cdb < 0) return false;
      continue;
    }
    if (loose) continue;
    if (
      (abc === 0 && betweenOnLineXZ(ax, az, bx, bz, cx, cz)) ||
      (abd === 0 && betweenOnLineXZ(ax, az, bx, bz, dx, dz)) ||
      (cda === 0 && betweenOnLineXZ(cx, cz, dx, dz, ax, az)) ||
      (cdb === 0 && betweenOnLineXZ(cx, cz, dx, dz, bx, bz))
    ) {
      return false;
    }
  }
  return true;
}

/** (i, j) starts inside the polygon's angle at i (clockwise winding in XZ, as contours are). */
function insideCone(
  i: number,
  j: number,
  n: number,
  v: Int32Array,
  idx: Int32Array,
  loose: boolean,
): boolean {
  const pi = (idx[i]! & INDEX_MASK) * 4;
  const pj = (idx[j]! & INDEX_MASK) * 4;
  const pNext = (idx[i + 1 < n ? i + 1 : 0]! & INDEX_MASK) * 4;
  const pPrev = (idx[i > 0 ? i - 1 : n - 1]! & INDEX_MASK) * 4;
  // Recast's area2(a, b, c) (its convex/reflex tests) is triArea2XZ(a, c, b).
  const ix = v[pi]!;
  const iz = v[pi + 2]!;
  const jx = v[pj]!;
  const jz = v[pj + 2]!;
  const nx = v[pNext]!;
  const nz = v[pNext + 2]!;
  const px = v[pPrev]!;
  const pz = v[pPrev + 2]!;
  if (triArea2XZ(px, pz, nx, nz, ix, iz) <= 0) {
    // Convex corner.
    if (loose)
      return triArea2XZ(ix, iz, px, pz, jx, jz) <= 0 && triArea2XZ(jx, jz, nx, nz, ix, iz) <= 0;
    return triArea2XZ(ix, iz, px, pz, jx, jz) < 0 && triArea2XZ(jx, jz, nx, nz, ix, iz) < 0;
  }
  // Reflex corner.
  return !(triArea2XZ(ix, iz, nx, nz, jx, jz) <= 0 && triArea2XZ(jx, jz, px, pz, ix, iz) <= 0);
}

function isDiagonal(i: number, j: number, n: number, v: Int32Array, idx: Int32Array): boolean {
  return insideCone(i, j, n, v, idx, false) && clearOfEdges(i, j, n, v, idx, false);
}

function isLooseDiagonal(i: number, j: number, n: number, v: Int32Array, idx: Int32Array): boolean {
  return insideCone(i, j, n, v, idx, true) && clearOfEdges(i, j, n, v, idx, true);
}

/**
 * Ear clipping that always cuts the ear with the shortest new diagonal. `idx` holds the n
 * polygon vertex ids (destroyed); triangles of vertex ids go to `tris`. Returns the triangle
 * count, negated when the outline could not be finished (the triangles so far are still valid).
 */
function triangulate(n: number, v: Int32Array, idx: Int32Array, tris: Int32Array): number {
  let ntris = 0;
  let dst = 0;
  for (let i = 0; i < n; i++) {
    const i1 = i + 1 < n ? i + 1 : 0;
    const i2 = i1 + 1 < n ? i1 + 1 : 0;
    if (isDiagonal(i, i2, n, v, idx)) idx[i1]! |= EAR_FLAG;
  }
  while (n > 3) {
    let minLen = -1;
    let mini = -1;
    for (let i = 0; i < n; i++) {
      const i1 = i + 1 < n ? i + 1 : 0;
      if (idx[i1]! < 0) {
        const i2 = i1 + 1 < n ? i1 + 1 : 0;
        const p0 = (idx[i]! & INDEX_MASK) * 4;
        const p2 = (idx[i2]! & INDEX_MASK) * 4;
        const dx = v[p2]! - v[p0]!;
        const dz = v[p2 + 2]! - v[p0 + 2]!;
        const len = dx * dx + dz * dz;
        if (minLen < 0 || len < minLen) {
          minLen = len;
          mini = i;
        }
      }
    }
    if (mini === -1) {
      // No strict ear: the outline has overlapping or touching segments. Accept diagonals that
      // only touch other edges so the outline can still be finished. The length measured here
      // spans to the vertex after the ear (Recast's choice, kept for identical output).
      for (let i = 0; i < n; i++) {
        const i1 = i + 1 < n ? i + 1 : 0;
        const i2 = i1 + 1 < n ? i1 + 1 : 0;
        if (isLooseDiagonal(i, i2, n, v, idx)) {
          const i3 = i2 + 1 < n ? i2 + 1 : 0;
          const p0 = (idx[i]! & INDEX_MASK) * 4;
          const p2 = (idx[i3]! & INDEX_MASK) * 4;
          const dx = v[p2]! - v[p0]!;
          const dz = v[p2 + 2]! - v[p0 + 2]!;
          const len = dx * dx + dz * dz;
          if (minLen < 0 || len < minLen) {
            minLen = len;
            mini = i;
          }
        }
      }
      if (mini === -1) return -ntris;
    }
    let i1 = mini + 1 < n ? mini + 1 : 0;
    const i2 = i1 + 1 < n ? i1 + 1 : 0;
    tris[dst++] = idx[mini]! & INDEX_MASK;
    tris[dst++] = idx[i1]! & INDEX_MASK;
    tris[dst++] = idx[i2]! & INDEX_MASK;
    ntris++;
    // Drop the ear tip and re-test the two corners beside it.
    n--;
    idx.copyWithin(i1, i1 + 1, n + 1);
    if (i1 >= n) i1 = 0;
    const i0 = i1 > 0 ? i1 - 1 : n - 1;
    const im = i0 > 0 ? i0 - 1 : n - 1;
    if (isDiagonal(im, i1, n, v, idx)) idx[i0]! |= EAR_FLAG;
    else idx[i0]! &= INDEX_MASK;
    if (isDiagonal(i0, i1 + 1 < n ? i1 + 1 : 0, n, v, idx)) idx[i1]! |= EAR_FLAG;
    else idx[i1]! &= INDEX_MASK;
  }
  tris[dst++] = idx[0]! & INDEX_MASK;
  tris[dst++] = idx[1]! & INDEX_MASK;
  tris[dst] = idx[2]! & INDEX_MASK;
  return ntris + 1;
}

// ---------------------------------------------------------------------------------------------
// Polygon merging. Polygons are runs of `nvp` vertex ids padded with NULL_IDX; `verts` is the
// mesh's Uint16 xyz array.

function polyVertCount(polys: Uint32Array, p: number, nvp: number): number {
  for (let i = 0; i < nvp; i++) if (polys[p + i] === NULL_IDX) return i;
  return nvp;
}

/**
 * c strictly left of a→b in Recast's XZ convention (its area2(a, b, c) < 0, i.e.
 * triArea2XZ(a, c, b) < 0: see math/predicates2d.ts).
 */
function strictlyLeft(verts: Uint16Array, a: number, b: number, c: number): boolean {
  return (
    triArea2XZ(
      verts[a * 3]!,
      verts[a * 3 + 2]!,
      verts[c * 3]!,
      verts[c * 3 + 2]!,
      verts[b * 3]!,
      verts[b * 3 + 2]!,
    ) < 0
  );
}

// Shared edge found by the last mergeValue call (slot in polygon a, slot in polygon b).
let mergeEdgeA = 0;
let mergeEdgeB = 0;

/**
 * How good merging polygons at offsets pa (na vertices) and pb (nb vertices) would be: the
 * squared XZ length of their shared edge, or -1 when they share none, the union would exceed
 * nvp vertices or would not be convex. Sets mergeEdgeA / mergeEdgeB on success.
 */
function mergeValue(
  polys: Uint32Array,
  pa: number,
  na: number,
  pb: number,
  nb: number,
  verts: Uint16Array,
  nvp: number,
): number {
  if (na + nb - 2 > nvp) return -1;
  let ea = -1;
  let eb = -1;
  // The last matching edge of a wins (Recast scans all of a); edges match as unordered pairs.
  for (let i = 0; i < na; i++) {
    const a0 = polys[pa + i];
    const a1 = polys[pa + (i + 1 < na ? i + 1 : 0)];
    for (let j = 0; j < nb; j++) {
      const b0 = polys[pb + j];
      const b1 = polys[pb + (j + 1 < nb ? j + 1 : 0)];
      if ((a0 === b1 && a1 === b0) || (a0 === b0 && a1 === b1)) {
        ea = i;
        eb = j;
        break;
      }
    }
  }
  if (ea === -1) return -1;
  // The union is convex iff both corners that the shared edge's endpoints become stay convex.
  if (
    !strictlyLeft(
      verts,
      polys[pa + ((ea + na - 1) % na)]!,
      polys[pa + ea]!,
      polys[pb + ((eb + 2) % nb)]!,
    )
  ) {
    return -1;
  }
  if (
    !strictlyLeft(
      verts,
      polys[pb + ((eb + nb - 1) % nb)]!,
      polys[pb + eb]!,
      polys[pa + ((ea + 2) % na)]!,
    )
  ) {
    return -1;
  }
  mergeEdgeA = ea;
  mergeEdgeB = eb;
  const va = polys[pa + ea]! * 3;
  const vb = polys[pa + ((ea + 1) % na)]! * 3;
  const dx = verts[va]! - verts[vb]!;
  const dz = verts[va + 2]! - verts[vb + 2]!;
  return dx * dx + dz * dz;
}

/** Replaces polygon pa by the union of pa and pb across edge slots ea / eb. */
function mergeInto(
  polys: Uint32Array,
  pa: number,
  pb: number,
  ea: number,
  eb: number,
  tmp: number,
  nvp: number,
): void {
  const na = polyVertCount(polys, pa, nvp);
  const nb = polyVertCount(polys, pb, nvp);
  polys.fill(NULL_IDX, tmp, tmp + nvp);
  let n = tmp;
  for (let i = 0; i < na - 1; i++) polys[n++] = polys[pa + ((ea + 1 + i) % na)]!;
  for (let i = 0; i < nb - 1; i++) polys[n++] = polys[pb + ((eb + 1 + i) % nb)]!;
  polys.copyWithin(pa, tmp, tmp + nvp);
}

/** Growable scratch for polygon merging. */
interface MergeScratch {
  /** Pairs (j < k) of polygon slots that can merge, with their positive merge value. */
  candJ: Int32Array;
  candK: Int32Array;
  candValue: Int32Array;
  /** Per mesh vertex: id of the last polygon stamped on it (cheap "shares an edge?" filter). */
  stamp: Int32Array;
  stampId: number;
}

/**
 * Appends to the candidate list (holding `count` entries) every pair of polygon a with a slot x
 * in [from, npolys), x !== skip, that has a positive merge value. Returns the new count. Pairs
 * sharing fewer than two vertices cannot share an edge and are rejected via vertex stamps.
 */
function addMergeCandidates(
  s: MergeScratch,
  count: number,
  a: number,
  polys: Uint32Array,
  npolys: number,
  nvp: number,
  verts: Uint16Array,
  from: number,
  skip: number,
): number {
  if (s.candJ.length < count + npolys) {
    const cap = Math.max(count + npolys, s.candJ.length * 2);
    const j = new Int32Array(cap);
    const k = new Int32Array(cap);
    const v = new Int32Array(cap);
    j.set(s.candJ.subarray(0, count));
    k.set(s.candK.subarray(0, count));
    v.set(s.candValue.subarray(0, count));
    s.candJ = j;
    s.candK = k;
    s.candValue = v;
  }
  const { candJ, candK, candValue, stamp } = s;
  const id = ++s.stampId;
  const pa = a * nvp;
  let na = 0;
  while (na < nvp && polys[pa + na] !== NULL_IDX) stamp[polys[pa + na++]!] = id;
  for (let x = from; x < npolys; x++) {
    if (x === a || x === skip) continue;
    const px = x * nvp;
    let nx = 0;
    let shared = 0;
    while (nx < nvp) {
      const v = polys[px + nx]!;
      if (v === NULL_IDX) break;
      if (stamp[v] === id) shared++;
      nx++;
    }
    if (shared < 2) continue;
    // Same argument order as a full (j < k) scan would use.
    const value =
      x < a
        ? mergeValue(polys, px, nx, pa, na, verts, nvp)
        : mergeValue(polys, pa, na, px, nx, verts, nvp);
    if (value > 0) {
      candJ[count] = Math.min(x, a);
      candK[count] = Math.max(x, a);
      candValue[count] = value;
      count++;
    }
  }
  return count;
}

/**
 * Greedy merge: repeatedly join the pair sharing the longest edge whose union stays convex and
 * within nvp vertices (the first such pair in (j, k) slot order on ties). The slot at `tmp` is
 * scratch. Region ids that disagree become MULTIPLE_REGIONS. Returns the new polygon count.
 *
 * Rather than re-evaluating all pairs after every merge, a list of mergeable pairs is kept: a
 * merge changes only the merged polygon and the one moved into the freed slot, so only their
 * pairs are re-evaluated. The choices are exactly those of the all-pairs scan.
 */
function mergePolygons(
  polys: Uint32Array,
  npolys: number,
  nvp: number,
  verts: Uint16Array,
  regs: Uint16Array,
  areas: Uint8Array,
  tmp: number,
  s: MergeScratch,
): number {
  let count = 0;
  for (let j = 0; j < npolys - 1; j++) {
    count = addMergeCandidates(s, count, j, polys, npolys, nvp, verts, j + 1, -1);
  }
  while (count > 0) {
    const { candJ, candK, candValue } = s;
    let best = 0;
    let a = 0;
    let b = 0;
    for (let c = 0; c < count; c++) {
      const value = candValue[c]!;
      const j = candJ[c]!;
      const k = candK[c]!;
      if (value > best || (value === best && (j < a || (j === a && k < b)))) {
        best = value;
        a = j;
        b = k;
      }
    }
    const pa = a * nvp;
    const pb = b * nvp;
    // Recover the shared edge slots of the winning pair.
    mergeValue(
      polys,
      pa,
      polyVertCount(polys, pa, nvp),
      pb,
      polyVertCount(polys, pb, nvp),
      verts,
      nvp,
    );
    mergeInto(polys, pa, pb, mergeEdgeA, mergeEdgeB, tmp, nvp);
    if (regs[a] !== regs[b]) regs[a] = MULTIPLE_REGIONS;
    const last = npolys - 1;
    if (b !== last) polys.copyWithin(pb, last * nvp, last * nvp + nvp);
    regs[b] = regs[last]!;
    areas[b] = areas[last]!;
    npolys--;
    // Forget pairs of the changed slots (a, b) and the vacated one, then re-evaluate a and b.
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const j = candJ[c]!;
      const k = candK[c]!;
      if (j === a || j === b || k === a || k === b || k === last) continue;
      candJ[kept] = j;
      candK[kept] = k;
      candValue[kept] = candValue[c]!;
      kept++;
    }
    count = addMergeCandidates(s, kept, a, polys, npolys, nvp, verts, 0, -1);
    if (b < npolys) count = addMergeCandidates(s, count, b, polys, npolys, nvp, verts, 0, a);
  }
  return npolys;
}

// ---------------------------------------------------------------------------------------------
// Mesh under construction, plus scratch for vertex removal (grown on demand).

interface MeshBuild extends MergeScratch {
  nvp: number;
  verts: Uint16Array;
  nverts: number;
  /** 2 * nvp per polygon: vertex ids, then neighbour slots (filled at the end). */
  polys: Uint32Array;
  npolys: number;
  maxPolys: number;
  regs: Uint16Array;
  areas: Uint8Array;
  edges: Int32Array;
  hole: Int32Array;
  holeRegs: Int32Array;
  holeAreas: Int32Array;
  holeVerts: Int32Array;
  holeIdx: Int32Array;
  holeTris: Int32Array;
  holePolys: Uint32Array;
  holePolyRegs: Uint16Array;
  holePolyAreas: Uint8Array;
}

function growInt32(a: Int32Array, n: number): Int32Array {
  return a.length >= n ? a : new Int32Array(Math.max(n, a.length * 2));
}

function addVertex(
  x: number,
  y: number,
  z: number,
  verts: Uint16Array,
  firstVert: Int32Array,
  nextVert: Int32Array,
  nverts: number,
): number {
  // Recast's vertex hash over (x, 0, z); only the low 12 bits are used.
  const bucket = (Math.imul(0x8da6b343, x) + Math.imul(0xcb1ab31f, z)) & (VERTEX_BUCKET_COUNT - 1);
  for (let i = firstVert[bucket]!; i !== -1; i = nextVert[i]!) {
    const o = i * 3;
    if (verts[o] === x && verts[o + 2] === z && Math.abs(verts[o + 1]! - y) <= 2) return i;
  }
  const o = nverts * 3;
  verts[o] = x;
  verts[o + 1] = y;
  verts[o + 2] = z;
  nextVert[nverts] = firstVert[bucket]!;
  firstVert[bucket] = nverts;
  return nverts;
}

/**
 * Removing `rem` is safe when the polygons around it keep enough edges for a new polygon and
 * they form a single fan (at most two open edges at rem).
 */
function canRemoveVertex(m: MeshBuild, rem: number): boolean {
  const { nvp, polys } = m;
  let touched = 0;
  let remainingEdges = 0;
  for (let i = 0; i < m.npolys; i++) {
    const p = i * nvp * 2;
    const nv = polyVertCount(polys, p, nvp);
    let removed = 0;
    for (let j = 0; j < nv; j++) if (polys[p + j] === rem) removed++;
    if (removed) {
      touched += removed;
      remainingEdges += nv - (removed + 1);
    }
  }
  if (remainingEdges <= 2) return false;

  // Edges at rem, keyed by their other endpoint, with how many polygons share each.
  m.edges = growInt32(m.edges, touched * 2 * 3);
  const edges = m.edges;
  let nedges = 0;
  for (let i = 0; i < m.npolys; i++) {
    const p = i * nvp * 2;
    const nv = polyVertCount(polys, p, nvp);
    for (let j = 0, k = nv - 1; j < nv; k = j++) {
      const vj = polys[p + j]!;
      const vk = polys[p + k]!;
      if (vj !== rem && vk !== rem) continue;
      const other = vk === rem ? vj : vk;
      let exists = false;
      for (let e = 0; e < nedges; e++) {
        if (edges[e * 3 + 1] === other) {
          edges[e * 3 + 2]!++;
          exists = true;
        }
      }
      if (!exists) {
        edges[nedges * 3] = rem;
        edges[nedges * 3 + 1] = other;
        edges[nedges * 3 + 2] = 1;
        nedges++;
      }
    }
  }
  let open = 0;
  for (let e = 0; e < nedges; e++) if (edges[e * 3 + 2]! < 2) open++;
  return open <= 2;
}

/** Inserts v at the front of arr[0, n). */
function pushFront(arr: Int32Array, n: number, v: number): void {
  arr.copyWithin(1, 0, n);
  arr[0] = v;
}

/**
 * Deletes vertex `rem` and every polygon using it, then fills the hole: chain the surviving
 * boundary edges into an outline, triangulate it and merge the triangles back into polygons.
 */
function removeVertex(m: MeshBuild, rem: number, ctx: BuildContext | undefined): void {
  const { nvp, polys, regs, areas, verts } = m;
  const stride = nvp * 2;
  let numRemoved = 0;
  for (let i = 0; i < m.npolys; i++) {
    const p = i * stride;
    const nv = polyVertCount(polys, p, nvp);
    for (let j = 0; j < nv; j++) if (polys[p + j] === rem) numRemoved++;
  }
  const cap = numRemoved * nvp;
  m.edges = growInt32(m.edges, cap * 4);
  m.hole = growInt32(m.hole, cap + 1);
  m.holeRegs = growInt32(m.holeRegs, cap + 1);
  m.holeAreas = growInt32(m.holeAreas, cap + 1);
  const { edges, hole, holeRegs, holeAreas } = m;

  // Collect the boundary edges of the polygons around rem and delete those polygons.
  let nedges = 0;
  for (let i = 0; i < m.npolys; i++) {
    const p = i * stride;
    const nv = polyVertCount(polys, p, nvp);
    let hasRem = false;
    for (let j = 0; j < nv; j++) if (polys[p + j] === rem) hasRem = true;
    if (!hasRem) continue;
    for (let j = 0, k = nv - 1; j < nv; k = j++) {
      if (polys[p + j] !== rem && polys[p + k] !== rem) {
        const e = nedges * 4;
        edges[e] = polys[p + k]!;
        edges[e + 1] = polys[p + j]!;
        edges[e + 2] = regs[i]!;
        edges[e + 3] = areas[i]!;
        nedges++;
      }
    }
    const last = m.npolys - 1;
    if (i !== last) polys.copyWithin(p, last * stride, last * stride + nvp);
    polys.fill(NULL_IDX, p + nvp, p + stride);
    regs[i] = regs[last]!;
    areas[i] = areas[last]!;
    m.npolys--;
    i--;
  }

  // Delete the vertex and renumber.
  verts.copyWithin(rem * 3, rem * 3 + 3, m.nverts * 3);
  m.nverts--;
  for (let i = 0; i < m.npolys; i++) {
    const p = i * stride;
    const nv = polyVertCount(polys, p, nvp);
    for (let j = 0; j < nv; j++) if (polys[p + j]! > rem) polys[p + j]!--;
  }
  for (let e = 0; e < nedges; e++) {
    if (edges[e * 4]! > rem) edges[e * 4]!--;
    if (edges[e * 4 + 1]! > rem) edges[e * 4 + 1]!--;
  }
  if (nedges === 0) return;

  // Chain the edges into the hole outline, growing it at both ends.
  let nhole = 1;
  hole[0] = edges[0]!;
  holeRegs[0] = edges[2]!;
  holeAreas[0] = edges[3]!;
  while (nedges) {
    let matched = false;
    for (let i = 0; i < nedges; i++) {
      const e = i * 4;
      const ea = edges[e]!;
      const eb = edges[e + 1]!;
      const r = edges[e + 2]!;
      const a = edges[e + 3]!;
      if (hole[0] === eb) {
        pushFront(hole, nhole, ea);
        pushFront(holeRegs, nhole, r);
        pushFront(holeAreas, nhole, a);
        nhole++;
      } else if (hole[nhole - 1] === ea) {
        hole[nhole] = eb;
        holeRegs[nhole] = r;
        holeAreas[nhole] = a;
        nhole++;
      } else {
        continue;
      }
      const l = (nedges - 1) * 4;
      edges[e] = edges[l]!;
      edges[e + 1] = edges[l + 1]!;
      edges[e + 2] = edges[l + 2]!;
      edges[e + 3] = edges[l + 3]!;
      nedges--;
      matched = true;
      i--;
    }
    if (!matched) break;
  }
  if (nhole < 3) {
    ctx?.warn(`buildPolyMesh: hole left by border vertex ${rem} has only ${nhole} vertices`);
    return;
  }

  m.holeVerts = growInt32(m.holeVerts, nhole * 4);
  m.holeIdx = growInt32(m.holeIdx, nhole);
  m.holeTris = growInt32(m.holeTris, nhole * 3);
  const { holeVerts, holeIdx, holeTris } = m;
  for (let i = 0; i < nhole; i++) {
    const s = hole[i]! * 3;
    holeVerts[i * 4] = verts[s]!;
    holeVerts[i * 4 + 1] = verts[s + 1]!;
    holeVerts[i * 4 + 2] = verts[s + 2]!;
    holeVerts[i * 4 + 3] = 0;
    holeIdx[i] = i;
  }
  let ntris = triangulate(nhole, holeVerts, holeIdx, holeTris);
  if (ntris < 0) {
    ntris = -ntris;
    ctx?.warn(`buildPolyMesh: hole left by border vertex ${rem} triangulated only partly`);
  }

  if (m.holePolys.length < (ntris + 1) * nvp) m.holePolys = new Uint32Array((ntris + 1) * nvp * 2);
  if (m.holePolyRegs.length < ntris) {
    m.holePolyRegs = new Uint16Array(ntris * 2);
    m.holePolyAreas = new Uint8Array(ntris * 2);
  }
  const { holePolys, holePolyRegs, holePolyAreas } = m;
  let npolys = 0;
  holePolys.fill(NULL_IDX, 0, (ntris + 1) * nvp);
  for (let t = 0; t < ntris; t++) {
    const t0 = holeTris[t * 3]!;
    const t1 = holeTris[t * 3 + 1]!;
    const t2 = holeTris[t * 3 + 2]!;
    if (t0 === t1 || t0 === t2 || t1 === t2) continue;
    const p = npolys * nvp;
    holePolys[p] = hole[t0]!;
    holePolys[p + 1] = hole[t1]!;
    holePolys[p + 2] = hole[t2]!;
    holePolyRegs[npolys] =
      holeRegs[t0] !== holeRegs[t1] || holeRegs[t1] !== holeRegs[t2]
        ? MULTIPLE_REGIONS
        : holeRegs[t0]!;
    holePolyAreas[npolys] = holeAreas[t0]!;
    npolys++;
  }
  if (npolys === 0) return;
  if (nvp > 3) {
    npolys = mergePolygons(
      holePolys,
      npolys,
      nvp,
      verts,
      holePolyRegs,
      holePolyAreas,
      ntris * nvp,
      m,
    );
  }

  for (let i = 0; i < npolys; i++) {
    if (m.npolys >= m.maxPolys) {
      ctx?.warn(`buildPolyMesh: too many polygons while removing border vertex ${rem}`);
      return;
    }
    const p = m.npolys * stride;
    for (let j = 0; j < nvp; j++) polys[p + j] = holePolys[i * nvp + j]!;
    polys.fill(NULL_IDX, p + nvp, p + stride);
    regs[m.npolys] = holePolyRegs[i]!;
    areas[m.npolys] = holePolyAreas[i]!;
    m.npolys++;
  }
}

// ---------------------------------------------------------------------------------------------
// Adjacency and portals.

/**
 * Fills the neighbour slots: each edge (v0 < v1) is registered by the first polygon walking it
 * upwards and matched by the first polygon walking it downwards (Lengyel's edge pairing).
 */
function linkNeighbours(polys: Uint32Array, npolys: number, nverts: number, nvp: number): void {
  // One record of 6 ints per edge (single allocation): other vertex, polygon and slot on each
  // side, next edge in the list of the lower vertex.
  const E_V1 = 0;
  const E_POLY0 = 1;
  const E_POLY1 = 2;
  const E_SLOT0 = 3;
  const E_SLOT1 = 4;
  const E_NEXT = 5;
  const firstEdge = new Int32Array(nverts).fill(-1);
  const edges = new Int32Array(npolys * nvp * 6);
  const stride = nvp * 2;
  let nedges = 0;
  for (let i = 0; i < npolys; i++) {
    const p = i * stride;
    for (let j = 0; j < nvp; j++) {
      const v0 = polys[p + j]!;
      if (v0 === NULL_IDX) break;
      const v1 = j + 1 >= nvp || polys[p + j + 1] === NULL_IDX ? polys[p]! : polys[p + j + 1]!;
      if (v0 < v1) {
        const e = nedges * 6;
        edges[e + E_V1] = v1;
        edges[e + E_POLY0] = i;
        edges[e + E_POLY1] = i;
        edges[e + E_SLOT0] = j;
        edges[e + E_SLOT1] = 0;
        edges[e + E_NEXT] = firstEdge[v0]!;
        firstEdge[v0] = nedges;
        nedges++;
      }
    }
  }
  for (let i = 0; i < npolys; i++) {
    const p = i * stride;
    for (let j = 0; j < nvp; j++) {
      const v0 = polys[p + j]!;
      if (v0 === NULL_IDX) break;
      const v1 = j + 1 >= nvp || polys[p + j + 1] === NULL_IDX ? polys[p]! : polys[p + j + 1]!;
      if (v0 > v1) {
        for (let k = firstEdge[v1]!; k !== -1; k = edges[k * 6 + E_NEXT]!) {
          const e = k * 6;
          if (edges[e + E_V1] === v0 && edges[e + E_POLY0] === edges[e + E_POLY1]) {
            edges[e + E_POLY1] = i;
            edges[e + E_SLOT1] = j;
            break;
          }
        }
      }
    }
  }
  for (let k = 0; k < nedges; k++) {
    const e = k * 6;
    const p0 = edges[e + E_POLY0]!;
    const p1 = edges[e + E_POLY1]!;
    if (p0 !== p1) {
      polys[p0 * stride + nvp + edges[e + E_SLOT0]!] = p1;
      polys[p1 * stride + nvp + edges[e + E_SLOT1]!] = p0;
    }
  }
}

/** Unlinked edges lying on the grid's outer boundary become portals to the neighbouring tile. */
function markPortals(
  polys: Uint32Array,
  npolys: number,
  verts: Uint16Array,
  nvp: number,
  width: number,
  depth: number,
): void {
  const stride = nvp * 2;
  for (let i = 0; i < npolys; i++) {
    const p = i * stride;
    for (let j = 0; j < nvp; j++) {
      if (polys[p + j] === NULL_IDX) break;
      if (polys[p + nvp + j] !== NULL_IDX) continue;
      const nj = j + 1 >= nvp || polys[p + j + 1] === NULL_IDX ? 0 : j + 1;
      const va = polys[p + j]! * 3;
      const vb = polys[p + nj]! * 3;
      let dir = -1;
      if (verts[va] === 0 && verts[vb] === 0) dir = 0;
      else if (verts[va + 2] === depth && verts[vb + 2] === depth) dir = 1;
      else if (verts[va] === width && verts[vb] === width) dir = 2;
      else if (verts[va + 2] === 0 && verts[vb + 2] === 0) dir = 3;
      if (dir >= 0) polys[p + nvp + j] = (PORTAL_FLAG | dir) >>> 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Builds convex polygons (at most `maxVertsPerPoly` vertices each) from a contour set.
 * Polygon flags are left 0 for the caller to set. Contours that cannot be triangulated fully
 * are reported through `ctx` and contribute the triangles found so far.
 */
export function buildPolyMesh(
  cset: ContourSet,
  maxVertsPerPoly: number,
  ctx?: BuildContext,
): PolyMesh {
  const nvp = maxVertsPerPoly;
  if (!Number.isInteger(nvp) || nvp < 3) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `buildPolyMesh: maxVertsPerPoly must be an integer >= 3, got ${nvp}`,
    );
  }
  const stride = nvp * 2;
  const contours = cset.contours;

  let maxVertices = 0;
  let maxTris = 0;
  let maxVertsPerCont = 0;
  for (let c = 0; c < contours.length; c++) {
    const n = contours[c]!.verts.length >> 2;
    if (n < 3) continue;
    maxVertices += n;
    maxTris += n - 2;
    if (n > maxVertsPerCont) maxVertsPerCont = n;
  }

  const m: MeshBuild = {
    nvp,
    verts: new Uint16Array(maxVertices * 3),
    nverts: 0,
    polys: new Uint32Array(maxTris * stride).fill(NULL_IDX),
    npolys: 0,
    maxPolys: maxTris,
    regs: new Uint16Array(maxTris),
    areas: new Uint8Array(maxTris),
    edges: new Int32Array(64),
    hole: new Int32Array(16),
    holeRegs: new Int32Array(16),
    holeAreas: new Int32Array(16),
    holeVerts: new Int32Array(64),
    holeIdx: new Int32Array(16),
    holeTris: new Int32Array(48),
    holePolys: new Uint32Array(16 * nvp),
    holePolyRegs: new Uint16Array(16),
    holePolyAreas: new Uint8Array(16),
    candJ: new Int32Array(64),
    candK: new Int32Array(64),
    candValue: new Int32Array(64),
    stamp: new Int32Array(maxVertices),
    stampId: 0,
  };
  const { verts, polys, regs, areas } = m;
  const removable = new Uint8Array(maxVertices);
  const firstVert = new Int32Array(VERTEX_BUCKET_COUNT).fill(-1);
  const nextVert = new Int32Array(maxVertices);
  // Per-contour scratch, sized for the largest contour.
  const idx = new Int32Array(maxVertsPerCont);
  const tris = new Int32Array(maxVertsPerCont * 3);
  const cpolys = new Uint32Array((maxVertsPerCont + 1) * nvp);
  const cregs = new Uint16Array(maxVertsPerCont);
  const careas = new Uint8Array(maxVertsPerCont);

  for (let c = 0; c < contours.length; c++) {
    const cont = contours[c]!;
    const cv = cont.verts;
    const n = cv.length >> 2;
    if (n < 3) continue;

    for (let j = 0; j < n; j++) idx[j] = j;
    let ntris = triangulate(n, cv, idx, tris);
    if (ntris <= 0) {
      ctx?.warn(`buildPolyMesh: bad triangulation of contour ${c} (region ${cont.region})`);
      ntris = -ntris;
    }

    // Weld the contour's vertices into the mesh; idx now maps contour vertex -> mesh vertex.
    for (let j = 0; j < n; j++) {
      const o = j * 4;
      const id = addVertex(
        cv[o]! & 0xffff,
        cv[o + 1]! & 0xffff,
        cv[o + 2]! & 0xffff,
        verts,
        firstVert,
        nextVert,
        m.nverts,
      );
      if (id === m.nverts) m.nverts++;
      idx[j] = id;
      if (cv[o + 3]! & BORDER_VERTEX) removable[id] = 1;
    }

    let npolys = 0;
    cpolys.fill(NULL_IDX, 0, ntris * nvp);
    for (let t = 0; t < ntris; t++) {
      const t0 = tris[t * 3]!;
      const t1 = tris[t * 3 + 1]!;
      const t2 = tris[t * 3 + 2]!;
      if (t0 === t1 || t0 === t2 || t1 === t2) continue;
      const p = npolys * nvp;
      cpolys[p] = idx[t0]!;
      cpolys[p + 1] = idx[t1]!;
      cpolys[p + 2] = idx[t2]!;
      npolys++;
    }
    if (npolys === 0) continue;
    if (nvp > 3) {
      cregs.fill(cont.region, 0, npolys);
      careas.fill(cont.area, 0, npolys);
      npolys = mergePolygons(cpolys, npolys, nvp, verts, cregs, careas, maxVertsPerCont * nvp, m);
    }

    for (let j = 0; j < npolys; j++) {
      const p = m.npolys * stride;
      for (let k = 0; k < nvp; k++) polys[p + k] = cpolys[j * nvp + k]!;
      regs[m.npolys] = cont.region;
      areas[m.npolys] = cont.area;
      m.npolys++;
    }
  }

  // Vertices on the tile border only exist to stitch contours; remove them where possible.
  for (let i = 0; i < m.nverts; i++) {
    if (!removable[i]) continue;
    if (!canRemoveVertex(m, i)) continue;
    removeVertex(m, i, ctx);
    // removeVertex already decremented nverts.
    removable.copyWithin(i, i + 1, m.nverts + 1);
    i--;
  }

  linkNeighbours(polys, m.npolys, m.nverts, nvp);
  if (cset.borderSize > 0) markPortals(polys, m.npolys, verts, nvp, cset.width, cset.depth);

  const bmin: Vec3 = [cset.bmin[0], cset.bmin[1], cset.bmin[2]];
  const bmax: Vec3 = [cset.bmax[0], cset.bmax[1], cset.bmax[2]];
  return {
    verts: verts.slice(0, m.nverts * 3),
    vertCount: m.nverts,
    polys: polys.slice(0, m.npolys * stride),
    polyCount: m.npolys,
    regions: regs.slice(0, m.npolys),
    flags: new Uint16Array(m.npolys),
    areas: areas.slice(0, m.npolys),
    maxVertsPerPoly: nvp,
    bmin,
    bmax,
    cellSize: cset.cellSize,
    cellHeight: cset.cellHeight,
    borderSize: cset.borderSize,
    maxEdgeError: cset.maxError,
  };
}
