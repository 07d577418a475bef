import {
  areaColour,
  type Colour,
  idColour,
  POLY_PALETTE,
  polygonPaletteSlots,
} from "../navmesh/palette.js";
import type { NavMeshTile } from "../navmesh/tile.js";

/**
 * How navmesh polygons are coloured: one hue per polygon (neighbours differ, as in the
 * top-down PNG), per area id, per flags value, or per tile.
 */
export type NavMeshColourBy = "polygon" | "area" | "flags" | "tile";

/** Colours of the polygons of one tile (tileIndex = its index in navMesh.tiles). */
export function tilePolygonColours(
  tile: NavMeshTile,
  tileIndex: number,
  colourBy: NavMeshColourBy,
): Colour[] {
  const out: Colour[] = new Array(tile.polyCount);
  if (colourBy === "polygon") {
    const slots = polygonPaletteSlots(tile, tileIndex);
    for (let p = 0; p < tile.polyCount; p++) out[p] = POLY_PALETTE[slots[p]!]!;
  } else {
    for (let p = 0; p < tile.polyCount; p++) {
      out[p] =
        colourBy === "area"
          ? areaColour(tile.polyAreas[p]!)
          : colourBy === "flags"
            ? idColour(tile.polyFlags[p]!)
            : idColour(tileIndex);
    }
  }
  return out;
}

export const COLOUR_BY: readonly NavMeshColourBy[] = ["polygon", "area", "flags", "tile"];
