/**
 * The one colour scheme of meshway's pictures: the top-down renderer (src/render), the
 * engine-agnostic debug primitives (src/debug) and the three.js helpers (src/three) all take
 * their colours from here, so a PNG, the page and a 3D view of the same navmesh agree.
 *
 * It lives in navmesh/ because both render/ and debug/ may import navmesh/ (neither may
 * import the other), and polygon colours depend on the tile's neighbour links.
 */

import { WALKABLE_AREA } from "./areas.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "./tile.js";

/** RGBA, 0..255 per channel (the same shape as render's Rgba). */
export type Colour = readonly [number, number, number, number];

/**
 * Distinct, fairly light hues for polygon fills (Tableau-like, readable under dark outlines).
 * 13 colours: a polygon has at most 12 neighbours, so neighbours never need to share one.
 */
export const POLY_PALETTE: readonly Colour[] = [
  [78, 154, 222, 255],
  [242, 142, 43, 255],
  [89, 178, 95, 255],
  [225, 87, 89, 255],
  [118, 183, 178, 255],
  [237, 201, 72, 255],
  [176, 122, 161, 255],
  [255, 157, 167, 255],
  [156, 117, 95, 255],
  [140, 160, 60, 255],
  [100, 110, 200, 255],
  [60, 165, 145, 255],
  [220, 115, 180, 255],
];

/** Recast's demo shows walkable ground light blue. */
export const WALKABLE_COLOUR: Colour = [0, 160, 230, 255];

/** Outlines, links and paths (the top-down picture's style; widths stay in render/). */
export const INNER_EDGE_COLOUR: Colour = [30, 40, 55, 110];
export const WALL_COLOUR: Colour = [25, 32, 45, 235];
export const OFF_MESH_COLOUR: Colour = [140, 50, 170, 230];
export const PATH_COLOUR: Colour = [200, 30, 40, 255];
export const START_COLOUR: Colour = [30, 150, 60, 255];
export const END_COLOUR: Colour = [200, 30, 40, 255];
/** Debug-only accents (not in the top-down picture): searched polygons, portals, boxes, obstacles. */
export const CLOSED_LIST_COLOUR: Colour = [255, 196, 0, 255];
export const OPEN_LIST_COLOUR: Colour = [255, 140, 0, 255];
export const PORTAL_COLOUR: Colour = [128, 0, 128, 200];
export const TILE_BORDER_COLOUR: Colour = [60, 60, 60, 160];
export const BV_COLOUR: Colour = [255, 255, 255, 128];
export const OBSTACLE_COLOUR: Colour = [220, 70, 40, 200];
export const CORRIDOR_COLOUR: Colour = [255, 220, 90, 255];
/** Crowd agents (the three.js CrowdHelper's cylinders too), their motion and next corners. */
export const AGENT_COLOUR: Colour = START_COLOUR;
export const VELOCITY_COLOUR: Colour = [32, 32, 32, 230];
export const DESIRED_VELOCITY_COLOUR: Colour = [0, 160, 255, 230];
export const CORNER_COLOUR: Colour = [230, 120, 0, 255];

/** Deterministic integer hash (for palette picks). */
export function hash32(n: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Colour of an area id: walkable ground light blue, other ids a palette hue. */
export function areaColour(area: number): Colour {
  if (area === WALKABLE_AREA) return WALKABLE_COLOUR;
  return POLY_PALETTE[hash32(area) % POLY_PALETTE.length]!;
}

/** Colour of any id (region, flags, tile): a palette hue by hash. */
export function idColour(id: number): Colour {
  return POLY_PALETTE[hash32(id) % POLY_PALETTE.length]!;
}

/**
 * Palette slot of every polygon of a tile so that neighbours inside the tile differ: a hash of
 * the polygon's identity (tileIndex, p), moved on past colours its already coloured neighbours
 * use. Degree <= vertsPerPoly <= 12 < palette size, so a free slot always exists.
 */
export function polygonPaletteSlots(tile: NavMeshTile, tileIndex: number): Uint8Array {
  const nvp = tile.maxVertsPerPoly;
  const picked = new Int16Array(tile.polyCount).fill(-1);
  const out = new Uint8Array(tile.polyCount);
  for (let p = 0; p < tile.polyCount; p++) {
    const nv = tile.polyVertCount[p]!;
    let used = 0;
    for (let j = 0; j < nv; j++) {
      const nb = tile.polyNeighbours[p * nvp + j]!;
      if (nb !== EDGE_WALL && (nb & EDGE_TILE_BORDER) === 0 && picked[nb - 1]! >= 0) {
        used |= 1 << picked[nb - 1]!;
      }
    }
    let c = hash32(tileIndex * 65536 + p) % POLY_PALETTE.length;
    for (let tries = 0; tries < POLY_PALETTE.length && (used & (1 << c)) !== 0; tries++) {
      c = (c + 1) % POLY_PALETTE.length;
    }
    picked[p] = c;
    out[p] = c;
  }
  return out;
}
