import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { BuildContext } from "../generate/context.js";
import { buildContours } from "../generate/contours.js";
import { buildPolyMeshDetail } from "../generate/detail.js";
import { createNavMeshTile } from "../generate/nav-mesh-tile.js";
import { partitionRegions } from "../generate/partition.js";
import { buildPolyMesh } from "../generate/polymesh.js";
import {
  AREA_BORDER,
  BORDER_REGION,
  CONTOUR_REG_MASK,
  type CompactHeightfield,
  type Contour,
  type ContourSet,
  MESH_NULL_INDEX,
  PORTAL_FLAG,
  type PolyMesh,
} from "../generate/types.js";
import { MAX_TILES_PER_CELL } from "../navmesh/nav-mesh.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { type DetailGeneration, LayerDetailReuse } from "./detail-reuse.js";
import { type LayerGrid, WALKABLE_GHOST } from "./layer-grid.js";
import { type LayerSeams, layerSeams, nearestSeamCorner, type PairSeam } from "./layer-seams.js";

/*
 * A layer's navmesh tile: the solo pipeline's mesh stage (regions → contours → polygons →
 * detail, the agent radius already eroded into `areas`) on the layer grid, with layer seams.
 * Where the layer's spans link to a ghost (a span of another layer of the tile), the outline
 * must meet the other layer's outline edge for edge, so the two link at run time. The ghosts
 * of each other layer get a region id of their own, so each seam run starts and ends at a
 * mandatory contour vertex; the run between is replaced by the seam's shared simplification
 * (layer-seams.ts), and run ends that are not seam vertices move to one (the nearest where two
 * regions meet, so both agree; inwards where a wall meets the seam). Polygon edges on a
 * simplified seam edge are marked as portals (PORTAL_FLAG | the side they face), which
 * NavMesh.addTile links with the reversed edge of the other layer tile at the same tile
 * coordinates (connectLayerSeams).
 */

/**
 * Per layer grid: the polygons' details of its last build (made with `reuseDetail`), which
 * the next build with `reuseDetail` copies where a polygon's key is unchanged (detail-reuse.ts).
 */
const lastDetail = new WeakMap<LayerGrid, DetailGeneration>();

/** Per tile built with `reuseDetail`: the generation its build recorded. */
const detailOfTile = new WeakMap<NavMeshTile, DetailGeneration>();

/**
 * Makes `tile` (an earlier build of `grid` put back as it was, the tile cache's restore) the
 * layer's last build for detail reuse: its details describe the layer as it is now.
 */
export function adoptLayerDetail(grid: LayerGrid, tile: NavMeshTile): void {
  const g = detailOfTile.get(tile);
  if (g !== undefined) lastDetail.set(grid, g);
}

/**
 * Navmesh tile of layer `grid` at (tx, tz) from its span `areas` (ghosts 0); null when empty.
 * With `reuseDetail`, polygons' details are copied from the layer's last build or from
 * `baseTile` (an earlier build of the layer, say its obstacle-free one) where they are known
 * to come out the same.
 */
export function buildLayerTile(
  grid: LayerGrid,
  areas: Uint8Array,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
  ctx: BuildContext = new BuildContext(),
  reuseDetail = false,
  baseTile?: NavMeshTile | null,
): NavMeshTile | null {
  // The mesh stage sees ghosts as area 0; they are few, so copy then clear them.
  const ghosts = ghostSpans(grid);
  const meshAreas = areas.slice();
  for (let k = 0; k < ghosts.length; k++) meshAreas[ghosts[k]!] = 0;
  let walkable = false;
  for (let i = 0; i < meshAreas.length; i++) {
    if (meshAreas[i] !== 0) {
      walkable = true;
      break;
    }
  }
  if (!walkable) return null;
  const chf = { ...grid.chf, areas: meshAreas };
  // Regions and contours run on the layer's columns alone (its bounding box grown by the
  // border, see croppedGrid): the same spans in the same order, so the same regions, and
  // contours shifted by the crop's offset, which is added back.
  const crop = croppedGrid(grid);
  const work = crop ? { ...crop.chf, areas: meshAreas } : chf;
  const { regions } = partitionRegions(work, cfg, chf.borderSize, false, ctx);
  const ghostBase = regions.regionCount + 1;
  if (ghostBase + MAX_TILES_PER_CELL >= BORDER_REGION) {
    throw new MeshwayError("GRID_TOO_LARGE", `tile (${tx}, ${tz}): too many regions in a layer`);
  }
  const spanRegion = regions.spanRegion;
  for (let k = 0; k < ghosts.length; k++) {
    const s = ghosts[k]!;
    // Ghosts the other layer cannot walk are walls here (region 0), so seam runs end with it.
    if (areas[s] === WALKABLE_GHOST) spanRegion[s] = ghostBase + grid.ghostLayer[s]!;
  }
  const cset = buildContours(
    work,
    regions,
    cfg.edgeMaxErrorVoxels,
    cfg.edgeMaxLenVoxels,
    undefined,
    ctx,
  );
  if (crop) uncropContours(cset, crop.x0, crop.z0, chf);
  const seams = layerSeams(grid, areas, cfg.edgeMaxErrorVoxels, cfg.edgeMaxLenVoxels);
  if (seams.pairs.size > 0) snapToSeams(cset, seams, ghostBase);
  else cset.contours = cset.contours.filter((c) => c.region < ghostBase);
  if (cset.contours.length === 0) return null;
  const polyMesh = buildPolyMesh(cset, cfg.vertsPerPoly, ctx);
  if (polyMesh.polyCount === 0) return null;
  markLayerPortals(polyMesh, seams);
  const base = baseTile ? detailOfTile.get(baseTile) : undefined;
  const reuse = reuseDetail
    ? new LayerDetailReuse(lastDetail.get(grid), base).begin(polyMesh, chf, regions.spanRegion)
    : undefined;
  const detail = buildPolyMeshDetail(
    polyMesh,
    chf,
    regions,
    cfg.detailSampleDistWorld,
    cfg.detailSampleMaxErrorWorld,
    ctx,
    reuse,
  );
  const tile = createNavMeshTile(polyMesh, detail, tx, tz);
  if (reuse) {
    const generation = reuse.finish(detail);
    lastDetail.set(grid, generation);
    detailOfTile.set(tile, generation);
  }
  return tile;
}

/** A layer grid's columns cropped to where it has spans (see croppedGrid). */
interface Crop {
  chf: CompactHeightfield;
  x0: number;
  z0: number;
}

/** Per layer grid: its crop, null when cropping would keep (nearly) every column. */
const cropOf = new WeakMap<LayerGrid, Crop | null>();

/**
 * The layer grid restricted to the bounding box of its columns with spans, grown by the
 * border width and clamped to the grid. A layer seldom covers its whole tile, and the
 * region and contour stages loop over columns. Equal results: the spans, their order and
 * their links (column-relative) are the same; the border strips paint the same spans (a
 * cropped side lies a border width beyond the last span, so its strip is empty, as the
 * original strip there); no stage reads absolute positions but the contour vertices, which
 * come out shifted by the crop's offset.
 */
function croppedGrid(grid: LayerGrid): Crop | null {
  const cached = cropOf.get(grid);
  if (cached !== undefined) return cached;
  const chf = grid.chf;
  const { width, depth, borderSize: b, cellFirst, cellCount } = chf;
  let bx0 = width;
  let bx1 = -1;
  let bz0 = depth;
  let bz1 = -1;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      if (cellCount[x + z * width] === 0) continue;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (z < bz0) bz0 = z;
      if (z > bz1) bz1 = z;
    }
  }
  let crop: Crop | null = null;
  if (bx1 >= 0) {
    const x0 = Math.max(0, bx0 - b);
    const x1 = Math.min(width, bx1 + 1 + b);
    const z0 = Math.max(0, bz0 - b);
    const z1 = Math.min(depth, bz1 + 1 + b);
    const w = x1 - x0;
    const d = z1 - z0;
    if (w * d < 0.9 * width * depth) {
      const first = new Uint32Array(w * d);
      const count = new Uint16Array(w * d);
      for (let z = 0; z < d; z++) {
        for (let x = 0; x < w; x++) {
          const c = x0 + x + (z0 + z) * width;
          first[x + z * w] = cellFirst[c]!;
          count[x + z * w] = cellCount[c]!;
        }
      }
      crop = { chf: { ...chf, width: w, depth: d, cellFirst: first, cellCount: count }, x0, z0 };
    }
  }
  cropOf.set(grid, crop);
  return crop;
}

/** Moves contours traced on a crop back to the full layer grid's coordinates and size. */
function uncropContours(cset: ContourSet, x0: number, z0: number, chf: CompactHeightfield): void {
  for (const c of cset.contours) {
    for (const v of [c.verts, c.rawVerts]) {
      for (let k = 0; k < v.length; k += 4) {
        v[k]! += x0;
        v[k + 2]! += z0;
      }
    }
  }
  cset.width = chf.width - 2 * chf.borderSize;
  cset.depth = chf.depth - 2 * chf.borderSize;
}

/** Per layer grid: its ghost spans, ascending. */
const ghostSpansOf = new WeakMap<LayerGrid, Int32Array>();

function ghostSpans(grid: LayerGrid): Int32Array {
  let out = ghostSpansOf.get(grid);
  if (out) return out;
  const list: number[] = [];
  for (let s = 0; s < grid.ghost.length; s++) if (grid.ghost[s] === 1) list.push(s);
  out = Int32Array.from(list);
  ghostSpansOf.set(grid, out);
  return out;
}

/** Where a seam run of a contour starts or ends, and what meets the seam there. */
const SHARED = 0;
const WALL = 1;

/**
 * Drops the ghosts' own contours and puts every other contour's seam runs on the seams'
 * shared simplification: run ends moved to seam vertices (in every contour that has them),
 * the run's inner vertices replaced by the seam vertices between its ends.
 */
function snapToSeams(cset: ContourSet, seams: LayerSeams, ghostBase: number): void {
  const ghostEnd = ghostBase + MAX_TILES_PER_CELL;
  cset.contours = cset.contours.filter((c) => c.region < ghostBase);
  const b = cset.borderSize;
  const { stride, corners } = seams;
  const keyOf = (x: number, z: number) => x + b + (z + b) * stride;
  // A corner's height, the first raw contour vertex on it (the same for every contour).
  const height = new Int32Array(corners).fill(-1);
  for (const c of cset.contours) {
    const r = c.rawVerts;
    for (let k = 0; k < r.length; k += 4) {
      const key = keyOf(r[k]!, r[k + 2]!);
      if (height[key] === -1) height[key] = r[k + 1]!;
    }
  }
  const ghostOf = (w: number) => {
    const reg = w & CONTOUR_REG_MASK;
    return reg >= ghostBase && reg < ghostEnd ? reg - ghostBase : -1;
  };
  // Pass 1: the runs of each contour, and where their ends move.
  const moveTo = new Map<number, number>();
  type Run = { start: number; end: number; inner: number[]; word: number };
  const runsOf: Run[][] = [];
  for (const c of cset.contours) {
    const v = c.verts;
    const m = v.length >> 2;
    const runs: Run[] = [];
    runsOf.push(runs);
    if (m < 3) continue;
    let any = -1;
    for (let i = 0; i < m; i++) {
      if (ghostOf(v[i * 4 + 3]!) !== ghostOf(v[((i + m - 1) % m) * 4 + 3]!)) {
        any = i;
        break;
      }
    }
    if (any < 0) continue; // all one kind of edge: nothing to meet
    for (let s = 0; s < m; s++) {
      const i = (any + s) % m;
      const layer = ghostOf(v[i * 4 + 3]!);
      const prev = v[((i + m - 1) % m) * 4 + 3]!;
      if (layer < 0 || ghostOf(prev) === layer) continue;
      const seam = seams.pairs.get(layer);
      let j = i;
      while (ghostOf(v[((j + 1) % m) * 4 + 3]!) === layer && (j + 1) % m !== i) j = (j + 1) % m;
      const end = (j + 1) % m;
      if (!seam) continue;
      const raw = rawRun(
        c,
        cset.contours,
        v[i * 4]!,
        v[i * 4 + 2]!,
        v[end * 4]!,
        v[end * 4 + 2]!,
        v[i * 4 + 3]!,
        ghostBase + layer,
        keyOf,
      );
      if (!raw) continue;
      const startKind =
        (prev & CONTOUR_REG_MASK) !== 0 &&
        ghostOf(prev) < 0 &&
        (prev & CONTOUR_REG_MASK) < ghostBase
          ? SHARED
          : WALL;
      const next = v[end * 4 + 3]!;
      const endKind =
        (next & CONTOUR_REG_MASK) !== 0 &&
        ghostOf(next) < 0 &&
        (next & CONTOUR_REG_MASK) < ghostBase
          ? SHARED
          : WALL;
      const n = raw.length - 1;
      let sIdx = 0;
      let eIdx = n;
      let sTo = raw[0]!;
      let eTo = raw[n]!;
      if (startKind === SHARED) {
        sTo = snapShared(seam, raw[0]!);
        const at = raw.indexOf(sTo);
        if (at >= 0) sIdx = at;
      }
      if (endKind === SHARED) {
        eTo = snapShared(seam, raw[n]!);
        const at = raw.lastIndexOf(eTo);
        if (at >= 0) eIdx = at;
      }
      if (startKind === WALL && seam.canonical[raw[0]!] !== 1) {
        let k = 1;
        while (k < eIdx && seam.canonical[raw[k]!] !== 1) k++;
        if (k < eIdx) {
          sIdx = k;
          sTo = raw[k]!;
        }
      }
      if (endKind === WALL && seam.canonical[raw[n]!] !== 1) {
        let k = n - 1;
        while (k > sIdx && seam.canonical[raw[k]!] !== 1) k--;
        if (k > sIdx) {
          eIdx = k;
          eTo = raw[k]!;
        }
      }
      if (sTo !== raw[0]! && !moveTo.has(raw[0]!)) moveTo.set(raw[0]!, sTo);
      if (eTo !== raw[n]! && !moveTo.has(raw[n]!)) moveTo.set(raw[n]!, eTo);
      const inner: number[] = [];
      for (let k = sIdx + 1; k < eIdx; k++) if (seam.canonical[raw[k]!] === 1) inner.push(raw[k]!);
      runs.push({ start: i, end, inner, word: v[i * 4 + 3]! & (CONTOUR_REG_MASK | AREA_BORDER) });
    }
  }
  // Pass 2: rewrite the contours.
  const kept: Contour[] = [];
  cset.contours.forEach((c, ci) => {
    const v = c.verts;
    const m = v.length >> 2;
    const runs = runsOf[ci]!;
    if (runs.length === 0 && moveTo.size === 0) {
      kept.push(c);
      return;
    }
    const startAt = new Map<number, Run>();
    for (const r of runs) startAt.set(r.start, r);
    const skip = new Uint8Array(m);
    for (const r of runs) for (let k = (r.start + 1) % m; k !== r.end; k = (k + 1) % m) skip[k] = 1;
    const out: number[] = [];
    const push = (key: number, y: number, word: number) => {
      const x = (key % stride) - b;
      const z = Math.floor(key / stride) - b;
      const n = out.length;
      if (n >= 4 && out[n - 4] === x && out[n - 2] === z) {
        out[n - 1] = word;
        return;
      }
      out.push(x, y, z, word);
    };
    for (let i = 0; i < m; i++) {
      if (skip[i] === 1) continue;
      const o = i * 4;
      const key = keyOf(v[o]!, v[o + 2]!);
      const to = moveTo.get(key);
      const at = to ?? key;
      push(at, to === undefined ? v[o + 1]! : heightAt(height, at, v[o + 1]!), v[o + 3]!);
      const run = startAt.get(i);
      if (run) {
        for (const k of run.inner) push(k, heightAt(height, k, v[o + 1]!), run.word);
      }
    }
    // Closing duplicate (last = first).
    while (out.length >= 8 && out[0] === out[out.length - 4] && out[2] === out[out.length - 2]) {
      out[3] = out[out.length - 1]!;
      out.length -= 4;
    }
    if (out.length < 12) return;
    c.verts = Int32Array.from(out);
    kept.push(c);
  });
  cset.contours = kept;
}

function heightAt(height: Int32Array, key: number, fallback: number): number {
  const y = height[key]!;
  return y >= 0 ? y : fallback;
}

/** Where a region boundary on the seam moves (nearest seam vertex); itself when none. */
function snapShared(seam: PairSeam, corner: number): number {
  const to = nearestSeamCorner(seam, corner);
  return to < 0 ? corner : to;
}

/**
 * The raw corners (keys) of the run of raw edges facing `ghostRegion` from (ax, az) to
 * (bx, bz), both included, in the contour or its merged holes; null when not found.
 */
function rawRun(
  c: Contour,
  contours: Contour[],
  ax: number,
  az: number,
  bx: number,
  bz: number,
  _word: number,
  ghostRegion: number,
  keyOf: (x: number, z: number) => number,
): number[] | null {
  const tryOne = (r: Int32Array): number[] | null => {
    const n = r.length >> 2;
    for (let k = 0; k < n; k++) {
      if (r[k * 4] !== ax || r[k * 4 + 2] !== az) continue;
      const k1 = (k + 1) % n;
      // Raw vertex k1's 4th component describes the edge k → k1.
      if ((r[k1 * 4 + 3]! & CONTOUR_REG_MASK) !== ghostRegion) continue;
      const out = [keyOf(ax, az)];
      for (let step = 1; step <= n; step++) {
        const j = (k + step) % n;
        out.push(keyOf(r[j * 4]!, r[j * 4 + 2]!));
        if (r[j * 4] === bx && r[j * 4 + 2] === bz) return out;
      }
      return null;
    }
    return null;
  };
  const own = tryOne(c.rawVerts);
  if (own) return own;
  for (const o of contours) {
    if (o === c || o.region !== c.region) continue;
    const found = tryOne(o.rawVerts);
    if (found) return found;
  }
  return null;
}

/**
 * Marks unlinked polygon edges that lie on a simplified seam edge as portals, with the side
 * (Recast direction) the edge faces away from its polygon.
 */
function markLayerPortals(pm: PolyMesh, seams: LayerSeams): void {
  const nvp = pm.maxVertsPerPoly;
  const b = pm.borderSize;
  const { stride, corners } = seams;
  const verts = pm.verts;
  const polys = pm.polys;
  const pairs = [...seams.pairs.values()];
  if (pairs.length === 0) return;
  for (let p = 0; p < pm.polyCount; p++) {
    const base = p * nvp * 2;
    let count = 0;
    let cx = 0;
    let cz = 0;
    while (count < nvp && polys[base + count] !== MESH_NULL_INDEX) {
      cx += verts[polys[base + count]! * 3]!;
      cz += verts[polys[base + count]! * 3 + 2]!;
      count++;
    }
    cx /= count;
    cz /= count;
    for (let e = 0; e < count; e++) {
      if (polys[base + nvp + e] !== MESH_NULL_INDEX) continue;
      const va = polys[base + e]! * 3;
      const vb = polys[base + (e + 1 === count ? 0 : e + 1)]! * 3;
      const x0 = verts[va]!;
      const z0 = verts[va + 2]!;
      const x1 = verts[vb]!;
      const z1 = verts[vb + 2]!;
      const ka = x0 + b + (z0 + b) * stride;
      const kb = x1 + b + (z1 + b) * stride;
      const id = ka * corners + kb;
      let onSeam = false;
      for (const s of pairs) {
        if (s.edges.has(id)) {
          onSeam = true;
          break;
        }
      }
      if (!onSeam) continue;
      // Outward normal of the edge: perpendicular, away from the polygon's centre.
      let nx = z1 - z0;
      let nz = -(x1 - x0);
      if (nx * ((x0 + x1) / 2 - cx) + nz * ((z0 + z1) / 2 - cz) < 0) {
        nx = -nx;
        nz = -nz;
      }
      const dir = Math.abs(nx) >= Math.abs(nz) ? (nx < 0 ? 0 : 2) : nz > 0 ? 1 : 3;
      polys[base + nvp + e] = (PORTAL_FLAG | dir) >>> 0;
    }
  }
}
