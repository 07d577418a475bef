import type { CompactHeightfield } from "../generate/types.js";
import type { PolyRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { extractLayerGrid, type LayerGrid } from "./layer-grid.js";
import { partitionTileLayers } from "./tile-layers.js";

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
  const layers = partitionTileLayers(chf, where);
  const out: CachedLayer[] = [];
  for (let l = 0; l < layers.layerCount; l++) {
    out.push({ grid: extractLayerGrid(chf, layers, l), tile: null, ref: 0, areas: null });
  }
  return out;
}
