import { MeshwayError } from "../errors.js";
import { buildRegionsLayers } from "../generate/regions-layers.js";
import type { CompactHeightfield } from "../generate/types.js";
import { MAX_TILES_PER_CELL } from "../navmesh/nav-mesh.js";

/*
 * A tile's heightfield layers (the idea of Recast's rcBuildHeightfieldLayers, Mononen): the
 * walkable spans of the tile's un-eroded compact heightfield, border included, split into 2.5D
 * surfaces that never hold two spans of one column. Monotone row regions are merged into
 * connected non-overlapping surfaces (buildRegionsLayers, rcBuildLayerRegions), then surfaces
 * that still never share a column and come within four agent heights of each other are merged
 * (rcBuildHeightfieldLayers' "merge non-overlapping regions that are close in height"), so one
 * storey is normally one layer. The partition depends on the geometry only: obstacles and
 * volumes never move a span to another layer, so a rebuild of one layer never touches another.
 */

/** Span → layer of a tile: `layerOf[span]` in [0, layerCount), NO_LAYER for unwalkable spans. */
export interface TileLayers {
  layerOf: Uint8Array;
  layerCount: number;
}

/** Layer of a span that belongs to none (unwalkable before erosion: never walkable). */
export const NO_LAYER = 0xff;

/**
 * Splits `chf`'s walkable spans into layers, numbered by their lowest floor (then by their
 * first span). Throws MeshwayError("GRID_TOO_LARGE") when a tile would need more layers than
 * the navmesh keeps per tile coordinate (MAX_TILES_PER_CELL).
 */
export function partitionTileLayers(chf: CompactHeightfield, where: string): TileLayers {
  const { spanCount, width, depth, cellFirst, cellCount, spanY } = chf;
  const regions = buildRegionsLayers(chf, 0, 0);
  const reg = regions.spanRegion;
  const n = regions.regionCount;
  const layerOf = new Uint8Array(spanCount).fill(NO_LAYER);
  if (n === 0) return { layerOf, layerCount: 0 };
  // Per surface: floor range, and which surfaces share a column with it (bit sets).
  const ymin = new Int32Array(n + 1).fill(0x7fffffff);
  const ymax = new Int32Array(n + 1).fill(-1);
  const firstSpan = new Int32Array(n + 1).fill(0x7fffffff);
  const words = (n + 32) >>> 5;
  const stacked = new Uint32Array((n + 1) * words);
  for (let c = 0; c < width * depth; c++) {
    const f = cellFirst[c]!;
    const e = f + cellCount[c]!;
    for (let i = f; i < e; i++) {
      const r = reg[i]!;
      if (r === 0) continue;
      const y = spanY[i]!;
      if (y < ymin[r]!) ymin[r] = y;
      if (y > ymax[r]!) ymax[r] = y;
      if (i < firstSpan[r]!) firstSpan[r] = i;
      for (let j = f; j < e; j++) {
        const q = reg[j]!;
        if (q !== 0 && q !== r) stacked[r * words + (q >>> 5)]! |= 1 << (q & 31);
      }
    }
  }
  // Greedy merge in surface order: a surface joins the first group it neither stacks with
  // nor lies more than `gap` away from (floor ranges, in cell heights).
  const group = new Int32Array(n + 1).fill(-1);
  const groupMask = new Uint32Array((n + 1) * words);
  const gmin: number[] = [];
  const gmax: number[] = [];
  // Recast merges layers whose floor ranges come within four agent heights.
  const gap = 4 * chf.walkableHeightVoxels;
  for (let r = 1; r <= n; r++) {
    if (ymax[r]! < 0) continue;
    let g = 0;
    for (; g < gmin.length; g++) {
      if (ymin[r]! > gmax[g]! + gap || ymax[r]! + gap < gmin[g]!) continue;
      // Stacked with any member? (members' stack sets are OR-ed into groupMask.)
      if ((groupMask[g * words + (r >>> 5)]! & (1 << (r & 31))) !== 0) continue;
      break;
    }
    if (g === gmin.length) {
      gmin.push(ymin[r]!);
      gmax.push(ymax[r]!);
    } else {
      gmin[g] = Math.min(gmin[g]!, ymin[r]!);
      gmax[g] = Math.max(gmax[g]!, ymax[r]!);
    }
    group[r] = g;
    // A group stacks with what any member stacks with (the relation is symmetric).
    for (let w = 0; w < words; w++) groupMask[g * words + w]! |= stacked[r * words + w]!;
  }
  const count = gmin.length;
  if (count > MAX_TILES_PER_CELL) {
    throw new MeshwayError(
      "GRID_TOO_LARGE",
      `${where}: ${count} heightfield layers, a navmesh keeps at most ${MAX_TILES_PER_CELL} per tile; use a smaller tileSize`,
    );
  }
  // Number groups by lowest floor, then first span: deterministic, bottom storey first.
  const first = new Int32Array(count).fill(0x7fffffff);
  for (let r = 1; r <= n; r++) {
    const g = group[r]!;
    if (g >= 0 && firstSpan[r]! < first[g]!) first[g] = firstSpan[r]!;
  }
  const order = Array.from({ length: count }, (_, g) => g).sort(
    (a, b) => gmin[a]! - gmin[b]! || first[a]! - first[b]!,
  );
  const rank = new Int32Array(count);
  order.forEach((g, k) => {
    rank[g] = k;
  });
  for (let i = 0; i < spanCount; i++) {
    const r = reg[i]!;
    if (r !== 0) layerOf[i] = rank[group[r]!]!;
  }
  return { layerOf, layerCount: count };
}
