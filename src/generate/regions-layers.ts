import type { BuildContext } from "./context.js";
import { paintBorderRegions } from "./region-common.js";
import { sweepMonotoneRows } from "./regions-monotone.js";
import { BORDER_REGION, type CompactHeightfield, NOT_CONNECTED, type Regions } from "./types.js";

/** Growable list of (from, to) region id pairs, later grouped by `from`. */
interface PairList {
  from: Int32Array;
  to: Int32Array;
  length: number;
}

function pushPair(list: PairList, a: number, b: number): void {
  if (list.length === list.from.length) {
    const cap = list.from.length * 2;
    const f = new Int32Array(cap);
    f.set(list.from);
    list.from = f;
    const t = new Int32Array(cap);
    t.set(list.to);
    list.to = t;
  }
  list.from[list.length] = a;
  list.to[list.length] = b;
  list.length++;
}

/**
 * Groups pairs by `from` (counting sort, stable so each group keeps discovery order).
 * Returns offsets (length n + 1) into the returned `to` array.
 */
function groupPairs(list: PairList, n: number): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(n + 1);
  const from = list.from;
  const to = list.to;
  const len = list.length;
  for (let k = 0; k < len; k++) start[from[k]! + 1]!++;
  for (let r = 0; r < n; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(len);
  for (let k = 0; k < len; k++) items[fill[from[k]!]!++] = to[k]!;
  return { start, items };
}

/** What the layer merge needs to know about each monotone region, gathered row by row. */
interface RegionLinks {
  /** Region ids are < nreg; larger ids (border strips) are never merged. */
  nreg: number;
  spanCount: Int32Array;
  area: Uint8Array;
  /** 1 when the region touches a BORDER_REGION span. */
  touchesBorder: Uint8Array;
  /** Last neighbour recorded per region: drops most repeats cheaply. */
  lastNeighbour: Int32Array;
  /** Neighbouring region pairs in scan order (repeats are harmless to the layer walk). */
  neighbours: PairList;
  /** Region pairs sharing a column (stacked), both ways round, each pair once. */
  stacked: PairList;
  /** Last stacked partner recorded per region, then the unordered pairs seen (min * nreg + max). */
  lastStacked: Int32Array;
  stackedSeen: Set<number>;
}

/** Records the spans of row `z` into `links` (see {@link mergeLayerRegions}). */
function scanLayerRow(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  z: number,
  links: RegionLinks,
): void {
  const w = chf.width;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanCon = chf.spanCon;
  const areas = chf.areas;
  const nreg = links.nreg;
  const spanCount = links.spanCount;
  const area = links.area;
  const touchesBorder = links.touchesBorder;
  const lastNeighbour = links.lastNeighbour;
  const lastStacked = links.lastStacked;
  // Constants copied to locals so the hot loop never reads module bindings.
  const border = BORDER_REGION;
  const none = NOT_CONNECTED;

  for (let c = z * w, rowEnd = c + w; c < rowEnd; c++) {
    const first = cellFirst[c]!;
    const end = first + cellCount[c]!;
    for (let i = first; i < end; i++) {
      const ri = spanRegion[i]!;
      if (ri === 0 || ri >= nreg) continue;
      spanCount[ri]!++;
      area[ri] = areas[i]!;
      const con = spanCon[i]!;
      for (let dir = 0; dir < 4; dir++) {
        const k = (con >>> (dir * 8)) & 0xff;
        if (k === none) continue;
        // dir 0 = -x, 1 = +z, 2 = +x, 3 = -z
        const nc = dir === 0 ? c - 1 : dir === 1 ? c + w : dir === 2 ? c + 1 : c - w;
        const rai = spanRegion[cellFirst[nc]! + k]!;
        if (rai === ri) continue;
        if (rai > 0 && rai < nreg && lastNeighbour[ri] !== rai) {
          lastNeighbour[ri] = rai;
          pushPair(links.neighbours, ri, rai);
        }
        if ((rai & border) !== 0) touchesBorder[ri] = 1;
      }
      // Regions sharing this column are stacked: they may never join one layer. Tall stacks
      // repeat the same pairs column after column, so each pair is recorded once.
      for (let j = i + 1; j < end; j++) {
        const rj = spanRegion[j]!;
        if (rj === 0 || rj >= nreg || rj === ri || lastStacked[ri] === rj) continue;
        lastStacked[ri] = rj;
        const key = ri < rj ? ri * nreg + rj : rj * nreg + ri;
        if (links.stackedSeen.has(key)) continue;
        links.stackedSeen.add(key);
        pushPair(links.stacked, ri, rj);
        pushPair(links.stacked, rj, ri);
      }
    }
  }
}

/**
 * Layer merge as in Recast's mergeAndFilterLayerRegions (Mononen): monotone regions are grown
 * breadth-first into layers, a neighbour joining only if it has the same area and does not share
 * a column with anything already in the layer, so every layer is a 2D (non-overlapping) surface.
 * Layers smaller than `minRegionAreaCells` that do not touch a border region are removed. Ids
 * are compacted to 1..n in order of their lowest member region. Like mergeAndFilterRegions (and
 * unlike Recast, which also numbers the empty border placeholders and the unused trailing id),
 * only layers that own spans get an id.
 *
 * `maxRegionId` is one past the largest sweep id; remaps `spanRegion` in place and returns the
 * new region count.
 */
function mergeLayerRegions(
  chf: CompactHeightfield,
  spanRegion: Uint16Array,
  maxRegionId: number,
  minRegionAreaCells: number,
): number {
  const nreg = maxRegionId + 1;
  const links: RegionLinks = {
    nreg,
    spanCount: new Int32Array(nreg),
    area: new Uint8Array(nreg),
    touchesBorder: new Uint8Array(nreg),
    lastNeighbour: new Int32Array(nreg).fill(-1),
    neighbours: { from: new Int32Array(1024), to: new Int32Array(1024), length: 0 },
    stacked: { from: new Int32Array(256), to: new Int32Array(256), length: 0 },
    lastStacked: new Int32Array(nreg).fill(-1),
    stackedSeen: new Set<number>(),
  };
  for (let z = 0; z < chf.depth; z++) scanLayerRow(chf, spanRegion, z, links);

  const regSpans = links.spanCount;
  const regArea = links.area;
  const regBorder = links.touchesBorder;
  const conGroups = groupPairs(links.neighbours, nreg);
  const conStart = conGroups.start;
  const conItems = conGroups.items;
  const floorGroups = groupPairs(links.stacked, nreg);
  const floorStart = floorGroups.start;
  const floorItems = floorGroups.items;

  const layerOf = new Int32Array(nreg);
  // floorMark[r] === root means r is stacked with some member of root's layer.
  const floorMark = new Int32Array(nreg);
  const queue = new Int32Array(nreg);
  const layerSpans = new Int32Array(nreg + 1);
  const layerBorder = new Uint8Array(nreg + 1);
  let layerId = 1;

  for (let root = 1; root < nreg; root++) {
    if (layerOf[root] !== 0) continue;
    layerOf[root] = layerId;
    for (let k = floorStart[root]!; k < floorStart[root + 1]!; k++)
      floorMark[floorItems[k]!] = root;
    let spans = regSpans[root]!;
    let touches = regBorder[root]!;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const r = queue[head++]!;
      const area = regArea[r]!;
      for (let k = conStart[r]!; k < conStart[r + 1]!; k++) {
        const nei = conItems[k]!;
        if (layerOf[nei] !== 0) continue;
        if (regArea[nei] !== area) continue;
        if (floorMark[nei] === root) continue;
        queue[tail++] = nei;
        layerOf[nei] = layerId;
        for (let f = floorStart[nei]!; f < floorStart[nei + 1]!; f++)
          floorMark[floorItems[f]!] = root;
        spans += regSpans[nei]!;
        touches |= regBorder[nei]!;
      }
    }
    layerSpans[layerId] = spans;
    layerBorder[layerId] = touches;
    layerId++;
  }

  // Drop small isolated layers, then number the survivors by their lowest member region.
  const layerNewId = new Int32Array(layerId);
  for (let l = 1; l < layerId; l++) {
    const s = layerSpans[l]!;
    layerNewId[l] = s === 0 || (s < minRegionAreaCells && layerBorder[l] === 0) ? 0 : -1;
  }
  let regionCount = 0;
  for (let r = 1; r < nreg; r++) {
    const l = layerOf[r]!;
    if (layerNewId[l] === -1) layerNewId[l] = ++regionCount;
  }

  const border = BORDER_REGION;
  const spanCount = chf.spanCount;
  for (let i = 0; i < spanCount; i++) {
    const r = spanRegion[i]!;
    if ((r & border) === 0 && r !== 0) spanRegion[i] = layerNewId[layerOf[r]!]!;
  }
  return regionCount;
}

/**
 * Partitions walkable spans into non-overlapping layers (Recast's rcBuildLayerRegions): the
 * monotone row sweep, then monotone regions merged into the largest 2D surfaces that never stack
 * in one column. Suited to tiled builds with many levels; no distance field needed.
 *
 * @param borderSize tile border width. [Units: cells] [Limit: >= 0]
 * @param minRegionAreaCells layers smaller than this (not touching a border) are removed. [Units: cells²]
 */
export function buildRegionsLayers(
  chf: CompactHeightfield,
  borderSize: number,
  minRegionAreaCells: number,
  ctx?: BuildContext,
): Regions {
  const spanRegion = new Uint16Array(chf.spanCount);
  let nextId = 1;
  if (borderSize > 0) nextId = paintBorderRegions(chf, spanRegion, borderSize, nextId);
  nextId = sweepMonotoneRows(chf, spanRegion, borderSize, nextId, ctx);
  const regionCount = mergeLayerRegions(chf, spanRegion, nextId, minRegionAreaCells);
  return { spanRegion, regionCount };
}
