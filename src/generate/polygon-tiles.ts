import type { Vec3 } from "../math/vec3.js";
import { buildTileBVTree } from "../navmesh/bvtree.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../navmesh/tile.js";
import { earClipXZ, isStrictlyConvexXZ, mergeConvexXZ, twiceAreaXZ } from "./polygon-convex.js";

/** Convex polygons over shared float32 vertices, one area and flag set per polygon. */
export interface ConvexPolygonSet {
  positions: Float32Array;
  polys: number[][];
  areas: number[];
  flags: number[];
}

/** How the authored polygons become tiles. */
export interface PolygonTileLayout {
  /** Tile edge on X and Z, world units; undefined: one tile covering everything. */
  tileSize: number | undefined;
  maxVertsPerPoly: number;
  /** Heights for the detail surface: undefined keeps each polygon flat (its own corners). */
  detailHeight?: (x: number, z: number, fallback: number) => number;
}

export interface PolygonTiles {
  tiles: NavMeshTile[];
  origin: Vec3;
  tileWidth: number;
  tileDepth: number;
  /** Pieces of polygons that came out degenerate after clipping to tiles (dropped). */
  droppedPieces: number;
}

type Point = [number, number, number];

/**
 * Cuts convex polygons into tiles (Sutherland–Hodgman against each tile's rectangle, X sides
 * first) and assembles runtime tiles: per-tile vertices, in-tile neighbour links over shared
 * edges, tile-border portal edges, flat (or sampled) detail meshes and the BV tree.
 * Intersections are computed from the edge's endpoints in a canonical order, so the two
 * polygons of a shared edge, and the two tiles of a border, get bit-identical points.
 */
export function polygonsToTiles(set: ConvexPolygonSet, layout: PolygonTileLayout): PolygonTiles {
  const pos = set.positions;
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const poly of set.polys) {
    for (const v of poly) {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, pos[v * 3 + k]!);
        hi[k] = Math.max(hi[k]!, pos[v * 3 + k]!);
      }
    }
  }
  if (set.polys.length === 0) {
    lo[0] = lo[1] = lo[2] = 0;
    hi[0] = hi[1] = hi[2] = 0;
  }
  const size = layout.tileSize;
  const width = size ?? Math.max(hi[0] - lo[0], 1e-6);
  const depth = size ?? Math.max(hi[2] - lo[2], 1e-6);
  const cols = size === undefined ? 1 : Math.max(1, Math.ceil((hi[0] - lo[0]) / width));
  const rows = size === undefined ? 1 : Math.max(1, Math.ceil((hi[2] - lo[2]) / depth));
  const lineX = (k: number) => (size === undefined ? (k === 0 ? lo[0] : hi[0]) : lo[0] + k * width);
  const lineZ = (k: number) => (size === undefined ? (k === 0 ? lo[2] : hi[2]) : lo[2] + k * depth);

  // Pieces per tile, as point lists plus the source polygon.
  const pieces = new Map<number, { pts: Point[]; src: number }[]>();
  let droppedPieces = 0;
  set.polys.forEach((poly, p) => {
    const pts: Point[] = poly.map((v) => [pos[v * 3]!, pos[v * 3 + 1]!, pos[v * 3 + 2]!]);
    let tx0 = 0;
    let tx1 = 0;
    let tz0 = 0;
    let tz1 = 0;
    if (size !== undefined) {
      let x0 = Infinity;
      let x1 = -Infinity;
      let z0 = Infinity;
      let z1 = -Infinity;
      for (const q of pts) {
        x0 = Math.min(x0, q[0]);
        x1 = Math.max(x1, q[0]);
        z0 = Math.min(z0, q[2]);
        z1 = Math.max(z1, q[2]);
      }
      const clampCol = (k: number) => Math.min(cols - 1, Math.max(0, k));
      const clampRow = (k: number) => Math.min(rows - 1, Math.max(0, k));
      tx0 = clampCol(Math.floor((x0 - lo[0]) / width));
      tx1 = clampCol(Math.floor((x1 - lo[0]) / width));
      tz0 = clampRow(Math.floor((z0 - lo[2]) / depth));
      tz1 = clampRow(Math.floor((z1 - lo[2]) / depth));
    }
    for (let tz = tz0; tz <= tz1; tz++) {
      for (let tx = tx0; tx <= tx1; tx++) {
        let piece = pts;
        if (tx0 !== tx1 || tz0 !== tz1) {
          // The grid's outer lines are not cut against: everything lies inside them.
          if (tx > 0) piece = clip(piece, 0, lineX(tx), 1);
          if (tx < cols - 1) piece = clip(piece, 0, lineX(tx + 1), -1);
          if (tz > 0) piece = clip(piece, 2, lineZ(tz), 1);
          if (tz < rows - 1) piece = clip(piece, 2, lineZ(tz + 1), -1);
        }
        if (piece.length < 3) continue;
        const key = tz * cols + tx;
        let list = pieces.get(key);
        if (!list) pieces.set(key, (list = []));
        list.push({ pts: piece, src: p });
      }
    }
  });

  const tiles: NavMeshTile[] = [];
  for (let tz = 0; tz < rows; tz++) {
    for (let tx = 0; tx < cols; tx++) {
      const list = pieces.get(tz * cols + tx);
      if (!list) continue;
      const rect = [lineX(tx), lineZ(tz), lineX(tx + 1), lineZ(tz + 1)] as const;
      const built = assembleTile(list, set, layout, tx, tz, rect, size !== undefined);
      droppedPieces += built.dropped;
      if (built.tile) tiles.push(built.tile);
    }
  }
  return {
    tiles,
    origin: [lo[0], lo[1], lo[2]],
    tileWidth: width,
    tileDepth: depth,
    droppedPieces,
  };
}

/** Keeps the side of the line coord[axis] = at where sign * (coord - at) >= 0. */
function clip(pts: Point[], axis: 0 | 2, at: number, sign: 1 | -1): Point[] {
  const out: Point[] = [];
  const n = pts.length;
  for (let i = 0; i < n; i++) {
    const p = pts[i]!;
    const q = pts[(i + 1) % n]!;
    const sp = sign * (p[axis] - at);
    const sq = sign * (q[axis] - at);
    if (sp >= 0) out.push(p);
    if ((sp > 0 && sq < 0) || (sp < 0 && sq > 0)) out.push(cut(p, q, axis, at));
  }
  return out;
}

/** The edge's crossing of the line, from its lexicographically smaller end (canonical). */
function cut(p: Point, q: Point, axis: 0 | 2, at: number): Point {
  const swap = p[0] > q[0] || (p[0] === q[0] && (p[2] > q[2] || (p[2] === q[2] && p[1] > q[1])));
  const a = swap ? q : p;
  const b = swap ? p : q;
  const t = (at - a[axis]) / (b[axis] - a[axis]);
  const r: Point = [
    Math.fround(a[0] + (b[0] - a[0]) * t),
    Math.fround(a[1] + (b[1] - a[1]) * t),
    Math.fround(a[2] + (b[2] - a[2]) * t),
  ];
  r[axis] = Math.fround(at);
  return r;
}

function assembleTile(
  list: { pts: Point[]; src: number }[],
  set: ConvexPolygonSet,
  layout: PolygonTileLayout,
  tx: number,
  tz: number,
  rect: readonly [number, number, number, number],
  tiled: boolean,
): { tile: NavMeshTile | null; dropped: number } {
  const nvp = layout.maxVertsPerPoly;
  const keyOf = new Map<string, number>();
  const coords: number[] = [];
  const vertexOf = (q: Point): number => {
    const x = Math.fround(q[0]);
    const y = Math.fround(q[1]);
    const z = Math.fround(q[2]);
    const key = `${x},${y},${z}`;
    let v = keyOf.get(key);
    if (v === undefined) {
      v = coords.length / 3;
      keyOf.set(key, v);
      coords.push(x, y, z);
    }
    return v;
  };
  const polys: number[][] = [];
  const src: number[] = [];
  let dropped = 0;
  // Vertex indices first (so convexity is judged on the stored float32 values).
  const raw = list.map(({ pts, src: s }) => {
    const poly: number[] = [];
    for (const q of pts) {
      const v = vertexOf(q);
      if (poly[poly.length - 1] !== v && poly[0] !== v) poly.push(v);
    }
    return { poly, s };
  });
  const vertices = new Float32Array(coords);
  for (const { poly, s } of raw) {
    if (poly.length < 3 || !(twiceAreaXZ(vertices, poly) < 0)) {
      dropped++;
      continue;
    }
    let convex: number[][] = [poly];
    if (!isStrictlyConvexXZ(vertices, poly)) {
      // Rounding to float32 may leave a clipped piece a hair off convex: re-split it.
      const tris = earClipXZ(vertices, poly);
      if (!tris || tris.length === 0) {
        dropped++;
        continue;
      }
      convex = mergeConvexXZ(vertices, tris, nvp, () => true).polys;
    }
    for (const c of convex) {
      for (const piece of splitToMaxVerts(c, nvp)) {
        polys.push(piece);
        src.push(s);
      }
    }
  }
  if (polys.length === 0) return { tile: null, dropped };

  const polyCount = polys.length;
  const polyVerts = new Uint32Array(polyCount * nvp);
  const polyNeighbours = new Uint32Array(polyCount * nvp);
  const polyVertCount = new Uint8Array(polyCount);
  const polyAreas = new Uint8Array(polyCount);
  const polyFlags = new Uint16Array(polyCount);
  const edges = new Map<string, number[]>();
  polys.forEach((poly, p) => {
    polyVertCount[p] = poly.length;
    polyAreas[p] = set.areas[src[p]!]!;
    polyFlags[p] = set.flags[src[p]!]!;
    poly.forEach((v, i) => {
      polyVerts[p * nvp + i] = v;
      const w = poly[(i + 1) % poly.length]!;
      const key = v < w ? `${v},${w}` : `${w},${v}`;
      let e = edges.get(key);
      if (!e) edges.set(key, (e = []));
      e.push(p, i);
    });
  });
  const fx0 = Math.fround(rect[0]);
  const fz0 = Math.fround(rect[1]);
  const fx1 = Math.fround(rect[2]);
  const fz1 = Math.fround(rect[3]);
  polys.forEach((poly, p) => {
    poly.forEach((v, i) => {
      const w = poly[(i + 1) % poly.length]!;
      const e = edges.get(v < w ? `${v},${w}` : `${w},${v}`)!;
      let slot: number = EDGE_WALL;
      if (e.length === 4) {
        const other = e[0] === p && e[1] === i ? 2 : 0;
        const q = e[other]!;
        const j = e[other + 1]!;
        // Linked only when the neighbour runs the edge the other way (consistent winding).
        if (polys[q]![j] === w && q !== p) slot = q + 1;
      } else if (tiled && e.length === 2) {
        const ax = vertices[v * 3]!;
        const az = vertices[v * 3 + 2]!;
        const bx = vertices[w * 3]!;
        const bz = vertices[w * 3 + 2]!;
        if (ax === fx0 && bx === fx0) slot = (EDGE_TILE_BORDER | 0) >>> 0;
        else if (az === fz1 && bz === fz1) slot = (EDGE_TILE_BORDER | 1) >>> 0;
        else if (ax === fx1 && bx === fx1) slot = (EDGE_TILE_BORDER | 2) >>> 0;
        else if (az === fz0 && bz === fz0) slot = (EDGE_TILE_BORDER | 3) >>> 0;
      }
      polyNeighbours[p * nvp + i] = slot;
    });
  });

  const detail = flatDetail(vertices, polys, layout.detailHeight);
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 1; i < vertices.length; i += 3) {
    y0 = Math.min(y0, vertices[i]!);
    y1 = Math.max(y1, vertices[i]!);
  }
  for (let i = 1; i < detail.detailVertices.length; i += 3) {
    y0 = Math.min(y0, detail.detailVertices[i]!);
    y1 = Math.max(y1, detail.detailVertices[i]!);
  }
  let bmin: Vec3 = [fx0, y0, fz0];
  let bmax: Vec3 = [fx1, y1, fz1];
  if (!tiled) {
    bmin = [Infinity, y0, Infinity];
    bmax = [-Infinity, y1, -Infinity];
    for (let i = 0; i < vertices.length; i += 3) {
      bmin[0] = Math.min(bmin[0], vertices[i]!);
      bmin[2] = Math.min(bmin[2], vertices[i + 2]!);
      bmax[0] = Math.max(bmax[0], vertices[i]!);
      bmax[2] = Math.max(bmax[2], vertices[i + 2]!);
    }
  }
  const tile: NavMeshTile = {
    tileX: tx,
    tileZ: tz,
    bmin,
    bmax,
    maxVertsPerPoly: nvp,
    vertexCount: vertices.length / 3,
    vertices,
    polyCount,
    polyVerts,
    polyNeighbours,
    polyVertCount,
    polyAreas,
    polyFlags,
    ...detail,
    bvBounds: new Float32Array(0),
    bvIndex: new Int32Array(0),
  };
  const bv = buildTileBVTree(tile);
  tile.bvBounds = bv.bvBounds;
  tile.bvIndex = bv.bvIndex;
  return { tile, dropped };
}

/** A convex polygon with more than `nvp` corners as a fan of convex pieces of at most nvp. */
function splitToMaxVerts(poly: number[], nvp: number): number[][] {
  const out: number[][] = [];
  let rest = poly;
  while (rest.length > nvp) {
    out.push(rest.slice(0, nvp));
    rest = [rest[0]!, ...rest.slice(nvp - 1)];
  }
  out.push(rest);
  return out;
}

/**
 * Detail sub-meshes: each polygon's corners fanned from corner 0 (convex, so every fan
 * triangle is proper). Edge flags as Recast's: bit 0/2/4 set for triangle edges ab/bc/ca on
 * the polygon's boundary. With `height`, corners keep their own heights (they are shared with
 * neighbours) and the fan's centroid is added as a sampled interior point when it differs.
 */
function flatDetail(
  vertices: Float32Array,
  polys: number[][],
  height: ((x: number, z: number, fallback: number) => number) | undefined,
): { detailMeshes: Uint32Array; detailVertices: Float32Array; detailTriangles: Uint8Array } {
  const detailMeshes = new Uint32Array(polys.length * 4);
  const dv: number[] = [];
  const dt: number[] = [];
  polys.forEach((poly, p) => {
    const n = poly.length;
    const vb = dv.length / 3;
    const tb = dt.length / 4;
    let cx = 0;
    let cy = 0;
    let cz = 0;
    for (const v of poly) {
      dv.push(vertices[v * 3]!, vertices[v * 3 + 1]!, vertices[v * 3 + 2]!);
      cx += vertices[v * 3]!;
      cy += vertices[v * 3 + 1]!;
      cz += vertices[v * 3 + 2]!;
    }
    cx = Math.fround(cx / n);
    cz = Math.fround(cz / n);
    const plane = cy / n;
    const sampled = height ? Math.fround(height(cx, cz, plane)) : plane;
    if (height && Math.abs(sampled - plane) > 1e-4) {
      // Centre point: n triangles (i, i+1, centre); only the outer edge is boundary.
      dv.push(cx, sampled, cz);
      for (let i = 0; i < n; i++) dt.push(i, (i + 1) % n, n, 1);
    } else {
      for (let i = 1; i + 1 < n; i++) {
        dt.push(0, i, i + 1, (i === 1 ? 1 : 0) | 4 | (i + 1 === n - 1 ? 16 : 0));
      }
    }
    detailMeshes[p * 4] = vb;
    detailMeshes[p * 4 + 1] = dv.length / 3 - vb;
    detailMeshes[p * 4 + 2] = tb;
    detailMeshes[p * 4 + 3] = dt.length / 4 - tb;
  });
  return {
    detailMeshes,
    detailVertices: new Float32Array(dv),
    detailTriangles: new Uint8Array(dt),
  };
}
