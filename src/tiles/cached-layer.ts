import type { CompactHeightfield } from "../generate/types.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { extractLayerGrid, type LayerGrid, layerAreas } from "./layer-grid.js";
import { NO_LAYER, partitionTileLayers, type TileLayers } from "./tile-layers.js";

/** One heightfield layer of a cached tile and the navmesh tile built from it. */
export interface CachedLayer {
  grid: LayerGrid;
  /** The tile currently in the navmesh for it, and its ref (tile ref = polygon-0 ref). */
  tile: NavMeshTile | null;
  ref: PolyRef;
  /** Layer span areas the current tile was built from (obstacles, erosion, volumes applied). */
  areas: Uint8Array | null;
  /** Whether the current tile was built with no obstacle on the tile. */
  obstacleFree?: boolean;
  /**
   * While obstacles sit on the tile: the obstacle-free layer tile they replaced and its areas,
   * put back as is when the areas come out the same again (say, the last obstacle leaves).
   */
  restore?: { areas: Uint8Array; tile: NavMeshTile } | undefined;
}

/** The layers of a tile's compact heightfield, each as its own grid (no tile built yet). */
export function cachedLayers(chf: CompactHeightfield, where: string): CachedLayer[] {
  return cachedLayersOf(chf, partitionTileLayers(chf, where));
}

/** Layers of `chf` from a stored partition (the tile cache file's), no tile built yet. */
export function cachedLayersOf(chf: CompactHeightfield, layers: TileLayers): CachedLayer[] {
  const out: CachedLayer[] = [];
  for (let l = 0; l < layers.layerCount; l++) {
    out.push({ grid: extractLayerGrid(chf, layers, l), tile: null, ref: 0, areas: null });
  }
  return out;
}

/** The partition `layers` were extracted with: span → layer of its own spans, else NO_LAYER. */
export function layerPartition(
  chf: CompactHeightfield,
  layers: readonly CachedLayer[],
): Uint8Array {
  const layerOf = new Uint8Array(chf.spanCount).fill(NO_LAYER);
  layers.forEach((layer, l) => {
    const { source, ghost } = layer.grid;
    for (let s = 0; s < source.length; s++) if (ghost[s] === 0) layerOf[source[s]!] = l;
  });
  return layerOf;
}

/**
 * The tile span areas every layer's `areas` were taken from (layerAreas), when there is one:
 * a tile rebuild sets all its layers from one array, so there normally is. Spans in no layer
 * get 0. Null when some layer's areas are not that array's view (then each is kept apart).
 */
export function sharedTileAreas(
  chf: CompactHeightfield,
  layers: readonly CachedLayer[],
): Uint8Array | null {
  const tile = new Uint8Array(chf.spanCount);
  for (const layer of layers) {
    const { source, ghost } = layer.grid;
    const areas = layer.areas;
    if (!areas) continue;
    for (let s = 0; s < source.length; s++) if (ghost[s] === 0) tile[source[s]!] = areas[s]!;
  }
  for (const layer of layers) {
    const areas = layer.areas;
    if (!areas) continue;
    const view = layerAreas(layer.grid, tile);
    if (view.length !== areas.length) return null;
    for (let s = 0; s < view.length; s++) if (view[s] !== areas[s]) return null;
  }
  return tile;
}
