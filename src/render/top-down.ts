/**
 * Top-down pictures of a scene: the input geometry shaded by height, the navmesh polygons
 * filled translucent and outlined, and an optional path. The layout (pixel coordinates, draw
 * order, colours, line widths) is computed once by {@link layoutTopDown} and drawn either
 * into an RGBA buffer ({@link renderTopDown}) or as SVG (svg.ts), so both look the same.
 */

import { MeshwayError } from "../errors.js";
import type { TriangleMeshInput } from "../input.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import {
  END_COLOUR,
  INNER_EDGE_COLOUR,
  OFF_MESH_COLOUR,
  PATH_COLOUR,
  POLY_PALETTE,
  areaColour as paletteAreaColour,
  polygonPaletteSlots,
  START_COLOUR,
  WALL_COLOUR,
} from "../navmesh/palette.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../navmesh/tile.js";
import { drawLabel, labelBeside, type TopDownLabel } from "./labels.js";
import {
  AA_SUBSCANLINES,
  createImage,
  drawPolyline,
  drawSegments,
  fillCircle,
  fillPolygon,
  fillPolygonValue,
  fillTriangle,
  type Rgba,
  type RgbaImage,
  WHITE,
} from "./raster.js";
import { type BoundsXZ, emptyBounds, type TopDownView, viewForSize, viewX, viewY } from "./view.js";

export interface TopDownOptions {
  /**
   * Input triangles (world units, +Y up), drawn grey: higher is darker. Faces pointing down
   * (cross(v1 − v0, v2 − v0).y < 0: ceilings, undersides) are not drawn.
   */
  geometry?: TriangleMeshInput;
  navMesh?: NavMesh;
  /** Path corner points [x, y, z], e.g. computePath's `points`. */
  path?: ArrayLike<ArrayLike<number>>;
  /** Longer image side in pixels; the other follows the scene's aspect. Default 800. */
  size?: number;
  /** One colour per polygon (neighbours always differ) or per area id. Default "polygon". */
  colourBy?: "area" | "polygon";
  /** Background colour. Default white. */
  background?: Rgba;
  /** Label the path's ends "START" and "GOAL" beside their dots (the CLI's pictures). Default false. */
  labelPathEnds?: boolean;
}

/** Default longer image side. */
export const DEFAULT_RENDER_SIZE = 800;

/** Everything needed to draw the picture, in pixels and draw order. */
export interface TopDownLayout {
  view: TopDownView;
  width: number;
  height: number;
  background: Rgba;
  /** Geometry triangles facing up, low → high: 6 pixel coordinates per triangle. */
  triangleCount: number;
  triangleXY: Float64Array;
  /** Grey level (0..255) per triangle vertex, 3 per triangle. */
  triangleGrey: Uint8Array;
  /** Navmesh polygons low → high; polygon i uses points [polyStart[i], polyStart[i + 1]). */
  polyCount: number;
  polyStart: Uint32Array;
  /** 2 pixel coordinates per point. */
  polyXY: Float64Array;
  /** Fill colour per polygon (RGBA, 4 per polygon; alpha = POLY_FILL_ALPHA). */
  polyFill: Uint8Array;
  /**
   * Height bands: band b holds polygons [bandPolyStart[b], bandPolyStart[b + 1]), inner edges
   * [bandInnerStart[b], bandInnerStart[b + 1]) and walls [bandWallStart[b], ...) (in edges).
   * Its fills and edges are hidden where a polygon with index >= bandOccluderStart[b] (a
   * floor above) covers the pixel.
   */
  bandCount: number;
  bandPolyStart: Uint32Array;
  bandInnerStart: Uint32Array;
  bandWallStart: Uint32Array;
  bandOccluderStart: Uint32Array;
  /** Edges shared by two polygons, once each: x0, y0, x1, y1 pixels, grouped by band. */
  innerEdges: Float64Array;
  /** Edges with no polygon across (walls): x0, y0, x1, y1 pixels. */
  wallEdges: Float64Array;
  /** Off-mesh connections: x0, y0, x1, y1 pixels. */
  offMeshLinks: Float64Array;
  /** Path corners in pixels (x, y pairs); empty without a path. */
  pathXY: Float64Array;
  /** Labels drawn last (the path ends' "START" / "GOAL" with labelPathEnds), else empty. */
  labels: readonly TopDownLabel[];
  style: TopDownStyle;
}

/** Colours and pixel widths of a top-down picture (they scale with its size). */
export interface TopDownStyle {
  innerEdgeWidth: number;
  innerEdgeColour: Rgba;
  wallWidth: number;
  wallColour: Rgba;
  offMeshWidth: number;
  offMeshColour: Rgba;
  pathWidth: number;
  pathColour: Rgba;
  /** White band under the path so it reads over any polygon colour. */
  pathHaloWidth: number;
  pathHaloColour: Rgba;
  dotRadius: number;
  dotRimWidth: number;
  startColour: Rgba;
  endColour: Rgba;
}

/** Opacity of the polygon fills (0..255). */
export const POLY_FILL_ALPHA = 150;

/** Grey of the lowest and highest geometry. */
const GREY_LOW = 226;
const GREY_HIGH = 120;

/** Colour of an area id in "area" mode (the shared palette, navmesh/palette.ts). */
export const areaColour: (area: number) => Rgba = paletteAreaColour;

function styleFor(size: number): TopDownStyle {
  const s = size / DEFAULT_RENDER_SIZE;
  const pathWidth = Math.max(2, 4 * s);
  return {
    innerEdgeWidth: Math.max(1, 1 * s),
    innerEdgeColour: INNER_EDGE_COLOUR,
    wallWidth: Math.max(1.5, 2.2 * s),
    wallColour: WALL_COLOUR,
    offMeshWidth: Math.max(1.5, 2 * s),
    offMeshColour: OFF_MESH_COLOUR,
    pathWidth,
    pathColour: PATH_COLOUR,
    pathHaloWidth: pathWidth + Math.max(2, 3 * s),
    pathHaloColour: [255, 255, 255, 230],
    dotRadius: Math.max(4, 8 * s),
    dotRimWidth: Math.max(1.5, 2.5 * s),
    startColour: START_COLOUR,
    endColour: END_COLOUR,
  };
}

function sceneBounds(options: TopDownOptions): BoundsXZ {
  const b = emptyBounds();
  const add = (x: number, z: number) => {
    if (!Number.isFinite(x) || !Number.isFinite(z)) return;
    if (x < b.minX) b.minX = x;
    if (x > b.maxX) b.maxX = x;
    if (z < b.minZ) b.minZ = z;
    if (z > b.maxZ) b.maxZ = z;
  };
  const g = options.geometry;
  if (g) {
    const p = g.positions;
    for (let i = 0; i + 2 < p.length; i += 3) add(p[i]!, p[i + 2]!);
  }
  const nm = options.navMesh;
  if (nm) {
    for (const t of nm.tiles) {
      const v = t.vertices;
      for (let i = 0; i < t.vertexCount; i++) add(v[i * 3]!, v[i * 3 + 2]!);
    }
    for (const ref of nm.offMeshConnectionRefs()) {
      const c = nm.offMeshConnection(ref);
      if (!c) continue;
      add(c.start[0], c.start[2]);
      add(c.end[0], c.end[2]);
    }
  }
  const path = options.path;
  if (path) for (let i = 0; i < path.length; i++) add(path[i]![0]!, path[i]![2]!);
  return b;
}

/** Sorts indices 0..n-1 by key ascending, ties by index (deterministic). */
function orderByKey(keys: Float64Array): Uint32Array {
  const order = new Uint32Array(keys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => keys[a]! - keys[b]! || a - b);
  return order;
}

/** Computes pixel positions, draw order, colours and widths of the picture. */
export function layoutTopDown(options: TopDownOptions): TopDownLayout {
  const size = Math.round(options.size ?? DEFAULT_RENDER_SIZE);
  if (!(size >= 16 && size <= 16384)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `render size must be 16..16384 pixels, got ${options.size}`,
    );
  }
  const style = styleFor(size);
  const margin = Math.ceil(Math.max(style.dotRadius + style.dotRimWidth, size * 0.025)) + 2;
  const view = viewForSize(sceneBounds(options), size, margin);
  const geometry = options.geometry;
  const triangles =
    geometry && geometry.indices.length >= 3 ? layoutGeometry(geometry, view) : noTriangles();
  const polygons = options.navMesh
    ? layoutPolygons(options.navMesh, view, options.colourBy === "area")
    : noPolygons();
  const pathXY = layoutPath(options.path, view);
  return {
    view,
    width: view.width,
    height: view.height,
    background: options.background ?? WHITE,
    ...triangles,
    ...polygons,
    pathXY,
    labels: options.labelPathEnds ? pathEndLabels(pathXY, style, view.width, view.height) : [],
    style,
  };
}

type TriangleLayout = Pick<TopDownLayout, "triangleCount" | "triangleXY" | "triangleGrey">;

type PolygonLayout = Pick<
  TopDownLayout,
  | "polyCount"
  | "polyStart"
  | "polyXY"
  | "polyFill"
  | "bandCount"
  | "bandPolyStart"
  | "bandInnerStart"
  | "bandWallStart"
  | "bandOccluderStart"
  | "innerEdges"
  | "wallEdges"
  | "offMeshLinks"
>;

// Fresh arrays per layout: a caller may keep and modify what it gets.
const noTriangles = (): TriangleLayout => ({
  triangleCount: 0,
  triangleXY: new Float64Array(0),
  triangleGrey: new Uint8Array(0),
});

const noPolygons = (): PolygonLayout => ({
  polyCount: 0,
  polyStart: new Uint32Array(1),
  polyXY: new Float64Array(0),
  polyFill: new Uint8Array(0),
  bandCount: 0,
  bandPolyStart: new Uint32Array(1),
  bandInnerStart: new Uint32Array(1),
  bandWallStart: new Uint32Array(1),
  bandOccluderStart: new Uint32Array(0),
  innerEdges: new Float64Array(0),
  wallEdges: new Float64Array(0),
  offMeshLinks: new Float64Array(0),
});

// Geometry as seen from above: faces pointing down (ceilings, undersides) are skipped
// unless nothing points up (a mesh wound the other way). The rest are drawn by centroid
// height so upper floors cover lower ones; each vertex is grey by its height (higher is
// darker), a little darker again on steep faces so slopes and steps read.
function layoutGeometry(g: TriangleMeshInput, view: TopDownView): TriangleLayout {
  const px = (x: number) => viewX(view, x);
  const py = (z: number) => viewY(view, z);
  const pos = g.positions;
  const idx = g.indices;
  const total = Math.floor(idx.length / 3);
  const facing = new Float64Array(total); // normal's y component, normalised
  let upCount = 0;
  for (let t = 0; t < total; t++) {
    const a = idx[t * 3]! * 3;
    const b = idx[t * 3 + 1]! * 3;
    const c = idx[t * 3 + 2]! * 3;
    const ux = pos[b]! - pos[a]!;
    const uy = pos[b + 1]! - pos[a + 1]!;
    const uz = pos[b + 2]! - pos[a + 2]!;
    const vx = pos[c]! - pos[a]!;
    const vy = pos[c + 1]! - pos[a + 1]!;
    const vz = pos[c + 2]! - pos[a + 2]!;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    facing[t] = len > 0 ? ny / len : 0;
    if (facing[t]! > 1e-6) upCount++;
  }
  const cull = upCount > 0;
  const drawn: number[] = [];
  let minY = Infinity;
  let maxY = -Infinity;
  for (let t = 0; t < total; t++) {
    if (cull && facing[t]! < -1e-6) continue;
    drawn.push(t);
    for (let j = 0; j < 3; j++) {
      const y = pos[idx[t * 3 + j]! * 3 + 1]!;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const n = drawn.length;
  const rangeY = maxY - minY > 1e-9 ? maxY - minY : 1;
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const t = drawn[k]!;
    keys[k] =
      pos[idx[t * 3]! * 3 + 1]! + pos[idx[t * 3 + 1]! * 3 + 1]! + pos[idx[t * 3 + 2]! * 3 + 1]!;
  }
  const order = orderByKey(keys);
  const triangleXY = new Float64Array(n * 6);
  const triangleGrey = new Uint8Array(n * 3);
  for (let k = 0; k < n; k++) {
    const t = drawn[order[k]!]!;
    const shade = 0.8 + 0.2 * Math.abs(facing[t]!);
    for (let j = 0; j < 3; j++) {
      const v = idx[t * 3 + j]! * 3;
      triangleXY[k * 6 + j * 2] = px(pos[v]!);
      triangleXY[k * 6 + j * 2 + 1] = py(pos[v + 2]!);
      const h = (pos[v + 1]! - minY) / rangeY;
      triangleGrey[k * 3 + j] = Math.round((GREY_LOW + (GREY_HIGH - GREY_LOW) * h) * shade);
    }
  }
  return { triangleCount: n, triangleXY, triangleGrey };
}

/** Every tile's polygons: draw-order keys (mean vertex height), ids and palette slots. */
function polygonKeys(nm: NavMesh): {
  total: number;
  tileBase: Uint32Array;
  keys: Float64Array;
  tileOf: Uint32Array;
  polyOf: Uint32Array;
  colourOf: Uint8Array;
} {
  const tiles = nm.tiles;
  let total = 0;
  const tileBase = new Uint32Array(tiles.length);
  for (let ti = 0; ti < tiles.length; ti++) {
    tileBase[ti] = total;
    total += tiles[ti]!.polyCount;
  }
  const keys = new Float64Array(total);
  const tileOf = new Uint32Array(total);
  const polyOf = new Uint32Array(total);
  const colourOf = new Uint8Array(total);
  for (let ti = 0; ti < tiles.length; ti++) {
    const t = tiles[ti]!;
    const nvp = t.maxVertsPerPoly;
    const slots = polygonPaletteSlots(t, ti);
    for (let p = 0; p < t.polyCount; p++) {
      const gi = tileBase[ti]! + p;
      const nv = t.polyVertCount[p]!;
      let sumY = 0;
      for (let j = 0; j < nv; j++) sumY += t.vertices[t.polyVerts[p * nvp + j]! * 3 + 1]!;
      keys[gi] = nv > 0 ? sumY / nv : 0;
      tileOf[gi] = ti;
      polyOf[gi] = p;
      colourOf[gi] = slots[p]!;
    }
  }
  return { total, tileBase, keys, tileOf, polyOf, colourOf };
}

/** Navmesh polygons, all tiles, low → high by mean vertex height, in height bands. */
function layoutPolygons(nm: NavMesh, view: TopDownView, colourByArea: boolean): PolygonLayout {
  const px = (x: number) => viewX(view, x);
  const py = (z: number) => viewY(view, z);
  const tiles = nm.tiles;
  const { total, tileBase, keys, tileOf, polyOf, colourOf } = polygonKeys(nm);
  const inner: number[] = [];
  const walls: number[] = [];
  const order = orderByKey(keys);
  const rank = new Uint32Array(total);
  for (let k = 0; k < total; k++) rank[order[k]!] = k;
  const polyStart = new Uint32Array(total + 1);
  let points = 0;
  for (let k = 0; k < total; k++) {
    points += tiles[tileOf[order[k]!]!]!.polyVertCount[polyOf[order[k]!]!]!;
    polyStart[k + 1] = points;
  }
  const polyXY = new Float64Array(points * 2);
  const polyFill = new Uint8Array(total * 4);
  // Height bands: runs of polygons (in draw order) within `tol` of the band's lowest. A
  // band's fills and outlines are hidden under polygons more than `tol` above the band's
  // top (a floor above), as seen from above. Floors above one another are at least an agent
  // height apart, so tol = half of it separates floors and keeps ramps together.
  const tol = Math.max(nm.agentMaxClimb, nm.agentHeight * 0.5, 1e-6);
  const bandStarts: number[] = [];
  const bandTops: number[] = [];
  const innerStarts: number[] = [];
  const wallStarts: number[] = [];
  for (let k = 0; k < total; k++) {
    const gk = order[k]!;
    if (k === 0 || keys[gk]! - keys[order[bandStarts[bandStarts.length - 1]!]!]! > tol) {
      bandStarts.push(k);
      bandTops.push(keys[gk]!);
      innerStarts.push(inner.length / 4);
      wallStarts.push(walls.length / 4);
    }
    bandTops[bandTops.length - 1] = keys[gk]!;
    const ti = tileOf[gk]!;
    const t = tiles[ti]!;
    const p = polyOf[gk]!;
    const nvp = t.maxVertsPerPoly;
    const nv = t.polyVertCount[p]!;
    const o = polyStart[k]!;
    for (let j = 0; j < nv; j++) {
      const v = t.polyVerts[p * nvp + j]! * 3;
      polyXY[(o + j) * 2] = px(t.vertices[v]!);
      polyXY[(o + j) * 2 + 1] = py(t.vertices[v + 2]!);
    }
    const col = colourByArea ? areaColour(t.polyAreas[p]!) : POLY_PALETTE[colourOf[gk]!]!;
    polyFill[k * 4] = col[0];
    polyFill[k * 4 + 1] = col[1];
    polyFill[k * 4 + 2] = col[2];
    polyFill[k * 4 + 3] = POLY_FILL_ALPHA;
    // Walls always; a shared edge once, with the polygon drawn later (the higher one, so
    // the lower band's occlusion never clips it).
    for (let j = 0; j < nv; j++) {
      const nb = t.polyNeighbours[p * nvp + j]!;
      let list: number[] | null = null;
      if (nb === EDGE_WALL) list = walls;
      else if ((nb & EDGE_TILE_BORDER) !== 0) list = inner;
      else if (rank[tileBase[ti]! + nb - 1]! < k) list = inner;
      if (list === null) continue;
      const a = o + j;
      const b = o + ((j + 1) % nv);
      list.push(polyXY[a * 2]!, polyXY[a * 2 + 1]!, polyXY[b * 2]!, polyXY[b * 2 + 1]!);
    }
  }
  const bandCount = bandStarts.length;
  const bandPolyStart = Uint32Array.from([...bandStarts, total]);
  const bandInnerStart = Uint32Array.from([...innerStarts, inner.length / 4]);
  const bandWallStart = Uint32Array.from([...wallStarts, walls.length / 4]);
  const bandOccluderStart = new Uint32Array(bandCount);
  let first = 0;
  for (let b = 0; b < bandCount; b++) {
    while (first < total && keys[order[first]!]! <= bandTops[b]! + tol) first++;
    bandOccluderStart[b] = first;
  }
  return {
    polyCount: total,
    polyStart,
    polyXY,
    polyFill,
    bandCount,
    bandPolyStart,
    bandInnerStart,
    bandWallStart,
    bandOccluderStart,
    innerEdges: Float64Array.from(inner),
    wallEdges: Float64Array.from(walls),
    offMeshLinks: offMeshLinksXY(nm, view),
  };
}

/** Off-mesh connections as pixel segments (snapped ends). */
function offMeshLinksXY(nm: NavMesh, view: TopDownView): Float64Array {
  const links: number[] = [];
  for (const ref of nm.offMeshConnectionRefs()) {
    const c = nm.offMeshConnection(ref);
    if (!c) continue;
    links.push(
      viewX(view, c.snappedStart[0]),
      viewY(view, c.snappedStart[2]),
      viewX(view, c.snappedEnd[0]),
      viewY(view, c.snappedEnd[2]),
    );
  }
  return Float64Array.from(links);
}

/** Path corners in pixels. */
function layoutPath(path: TopDownOptions["path"], view: TopDownView): Float64Array {
  const pathXY = new Float64Array(path ? path.length * 2 : 0);
  if (path) {
    for (let i = 0; i < path.length; i++) {
      pathXY[i * 2] = viewX(view, path[i]![0]!);
      pathXY[i * 2 + 1] = viewY(view, path[i]![2]!);
    }
  }
  return pathXY;
}

/** "START" and "GOAL" beside the path's end dots, in the dots' colours. */
function pathEndLabels(
  pathXY: Float64Array,
  s: TopDownStyle,
  width: number,
  height: number,
): TopDownLabel[] {
  const n = pathXY.length / 2;
  if (n < 2) return [];
  const r = s.dotRadius + s.dotRimWidth;
  const pixel = Math.max(2, Math.round(s.dotRadius / 3));
  const at = (i: number, text: string, colour: Rgba) =>
    labelBeside(text, pathXY[i * 2]!, pathXY[i * 2 + 1]!, r, pixel, colour, width, height);
  return [at(0, "START", s.startColour), at(n - 1, "GOAL", s.endColour)];
}

/**
 * Draws the top-down picture into a new RGBA image (white background by default): geometry,
 * then navmesh fills, polygon edges, walls, off-mesh links, and the path with start (green)
 * and end (red) dots. Same inputs give the same bytes.
 */
export function renderTopDown(options: TopDownOptions): RgbaImage {
  const L = layoutTopDown(options);
  const img = createImage(L.width, L.height, L.background);
  drawLayout(img, L);
  return img;
}

/**
 * Drawing work a layout may take: this many times its pixels (each pixel drawn over this often
 * on average, anti-aliased strokes counted per sub-scanline), and at least RENDER_MIN_WORK.
 * Real navmeshes overdraw little; 250 coincident polygons at 8192 px would be 3 minutes.
 */
export const RENDER_MAX_OVERDRAW = 8;
export const RENDER_MIN_WORK = 2e8;

/**
 * Estimated pixel operations of drawLayout: every fill's bounding box (clipped to the image),
 * the occlusion masks, and every stroke's area per sub-scanline. Linear in the layout.
 */
export function layoutDrawWork(L: TopDownLayout): number {
  const W = L.width;
  const H = L.height;
  const box = (xy: ArrayLike<number>, from: number, to: number): number => {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = from; i < to; i += 2) {
      x0 = Math.min(x0, xy[i]!);
      x1 = Math.max(x1, xy[i]!);
      y0 = Math.min(y0, xy[i + 1]!);
      y1 = Math.max(y1, xy[i + 1]!);
    }
    const w = Math.min(W, Math.ceil(x1) + 1) - Math.max(0, Math.floor(x0));
    const h = Math.min(H, Math.ceil(y1) + 1) - Math.max(0, Math.floor(y0));
    return w > 0 && h > 0 ? w * h : 0;
  };
  let work = 0;
  for (let t = 0; t < L.triangleCount; t++) work += box(L.triangleXY, t * 6, t * 6 + 6);
  let fills = 0;
  for (let p = 0; p < L.polyCount; p++) {
    fills += box(L.polyXY, L.polyStart[p]! * 2, L.polyStart[p + 1]! * 2);
  }
  let occluded = false;
  for (let b = 0; b < L.bandCount; b++) {
    if (L.bandOccluderStart[b]! < L.polyCount) occluded = true;
  }
  // Fills, plus the "which polygon is on top" pass and a mask per band when floors overlap.
  work += occluded ? 2 * fills + L.bandCount * W * H : fills;
  const s = L.style;
  const strokes = (seg: ArrayLike<number>, width: number): number => {
    let area = 0;
    for (let i = 0; i + 3 < seg.length; i += 4) {
      const len = Math.abs(seg[i + 2]! - seg[i]!) + Math.abs(seg[i + 3]! - seg[i + 1]!);
      area += (len + 2 * width + 2) * (width + 2);
    }
    return area * AA_SUBSCANLINES;
  };
  work += strokes(L.innerEdges, s.innerEdgeWidth) + strokes(L.wallEdges, s.wallWidth);
  work += strokes(L.offMeshLinks, s.offMeshWidth * 2);
  return work;
}

/** Draws a computed layout into an image of its size (e.g. a canvas's ImageData buffer). */
export function drawLayout(img: RgbaImage, L: TopDownLayout): void {
  const work = layoutDrawWork(L);
  const limit = Math.max(RENDER_MIN_WORK, RENDER_MAX_OVERDRAW * L.width * L.height);
  if (work > limit) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `render: ${L.polyCount} polygons, ${L.triangleCount} triangles and ${(L.innerEdges.length + L.wallEdges.length) / 4} edges at ${L.width} × ${L.height} pixels need about ${Math.round(work)} pixel operations, ${(work / (L.width * L.height)).toFixed(0)} per pixel; the limit is ${Math.round(limit)} (${RENDER_MAX_OVERDRAW} per pixel, at least ${RENDER_MIN_WORK}): use a smaller size (overlapping polygons cost the most)`,
    );
  }
  // Fills are pixel-centre sampled: adjacent shapes partition the pixels exactly (no seams,
  // no double blending); the anti-aliased outlines on top hide their stair steps.
  const xy = L.triangleXY;
  const grey = L.triangleGrey;
  for (let t = 0; t < L.triangleCount; t++) {
    const o = t * 6;
    const g0 = grey[t * 3]!;
    const g1 = grey[t * 3 + 1]!;
    const g2 = grey[t * 3 + 2]!;
    fillTriangle(img, xy[o]!, xy[o + 1]!, xy[o + 2]!, xy[o + 3]!, xy[o + 4]!, xy[o + 5]!, [
      [g0, g0, g0, 255],
      [g1, g1, g1, 255],
      [g2, g2, g2, 255],
    ]);
  }
  // Which polygon (draw index) is on top at each pixel, for the per-band occlusion masks.
  let top: Int32Array | null = null;
  let clip: Uint8Array | null = null;
  for (let b = 0; b < L.bandCount; b++) {
    if (L.bandOccluderStart[b]! < L.polyCount) {
      top = new Int32Array(L.width * L.height).fill(-1);
      clip = new Uint8Array(L.width * L.height);
      for (let p = 0; p < L.polyCount; p++) {
        fillPolygonValue(top, L.width, L.height, polyRing(L, p), p);
      }
      break;
    }
  }
  let clipFor = -1;
  const bandClip = (b: number): Uint8Array | null => {
    const occ = L.bandOccluderStart[b]!;
    if (top === null || clip === null || occ >= L.polyCount) return null;
    if (occ !== clipFor) {
      for (let i = 0; i < top.length; i++) clip[i] = top[i]! >= occ ? 0 : 255;
      clipFor = occ;
    }
    return clip;
  };
  const s = L.style;
  const f = L.polyFill;
  for (let b = 0; b < L.bandCount; b++) {
    const bc = bandClip(b);
    for (let p = L.bandPolyStart[b]!; p < L.bandPolyStart[b + 1]!; p++) {
      fillPolygon(img, polyRing(L, p), [f[p * 4]!, f[p * 4 + 1]!, f[p * 4 + 2]!, f[p * 4 + 3]!], {
        clip: bc,
      });
    }
  }
  for (let b = 0; b < L.bandCount; b++) {
    const bc = bandClip(b);
    const aa = { antialias: true, cap: "round" as const, clip: bc };
    const inner = L.innerEdges.subarray(L.bandInnerStart[b]! * 4, L.bandInnerStart[b + 1]! * 4);
    const walls = L.wallEdges.subarray(L.bandWallStart[b]! * 4, L.bandWallStart[b + 1]! * 4);
    drawSegments(img, inner, s.innerEdgeWidth, s.innerEdgeColour, aa);
    drawSegments(img, walls, s.wallWidth, s.wallColour, aa);
  }
  const aa = { antialias: true, cap: "round" as const };
  const links = L.offMeshLinks;
  if (links.length > 0) {
    drawSegments(img, links, s.offMeshWidth, s.offMeshColour, aa);
    for (let i = 0; i < links.length; i += 2) {
      fillCircle(img, links[i]!, links[i + 1]!, s.offMeshWidth * 1.8, s.offMeshColour, aa);
    }
  }
  const path = L.pathXY;
  if (path.length >= 2) {
    drawPolyline(img, path, s.pathHaloWidth, s.pathHaloColour, aa);
    drawPolyline(img, path, s.pathWidth, s.pathColour, aa);
    const n = path.length / 2;
    dot(img, path[0]!, path[1]!, s.dotRadius, s.dotRimWidth, s.startColour);
    dot(img, path[(n - 1) * 2]!, path[(n - 1) * 2 + 1]!, s.dotRadius, s.dotRimWidth, s.endColour);
  }
  for (const label of L.labels) drawLabel(img, label);
}

/** Points of polygon p (draw order) as x, y pairs. */
export function polyRing(L: TopDownLayout, p: number): Float64Array {
  return L.polyXY.subarray(L.polyStart[p]! * 2, L.polyStart[p + 1]! * 2);
}

/** A filled dot with a white rim. */
function dot(img: RgbaImage, x: number, y: number, r: number, rim: number, colour: Rgba): void {
  fillCircle(img, x, y, r + rim, WHITE, { antialias: true });
  fillCircle(img, x, y, r, colour, { antialias: true });
}
