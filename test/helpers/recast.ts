/**
 * Differential-test harness around Recast compiled to WebAssembly (@recast-navigation/core).
 * Stable API, imported by the stage differential tests:
 *
 *   await initRecast();                          // once per test file (idempotent)
 *   const r = runRecastPipeline(mesh, cfg);      // Recast's stages, as RecastDemo's Sample_SoloMesh
 *   r.rasterizedSpans, r.regionCount, ...        // counts per stage (see RecastPipelineResult)
 *   toMeshwayHeightfield(r.hf) / toMeshwayCompact(r.chf!) / toMeshwayContours(r.cset!) /
 *   toMeshwayPolyMesh(r.pmesh!) / toMeshwayDetail(r.dmesh!)   // Recast data in meshway's layout
 *   r.free();                                    // release WASM memory
 *
 * Call `await initRecast()` (e.g. in beforeAll) before anything else here. `recast` is the typed
 * @recast-navigation/core namespace (use it instead of importing the package directly: its
 * index.d.ts is invisible to tsc under NodeNext).
 *
 * The converters read Recast's structs straight out of WASM memory (one pass over typed views,
 * not per-element getter calls). The struct layouts are those of Recast 1.6 on wasm32; every
 * converter cross-checks a few fields against the official getters and throws if they disagree.
 *
 * Recast facts worth knowing when comparing (measured on this build):
 * - cellSize / cellHeight / bounds are float32 (0.3 → 0.30000001...); the grid size comes from
 *   rcCalcGridSize (float math) — equal to floor((bmax - bmin) / cs + 0.5) on the shared meshes.
 * - Compact-span clearance `spanH` is Recast's 8-bit value (at most 255), not a 16-bit one.
 * - chf.maxDistance is recorded before the distance field's box blur, so max(dist) <= maxDistance.
 * - chf.maxRegions (our regionCount) is one more than the real regions: the merge/filter step
 *   keeps a span-less id past the last region. `distinctRegions` counts the real ones.
 */
import * as recastCore from "@recast-navigation/core";
import type * as RecastArraysApi from "@recast-navigation/core/dist/arrays.js";
import type * as RecastRawApi from "@recast-navigation/core/dist/raw.js";
import type * as RecastApi from "@recast-navigation/core/dist/recast.js";
import type {
  CompactHeightfield,
  Contour,
  ContourSet,
  DistanceField,
  Heightfield,
  PolyMesh,
  PolyMeshDetail,
  Regions,
} from "../../src/generate/types.js";
import type { Vec3 } from "../../src/math/vec3.js";

// meshway sentinels, as in src/generate/types.ts (kept local so this harness has no runtime
// dependency on the stage code it checks).
const NOT_CONNECTED = 0xff;
const MESH_NULL_INDEX = 0xffffffff;
const PORTAL_FLAG = 0x80000000;

/**
 * @recast-navigation/core's index.d.ts re-exports extension-less paths that NodeNext resolution
 * cannot follow, so tsc sees no named exports there; re-type the runtime namespace from the
 * per-file declarations. Exported so tests can reach any other Recast call with types.
 */
export const recast = recastCore as unknown as typeof RecastApi &
  typeof RecastArraysApi &
  typeof RecastRawApi;

export type RecastHeightfield = RecastApi.RecastHeightfield;
export type RecastCompactHeightfield = RecastApi.RecastCompactHeightfield;
export type RecastContourSet = RecastApi.RecastContourSet;
export type RecastPolyMesh = RecastApi.RecastPolyMesh;
export type RecastPolyMeshDetail = RecastApi.RecastPolyMeshDetail;

const {
  allocCompactHeightfield,
  allocContourSet,
  allocHeightfield,
  allocPolyMesh,
  allocPolyMeshDetail,
  buildCompactHeightfield,
  buildContours,
  buildDistanceField,
  buildLayerRegions,
  buildPolyMesh,
  buildPolyMeshDetail,
  buildRegions,
  buildRegionsMonotone,
  calcGridSize,
  createHeightfield,
  erodeWalkableArea,
  FloatArray,
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
  freeCompactHeightfield,
  freeContourSet,
  freeHeightfield,
  freePolyMesh,
  freePolyMeshDetail,
  IntArray,
  init,
  markWalkableTriangles,
  Raw,
  RecastBuildContext,
  rasterizeTriangles,
  UnsignedCharArray,
} = recast;

import type { ResolvedConfig } from "../../src/config.js";
import type { TriangleMesh } from "../../src/input.js";

/** Recast's contour build flag that tessellates wall edges (RC_CONTOUR_TESS_WALL_EDGES). */
export const RC_CONTOUR_TESS_WALL_EDGES = 1;
/** Recast's contour build flag that tessellates area edges (RC_CONTOUR_TESS_AREA_EDGES). */
export const RC_CONTOUR_TESS_AREA_EDGES = 2;

let initPromise: Promise<void> | null = null;

/** Loads the Recast WASM module once; every other function here needs it. */
export function initRecast(): Promise<void> {
  initPromise ??= init();
  return initPromise;
}

// ---------------------------------------------------------------------------------------------
// Raw WASM memory access

interface Heap {
  u8: Uint8Array;
  u16: Uint16Array;
  i32: Int32Array;
  u32: Uint32Array;
  f32: Float32Array;
}

/** Fresh views: WASM memory may have grown (and its buffer been replaced) since the last call. */
function heap(): Heap {
  const m = Raw.Module;
  return { u8: m.HEAPU8, u16: m.HEAPU16, i32: m.HEAP32, u32: m.HEAPU32, f32: m.HEAPF32 };
}

function ptrOf(obj: unknown): number {
  return Raw.Module.getPointer(obj);
}

function vec3At(h: Heap, addr: number): Vec3 {
  return [h.f32[addr >> 2]!, h.f32[(addr >> 2) + 1]!, h.f32[(addr >> 2) + 2]!];
}

function layoutCheck(ok: boolean, what: string): void {
  if (!ok) {
    throw new Error(
      `recast harness: WASM struct layout mismatch (${what}); the offsets in test/helpers/recast.ts ` +
        "must be updated for this @recast-navigation/wasm build",
    );
  }
}

// Byte offsets of Recast 1.6 structs on wasm32 (4-byte pointers and ints).
const HF = { width: 0, height: 4, bmin: 8, bmax: 20, cs: 32, ch: 36, spans: 40 };
const CHF = {
  width: 0,
  height: 4,
  spanCount: 8,
  walkableHeight: 12,
  walkableClimb: 16,
  borderSize: 20,
  maxDistance: 24,
  maxRegions: 26,
  bmin: 28,
  bmax: 40,
  cs: 52,
  ch: 56,
  cells: 60,
  spans: 64,
  dist: 68,
  areas: 72,
};
const CSET = {
  conts: 0,
  nconts: 4,
  bmin: 8,
  bmax: 20,
  cs: 32,
  ch: 36,
  width: 40,
  height: 44,
  borderSize: 48,
  maxError: 52,
};
const CONT = { size: 20, verts: 0, nverts: 4, rverts: 8, nrverts: 12, reg: 16, area: 18 };
const PMESH = {
  verts: 0,
  polys: 4,
  regs: 8,
  flags: 12,
  areas: 16,
  nverts: 20,
  npolys: 24,
  maxpolys: 28,
  nvp: 32,
  bmin: 36,
  bmax: 48,
  cs: 60,
  ch: 64,
  borderSize: 68,
  maxEdgeError: 72,
};
const DMESH = { meshes: 0, verts: 4, tris: 8, nmeshes: 12, nverts: 16, ntris: 20 };

/** rcSpan: bitfield word (smin:13, smax:13, area:6) then the next pointer. */
const RC_SPAN_HEIGHT_MASK = 0x1fff;
const RC_SPAN_SMAX_SHIFT = 13;
const RC_SPAN_AREA_SHIFT = 26;
/** rcCompactSpan connection: 6 bits per direction, 0x3f = not connected. */
const RC_NOT_CONNECTED = 0x3f;
const RC_MESH_NULL_IDX = 0xffff;
const RC_PORTAL_FLAG = 0x8000;

// ---------------------------------------------------------------------------------------------
// Walking Recast's heightfield

/**
 * Counts the spans of a Recast heightfield by walking every column's list.
 * `walkableOnly` counts only spans whose area is not RC_NULL_AREA.
 */
export function countRecastSpans(rcHf: RecastHeightfield, walkableOnly = false): number {
  const h = heap();
  const p = ptrOf(rcHf.raw);
  const cols = h.i32[(p + HF.width) >> 2]! * h.i32[(p + HF.height) >> 2]!;
  const spans = h.u32[(p + HF.spans) >> 2]! >> 2;
  let n = 0;
  for (let c = 0; c < cols; c++) {
    let s = h.u32[spans + c]!;
    while (s !== 0) {
      if (!walkableOnly || h.u32[s >> 2]! >>> RC_SPAN_AREA_SHIFT !== 0) n++;
      s = h.u32[(s >> 2) + 1]!;
    }
  }
  return n;
}

/** Number of compact spans of a Recast compact heightfield whose area is not RC_NULL_AREA. */
export function countRecastWalkable(rcChf: RecastCompactHeightfield): number {
  const h = heap();
  const p = ptrOf(rcChf.raw);
  const n = h.i32[(p + CHF.spanCount) >> 2]!;
  const areas = h.u32[(p + CHF.areas) >> 2]!;
  let count = 0;
  for (let i = 0; i < n; i++) if (h.u8[areas + i] !== 0) count++;
  return count;
}

/** Number of distinct non-zero region ids (border flag included) on a Recast compact heightfield. */
export function countRecastRegions(rcChf: RecastCompactHeightfield): number {
  const h = heap();
  const p = ptrOf(rcChf.raw);
  const n = h.i32[(p + CHF.spanCount) >> 2]!;
  const spans = h.u32[(p + CHF.spans) >> 2]!;
  const seen = new Uint8Array(0x10000);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const reg = h.u16[((spans + i * 8) >> 1) + 1]!;
    if (reg !== 0 && seen[reg] === 0) {
      seen[reg] = 1;
      count++;
    }
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// Converters: Recast structures → meshway structures (copies; the Recast handle may be freed)

/** Copies a Recast heightfield into meshway's span pool (pool order = column order, lowest first). */
export function toMeshwayHeightfield(rcHf: RecastHeightfield): Heightfield {
  const h = heap();
  const p = ptrOf(rcHf.raw);
  const width = h.i32[(p + HF.width) >> 2]!;
  const depth = h.i32[(p + HF.height) >> 2]!;
  layoutCheck(width === rcHf.width() && depth === rcHf.height(), "rcHeightfield width/height");
  layoutCheck(h.f32[(p + HF.cs) >> 2] === rcHf.cs(), "rcHeightfield cs");
  const spans = h.u32[(p + HF.spans) >> 2]! >> 2;
  const cols = width * depth;
  const total = countRecastSpans(rcHf);
  const cap = Math.max(1, total);
  const hf: Heightfield = {
    width,
    depth,
    bmin: vec3At(h, p + HF.bmin),
    bmax: vec3At(h, p + HF.bmax),
    cellSize: h.f32[(p + HF.cs) >> 2]!,
    cellHeight: h.f32[(p + HF.ch) >> 2]!,
    columnHead: new Int32Array(cols).fill(-1),
    spans: new Int32Array(cap * 2).fill(-1),
    spanArea: new Uint8Array(cap),
    poolUsed: total,
    freeHead: -1,
  };
  let k = 0;
  for (let c = 0; c < cols; c++) {
    let s = h.u32[spans + c]!;
    let prev = -1;
    while (s !== 0) {
      const w = h.u32[s >> 2]!;
      hf.spans[k * 2] =
        (w & RC_SPAN_HEIGHT_MASK) | (((w >>> RC_SPAN_SMAX_SHIFT) & RC_SPAN_HEIGHT_MASK) << 16);
      hf.spanArea[k] = w >>> RC_SPAN_AREA_SHIFT;
      if (prev < 0) hf.columnHead[c] = k;
      else hf.spans[prev * 2 + 1] = k;
      prev = k++;
      s = h.u32[(s >> 2) + 1]!;
    }
  }
  if (total > 0) {
    // Cross-check the bitfield decoding on the first non-empty column.
    let c = 0;
    while (hf.columnHead[c] === -1) c++;
    const first = rcHf.spans(c);
    const i = hf.columnHead[c]!;
    layoutCheck(
      first.smin() === (hf.spans[i * 2]! & 0xffff) &&
        first.smax() === hf.spans[i * 2]! >>> 16 &&
        first.area() === hf.spanArea[i],
      "rcSpan bitfields",
    );
  }
  return hf;
}

/**
 * Copies a Recast compact heightfield. `regions` holds the span region ids (with Recast's
 * 0x8000 border flag, same as BORDER_REGION) and `regionCount` = chf.maxRegions; `dist` holds the
 * distance field (all zero, maxDistance 0, when Recast has not built one). Connections are
 * widened from Recast's 6 bits per direction (0x3f = none) to 8 bits (NOT_CONNECTED = 0xff).
 */
export function toMeshwayCompact(rcChf: RecastCompactHeightfield): {
  chf: CompactHeightfield;
  regions: Regions;
  dist: DistanceField;
} {
  const h = heap();
  const p = ptrOf(rcChf.raw);
  const width = h.i32[(p + CHF.width) >> 2]!;
  const depth = h.i32[(p + CHF.height) >> 2]!;
  const spanCount = h.i32[(p + CHF.spanCount) >> 2]!;
  const cellsPtr = h.u32[(p + CHF.cells) >> 2]!;
  const spansPtr = h.u32[(p + CHF.spans) >> 2]!;
  const distPtr = h.u32[(p + CHF.dist) >> 2]!;
  const areasPtr = h.u32[(p + CHF.areas) >> 2]!;
  layoutCheck(
    width === rcChf.width() &&
      depth === rcChf.height() &&
      spanCount === rcChf.spanCount() &&
      h.u16[(p + CHF.maxRegions) >> 1] === rcChf.maxRegions() &&
      h.f32[(p + CHF.ch) >> 2] === rcChf.ch(),
    "rcCompactHeightfield header",
  );
  const cols = width * depth;
  const chf: CompactHeightfield = {
    width,
    depth,
    spanCount,
    walkableHeightVoxels: h.i32[(p + CHF.walkableHeight) >> 2]!,
    walkableClimbVoxels: h.i32[(p + CHF.walkableClimb) >> 2]!,
    borderSize: h.i32[(p + CHF.borderSize) >> 2]!,
    bmin: vec3At(h, p + CHF.bmin),
    bmax: vec3At(h, p + CHF.bmax),
    cellSize: h.f32[(p + CHF.cs) >> 2]!,
    cellHeight: h.f32[(p + CHF.ch) >> 2]!,
    cellFirst: new Uint32Array(cols),
    cellCount: new Uint16Array(cols),
    spanY: new Uint16Array(spanCount),
    spanH: new Uint16Array(spanCount),
    spanCon: new Uint32Array(spanCount),
    areas: new Uint8Array(spanCount),
  };
  const regions: Regions = {
    spanRegion: new Uint16Array(spanCount),
    regionCount: h.u16[(p + CHF.maxRegions) >> 1]!,
  };
  const dist: DistanceField = {
    dist: new Uint16Array(spanCount),
    maxDistance: distPtr === 0 ? 0 : h.u16[(p + CHF.maxDistance) >> 1]!,
  };
  if (cols > 0) {
    layoutCheck(cellsPtr === ptrOf(rcChf.raw.get_cells(0)), "rcCompactHeightfield cells");
    const cells = cellsPtr >> 2;
    for (let c = 0; c < cols; c++) {
      const w = h.u32[cells + c]!;
      chf.cellFirst[c] = w & 0xffffff;
      chf.cellCount[c] = w >>> 24;
    }
  }
  if (spanCount > 0) {
    layoutCheck(spansPtr === ptrOf(rcChf.raw.get_spans(0)), "rcCompactHeightfield spans");
    for (let i = 0; i < spanCount; i++) {
      const base = spansPtr + i * 8;
      chf.spanY[i] = h.u16[base >> 1]!;
      regions.spanRegion[i] = h.u16[(base >> 1) + 1]!;
      const w = h.u32[(base >> 2) + 1]!;
      chf.spanH[i] = w >>> 24;
      let con = 0;
      for (let d = 0; d < 4; d++) {
        const v = (w >>> (6 * d)) & RC_NOT_CONNECTED;
        con |= (v === RC_NOT_CONNECTED ? NOT_CONNECTED : v) << (8 * d);
      }
      chf.spanCon[i] = con;
    }
    chf.areas.set(h.u8.subarray(areasPtr, areasPtr + spanCount));
    if (distPtr !== 0) dist.dist.set(h.u16.subarray(distPtr >> 1, (distPtr >> 1) + spanCount));
    const last = spanCount - 1;
    const s = rcChf.spans(last);
    layoutCheck(
      s.y() === chf.spanY[last] &&
        s.h() === chf.spanH[last] &&
        s.reg() === regions.spanRegion[last] &&
        rcChf.areas(last) === chf.areas[last] &&
        (distPtr === 0 || rcChf.dist(last) === dist.dist[last]),
      "rcCompactSpan fields",
    );
  }
  return { chf, regions, dist };
}

/** Copies a Recast contour set (vertex 4th components keep Recast's flags, same as meshway's). */
export function toMeshwayContours(rcCset: RecastContourSet): ContourSet {
  const h = heap();
  const p = ptrOf(rcCset.raw);
  const n = h.i32[(p + CSET.nconts) >> 2]!;
  layoutCheck(
    n === rcCset.nconts() &&
      h.i32[(p + CSET.width) >> 2] === rcCset.width() &&
      h.f32[(p + CSET.maxError) >> 2] === rcCset.maxError(),
    "rcContourSet header",
  );
  const contsPtr = h.u32[(p + CSET.conts) >> 2]!;
  const contours: Contour[] = [];
  for (let i = 0; i < n; i++) {
    const c = contsPtr + i * CONT.size;
    const nverts = h.i32[(c + CONT.nverts) >> 2]!;
    const nrverts = h.i32[(c + CONT.nrverts) >> 2]!;
    const vp = h.u32[(c + CONT.verts) >> 2]! >> 2;
    const rp = h.u32[(c + CONT.rverts) >> 2]! >> 2;
    contours.push({
      verts: h.i32.slice(vp, vp + nverts * 4),
      rawVerts: h.i32.slice(rp, rp + nrverts * 4),
      region: h.u16[(c + CONT.reg) >> 1]!,
      area: h.u8[c + CONT.area]!,
    });
  }
  if (n > 0) {
    const last = rcCset.conts(n - 1);
    const mine = contours[n - 1]!;
    layoutCheck(
      ptrOf(last.raw) === contsPtr + (n - 1) * CONT.size &&
        last.nverts() * 4 === mine.verts.length &&
        last.nrverts() * 4 === mine.rawVerts.length &&
        last.reg() === mine.region &&
        last.area() === mine.area &&
        (mine.verts.length === 0 || last.verts(mine.verts.length - 1) === mine.verts.at(-1)),
      "rcContour fields",
    );
  }
  return {
    contours,
    bmin: vec3At(h, p + CSET.bmin),
    bmax: vec3At(h, p + CSET.bmax),
    cellSize: h.f32[(p + CSET.cs) >> 2]!,
    cellHeight: h.f32[(p + CSET.ch) >> 2]!,
    width: h.i32[(p + CSET.width) >> 2]!,
    depth: h.i32[(p + CSET.height) >> 2]!,
    borderSize: h.i32[(p + CSET.borderSize) >> 2]!,
    maxError: h.f32[(p + CSET.maxError) >> 2]!,
  };
}

/**
 * Copies a Recast polygon mesh, widening 16-bit polygon entries to 32 bits: 0xffff becomes
 * MESH_NULL_INDEX and a 0x8000 | dir portal neighbour becomes PORTAL_FLAG | dir.
 */
export function toMeshwayPolyMesh(rcPmesh: RecastPolyMesh): PolyMesh {
  const h = heap();
  const p = ptrOf(rcPmesh.raw);
  const vertCount = h.i32[(p + PMESH.nverts) >> 2]!;
  const polyCount = h.i32[(p + PMESH.npolys) >> 2]!;
  const nvp = h.i32[(p + PMESH.nvp) >> 2]!;
  layoutCheck(
    vertCount === rcPmesh.nverts() &&
      polyCount === rcPmesh.npolys() &&
      nvp === rcPmesh.nvp() &&
      h.f32[(p + PMESH.maxEdgeError) >> 2] === rcPmesh.maxEdgeError(),
    "rcPolyMesh header",
  );
  const vp = h.u32[(p + PMESH.verts) >> 2]! >> 1;
  const pp = h.u32[(p + PMESH.polys) >> 2]! >> 1;
  const rp = h.u32[(p + PMESH.regs) >> 2]! >> 1;
  const fp = h.u32[(p + PMESH.flags) >> 2]! >> 1;
  const ap = h.u32[(p + PMESH.areas) >> 2]!;
  const stride = 2 * nvp;
  const polys = new Uint32Array(polyCount * stride);
  for (let i = 0; i < polyCount * stride; i++) {
    const v = h.u16[pp + i]!;
    if (v === RC_MESH_NULL_IDX) polys[i] = MESH_NULL_INDEX;
    else if (i % stride >= nvp && (v & RC_PORTAL_FLAG) !== 0) {
      polys[i] = (PORTAL_FLAG | (v & ~RC_PORTAL_FLAG)) >>> 0;
    } else polys[i] = v;
  }
  const pmesh: PolyMesh = {
    verts: h.u16.slice(vp, vp + vertCount * 3),
    vertCount,
    polys,
    polyCount,
    regions: h.u16.slice(rp, rp + polyCount),
    flags: h.u16.slice(fp, fp + polyCount),
    areas: h.u8.slice(ap, ap + polyCount),
    maxVertsPerPoly: nvp,
    bmin: vec3At(h, p + PMESH.bmin),
    bmax: vec3At(h, p + PMESH.bmax),
    cellSize: h.f32[(p + PMESH.cs) >> 2]!,
    cellHeight: h.f32[(p + PMESH.ch) >> 2]!,
    borderSize: h.i32[(p + PMESH.borderSize) >> 2]!,
    maxEdgeError: h.f32[(p + PMESH.maxEdgeError) >> 2]!,
  };
  if (polyCount > 0 && vertCount > 0) {
    const lp = polyCount - 1;
    layoutCheck(
      rcPmesh.verts(vertCount * 3 - 1) === pmesh.verts[vertCount * 3 - 1] &&
        rcPmesh.polys(lp * stride) === h.u16[pp + lp * stride] &&
        rcPmesh.regs(lp) === pmesh.regions[lp] &&
        rcPmesh.areas(lp) === pmesh.areas[lp],
      "rcPolyMesh arrays",
    );
  }
  return pmesh;
}

/** Copies a Recast detail mesh (same layout as meshway's). */
export function toMeshwayDetail(rcDmesh: RecastPolyMeshDetail): PolyMeshDetail {
  const h = heap();
  const p = ptrOf(rcDmesh.raw);
  const meshCount = h.i32[(p + DMESH.nmeshes) >> 2]!;
  const vertCount = h.i32[(p + DMESH.nverts) >> 2]!;
  const triCount = h.i32[(p + DMESH.ntris) >> 2]!;
  layoutCheck(
    meshCount === rcDmesh.nmeshes() &&
      vertCount === rcDmesh.nverts() &&
      triCount === rcDmesh.ntris(),
    "rcPolyMeshDetail header",
  );
  const mp = h.u32[(p + DMESH.meshes) >> 2]! >> 2;
  const vp = h.u32[(p + DMESH.verts) >> 2]! >> 2;
  const tp = h.u32[(p + DMESH.tris) >> 2]!;
  const d: PolyMeshDetail = {
    meshes: h.u32.slice(mp, mp + meshCount * 4),
    verts: h.f32.slice(vp, vp + vertCount * 3),
    tris: h.u8.slice(tp, tp + triCount * 4),
    meshCount,
    vertCount,
    triCount,
  };
  if (meshCount > 0 && vertCount > 0 && triCount > 0) {
    layoutCheck(
      rcDmesh.meshes(meshCount * 4 - 1) === d.meshes[meshCount * 4 - 1] &&
        rcDmesh.verts(vertCount * 3 - 1) === d.verts[vertCount * 3 - 1] &&
        rcDmesh.tris(triCount * 4 - 1) === d.tris[triCount * 4 - 1],
      "rcPolyMeshDetail arrays",
    );
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// The pipeline

/** Recast stages in build order; `stopAfter` ends the run after the named one. */
export type RecastStage =
  | "rasterize"
  | "filter"
  | "compact"
  | "erode"
  | "regions"
  | "contours"
  | "polymesh"
  | "detail";

const STAGE_ORDER: readonly RecastStage[] = [
  "rasterize",
  "filter",
  "compact",
  "erode",
  "regions",
  "contours",
  "polymesh",
  "detail",
];

export interface RecastPipelineOptions {
  /** Last stage to run (default "detail"). Handles of later stages are null, their counts 0. */
  stopAfter?: RecastStage;
  /** Which span filters run (RecastDemo's defaults: all three). */
  filters?: {
    lowHangingObstacles?: boolean;
    ledgeSpans?: boolean;
    walkableLowHeightSpans?: boolean;
  };
  /** rcBuildContours flags (default RC_CONTOUR_TESS_WALL_EDGES, as RecastDemo). */
  contourFlags?: number;
}

/** What `runRecastPipeline` produced. Handles stay valid until `free()`. */
export interface RecastPipelineResult {
  /** Grid as Recast computed it (rcCalcGridSize in float32) from the mesh bounds. */
  width: number;
  depth: number;
  bmin: Vec3;
  bmax: Vec3;
  /** Per-triangle areas from rcMarkWalkableTriangles (0 or 63). */
  triAreas: Uint8Array;
  /** Solid heightfield; after the filters when they ran (they edit it in place). */
  hf: RecastHeightfield;
  /** meshway copy of the heightfield right after rasterization, before any filter. */
  hfRasterized: Heightfield;
  /** Compact heightfield after erosion and region building (holds dist and region ids). */
  chf: RecastCompactHeightfield | null;
  /** meshway copy of the compact heightfield before erosion (areas not yet eroded). */
  chfBeforeErosion: CompactHeightfield | null;
  cset: RecastContourSet | null;
  pmesh: RecastPolyMesh | null;
  dmesh: RecastPolyMeshDetail | null;
  /** Spans after rasterization, before filtering (all areas). */
  rasterizedSpans: number;
  /** Spans with a walkable area after the filters. */
  spansAfterFilter: number;
  compactSpans: number;
  /** Compact spans with area != RC_NULL_AREA after erosion. */
  walkableAfterErosion: number;
  /**
   * chf.maxRegions after region building; span region ids are in 1..regionCount. Recast's
   * merge/filter step keeps one span-less id past the last real region (the unused "next id"
   * slot survives compaction), so this is usually distinctRegions + 1.
   */
  regionCount: number;
  /** Distinct non-zero region ids actually carried by compact spans. */
  distinctRegions: number;
  contourCount: number;
  polyCount: number;
  vertCount: number;
  detailTriCount: number;
  /** Releases all WASM memory of this run. Safe to call twice. */
  free(): void;
}

/** The counts of a run as a plain object (for logging and toEqual). */
export function pipelineCounts(r: RecastPipelineResult): Record<string, number> {
  return {
    width: r.width,
    depth: r.depth,
    rasterizedSpans: r.rasterizedSpans,
    spansAfterFilter: r.spansAfterFilter,
    compactSpans: r.compactSpans,
    walkableAfterErosion: r.walkableAfterErosion,
    regionCount: r.regionCount,
    distinctRegions: r.distinctRegions,
    contourCount: r.contourCount,
    polyCount: r.polyCount,
    vertCount: r.vertCount,
    detailTriCount: r.detailTriCount,
  };
}

function check(ok: boolean, stage: string): void {
  if (!ok) throw new Error(`recast harness: Recast's ${stage} failed`);
}

/**
 * Runs Recast's solo-mesh build exactly as RecastDemo's Sample_SoloMesh::handleBuild does, with
 * the voxel values of `cfg` (walkableHeightVoxels, minRegionAreaCells, edgeMaxLenVoxels, ...),
 * region borderSize 0 and flagMergeThreshold = walkableClimbVoxels. Needs `await initRecast()`.
 */
export function runRecastPipeline(
  mesh: TriangleMesh,
  cfg: ResolvedConfig,
  opts: RecastPipelineOptions = {},
): RecastPipelineResult {
  const last = STAGE_ORDER.indexOf(opts.stopAfter ?? "detail");
  const runs = (stage: RecastStage): boolean => STAGE_ORDER.indexOf(stage) <= last;
  const filters = opts.filters ?? {};

  const ctx = new RecastBuildContext(false);
  const nv = mesh.vertexCount;
  const nt = mesh.triangleCount;
  const verts = new FloatArray();
  verts.copy(mesh.positions);
  const tris = new IntArray();
  tris.copy(new Int32Array(mesh.indices.buffer, mesh.indices.byteOffset, mesh.indices.length));
  const areas = new UnsignedCharArray();
  areas.copy(new Uint8Array(nt));

  const bmin: Vec3 = [Infinity, Infinity, Infinity];
  const bmax: Vec3 = [-Infinity, -Infinity, -Infinity];
  const pos = mesh.positions;
  for (let i = 0; i < nv * 3; i++) {
    const a = i % 3;
    if (pos[i]! < bmin[a]!) bmin[a] = pos[i]!;
    if (pos[i]! > bmax[a]!) bmax[a] = pos[i]!;
  }
  const grid = calcGridSize(bmin, bmax, cfg.cellSize);
  const width = grid.width;
  const depth = grid.height;

  const hf = allocHeightfield();
  let chf: RecastCompactHeightfield | null = null;
  let cset: RecastContourSet | null = null;
  let pmesh: RecastPolyMesh | null = null;
  let dmesh: RecastPolyMeshDetail | null = null;
  let freed = false;
  const free = (): void => {
    if (freed) return;
    freed = true;
    if (dmesh) freePolyMeshDetail(dmesh);
    if (pmesh) freePolyMesh(pmesh);
    if (cset) freeContourSet(cset);
    if (chf) freeCompactHeightfield(chf);
    freeHeightfield(hf);
    verts.destroy();
    tris.destroy();
    areas.destroy();
    Raw.destroy(ctx.raw);
  };

  try {
    check(
      createHeightfield(ctx, hf, width, depth, bmin, bmax, cfg.cellSize, cfg.cellHeight),
      "createHeightfield",
    );
    markWalkableTriangles(ctx, cfg.walkableSlopeDegrees, verts, nv, tris, nt, areas);
    const triAreas = areas.toTypedArray();
    check(
      rasterizeTriangles(ctx, verts, nv, tris, areas, nt, hf, cfg.walkableClimbVoxels),
      "rasterizeTriangles",
    );
    const hfRasterized = toMeshwayHeightfield(hf);
    const rasterizedSpans = hfRasterized.poolUsed;
    let spansAfterFilter = 0;
    let compactSpans = 0;
    let walkableAfterErosion = 0;
    let regionCount = 0;
    let distinctRegions = 0;
    let chfBeforeErosion: CompactHeightfield | null = null;

    if (runs("filter")) {
      if (filters.lowHangingObstacles ?? true) {
        filterLowHangingWalkableObstacles(ctx, cfg.walkableClimbVoxels, hf);
      }
      if (filters.ledgeSpans ?? true) {
        filterLedgeSpans(ctx, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels, hf);
      }
      if (filters.walkableLowHeightSpans ?? true) {
        filterWalkableLowHeightSpans(ctx, cfg.walkableHeightVoxels, hf);
      }
      spansAfterFilter = countRecastSpans(hf, true);
    }
    if (runs("compact")) {
      chf = allocCompactHeightfield();
      check(
        buildCompactHeightfield(ctx, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels, hf, chf),
        "buildCompactHeightfield",
      );
      compactSpans = chf.spanCount();
      chfBeforeErosion = toMeshwayCompact(chf).chf;
    }
    if (chf && runs("erode")) {
      check(erodeWalkableArea(ctx, cfg.walkableRadiusVoxels, chf), "erodeWalkableArea");
      walkableAfterErosion = countRecastWalkable(chf);
    }
    if (chf && runs("regions")) {
      if (cfg.partition === "watershed") {
        check(buildDistanceField(ctx, chf), "buildDistanceField");
        check(
          buildRegions(ctx, chf, 0, cfg.minRegionAreaCells, cfg.mergeRegionAreaCells),
          "buildRegions",
        );
      } else if (cfg.partition === "monotone") {
        check(
          buildRegionsMonotone(ctx, chf, 0, cfg.minRegionAreaCells, cfg.mergeRegionAreaCells),
          "buildRegionsMonotone",
        );
      } else {
        check(buildLayerRegions(ctx, chf, 0, cfg.minRegionAreaCells), "buildLayerRegions");
      }
      regionCount = chf.maxRegions();
      distinctRegions = countRecastRegions(chf);
    }
    if (chf && runs("contours")) {
      cset = allocContourSet();
      check(
        buildContours(
          ctx,
          chf,
          cfg.edgeMaxErrorVoxels,
          cfg.edgeMaxLenVoxels,
          cset,
          opts.contourFlags ?? RC_CONTOUR_TESS_WALL_EDGES,
        ),
        "buildContours",
      );
    }
    if (cset && runs("polymesh")) {
      pmesh = allocPolyMesh();
      check(buildPolyMesh(ctx, cset, cfg.vertsPerPoly, pmesh), "buildPolyMesh");
    }
    if (chf && pmesh && runs("detail")) {
      dmesh = allocPolyMeshDetail();
      check(
        buildPolyMeshDetail(
          ctx,
          pmesh,
          chf,
          cfg.detailSampleDistWorld,
          cfg.detailSampleMaxErrorWorld,
          dmesh,
        ),
        "buildPolyMeshDetail",
      );
    }

    return {
      width,
      depth,
      bmin,
      bmax,
      triAreas,
      hf,
      hfRasterized,
      chf,
      chfBeforeErosion,
      cset,
      pmesh,
      dmesh,
      rasterizedSpans,
      spansAfterFilter,
      compactSpans,
      walkableAfterErosion,
      regionCount,
      distinctRegions,
      contourCount: cset ? cset.nconts() : 0,
      polyCount: pmesh ? pmesh.npolys() : 0,
      vertCount: pmesh ? pmesh.nverts() : 0,
      detailTriCount: dmesh ? dmesh.ntris() : 0,
      free,
    };
  } catch (e) {
    free();
    throw e;
  }
}
