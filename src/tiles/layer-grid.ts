import type { CompactHeightfield } from "../generate/types.js";
import { NOT_CONNECTED } from "../generate/types.js";
import { NO_LAYER, type TileLayers } from "./tile-layers.js";

/*
 * One heightfield layer of a tile as a compact heightfield the generate stages can run on: the
 * layer's spans (at most one per column) plus "ghost" spans — the spans of other layers its
 * spans connect to (stairs going on into the next storey, a floor meeting a ramp). Ghosts are
 * never walkable here (area 0); they keep the layer's outline where it meets another layer a
 * portal instead of a wall (see layer-tile.ts). Links are kept between kept spans only, and
 * never ghost to ghost.
 */

export interface LayerGrid {
  /** The layer's compact heightfield; `areas` are placeholders (every build sets its own). */
  chf: CompactHeightfield;
  /** Per layer-grid span: its span in the tile's compact heightfield. */
  source: Int32Array;
  /** Per layer-grid span: 1 for a ghost (a span of another layer). */
  ghost: Uint8Array;
  /** Per layer-grid span: the ghost's own layer, NO_LAYER for the layer's own spans. */
  ghostLayer: Uint8Array;
  /** Spans of the layer itself (not ghosts). */
  ownSpans: number;
  /** Per column: bit d set when the layer's span there links to a ghost in direction d. */
  portalDirs: Uint8Array;
}

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/** Layer `layer` of a tile whose compact heightfield `chf` was partitioned into `layers`. */
export function extractLayerGrid(
  chf: CompactHeightfield,
  layers: TileLayers,
  layer: number,
): LayerGrid {
  const { width, depth, spanCount, cellFirst, cellCount, spanCon } = chf;
  const layerOf = layers.layerOf;
  // 1 = own span, 2 = ghost.
  const kind = new Uint8Array(spanCount);
  for (let i = 0; i < spanCount; i++) if (layerOf[i] === layer) kind[i] = 1;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
        if (kind[i] !== 1) continue;
        const con = spanCon[i]!;
        for (let d = 0; d < 4; d++) {
          const k = (con >>> (8 * d)) & 0xff;
          if (k === NOT_CONNECTED) continue;
          const j = cellFirst[x + DX[d]! + (z + DZ[d]!) * width]! + k;
          if (kind[j] === 0 && layerOf[j] !== NO_LAYER) kind[j] = 2;
        }
      }
    }
  }
  const cells = width * depth;
  const first = new Uint32Array(cells);
  const count = new Uint16Array(cells);
  const newIndex = new Int32Array(spanCount).fill(-1);
  let n = 0;
  let own = 0;
  for (let c = 0; c < cells; c++) {
    first[c] = n;
    for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
      if (kind[i] === 0) continue;
      newIndex[i] = n++;
      if (kind[i] === 1) own++;
    }
    count[c] = n - first[c]!;
  }
  const source = new Int32Array(n);
  const ghost = new Uint8Array(n);
  const ghostLayer = new Uint8Array(n).fill(NO_LAYER);
  const spanY = new Uint16Array(n);
  const spanH = new Uint16Array(n);
  const con = new Uint32Array(n);
  const portalDirs = new Uint8Array(cells);
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
        const s = newIndex[i]!;
        if (s < 0) continue;
        source[s] = i;
        ghost[s] = kind[i] === 2 ? 1 : 0;
        if (kind[i] === 2) ghostLayer[s] = layerOf[i]!;
        spanY[s] = chf.spanY[i]!;
        spanH[s] = chf.spanH[i]!;
        let out = 0;
        const links = spanCon[i]!;
        for (let d = 0; d < 4; d++) {
          let slot = NOT_CONNECTED;
          const k = (links >>> (8 * d)) & 0xff;
          if (k !== NOT_CONNECTED) {
            const nc = x + DX[d]! + (z + DZ[d]!) * width;
            const j = cellFirst[nc]! + k;
            const t = newIndex[j]!;
            if (t >= 0 && (kind[i] === 1 || kind[j] === 1)) {
              slot = t - first[nc]!;
              if (kind[i] === 1 && kind[j] === 2) portalDirs[c]! |= 1 << d;
            }
          }
          out |= slot << (8 * d);
        }
        con[s] = out >>> 0;
      }
    }
  }
  return {
    chf: {
      ...chf,
      spanCount: n,
      cellFirst: first,
      cellCount: count,
      spanY,
      spanH,
      spanCon: con,
      areas: new Uint8Array(n),
    },
    source,
    ghost,
    ghostLayer,
    ownSpans: own,
    portalDirs,
  };
}

/**
 * A ghost's entry in layer areas when the other layer's span is walkable: a layer tile's seams
 * run where both sides are walkable (layer-seams.ts), so it depends on that bit of its ghosts.
 * Never an area id (those are < 64); the mesh stage sees ghosts as area 0.
 */
export const WALKABLE_GHOST = 0xff;

/**
 * The layer grid's span areas taken from the tile's final areas; ghosts WALKABLE_GHOST where
 * the other layer's span is walkable, else 0.
 */
export function layerAreas(
  grid: LayerGrid,
  tileAreas: Uint8Array,
  out: Uint8Array = new Uint8Array(grid.source.length),
): Uint8Array {
  const n = grid.source.length;
  const source = grid.source;
  const ghost = grid.ghost;
  for (let s = 0; s < n; s++) {
    const a = tileAreas[source[s]!]!;
    out[s] = ghost[s] === 0 ? a : a !== 0 ? WALKABLE_GHOST : 0;
  }
  return out;
}
