import type { NavMesh } from "./nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "./tile.js";

/**
 * Number of connected components of the polygon graph (polygons joined by shared edges),
 * summed over tiles. Tile-border portals are not followed: for solo builds there are none.
 */
export function countConnectedComponents(navMesh: NavMesh): number {
  let components = 0;
  for (const tile of navMesh.tiles) {
    const nvp = tile.maxVertsPerPoly;
    const seen = new Uint8Array(tile.polyCount);
    const stack = new Uint32Array(tile.polyCount);
    for (let start = 0; start < tile.polyCount; start++) {
      if (seen[start]) continue;
      components++;
      let top = 0;
      stack[top++] = start;
      seen[start] = 1;
      while (top > 0) {
        const p = stack[--top]!;
        for (let i = 0; i < tile.polyVertCount[p]!; i++) {
          const nb = tile.polyNeighbours[p * nvp + i]!;
          if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) !== 0) continue;
          if (!seen[nb - 1]) {
            seen[nb - 1] = 1;
            stack[top++] = nb - 1;
          }
        }
      }
    }
  }
  return components;
}
