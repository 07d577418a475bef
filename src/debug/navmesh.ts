import { MeshwayError } from "../errors.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import {
  BV_COLOUR,
  type Colour,
  INNER_EDGE_COLOUR,
  OFF_MESH_COLOUR,
  PORTAL_COLOUR,
  TILE_BORDER_COLOUR,
  WALL_COLOUR,
} from "../navmesh/palette.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../navmesh/tile.js";
import { COLOUR_BY, type NavMeshColourBy, tilePolygonColours } from "./colour-by.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder, shade, withAlpha } from "./primitive.js";
import { appendBoxWire, appendCircle } from "./shapes.js";

export interface DrawNavMeshOptions {
  /** Draw each polygon's detail triangles (true, default) or its fan over the polygon's own vertices. */
  detail?: boolean;
  /** Default "polygon". */
  colourBy?: NavMeshColourBy;
  /** Fill alpha 0..255. Default 150 (the top-down picture's POLY_FILL_ALPHA). */
  alpha?: number;
}

export function checkColourBy(colourBy: unknown, where: string): NavMeshColourBy {
  if (colourBy === undefined) return "polygon";
  if (!COLOUR_BY.includes(colourBy as NavMeshColourBy)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${where}: colourBy must be one of ${COLOUR_BY.join(", ")}, got ${JSON.stringify(colourBy)}`,
    );
  }
  return colourBy as NavMeshColourBy;
}

/** Whether polygon p is drawn from its detail triangles (asked for, and the tile has them). */
export function polyUsesDetail(tile: NavMeshTile, p: number, detail: boolean): boolean {
  const dm = tile.detailMeshes;
  return detail && dm.length >= (p + 1) * 4 && dm[p * 4 + 3]! > 0;
}

/**
 * Calls `emit(a, b, c)` for each triangle of polygon p with vertex offsets (×3 floats): into
 * tile.detailVertices for its detail triangles when `useDetail`, else into tile.vertices for
 * the fan over its own vertices.
 */
export function forEachPolyTriangle(
  tile: NavMeshTile,
  p: number,
  useDetail: boolean,
  emit: (a: number, b: number, c: number) => void,
): void {
  if (useDetail) {
    const dm = tile.detailMeshes;
    const vb = dm[p * 4]!;
    const tb = dm[p * 4 + 2]!;
    const tc = dm[p * 4 + 3]!;
    const t = tile.detailTriangles;
    for (let k = 0; k < tc; k++) {
      const o = (tb + k) * 4;
      emit((vb + t[o]!) * 3, (vb + t[o + 1]!) * 3, (vb + t[o + 2]!) * 3);
    }
    return;
  }
  const nvp = tile.maxVertsPerPoly;
  const nv = tile.polyVertCount[p]!;
  const pv = tile.polyVerts;
  for (let j = 2; j < nv; j++) {
    emit(pv[p * nvp]! * 3, pv[p * nvp + j - 1]! * 3, pv[p * nvp + j]! * 3);
  }
}

/**
 * The navmesh as Detour's duDebugDrawNavMesh shows it: polygons filled (detail triangles by
 * default), shared edges thin, walls dark, tile-border edges in the portal colour, vertices as
 * points. One primitive set per kind over all tiles.
 */
export function drawNavMesh(navMesh: NavMesh, options: DrawNavMeshOptions = {}): DebugPrimitive[] {
  const colourBy = checkColourBy(options.colourBy, "drawNavMesh");
  const detail = options.detail !== false;
  const alpha = options.alpha ?? 150;
  const tris = new PrimitiveBuilder("triangles");
  const inner = new PrimitiveBuilder("lines", 1.5);
  const outer = new PrimitiveBuilder("lines", 2.5);
  const points = new PrimitiveBuilder("points", 3);
  const tiles = navMesh.tiles;
  for (let ti = 0; ti < tiles.length; ti++) {
    const tile = tiles[ti]!;
    const colours = tilePolygonColours(tile, ti, colourBy);
    const v = tile.vertices;
    const dv = tile.detailVertices;
    for (let p = 0; p < tile.polyCount; p++) {
      const c = colours[p]!;
      const useDetail = polyUsesDetail(tile, p, detail);
      const src = useDetail ? dv : v;
      forEachPolyTriangle(tile, p, useDetail, (a, b, d) => {
        tris.vertex(src[a]!, src[a + 1]!, src[a + 2]!, c, alpha);
        tris.vertex(src[b]!, src[b + 1]!, src[b + 2]!, c, alpha);
        tris.vertex(src[d]!, src[d + 1]!, src[d + 2]!, c, alpha);
      });
      appendPolyEdges(tile, p, inner, outer);
    }
    for (let i = 0; i < tile.vertexCount; i++) {
      points.vertex(v[i * 3]!, v[i * 3 + 1]!, v[i * 3 + 2]!, [0, 0, 0, 196]);
    }
  }
  return finishAll(tris, inner, outer, points);
}

function appendPolyEdges(
  tile: NavMeshTile,
  p: number,
  inner: PrimitiveBuilder,
  outer: PrimitiveBuilder,
): void {
  const nvp = tile.maxVertsPerPoly;
  const nv = tile.polyVertCount[p]!;
  const v = tile.vertices;
  for (let j = 0; j < nv; j++) {
    const nb = tile.polyNeighbours[p * nvp + j]!;
    const a = tile.polyVerts[p * nvp + j]! * 3;
    const b = tile.polyVerts[p * nvp + ((j + 1) % nv)]! * 3;
    let target: PrimitiveBuilder;
    let c: Colour;
    if (nb === EDGE_WALL) {
      target = outer;
      c = WALL_COLOUR;
    } else if ((nb & EDGE_TILE_BORDER) !== 0) {
      target = inner;
      c = PORTAL_COLOUR;
    } else if (nb - 1 > p) {
      target = inner;
      c = INNER_EDGE_COLOUR;
    } else continue;
    target.segment(v[a]!, v[a + 1]!, v[a + 2]!, v[b]!, v[b + 1]!, v[b + 2]!, c);
  }
}

/**
 * The leaves of every tile's bounding-volume tree as wire boxes (12 segments each), as
 * duDebugDrawNavMeshBVTree; `internal: true` adds the internal nodes, fainter.
 */
export function drawNavMeshBVTree(
  navMesh: NavMesh,
  options: { internal?: boolean } = {},
): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 1);
  const faint = withAlpha(BV_COLOUR, 48);
  for (const tile of navMesh.tiles) {
    const bb = tile.bvBounds;
    for (let i = 0; i < tile.bvIndex.length; i++) {
      const leaf = tile.bvIndex[i]! >= 0;
      if (!leaf && options.internal !== true) continue;
      const o = i * 6;
      appendBoxWire(
        lines,
        bb[o]!,
        bb[o + 1]!,
        bb[o + 2]!,
        bb[o + 3]!,
        bb[o + 4]!,
        bb[o + 5]!,
        leaf ? BV_COLOUR : faint,
      );
    }
  }
  return finishAll(lines);
}

/** Side colours of tile-border portals: 0 = -x, 1 = +z, 2 = +x, 3 = -z. */
const SIDE_COLOURS: readonly Colour[] = [
  [128, 0, 0, 128],
  [0, 128, 128, 128],
  [128, 0, 128, 128],
  [0, 128, 0, 128],
];
const SIDE_NX = [-1, 0, 1, 0];
const SIDE_NZ = [0, 1, 0, -1];

/**
 * Every polygon edge on a tile border (linked or not) as a vertical rectangle (4 segments)
 * the agent's climb above and below it, nudged 4 cm into the tile — duDebugDrawNavMeshPortals.
 */
export function drawNavMeshPortals(navMesh: NavMesh): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 2);
  const pady = navMesh.agentMaxClimb;
  const pad = 0.04;
  for (const tile of navMesh.tiles) {
    const nvp = tile.maxVertsPerPoly;
    const v = tile.vertices;
    for (let p = 0; p < tile.polyCount; p++) {
      const nv = tile.polyVertCount[p]!;
      for (let j = 0; j < nv; j++) {
        const nb = tile.polyNeighbours[p * nvp + j]!;
        if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) === 0) continue;
        const side = nb & 3;
        const a = tile.polyVerts[p * nvp + j]! * 3;
        const b = tile.polyVerts[p * nvp + ((j + 1) % nv)]! * 3;
        const dx = -SIDE_NX[side]! * pad;
        const dz = -SIDE_NZ[side]! * pad;
        const ax = v[a]! + dx;
        const az = v[a + 2]! + dz;
        const bx = v[b]! + dx;
        const bz = v[b + 2]! + dz;
        const ay = v[a + 1]!;
        const by = v[b + 1]!;
        const c = SIDE_COLOURS[side]!;
        lines.segment(ax, ay - pady, az, ax, ay + pady, az, c);
        lines.segment(ax, ay + pady, az, bx, by + pady, bz, c);
        lines.segment(bx, by + pady, bz, bx, by - pady, bz, c);
        lines.segment(bx, by - pady, bz, ax, ay - pady, az, c);
      }
    }
  }
  return finishAll(lines);
}

/** Each tile's grid cell (origin + tile size) as a wire box over the tile's height range. */
export function drawTileBorders(navMesh: NavMesh): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 1.5);
  const { origin, tileWidth, tileDepth } = navMesh.params;
  for (const tile of navMesh.tiles) {
    const x0 = origin[0] + tile.tileX * tileWidth;
    const z0 = origin[2] + tile.tileZ * tileDepth;
    appendBoxWire(
      lines,
      x0,
      tile.bmin[1],
      z0,
      x0 + tileWidth,
      tile.bmax[1],
      z0 + tileDepth,
      TILE_BORDER_COLOUR,
    );
  }
  return finishAll(lines);
}

/**
 * Off-mesh connections: an arc from the snapped start to the snapped end, a circle of its radius at each given end — red where the end
 * found no polygon — and the snapped ends as points.
 */
export function drawOffMeshConnections(navMesh: NavMesh): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 2);
  const points = new PrimitiveBuilder("points", 5);
  const unlinked: Colour = [220, 32, 16, 196];
  const segments = 12;
  for (const ref of navMesh.offMeshConnectionRefs()) {
    const con = navMesh.offMeshConnection(ref);
    if (con === null) continue;
    const [sx, sy, sz] = con.snappedStart;
    const [ex, ey, ez] = con.snappedEnd;
    const len = Math.hypot(ex - sx, ez - sz);
    const h = 0.25 * len; // arc height: a quarter of the span, as Detour's duAppendArc
    let px = sx;
    let py = sy;
    let pz = sz;
    for (let i = 1; i <= segments; i++) {
      const t = i / segments;
      const x = sx + (ex - sx) * t;
      const y = sy + (ey - sy) * t + h * 4 * t * (1 - t);
      const z = sz + (ez - sz) * t;
      lines.segment(px, py, pz, x, y, z, OFF_MESH_COLOUR);
      px = x;
      py = y;
      pz = z;
    }
    appendCircle(
      lines,
      con.start[0],
      con.start[1] + 0.1,
      con.start[2],
      con.radius,
      con.startPoly ? OFF_MESH_COLOUR : unlinked,
    );
    appendCircle(
      lines,
      con.end[0],
      con.end[1] + 0.1,
      con.end[2],
      con.radius,
      con.endPoly ? OFF_MESH_COLOUR : unlinked,
    );
    points.vertex(sx, sy, sz, shade(OFF_MESH_COLOUR, 0.7));
    points.vertex(ex, ey, ez, shade(OFF_MESH_COLOUR, 0.7));
  }
  return finishAll(lines, points);
}
