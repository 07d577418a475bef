/**
 * Detail (height) mesh: one small triangle mesh per polygon that follows the walkable surface
 * more closely than the flat-ish polygon does. Implements Recast's rcBuildPolyMeshDetail
 * (Mononen): height patch gathered from the compact heightfield, polygon edges sampled and
 * simplified Douglas–Peucker style, interior grid samples inserted worst-first and the result
 * re-triangulated with Recast's Delaunay hull; edge flags mark triangle edges along the hull.
 *
 * All arithmetic that feeds a decision (sample positions, distances, circumcircles, error
 * thresholds) is rounded to float32 after every operation (`f`), so the choices — and the
 * output, bit for bit — are the ones Recast's float code makes. Only deviation: with
 * sampleDist = 0 we triangulate the polygon's vertices, where Recast never returns.
 */
import type { BuildContext } from "./context.js";
import {
  type CompactHeightfield,
  MESH_NULL_INDEX,
  NOT_CONNECTED,
  type PolyMesh,
  type PolyMeshDetail,
  type Regions,
} from "./types.js";

const f = Math.fround;
/** Module-local copies: some loaders turn imported bindings into getter calls in hot loops. */
const NO_CON = NOT_CONNECTED;
const NULL_IDX = MESH_NULL_INDEX;

/** Height-patch value of a cell that has no height yet. */
const UNSET = 0xffff;
/** PolyMesh region id of a polygon merged from several regions. */
const MULTIPLE_REGIONS = 0;
const MAX_VERTS = 127;
const MAX_TRIS = 255;
const MAX_VERTS_PER_EDGE = 32;
/** Vertex indices are < MAX_VERTS < 128, so a pair fits a 128 x 128 table. */
const EDGE_SLOT_STRIDE = 128;
/** Edge face slot values in the Delaunay edge list. */
const FACE_UNDEF = -1;
const FACE_HULL = -2;
const FLT_MAX = 3.4028234663852886e38;
const F_0_01 = /* @__PURE__ */ f(0.01);
const F_0_1 = /* @__PURE__ */ f(0.1);
const F_1E_6 = /* @__PURE__ */ f(1e-6);
const F_EPS_TRI = /* @__PURE__ */ f(1e-4);
const F_ONE_PLUS_EPS_TRI = /* @__PURE__ */ f(1 + F_EPS_TRI);
const F_EPS_FACET = /* @__PURE__ */ f(1e-5);
const F_CIRCLE_TOL_HI = /* @__PURE__ */ f(1 + /* @__PURE__ */ f(0.001));
const F_CIRCLE_TOL_LO = /* @__PURE__ */ f(1 - /* @__PURE__ */ f(0.001));
/** Cell offsets tried around each polygon vertex when looking for a seed span. */
const SEED_OFFSETS = [0, 0, -1, -1, 0, -1, 1, -1, 1, 0, 1, 1, 0, 1, -1, 1, -1, 0];
const DIR_X = [-1, 0, 1, 0];
const DIR_Z = [0, 1, 0, -1];

/** Reusable buffers for one build; sized once or grown by doubling. */
interface Scratch {
  /** Height patch over the polygon's bounds (+1 cell), voxel heights or UNSET. */
  patch: Uint16Array;
  patchX: number;
  patchZ: number;
  patchW: number;
  patchH: number;
  /** chf.cellFirst viewed as Int32 (span indices < 2^31), so index math stays in int32. */
  cellFirst: Int32Array;
  /** Per span: 0 = not yet known, 1 = all connected neighbours share its region, 2 = not. */
  regionBorder: Uint8Array;
  /** BFS / DFS queue of (x, z, span) triples. */
  queue: Int32Array;
  /** Polygon vertices, polygon-local float coordinates (v * cs). */
  poly: Float32Array;
  /** Detail vertices of the current polygon. */
  verts: Float32Array;
  /** For each hull vertex, the hull vertex after it (edge flags). */
  hullNext: Int32Array;
  hull: Int32Array;
  /** Samples along one polygon edge. */
  edgePts: Float32Array;
  edgeIdx: Int32Array;
  /** Triangles of the current polygon: a, b, c, flags. */
  tris: Int32Array;
  /** Delaunay edges: s, t, left face, right face. */
  edges: Int32Array;
  /** Interior samples: jittered position, whether inserted, current height error. */
  sampleX: Float32Array<ArrayBuffer>;
  sampleY: Float32Array<ArrayBuffer>;
  sampleZ: Float32Array<ArrayBuffer>;
  sampleAdded: Uint8Array<ArrayBuffer>;
  sampleErr: Float64Array;
  /** Sample index per sample-grid cell of the polygon's bounds, -1 when none. */
  sampleGrid: Int32Array;
  /** Circumcircle result (cx, cz, r) of the last circumCircle call. */
  circle: Float64Array;
  /**
   * Float arguments of the per-sample helpers (see ARG_*): a float passed to a call V8 does
   * not inline is boxed into a fresh heap number, one per sample otherwise.
   */
  args: Float64Array;
  /** Hull and triangle counts of the last buildPolygonDetail call. */
  nhull: number;
  ntris: number;
  /** Edge index + 1 per vertex pair (min * EDGE_SLOT_STRIDE + max), 0 = no edge. */
  edgeSlot: Int32Array;
  /** Delaunay edge and face counts while triangulating. */
  nedges: number;
  nfaces: number;
}

/**
 * Fixed-size per-polygon buffers (bounded by MAX_VERTS), shared by all builds: builds never
 * interleave in single-threaded JS, and reusing them spares the allocations.
 */
const FIXED = {
  verts: new Float32Array(256 * 3),
  hullNext: new Int32Array(MAX_VERTS),
  hull: new Int32Array(MAX_VERTS),
  edgePts: new Float32Array((MAX_VERTS_PER_EDGE + 1) * 3),
  edgeIdx: new Int32Array(MAX_VERTS_PER_EDGE),
  // Every successful facet fills one side of an edge: at most 2 * maxEdges faces.
  tris: new Int32Array(MAX_VERTS * 20 * 4),
  edges: new Int32Array(MAX_VERTS * 10 * 4),
  edgeSlot: new Int32Array(EDGE_SLOT_STRIDE * EDGE_SLOT_STRIDE),
  circle: new Float64Array(3),
  args: new Float64Array(8),
};

// Slots of Scratch.args.
const ARG_X = 0;
const ARG_Y = 1;
const ARG_Z = 2;
const ARG_ICS = 3;
const ARG_CH = 4;
const ARG_SAMPLE_DIST = 5;
const ARG_JITTER_PAD = 6;
const ARG_MIN_INSET_SQ = 7;

function growFloat32(a: Float32Array<ArrayBuffer>, needed: number): Float32Array<ArrayBuffer> {
  if (needed <= a.length) return a;
  let n = a.length * 2;
  while (n < needed) n *= 2;
  const grown = new Float32Array(n);
  grown.set(a);
  return grown;
}

function growUint8(a: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= a.length) return a;
  let n = a.length * 2;
  while (n < needed) n *= 2;
  const grown = new Uint8Array(n);
  grown.set(a);
  return grown;
}

function growInt32(a: Int32Array, needed: number): Int32Array {
  if (needed <= a.length) return a;
  let n = a.length * 2;
  while (n < needed) n *= 2;
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Lets a caller reuse polygons' detail from an earlier build of the same heightfield (the
 * tile cache: src/tiles/detail-reuse.ts). `find` answers an entry id for polygon `p` with
 * patch (x, z, w, h) when its detail is known to come out the same, else -1; `keep` records
 * that the polygon `find` was last asked about was built (copied entries are kept by `copy`).
 */
export interface DetailReuse {
  find(p: number, patchX: number, patchZ: number, patchW: number, patchH: number): number;
  vertCount(entry: number): number;
  triCount(entry: number): number;
  /** Copies entry's world-space verts and flagged triangles to the given offsets. */
  copy(entry: number, verts: Float32Array, vertAt: number, tris: Uint8Array, triAt: number): void;
  keep(): void;
}

/**
 * Builds the detail mesh of every polygon of `pmesh`. `pmesh.bmin` is the world position of
 * polygon-vertex (0, 0, 0) (i.e. already offset by the border); the compact heightfield is read
 * with `pmesh.borderSize` added to x and z, heights from spans of the polygon's region in
 * `regions`. sampleDistWorld = 0 keeps just the polygon vertices. As in Recast, output vertices
 * are one cell height above the sampled floor, at most 127 vertices and 255 triangles per
 * polygon.
 */
export function buildPolyMeshDetail(
  pmesh: PolyMesh,
  chf: CompactHeightfield,
  regions: Regions,
  sampleDistWorld: number,
  sampleMaxErrorWorld: number,
  ctx?: BuildContext,
  reuse?: DetailReuse,
): PolyMeshDetail {
  const polyCount = pmesh.polyCount;
  if (pmesh.vertCount === 0 || polyCount === 0) {
    return {
      meshes: new Uint32Array(0),
      verts: new Float32Array(0),
      tris: new Uint8Array(0),
      meshCount: 0,
      vertCount: 0,
      triCount: 0,
    };
  }
  const nvp = pmesh.maxVertsPerPoly;
  const polys = pmesh.polys;
  const pverts = pmesh.verts;
  const cs = f(pmesh.cellSize);
  const ch = f(pmesh.cellHeight);
  const ox = f(pmesh.bmin[0]);
  const oy = f(pmesh.bmin[1]);
  const oz = f(pmesh.bmin[2]);
  const yOffset = f(oy + f(chf.cellHeight));
  const borderSize = pmesh.borderSize;
  const searchRadius = Math.max(1, Math.ceil(f(pmesh.maxEdgeError)));
  const sampleDist = f(sampleDistWorld);
  const sampleMaxError = f(sampleMaxErrorWorld);

  // Per-polygon patch bounds (one cell margin), and the largest patch.
  const bounds = new Int32Array(polyCount * 4);
  let polyVertTotal = 0;
  let maxW = 0;
  let maxH = 0;
  for (let p = 0; p < polyCount; p++) {
    const base = p * nvp * 2;
    let xmin = chf.width;
    let xmax = 0;
    let zmin = chf.depth;
    let zmax = 0;
    for (let j = 0; j < nvp; j++) {
      const vi = polys[base + j]!;
      if (vi === NULL_IDX) break;
      const x = pverts[vi * 3]!;
      const z = pverts[vi * 3 + 2]!;
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (z < zmin) zmin = z;
      if (z > zmax) zmax = z;
      polyVertTotal++;
    }
    xmin = Math.max(0, xmin - 1);
    xmax = Math.min(chf.width, xmax + 1);
    zmin = Math.max(0, zmin - 1);
    zmax = Math.min(chf.depth, zmax + 1);
    bounds[p * 4] = xmin;
    bounds[p * 4 + 1] = xmax;
    bounds[p * 4 + 2] = zmin;
    bounds[p * 4 + 3] = zmax;
    if (xmin >= xmax || zmin >= zmax) continue;
    maxW = Math.max(maxW, xmax - xmin);
    maxH = Math.max(maxH, zmax - zmin);
  }

  const s: Scratch = {
    patch: new Uint16Array(Math.max(1, maxW * maxH)),
    patchX: 0,
    patchZ: 0,
    patchW: 0,
    patchH: 0,
    cellFirst: new Int32Array(chf.cellFirst.buffer, chf.cellFirst.byteOffset, chf.cellFirst.length),
    regionBorder: new Uint8Array(chf.spanCount),
    queue: new Int32Array(3 * 1024),
    poly: new Float32Array(nvp * 3),
    verts: FIXED.verts,
    hullNext: FIXED.hullNext,
    hull: FIXED.hull,
    edgePts: FIXED.edgePts,
    edgeIdx: FIXED.edgeIdx,
    tris: FIXED.tris,
    edges: FIXED.edges,
    edgeSlot: FIXED.edgeSlot,
    sampleX: new Float32Array(256),
    sampleY: new Float32Array(256),
    sampleZ: new Float32Array(256),
    sampleAdded: new Uint8Array(256),
    sampleErr: new Float64Array(256),
    sampleGrid: new Int32Array(1024),
    circle: FIXED.circle,
    args: FIXED.args,
    nhull: 0,
    ntris: 0,
    nedges: 0,
    nfaces: 0,
  };
  // The pair table must start empty; it is only left dirty if a previous build threw midway.
  s.edgeSlot.fill(0);

  const meshes = new Uint32Array(polyCount * 4);
  let outVerts = new Float32Array(Math.max(3, (polyVertTotal + (polyVertTotal >> 1)) * 3));
  let outTris = new Uint8Array(Math.max(4, outVerts.length / 3) * 2 * 4);
  let vertCount = 0;
  let triCount = 0;

  for (let p = 0; p < polyCount; p++) {
    const base = p * nvp * 2;
    let npoly = 0;
    for (let j = 0; j < nvp; j++) {
      const vi = polys[base + j]!;
      if (vi === NULL_IDX) break;
      s.poly[j * 3] = f(pverts[vi * 3]! * cs);
      s.poly[j * 3 + 1] = f(pverts[vi * 3 + 1]! * ch);
      s.poly[j * 3 + 2] = f(pverts[vi * 3 + 2]! * cs);
      npoly++;
    }

    s.patchX = bounds[p * 4]!;
    s.patchZ = bounds[p * 4 + 2]!;
    s.patchW = bounds[p * 4 + 1]! - s.patchX;
    s.patchH = bounds[p * 4 + 3]! - s.patchZ;
    let hasHeights = false;
    const known =
      reuse !== undefined && s.patchW > 0 && s.patchH > 0
        ? reuse.find(p, s.patchX, s.patchZ, s.patchW, s.patchH)
        : -1;
    if (known >= 0) {
      const nv = reuse!.vertCount(known);
      const nt = reuse!.triCount(known);
      outVerts = growFloat32(outVerts, (vertCount + nv) * 3);
      outTris = growUint8(outTris, (triCount + nt) * 4);
      reuse!.copy(known, outVerts, vertCount * 3, outTris, triCount * 4);
      meshes[p * 4] = vertCount;
      meshes[p * 4 + 1] = nv;
      meshes[p * 4 + 2] = triCount;
      meshes[p * 4 + 3] = nt;
      vertCount += nv;
      triCount += nt;
      continue;
    }
    if (s.patchW <= 0 || s.patchH <= 0) {
      // Degenerate bounds (vertices outside the heightfield): keep a 1-cell empty patch.
      s.patchW = 1;
      s.patchH = 1;
      s.patch[0] = UNSET;
    } else {
      hasHeights = gatherHeights(
        s,
        chf,
        regions.spanRegion,
        pmesh,
        base,
        npoly,
        borderSize,
        pmesh.regions[p]!,
        ctx,
      );
    }

    if (!hasHeights) {
      // Nothing to sample (Recast asserts here): keep the polygon's own vertices.
      ctx?.warn(`buildPolyMeshDetail: no height data under polygon ${p}; using its vertices only`);
    }
    const nverts = buildPolygonDetail(
      s,
      npoly,
      hasHeights ? sampleDist : 0,
      sampleMaxError,
      searchRadius,
      cs,
      ch,
      ctx,
    );
    const ntris = s.ntris;

    // Move to world space (same float steps as Recast, incl. its one-cell-height lift).
    const v = s.verts;
    for (let j = 0; j < nverts; j++) {
      v[j * 3] = f(v[j * 3]! + ox);
      v[j * 3 + 1] = f(v[j * 3 + 1]! + yOffset);
      v[j * 3 + 2] = f(v[j * 3 + 2]! + oz);
    }
    meshes[p * 4] = vertCount;
    meshes[p * 4 + 1] = nverts;
    meshes[p * 4 + 2] = triCount;
    meshes[p * 4 + 3] = ntris;

    outVerts = growFloat32(outVerts, (vertCount + nverts) * 3);
    for (let j = 0, o = vertCount * 3; j < nverts * 3; j++) outVerts[o + j] = v[j]!;
    vertCount += nverts;

    outTris = growUint8(outTris, (triCount + ntris) * 4);
    // Edge flags from the hull (as current Recast does): an edge is on the polygon boundary when
    // it runs from a hull vertex to the next one. Interior samples come after the hull vertices.
    const nhull = s.nhull;
    const hull = s.hull;
    const next = s.hullNext;
    for (let k = 0; k < nhull; k++) next[hull[k]!] = hull[k + 1 < nhull ? k + 1 : 0]!;
    const t = s.tris;
    for (let j = 0; j < ntris; j++) {
      const a = t[j * 4]!;
      const b = t[j * 4 + 1]!;
      const c = t[j * 4 + 2]!;
      const o = (triCount + j) * 4;
      outTris[o] = a;
      outTris[o + 1] = b;
      outTris[o + 2] = c;
      outTris[o + 3] =
        (a < nhull && b < nhull && next[a] === b ? 1 : 0) |
        (b < nhull && c < nhull && next[b] === c ? 4 : 0) |
        (c < nhull && a < nhull && next[c] === a ? 16 : 0);
    }
    triCount += ntris;
    if (reuse !== undefined && s.patchW > 0 && s.patchH > 0 && hasHeights) reuse.keep();
  }

  ctx?.count("detail.verts", vertCount);
  ctx?.count("detail.tris", triCount);
  return {
    meshes,
    verts: outVerts.slice(0, vertCount * 3),
    tris: outTris.slice(0, triCount * 4),
    meshCount: polyCount,
    vertCount,
    triCount,
  };
}

// ---------------------------------------------------------------------------------------------
// Height patch

function pushQueue(s: Scratch, len: number, x: number, z: number, span: number): number {
  if (len + 3 > s.queue.length) s.queue = growInt32(s.queue, len + 3);
  const q = s.queue;
  q[len] = x;
  q[len + 1] = z;
  q[len + 2] = span;
  return len + 3;
}

/**
 * Fills the height patch: heights of the polygon's region, then a breadth-first flood from the
 * region's border spans (or from the polygon centre) into the remaining cells, so every cell
 * reachable without leaving the patch gets a height from a connected surface. False when no
 * span could seed it (the patch stays empty).
 */
function gatherHeights(
  s: Scratch,
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  pmesh: PolyMesh,
  polyBase: number,
  npoly: number,
  bs: number,
  region: number,
  ctx: BuildContext | undefined,
): boolean {
  const patch = s.patch;
  const pw = s.patchW;
  const ph = s.patchH;
  const px = s.patchX;
  const pz = s.patchZ;
  const cw = chf.width;
  const cellFirst = s.cellFirst;
  const cellCount = chf.cellCount;
  const regionBorder = s.regionBorder;
  const spanY = chf.spanY;
  const spanCon = chf.spanCon;
  patch.fill(UNSET, 0, pw * ph);

  // Every cell enters the queue at most once (seeds have heights, the flood only takes unset
  // cells; the centre walk marks what it pushes), so this size needs no checks below.
  const need = 3 * (pw * ph + 1);
  if (s.queue.length < need) s.queue = new Int32Array(Math.max(need, s.queue.length * 2));
  const q = s.queue;
  let qlen = 0;
  let empty = true;
  // A polygon merged from several regions may overlap other polygons of those regions, so its
  // heights come from the flood alone.
  if (region !== MULTIPLE_REGIONS) {
    for (let hz = 0; hz < ph; hz++) {
      const z = pz + hz + bs;
      const rowCell = px + bs + z * cw;
      const rowPatch = hz * pw;
      for (let hx = 0; hx < pw; hx++) {
        const c = rowCell + hx;
        const first = cellFirst[c]!;
        const end = first + cellCount[c]!;
        for (let i = first; i < end; i++) {
          if (spanRegion[i] !== region) continue;
          patch[rowPatch + hx] = spanY[i]!;
          empty = false;
          // A span with a connected neighbour outside the region seeds the flood. That only
          // depends on the span (its region is `region`), so it is cached across polygons.
          let border = regionBorder[i]!;
          if (border === 0) {
            const con = spanCon[i]!;
            const n0 = con & 0xff;
            const n1 = (con >>> 8) & 0xff;
            const n2 = (con >>> 16) & 0xff;
            const n3 = con >>> 24;
            border =
              (n0 !== NO_CON && spanRegion[cellFirst[c - 1]! + n0] !== region) ||
              (n1 !== NO_CON && spanRegion[cellFirst[c + cw]! + n1] !== region) ||
              (n2 !== NO_CON && spanRegion[cellFirst[c + 1]! + n2] !== region) ||
              (n3 !== NO_CON && spanRegion[cellFirst[c - cw]! + n3] !== region)
                ? 2
                : 1;
            regionBorder[i] = border;
          }
          if (border === 2) {
            q[qlen] = px + bs + hx;
            q[qlen + 1] = z;
            q[qlen + 2] = i;
            qlen += 3;
          }
          break;
        }
      }
    }
  }

  if (empty) {
    qlen = seedFromPolyCenter(s, chf, pmesh, polyBase, npoly, bs, ctx);
    if (qlen === 0) return false;
  }

  // Breadth-first flood in direction order 0..3; heights double as the visited marks. Queued
  // cells are always inside the patch.
  let head = 0;
  while (head < qlen) {
    const cx = q[head]!;
    const cz = q[head + 1]!;
    const ci = q[head + 2]!;
    head += 3;
    const con = spanCon[ci]!;
    const hx = cx - px - bs;
    const hz = cz - pz - bs;
    const c = cx + cz * cw;
    const h = hx + hz * pw;
    let nc = con & 0xff;
    if (nc !== NO_CON && hx > 0 && patch[h - 1] === UNSET) {
      const ai = cellFirst[c - 1]! + nc;
      patch[h - 1] = spanY[ai]!;
      q[qlen] = cx - 1;
      q[qlen + 1] = cz;
      q[qlen + 2] = ai;
      qlen += 3;
    }
    nc = (con >>> 8) & 0xff;
    if (nc !== NO_CON && hz + 1 < ph && patch[h + pw] === UNSET) {
      const ai = cellFirst[c + cw]! + nc;
      patch[h + pw] = spanY[ai]!;
      q[qlen] = cx;
      q[qlen + 1] = cz + 1;
      q[qlen + 2] = ai;
      qlen += 3;
    }
    nc = (con >>> 16) & 0xff;
    if (nc !== NO_CON && hx + 1 < pw && patch[h + 1] === UNSET) {
      const ai = cellFirst[c + 1]! + nc;
      patch[h + 1] = spanY[ai]!;
      q[qlen] = cx + 1;
      q[qlen + 1] = cz;
      q[qlen + 2] = ai;
      qlen += 3;
    }
    nc = con >>> 24;
    if (nc !== NO_CON && hz > 0 && patch[h - pw] === UNSET) {
      const ai = cellFirst[c - cw]! + nc;
      patch[h - pw] = spanY[ai]!;
      q[qlen] = cx;
      q[qlen + 1] = cz - 1;
      q[qlen + 2] = ai;
      qlen += 3;
    }
  }
  return true;
}

/**
 * Finds the span nearest (in height) to a polygon vertex and walks depth-first towards the
 * polygon centre; leaves that one cell as the flood seed. Returns the queue length (0 = none).
 */
function seedFromPolyCenter(
  s: Scratch,
  chf: CompactHeightfield,
  pmesh: PolyMesh,
  polyBase: number,
  npoly: number,
  bs: number,
  ctx: BuildContext | undefined,
): number {
  const patch = s.patch;
  const pw = s.patchW;
  const ph = s.patchH;
  const px = s.patchX;
  const pz = s.patchZ;
  const cw = chf.width;
  const pverts = pmesh.verts;
  const polys = pmesh.polys;

  let startX = 0;
  let startZ = 0;
  let startSpan = -1;
  let dmin = UNSET;
  for (let j = 0; j < npoly && dmin > 0; j++) {
    const vi = polys[polyBase + j]!;
    for (let k = 0; k < 9 && dmin > 0; k++) {
      const ax = pverts[vi * 3]! + SEED_OFFSETS[k * 2]!;
      const ay = pverts[vi * 3 + 1]!;
      const az = pverts[vi * 3 + 2]! + SEED_OFFSETS[k * 2 + 1]!;
      if (ax < px || ax >= px + pw || az < pz || az >= pz + ph) continue;
      const c = ax + bs + (az + bs) * cw;
      const first = s.cellFirst[c]!;
      const end = first + chf.cellCount[c]!;
      for (let i = first; i < end && dmin > 0; i++) {
        const d = Math.abs(ay - chf.spanY[i]!);
        if (d < dmin) {
          startX = ax;
          startZ = az;
          startSpan = i;
          dmin = d;
        }
      }
    }
  }
  if (startSpan < 0) return 0;

  let pcx = 0;
  let pcz = 0;
  for (let j = 0; j < npoly; j++) {
    const vi = polys[polyBase + j]!;
    pcx += pverts[vi * 3]!;
    pcz += pverts[vi * 3 + 2]!;
  }
  pcx = Math.trunc(pcx / npoly);
  pcz = Math.trunc(pcz / npoly);

  // Depth-first walk (the patch marks visited cells with 1). A straight walk can get stuck on
  // simplified contours, hence the stack.
  patch.fill(0, 0, pw * ph);
  let len = pushQueue(s, 0, startX, startZ, startSpan);
  let cx = -1;
  let cz = -1;
  let ci = -1;
  for (;;) {
    if (len < 3) {
      ctx?.warn("buildPolyMeshDetail: walk towards polygon centre failed to reach it");
      break;
    }
    len -= 3;
    cx = s.queue[len]!;
    cz = s.queue[len + 1]!;
    ci = s.queue[len + 2]!;
    if (cx === pcx && cz === pcz) break;

    // Directions 0..3 with the one heading to the centre moved last, so it is popped first.
    let direct: number;
    if (cx === pcx) direct = pcz > cz ? 1 : 3;
    else direct = pcx > cx ? 2 : 0;
    const con = chf.spanCon[ci]!;
    for (let k = 0; k < 4; k++) {
      const dir = k === direct ? 3 : k === 3 ? direct : k;
      const nc = (con >>> (dir * 8)) & 0xff;
      if (nc === NO_CON) continue;
      const nx = cx + DIR_X[dir]!;
      const nz = cz + DIR_Z[dir]!;
      const hx = nx - px;
      const hz = nz - pz;
      if (hx < 0 || hx >= pw || hz < 0 || hz >= ph) continue;
      if (patch[hx + hz * pw] !== 0) continue;
      patch[hx + hz * pw] = 1;
      len = pushQueue(s, len, nx, nz, s.cellFirst[nx + bs + (nz + bs) * cw]! + nc);
    }
  }

  patch.fill(UNSET, 0, pw * ph);
  patch[cx - px + (cz - pz) * pw] = chf.spanY[ci]!;
  return pushQueue(s, 0, cx + bs, cz + bs, ci);
}

/**
 * Height (voxels) of the patch cell under (x, z) = s.args[ARG_X], [ARG_Z]; when that cell has
 * none, the closest height to y (ARG_Y) within the nearest ring of cells that has any,
 * searching rings up to `radius`.
 */
function patchHeight(s: Scratch, radius: number): number {
  const args = s.args;
  const fx = args[ARG_X]!;
  const fy = args[ARG_Y]!;
  const fz = args[ARG_Z]!;
  const ics = args[ARG_ICS]!;
  const ch = args[ARG_CH]!;
  const pw = s.patchW;
  const ph = s.patchH;
  const patch = s.patch;
  let ix = Math.floor(f(f(fx * ics) + F_0_01)) - s.patchX;
  let iz = Math.floor(f(f(fz * ics) + F_0_01)) - s.patchZ;
  ix = ix < 0 ? 0 : Math.min(ix, pw - 1);
  iz = iz < 0 ? 0 : Math.min(iz, ph - 1);
  let h = patch[ix + iz * pw]!;
  if (h !== UNSET) return h;

  // Square spiral around the cell, ring by ring; stop at the end of the first ring with a hit.
  let x = 1;
  let z = 0;
  let dx = 1;
  let dz = 0;
  const side = radius * 2 + 1;
  const maxIter = side * side - 1;
  let ringEnd = 8;
  let ringLen = 16;
  let dmin = FLT_MAX;
  for (let i = 0; i < maxIter; i++) {
    const nx = ix + x;
    const nz = iz + z;
    if (nx >= 0 && nz >= 0 && nx < pw && nz < ph) {
      const nh = patch[nx + nz * pw]!;
      if (nh !== UNSET) {
        const d = Math.abs(f(f(nh * ch) - fy));
        if (d < dmin) {
          h = nh;
          dmin = d;
        }
      }
    }
    if (i + 1 === ringEnd) {
      if (h !== UNSET) break;
      ringEnd += ringLen;
      ringLen += 8;
    }
    if (x === z || (x < 0 && x === -z) || (x > 0 && x === 1 - z)) {
      const tmp = dx;
      dx = -dz;
      dz = tmp;
    }
    x += dx;
    z += dz;
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Float32 geometry helpers (XZ plane unless noted)

function dist2d(a: Float32Array, i: number, b: Float32Array, j: number): number {
  const dx = f(b[j]! - a[i]!);
  const dz = f(b[j + 2]! - a[i + 2]!);
  return f(Math.sqrt(f(f(dx * dx) + f(dz * dz))));
}

/** Squared XZ distance from (x, z) to segment p→q. */
function distPtSegSq2d(
  x: number,
  z: number,
  p: Float32Array,
  pi: number,
  q: Float32Array,
  qi: number,
): number {
  const px = p[pi]!;
  const pz = p[pi + 2]!;
  const pqx = f(q[qi]! - px);
  const pqz = f(q[qi + 2]! - pz);
  let dx = f(x - px);
  let dz = f(z - pz);
  const d = f(f(pqx * pqx) + f(pqz * pqz));
  let t = f(f(pqx * dx) + f(pqz * dz));
  if (d > 0) t = f(t / d);
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  dx = f(f(px + f(t * pqx)) - x);
  dz = f(f(pz + f(t * pqz)) - z);
  return f(f(dx * dx) + f(dz * dz));
}

/**
 * Whether (x, z) = args[ARG_X], [ARG_Z] is inside the polygon and its squared XZ distance to
 * every edge is at least args[ARG_MIN_INSET_SQ] — Recast's `distToPoly(...) <= -minDistSq` test (it compares a squared distance
 * to sampleDist / 2), stopping at the first edge that decides it.
 */
function isDeepInside(poly: Float32Array, n: number, args: Float64Array): boolean {
  const x = args[ARG_X]!;
  const z = args[ARG_Z]!;
  const minDistSq = args[ARG_MIN_INSET_SQ]!;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = poly[i * 3]!;
    const zi = poly[i * 3 + 2]!;
    const xj = poly[j * 3]!;
    const zj = poly[j * 3 + 2]!;
    if (zi > z !== zj > z && x < f(f(f(f(xj - xi) * f(z - zi)) / f(zj - zi)) + xi)) {
      inside = !inside;
    }
  }
  if (!inside) return false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    if (distPtSegSq2d(x, z, poly, j * 3, poly, i * 3) < minDistSq) return false;
  }
  return true;
}

/** Smallest over edges of the largest distance of another vertex to that edge (XZ). */
function polyMinExtent(poly: Float32Array, n: number): number {
  let minDist = FLT_MAX;
  for (let i = 0; i < n; i++) {
    const ni = (i + 1) % n;
    let maxEdgeDist = 0;
    for (let j = 0; j < n; j++) {
      if (j === i || j === ni) continue;
      const d = distPtSegSq2d(poly[j * 3]!, poly[j * 3 + 2]!, poly, i * 3, poly, ni * 3);
      if (d > maxEdgeDist) maxEdgeDist = d;
    }
    if (maxEdgeDist < minDist) minDist = maxEdgeDist;
  }
  return f(Math.sqrt(minDist));
}

// ---------------------------------------------------------------------------------------------
// Per-polygon detail

const JITTER_X = 0x8da6b343;
const JITTER_Z = 0xd8163841;

function jitter(i: number, k: number): number {
  return f(f(f((Math.imul(i, k) & 0xffff) / 65535) * 2) - 1);
}

/**
 * Keeps only the samples `edge[0, nn]` needs to stay within sqrt(maxErrSq) of the sampled
 * heights (Douglas–Peucker, splitting at the worst sample); their indices go to `idx` in order,
 * the count is returned.
 */
function simplifyEdgeSamples(
  edge: Float32Array,
  idx: Int32Array,
  nn: number,
  maxErrSq: number,
): number {
  idx[0] = 0;
  idx[1] = nn;
  let nidx = 2;
  for (let k = 0; k < nidx - 1; ) {
    const ia = idx[k]!;
    const ib = idx[k + 1]!;
    let maxd = 0;
    let maxi = -1;
    // Squared 3D distance of sample m to segment ia→ib, written out here: V8 did not inline it
    // as a helper, and boxed its float result on every call.
    const a = ia * 3;
    const b = ib * 3;
    const ax = edge[a]!;
    const ay = edge[a + 1]!;
    const az = edge[a + 2]!;
    const pqx = f(edge[b]! - ax);
    const pqy = f(edge[b + 1]! - ay);
    const pqz = f(edge[b + 2]! - az);
    const d = f(f(f(pqx * pqx) + f(pqy * pqy)) + f(pqz * pqz));
    for (let m = ia + 1; m < ib; m++) {
      const mx = edge[m * 3]!;
      const my = edge[m * 3 + 1]!;
      const mz = edge[m * 3 + 2]!;
      let t = f(f(f(pqx * f(mx - ax)) + f(pqy * f(my - ay))) + f(pqz * f(mz - az)));
      if (d > 0) t = f(t / d);
      if (t < 0) t = 0;
      else if (t > 1) t = 1;
      const dx = f(f(ax + f(t * pqx)) - mx);
      const dy = f(f(ay + f(t * pqy)) - my);
      const dz = f(f(az + f(t * pqz)) - mz);
      const dev = f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz));
      if (dev > maxd) {
        maxd = dev;
        maxi = m;
      }
    }
    if (maxi !== -1 && maxd > maxErrSq) {
      for (let m = nidx; m > k; m--) idx[m] = idx[m - 1]!;
      idx[k + 1] = maxi;
      nidx++;
    } else {
      k++;
    }
  }
  return nidx;
}

/**
 * Builds the detail vertices (s.verts, returned count) and triangles (s.tris, count in
 * s.ntris) of the polygon in s.poly, in polygon-local coordinates.
 */
function buildPolygonDetail(
  s: Scratch,
  nin: number,
  sampleDist: number,
  sampleMaxError: number,
  radius: number,
  cs: number,
  ch: number,
  ctx: BuildContext | undefined,
): number {
  const poly = s.poly;
  const verts = s.verts;
  const hull = s.hull;
  const edge = s.edgePts;
  const idx = s.edgeIdx;
  const args = s.args;
  args[ARG_ICS] = f(1 / cs);
  args[ARG_CH] = ch;
  let nverts = nin;
  let nhull = 0;
  for (let i = 0; i < nin * 3; i++) verts[i] = poly[i]!;

  const minExtent = polyMinExtent(verts, nverts);

  if (sampleDist > 0) {
    // Tessellate the outline first, each edge always walked from its lexicographically smaller
    // end, so neighbouring polygons get identical samples on their shared edge.
    const maxErrSq = f(sampleMaxError * sampleMaxError);
    for (let i = 0, j = nin - 1; i < nin; j = i++) {
      let a = j * 3;
      let b = i * 3;
      let swapped = false;
      if (Math.abs(f(poly[a]! - poly[b]!)) < F_1E_6) {
        if (poly[a + 2]! > poly[b + 2]!) swapped = true;
      } else if (poly[a]! > poly[b]!) {
        swapped = true;
      }
      if (swapped) {
        const tmp = a;
        a = b;
        b = tmp;
      }
      const ax = poly[a]!;
      const ay = poly[a + 1]!;
      const az = poly[a + 2]!;
      const dx = f(poly[b]! - ax);
      const dy = f(poly[b + 1]! - ay);
      const dz = f(poly[b + 2]! - az);
      const d = f(Math.sqrt(f(f(dx * dx) + f(dz * dz))));
      let nn = 1 + Math.floor(f(d / sampleDist));
      if (nn >= MAX_VERTS_PER_EDGE) nn = MAX_VERTS_PER_EDGE - 1;
      if (nverts + nn >= MAX_VERTS) nn = MAX_VERTS - 1 - nverts;
      for (let k = 0; k <= nn; k++) {
        const u = f(k / nn);
        const x = f(ax + f(dx * u));
        const y = f(ay + f(dy * u));
        const z = f(az + f(dz * u));
        edge[k * 3] = x;
        args[ARG_X] = x;
        args[ARG_Y] = y;
        args[ARG_Z] = z;
        edge[k * 3 + 1] = f(patchHeight(s, radius) * ch);
        edge[k * 3 + 2] = z;
      }
      const nidx = simplifyEdgeSamples(edge, idx, nn, maxErrSq);
      hull[nhull++] = j;
      // The kept inner samples, from vertex j towards vertex i.
      for (let k = 1; k < nidx - 1; k++) {
        const e = idx[swapped ? nidx - 1 - k : k]! * 3;
        verts[nverts * 3] = edge[e]!;
        verts[nverts * 3 + 1] = edge[e + 1]!;
        verts[nverts * 3 + 2] = edge[e + 2]!;
        hull[nhull++] = nverts++;
      }
    }
  } else {
    // No sampling: the hull is the polygon itself. (Recast leaves the hull empty here and
    // loops forever, recastnavigation issue #650.)
    for (let i = 0; i < nin; i++) hull[nhull++] = i;
  }

  s.nhull = nhull;

  // Slivers and small polygons get no interior points.
  if (minExtent < f(sampleDist * 2) || sampleDist <= 0) {
    s.ntris = triangulateHull(s, nhull, nin);
    return nverts;
  }

  // The hull triangulation handles long thin triangles better than Delaunay when there are
  // no interior points; interior points switch to Delaunay.
  let ntris = triangulateHull(s, nhull, nin);
  if (ntris === 0) {
    ctx?.warn(`buildPolyMeshDetail: could not triangulate polygon (${nverts} verts)`);
    s.ntris = 0;
    return nverts;
  }

  // Grid samples at least half a sample distance inside the polygon.
  let bminX = poly[0]!;
  let bminY = poly[1]!;
  let bminZ = poly[2]!;
  let bmaxX = bminX;
  let bmaxY = bminY;
  let bmaxZ = bminZ;
  for (let i = 1; i < nin; i++) {
    const x = poly[i * 3]!;
    const y = poly[i * 3 + 1]!;
    const z = poly[i * 3 + 2]!;
    if (x < bminX) bminX = x;
    if (y < bminY) bminY = y;
    if (z < bminZ) bminZ = z;
    if (x > bmaxX) bmaxX = x;
    if (y > bmaxY) bmaxY = y;
    if (z > bmaxZ) bmaxZ = z;
  }
  const x0 = Math.floor(f(bminX / sampleDist));
  const x1 = Math.ceil(f(bmaxX / sampleDist));
  const z0 = Math.floor(f(bminZ / sampleDist));
  const z1 = Math.ceil(f(bmaxZ / sampleDist));
  const midY = f(f(bmaxY + bminY) * 0.5);
  args[ARG_MIN_INSET_SQ] = sampleDist / 2;
  const gridW = Math.max(0, x1 - x0);
  const gridH = Math.max(0, z1 - z0);
  if (gridW * gridH > s.sampleGrid.length) s.sampleGrid = new Int32Array(gridW * gridH * 2);
  const grid = s.sampleGrid;
  grid.fill(-1, 0, gridW * gridH);
  let nsamples = 0;
  for (let z = z0; z < z1; z++) {
    const pz = f(z * sampleDist);
    for (let x = x0; x < x1; x++) {
      const px = f(x * sampleDist);
      args[ARG_X] = px;
      args[ARG_Z] = pz;
      if (!isDeepInside(poly, nin, args)) continue;
      if (nsamples >= s.sampleX.length) growSamples(s);
      args[ARG_Y] = midY;
      const h = patchHeight(s, radius);
      // Jitter breaks the grid's symmetry, which otherwise yields poor triangulations.
      s.sampleX[nsamples] = f(f(x * sampleDist) + f(f(jitter(nsamples, JITTER_X) * cs) * F_0_1));
      s.sampleY[nsamples] = f(h * ch);
      s.sampleZ[nsamples] = f(f(z * sampleDist) + f(f(jitter(nsamples, JITTER_Z) * cs) * F_0_1));
      s.sampleAdded[nsamples] = 0;
      grid[x - x0 + (z - z0) * gridW] = nsamples;
      nsamples++;
    }
  }

  // Insert the sample with the largest height error until all are within sampleMaxError.
  args[ARG_SAMPLE_DIST] = sampleDist;
  args[ARG_JITTER_PAD] = f(cs * F_0_1) * 1.01;
  for (let iter = 0; iter < nsamples; iter++) {
    if (nverts >= MAX_VERTS) break;
    measureSampleErrors(s, ntris, nsamples, x0, z0, gridW, gridH);
    const err = s.sampleErr;
    const added = s.sampleAdded;
    let bestd = 0;
    let besti = -1;
    for (let i = 0; i < nsamples; i++) {
      if (added[i] !== 0) continue;
      const d = err[i]!;
      if (d === FLT_MAX) continue; // no triangle above or below it
      if (d > bestd) {
        bestd = d;
        besti = i;
      }
    }
    if (bestd <= sampleMaxError || besti === -1) break;
    added[besti] = 1;
    verts[nverts * 3] = s.sampleX[besti]!;
    verts[nverts * 3 + 1] = s.sampleY[besti]!;
    verts[nverts * 3 + 2] = s.sampleZ[besti]!;
    nverts++;
    ntris = delaunayHull(s, nverts, nhull, ctx);
  }

  if (ntris > MAX_TRIS) {
    ctx?.warn(`buildPolyMeshDetail: shrinking triangle count from ${ntris} to ${MAX_TRIS}`);
    ntris = MAX_TRIS;
  }
  s.ntris = ntris;
  return nverts;
}

function growSamples(s: Scratch): void {
  const n = s.sampleX.length + 1;
  s.sampleX = growFloat32(s.sampleX, n);
  s.sampleY = growFloat32(s.sampleY, n);
  s.sampleZ = growFloat32(s.sampleZ, n);
  s.sampleAdded = growUint8(s.sampleAdded, n);
  s.sampleErr = new Float64Array(s.sampleX.length);
}

/**
 * For every sample not yet inserted, the smallest vertical distance to a triangle whose XZ
 * footprint (barycentric tolerance 1e-4) holds it, FLT_MAX when none does — what Recast's
 * distToTriMesh gives, bit for bit. Triangle-major: the per-triangle terms are computed once,
 * and a well-shaped triangle visits only the samples near its bounding box. That is exact: for
 * denominators >= 2e-3 L^4 (L = longest edge) the float error in u, v stays below 1e-3 near the
 * triangle, so no point farther than 0.0014 L can pass the test, and the margin is 0.01 L.
 */
function measureSampleErrors(
  s: Scratch,
  ntris: number,
  nsamples: number,
  x0: number,
  z0: number,
  gridW: number,
  gridH: number,
): void {
  const sampleDist = s.args[ARG_SAMPLE_DIST]!;
  const jitterPad = s.args[ARG_JITTER_PAD]!;
  const err = s.sampleErr;
  const added = s.sampleAdded;
  const sx = s.sampleX;
  const sy = s.sampleY;
  const sz = s.sampleZ;
  const grid = s.sampleGrid;
  const verts = s.verts;
  const tris = s.tris;
  err.fill(FLT_MAX, 0, nsamples);
  for (let t = 0; t < ntris; t++) {
    const a = tris[t * 4]! * 3;
    const b = tris[t * 4 + 1]! * 3;
    const c = tris[t * 4 + 2]! * 3;
    const ax = verts[a]!;
    const ay = verts[a + 1]!;
    const az = verts[a + 2]!;
    const v0x = f(verts[c]! - ax);
    const v0y = f(verts[c + 1]! - ay);
    const v0z = f(verts[c + 2]! - az);
    const v1x = f(verts[b]! - ax);
    const v1y = f(verts[b + 1]! - ay);
    const v1z = f(verts[b + 2]! - az);
    const dot00 = f(f(v0x * v0x) + f(v0z * v0z));
    const dot01 = f(f(v0x * v1x) + f(v0z * v1z));
    const dot11 = f(f(v1x * v1x) + f(v1z * v1z));
    const denom = f(f(dot00 * dot11) - f(dot01 * dot01));
    const invDenom = f(1 / denom);

    const ex = v1x - v0x;
    const ez = v1z - v0z;
    const longest2 = Math.max(dot00, dot11, ex * ex + ez * ez);
    if (longest2 > 0 && denom >= 2e-3 * longest2 * longest2) {
      const m = 0.01 * Math.sqrt(longest2) + 1e-5;
      const minX = Math.min(ax, verts[b]!, verts[c]!) - m;
      const maxX = Math.max(ax, verts[b]!, verts[c]!) + m;
      const minZ = Math.min(az, verts[b + 2]!, verts[c + 2]!) - m;
      const maxZ = Math.max(az, verts[b + 2]!, verts[c + 2]!) + m;
      const gx0 = Math.max(0, Math.floor((minX - jitterPad) / sampleDist) - x0 - 1);
      const gx1 = Math.min(gridW - 1, Math.ceil((maxX + jitterPad) / sampleDist) - x0 + 1);
      const gz0 = Math.max(0, Math.floor((minZ - jitterPad) / sampleDist) - z0 - 1);
      const gz1 = Math.min(gridH - 1, Math.ceil((maxZ + jitterPad) / sampleDist) - z0 + 1);
      for (let gz = gz0; gz <= gz1; gz++) {
        for (let gx = gx0; gx <= gx1; gx++) {
          const i = grid[gx + gz * gridW]!;
          if (i < 0 || added[i] !== 0) continue;
          const x = sx[i]!;
          const z = sz[i]!;
          if (x < minX || x > maxX || z < minZ || z > maxZ) continue;
          const d = triHeightError(
            ax,
            ay,
            az,
            v0x,
            v0y,
            v0z,
            v1x,
            v1y,
            v1z,
            dot00,
            dot01,
            dot11,
            invDenom,
            x,
            sy[i]!,
            z,
          );
          if (d < err[i]!) err[i] = d;
        }
      }
    } else {
      for (let i = 0; i < nsamples; i++) {
        if (added[i] !== 0) continue;
        const d = triHeightError(
          ax,
          ay,
          az,
          v0x,
          v0y,
          v0z,
          v1x,
          v1y,
          v1z,
          dot00,
          dot01,
          dot11,
          invDenom,
          sx[i]!,
          sy[i]!,
          sz[i]!,
        );
        if (d < err[i]!) err[i] = d;
      }
    }
  }
}

/** |height of the triangle at (x, z) - y| when (x, z) is inside it (Recast's distPtTri), else FLT_MAX. */
function triHeightError(
  ax: number,
  ay: number,
  az: number,
  v0x: number,
  v0y: number,
  v0z: number,
  v1x: number,
  v1y: number,
  v1z: number,
  dot00: number,
  dot01: number,
  dot11: number,
  invDenom: number,
  x: number,
  y: number,
  z: number,
): number {
  const v2x = f(x - ax);
  const v2z = f(z - az);
  const dot02 = f(f(v0x * v2x) + f(v0z * v2z));
  const dot12 = f(f(v1x * v2x) + f(v1z * v2z));
  const u = f(f(f(dot11 * dot02) - f(dot01 * dot12)) * invDenom);
  const v = f(f(f(dot00 * dot12) - f(dot01 * dot02)) * invDenom);
  if (u >= -F_EPS_TRI && v >= -F_EPS_TRI && f(u + v) <= F_ONE_PLUS_EPS_TRI) {
    const ty = f(f(ay + f(v0y * u)) + f(v1y * v));
    return Math.abs(f(ty - y));
  }
  return FLT_MAX;
}

/**
 * Triangulates the hull polygon without interior points: start at the original-vertex ear with
 * the shortest perimeter, then advance along whichever side gives the shorter next triangle.
 * Returns the triangle count (in s.tris).
 */
function triangulateHull(s: Scratch, nhull: number, nin: number): number {
  const verts = s.verts;
  const hull = s.hull;
  const tris = s.tris;
  let start = 0;
  let left = 1;
  let right = nhull - 1;
  let dmin = FLT_MAX;
  for (let i = 0; i < nhull; i++) {
    // Only original vertices make ears; edge samples sit on straight lines.
    if (hull[i]! >= nin) continue;
    const pi = i - 1 >= 0 ? i - 1 : nhull - 1;
    const ni = i + 1 < nhull ? i + 1 : 0;
    const pv = hull[pi]! * 3;
    const cv = hull[i]! * 3;
    const nv = hull[ni]! * 3;
    const d = f(
      f(dist2d(verts, pv, verts, cv) + dist2d(verts, cv, verts, nv)) + dist2d(verts, nv, verts, pv),
    );
    if (d < dmin) {
      start = i;
      left = ni;
      right = pi;
      dmin = d;
    }
  }
  tris[0] = hull[start]!;
  tris[1] = hull[left]!;
  tris[2] = hull[right]!;
  tris[3] = 0;
  let ntris = 1;
  for (;;) {
    const nleft = left + 1 < nhull ? left + 1 : 0;
    if (nleft === right) break;
    const nright = right - 1 >= 0 ? right - 1 : nhull - 1;
    const cvl = hull[left]! * 3;
    const nvl = hull[nleft]! * 3;
    const cvr = hull[right]! * 3;
    const nvr = hull[nright]! * 3;
    const dleft = f(dist2d(verts, cvl, verts, nvl) + dist2d(verts, nvl, verts, cvr));
    const dright = f(dist2d(verts, cvr, verts, nvr) + dist2d(verts, cvl, verts, nvr));
    const o = ntris * 4;
    if (dleft < dright) {
      tris[o] = hull[left]!;
      tris[o + 1] = hull[nleft]!;
      tris[o + 2] = hull[right]!;
      left = nleft;
    } else {
      tris[o] = hull[left]!;
      tris[o + 1] = hull[nright]!;
      tris[o + 2] = hull[right]!;
      right = nright;
    }
    tris[o + 3] = 0;
    ntris++;
  }
  return ntris;
}

// ---------------------------------------------------------------------------------------------
// Delaunay triangulation constrained to the hull (Recast's delaunayHull, an advancing front)

/** Index of the edge between a and b (either direction), -1 if none. Edges are unique per pair. */
function findEdge(s: Scratch, a: number, b: number): number {
  return s.edgeSlot[a < b ? a * EDGE_SLOT_STRIDE + b : b * EDGE_SLOT_STRIDE + a]! - 1;
}

function addEdge(
  s: Scratch,
  maxEdges: number,
  a: number,
  b: number,
  leftFace: number,
  rightFace: number,
  ctx: BuildContext | undefined,
): void {
  const edges = s.edges;
  if (s.nedges >= maxEdges) {
    ctx?.warn(`buildPolyMeshDetail: too many Delaunay edges (${s.nedges}/${maxEdges})`);
    return;
  }
  const slot = a < b ? a * EDGE_SLOT_STRIDE + b : b * EDGE_SLOT_STRIDE + a;
  if (s.edgeSlot[slot] !== 0) return;
  s.edgeSlot[slot] = s.nedges + 1;
  const o = s.nedges * 4;
  edges[o] = a;
  edges[o + 1] = b;
  edges[o + 2] = leftFace;
  edges[o + 3] = rightFace;
  s.nedges++;
}

/** Sets the face on the side of edge e that lies left of a→b, if still undefined. */
function setLeftFace(edges: Int32Array, e: number, a: number, b: number, face: number): void {
  const o = e * 4;
  if (edges[o] === a && edges[o + 1] === b && edges[o + 2] === FACE_UNDEF) edges[o + 2] = face;
  else if (edges[o + 1] === a && edges[o] === b && edges[o + 3] === FACE_UNDEF) edges[o + 3] = face;
}

/** Circumcircle of p1, p2, p3 (XZ) into s.circle as (cx, cz, r); r = 0 when degenerate. */
function circumCircle(s: Scratch, p: Float32Array, i1: number, i2: number, i3: number): void {
  const c = s.circle;
  const x1 = p[i1]!;
  const z1 = p[i1 + 2]!;
  const v2x = f(p[i2]! - x1);
  const v2z = f(p[i2 + 2]! - z1);
  const v3x = f(p[i3]! - x1);
  const v3z = f(p[i3 + 2]! - z1);
  const cp = f(f(v2x * v3z) - f(v2z * v3x));
  if (Math.abs(cp) > F_1E_6) {
    const v2Sq = f(f(v2x * v2x) + f(v2z * v2z));
    const v3Sq = f(f(v3x * v3x) + f(v3z * v3z));
    const den = f(2 * cp);
    // Relative to p1 (whose terms vanish), as Recast does for precision.
    const cx = f(f(f(v2Sq * v3z) + f(v3Sq * -v2z)) / den);
    const cz = f(f(f(v2Sq * -v3x) + f(v3Sq * v2x)) / den);
    c[2] = f(Math.sqrt(f(f(cx * cx) + f(cz * cz))));
    c[0] = f(cx + x1);
    c[1] = f(cz + z1);
    return;
  }
  c[0] = x1;
  c[1] = z1;
  c[2] = 0;
}

/**
 * Whether segment s1→t1 properly crosses any edge not sharing a vertex with it (XZ), with
 * Recast's float steps (its overlapSegSeg2d with the edge as a→b and s1→t1 as c→d).
 */
function crossesAnyEdge(
  p: Float32Array,
  edges: Int32Array,
  nedges: number,
  s1: number,
  t1: number,
): boolean {
  const cx = p[s1 * 3]!;
  const cz = p[s1 * 3 + 2]!;
  const dx = p[t1 * 3]!;
  const dz = p[t1 * 3 + 2]!;
  const cdx = f(dx - cx);
  const cdz = f(dz - cz);
  for (let i = 0; i < nedges; i++) {
    const s0 = edges[i * 4]!;
    const t0 = edges[i * 4 + 1]!;
    if (s0 === s1 || s0 === t1 || t0 === s1 || t0 === t1) continue;
    const ax = p[s0 * 3]!;
    const az = p[s0 * 3 + 2]!;
    const abx = f(p[t0 * 3]! - ax);
    const abz = f(p[t0 * 3 + 2]! - az);
    const a1 = f(f(abx * f(dz - az)) - f(abz * f(dx - ax)));
    const a2 = f(f(abx * f(cz - az)) - f(abz * f(cx - ax)));
    if (f(a1 * a2) < 0) {
      const a3 = f(f(cdx * f(az - cz)) - f(cdz * f(ax - cx)));
      const a4 = f(f(a3 + a2) - a1);
      if (f(a3 * a4) < 0) return true;
    }
  }
  return false;
}

/** Closes the open side of edge e with the best point to its left, or marks it as hull. */
function completeFacet(
  s: Scratch,
  npts: number,
  maxEdges: number,
  e: number,
  ctx: BuildContext | undefined,
): void {
  const edges = s.edges;
  const pts = s.verts;
  const circle = s.circle;
  const o = e * 4;
  let ps: number;
  let pt: number;
  if (edges[o + 2] === FACE_UNDEF) {
    ps = edges[o]!;
    pt = edges[o + 1]!;
  } else if (edges[o + 3] === FACE_UNDEF) {
    ps = edges[o + 1]!;
    pt = edges[o]!;
  } else {
    return;
  }

  // Candidates strictly left of ps→pt; keep the one whose circumcircle holds no other.
  const sx = pts[ps * 3]!;
  const sz = pts[ps * 3 + 2]!;
  const stx = f(pts[pt * 3]! - sx);
  const stz = f(pts[pt * 3 + 2]! - sz);
  let best = npts;
  let cx = 0;
  let cz = 0;
  let r = -1;
  let rHi = 0;
  let rHiSq = 0;
  let rLo = 0;
  for (let u = 0; u < npts; u++) {
    if (u === ps || u === pt) continue;
    const ux = pts[u * 3]!;
    const uz = pts[u * 3 + 2]!;
    if (!(f(f(stx * f(uz - sz)) - f(stz * f(ux - sx))) > F_EPS_FACET)) continue;
    if (r >= 0) {
      const dx = f(ux - cx);
      const dz = f(uz - cz);
      const q = f(f(dx * dx) + f(dz * dz));
      // Clearly outside without the square root: q > (rHi (1 + 2^-20))^2 gives
      // f(sqrt(q)) > rHi, as float32 rounding moves sqrt(q) by at most 2^-24 of it.
      if (q > rHiSq) continue;
      const d = f(Math.sqrt(q));
      if (d > rHi) continue;
      if (!(d < rLo)) {
        // On the circle within tolerance: accept only if the new edges cross nothing.
        if (crossesAnyEdge(pts, edges, s.nedges, ps, u)) continue;
        if (crossesAnyEdge(pts, edges, s.nedges, pt, u)) continue;
      }
    }
    best = u;
    circumCircle(s, pts, ps * 3, pt * 3, u * 3);
    cx = circle[0]!;
    cz = circle[1]!;
    r = circle[2]!;
    rHi = f(r * F_CIRCLE_TOL_HI);
    const rHiWide = rHi * (1 + 2 ** -20);
    rHiSq = rHiWide * rHiWide;
    rLo = f(r * F_CIRCLE_TOL_LO);
  }

  if (best < npts) {
    setLeftFace(edges, e, ps, pt, s.nfaces);
    let k = findEdge(s, best, ps);
    if (k === -1) addEdge(s, maxEdges, best, ps, s.nfaces, FACE_UNDEF, ctx);
    else setLeftFace(edges, k, best, ps, s.nfaces);
    k = findEdge(s, pt, best);
    if (k === -1) addEdge(s, maxEdges, pt, best, s.nfaces, FACE_UNDEF, ctx);
    else setLeftFace(edges, k, pt, best, s.nfaces);
    s.nfaces++;
  } else {
    setLeftFace(edges, e, ps, pt, FACE_HULL);
  }
}

/** Delaunay triangulation of s.verts[0, npts) inside the hull; returns the triangle count. */
function delaunayHull(
  s: Scratch,
  npts: number,
  nhull: number,
  ctx: BuildContext | undefined,
): number {
  const maxEdges = npts * 10;
  const edges = s.edges;
  const hull = s.hull;
  s.nedges = 0;
  s.nfaces = 0;
  for (let i = 0, j = nhull - 1; i < nhull; j = i++) {
    addEdge(s, maxEdges, hull[j]!, hull[i]!, FACE_HULL, FACE_UNDEF, ctx);
  }
  for (let e = 0; e < s.nedges; e++) {
    if (edges[e * 4 + 2] === FACE_UNDEF) completeFacet(s, npts, maxEdges, e, ctx);
    if (edges[e * 4 + 3] === FACE_UNDEF) completeFacet(s, npts, maxEdges, e, ctx);
  }
  // Leave the pair table empty for the next triangulation.
  for (let e = 0; e < s.nedges; e++) {
    const a = edges[e * 4]!;
    const b = edges[e * 4 + 1]!;
    s.edgeSlot[a < b ? a * EDGE_SLOT_STRIDE + b : b * EDGE_SLOT_STRIDE + a] = 0;
  }

  // Faces from the edges' left/right face ids.
  const tris = s.tris;
  let ntris = s.nfaces;
  tris.fill(-1, 0, ntris * 4);
  for (let i = 0; i < s.nedges; i++) {
    const e0 = edges[i * 4]!;
    const e1 = edges[i * 4 + 1]!;
    const face2 = edges[i * 4 + 2]!;
    const face3 = edges[i * 4 + 3]!;
    if (face3 >= 0) {
      const t = face3 * 4;
      if (tris[t] === -1) {
        tris[t] = e0;
        tris[t + 1] = e1;
      } else if (tris[t] === e1) tris[t + 2] = e0;
      else if (tris[t + 1] === e0) tris[t + 2] = e1;
    }
    if (face2 >= 0) {
      const t = face2 * 4;
      if (tris[t] === -1) {
        tris[t] = e1;
        tris[t + 1] = e0;
      } else if (tris[t] === e0) tris[t + 2] = e1;
      else if (tris[t + 1] === e1) tris[t + 2] = e0;
    }
  }
  for (let i = 0; i < ntris; i++) {
    const t = i * 4;
    if (tris[t] === -1 || tris[t + 1] === -1 || tris[t + 2] === -1) {
      ctx?.warn(`buildPolyMeshDetail: removing dangling Delaunay face ${i}`);
      const last = (ntris - 1) * 4;
      tris[t] = tris[last]!;
      tris[t + 1] = tris[last + 1]!;
      tris[t + 2] = tris[last + 2]!;
      tris[t + 3] = tris[last + 3]!;
      ntris--;
      i--;
    }
  }
  return ntris;
}
