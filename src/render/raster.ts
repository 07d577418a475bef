/**
 * A small software rasterizer over a straight-alpha RGBA8 buffer (the layout of the canvas
 * ImageData, so a browser can `putImageData` it directly). Everything is drawn as coverage:
 * a shape is scan-converted into a coverage mask over its clipped bounding box, then the mask
 * is blended source-over into the image. Without anti-aliasing a pixel is covered iff its
 * centre is inside (half-open on the right and bottom, so shapes that share an edge tile the
 * plane without gaps or double blending); with anti-aliasing, coverage is the exact horizontal
 * overlap averaged over AA_SUBSCANLINES sub-scanlines per pixel row.
 *
 * Pixel coordinates: x right, y down, pixel (i, j) is the unit square [i, i+1) × [j, j+1).
 * Deterministic: plain float arithmetic, no randomness, no platform calls.
 */
import { MeshwayError } from "../errors.js";

/** An RGBA8 image, rows top to bottom, 4 bytes per pixel, straight (non-premultiplied) alpha. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** A colour: red, green, blue, alpha, each 0..255. */
export type Rgba = readonly [number, number, number, number];

export type FillRule = "nonzero" | "evenodd";

/** Options every drawing call takes. */
export interface DrawOptions {
  /** Smooth edges by area coverage. Default false (pixel-centre sampling). */
  antialias?: boolean;
  /**
   * A mask like a canvas clip: one byte per image pixel (row-major, width × height), 0 hides
   * the pixel, 255 keeps it, values between scale the coverage. Absent: no clipping.
   */
  clip?: Uint8Array | null;
}

export interface FillOptions extends DrawOptions {
  /** Which points of overlapping rings are inside. Default "nonzero". */
  rule?: FillRule;
}

export type LineCap = "butt" | "round" | "square";

export interface StrokeOptions extends DrawOptions {
  /** End caps of open polylines and segments. Default "butt". Joins are always round. */
  cap?: LineCap;
  /** Close the polyline back to its first point. Default false. */
  closed?: boolean;
}

export const WHITE: Rgba = [255, 255, 255, 255];
export const BLACK: Rgba = [0, 0, 0, 255];
export const TRANSPARENT: Rgba = [0, 0, 0, 0];

/** Sub-scanlines per pixel row when anti-aliasing (vertical coverage resolution). */
export const AA_SUBSCANLINES = 8;

/** A colour from 0..255 channels; alpha defaults to opaque. Values are rounded and clamped. */
export function rgba(r: number, g: number, b: number, a = 255): Rgba {
  return [clamp255(r), clamp255(g), clamp255(b), clamp255(a)];
}

/** Parses "#rgb", "#rgba", "#rrggbb" or "#rrggbbaa". */
export function parseHexColour(hex: string): Rgba {
  const m = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex);
  if (!m) throw new MeshwayError("INVALID_ARGUMENT", `not a hex colour: ${hex}`);
  let h = m[1]!;
  if (h.length <= 4) h = [...h].map((c) => c + c).join("");
  if (h.length === 6) h += "ff";
  const n = (i: number) => Number.parseInt(h.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), n(6)];
}

function clamp255(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** A new image filled with `background` (default white). */
export function createImage(width: number, height: number, background: Rgba = WHITE): RgbaImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `image size must be non-negative integers, got ${width} × ${height}`,
    );
  }
  const data = new Uint8ClampedArray(width * height * 4);
  clearImage({ width, height, data }, background);
  return { width, height, data };
}

/** Fills the whole image with one colour (no blending). */
export function clearImage(img: RgbaImage, colour: Rgba): void {
  const d = img.data;
  const [r, g, b, a] = colour;
  for (let i = 0; i < d.length; i += 4) {
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = b;
    d[i + 3] = a;
  }
}

/** The colour of pixel (x, y). */
export function getPixel(img: RgbaImage, x: number, y: number): Rgba {
  const i = (y * img.width + x) * 4;
  const d = img.data;
  return [d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!];
}

/** Overwrites pixel (x, y) (no blending); ignored outside the image. */
export function setPixel(img: RgbaImage, x: number, y: number, colour: Rgba): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  const i = (y * img.width + x) * 4;
  img.data.set(colour, i);
}

/**
 * Source-over blend of (r, g, b) with opacity `alpha` (0..1, colour alpha × coverage) into the
 * byte at offset i. Straight alpha: works over transparent backgrounds too.
 */
function blendAt(d: Uint8ClampedArray, i: number, r: number, g: number, b: number, alpha: number) {
  if (alpha <= 0) return;
  if (alpha >= 1) {
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = b;
    d[i + 3] = 255;
    return;
  }
  const da = d[i + 3]! / 255;
  const keep = da * (1 - alpha);
  const oa = alpha + keep;
  // Uint8ClampedArray rounds half to even; Math.round keeps results independent of that.
  d[i] = Math.round((r * alpha + d[i]! * keep) / oa);
  d[i + 1] = Math.round((g * alpha + d[i + 1]! * keep) / oa);
  d[i + 2] = Math.round((b * alpha + d[i + 2]! * keep) / oa);
  d[i + 3] = Math.round(oa * 255);
}

/** Blends `colour` into pixel (x, y) with extra coverage 0..1; ignored outside the image. */
export function blendPixel(img: RgbaImage, x: number, y: number, colour: Rgba, coverage = 1) {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  blendAt(
    img.data,
    (y * img.width + x) * 4,
    colour[0],
    colour[1],
    colour[2],
    (colour[3] / 255) * coverage,
  );
}

// ---------------------------------------------------------------------------------------------
// Coverage scan conversion (shared scratch: the rasterizer is not reentrant, like a canvas).

/** Edges: x0, y0, x1, y1 with y0 < y1, and the winding direction (+1 downwards, -1 upwards). */
let edgeBuf = new Float64Array(64 * 4);
let edgeDir = new Int8Array(64);
let edgeCount = 0;
/** Crossings of one sub-scanline: x and direction. */
let crossX = new Float64Array(64);
let crossD = new Int8Array(64);
/** Edge indices sorted by top y, and the active edge list. */
let edgeOrder = new Uint32Array(64);
let active = new Uint32Array(64);
/** Coverage mask over the clipped bounding box [covX0, covX1) × [covY0, covY1). */
let cov = new Float32Array(1024);
let covX0 = 0;
let covY0 = 0;
let covX1 = 0;
let covY1 = 0;
/** Shape points under construction (x, y pairs) and ring end offsets (in points). */
let shapePts = new Float64Array(256);
let shapePtCount = 0;
let ringEnds = new Int32Array(16);
let ringCount = 0;

function resetShape(): void {
  shapePtCount = 0;
  ringCount = 0;
}

function pushPoint(x: number, y: number): void {
  if ((shapePtCount + 1) * 2 > shapePts.length) {
    const next = new Float64Array(shapePts.length * 2);
    next.set(shapePts);
    shapePts = next;
  }
  shapePts[shapePtCount * 2] = x;
  shapePts[shapePtCount * 2 + 1] = y;
  shapePtCount++;
}

/** Ends the ring of points pushed since the previous ring; orients it counter-clockwise on screen when `orient`. */
function endRing(orient: boolean): void {
  const start = ringCount === 0 ? 0 : ringEnds[ringCount - 1]!;
  if (shapePtCount - start < 3) {
    shapePtCount = start; // degenerate: drop
    return;
  }
  if (orient) {
    let twice = 0;
    for (let i = start; i < shapePtCount; i++) {
      const j = i + 1 === shapePtCount ? start : i + 1;
      twice += shapePts[i * 2]! * shapePts[j * 2 + 1]! - shapePts[j * 2]! * shapePts[i * 2 + 1]!;
    }
    if (twice < 0) {
      for (let i = start, j = shapePtCount - 1; i < j; i++, j--) {
        const x = shapePts[i * 2]!;
        const y = shapePts[i * 2 + 1]!;
        shapePts[i * 2] = shapePts[j * 2]!;
        shapePts[i * 2 + 1] = shapePts[j * 2 + 1]!;
        shapePts[j * 2] = x;
        shapePts[j * 2 + 1] = y;
      }
    }
  }
  if (ringCount === ringEnds.length) {
    const next = new Int32Array(ringEnds.length * 2);
    next.set(ringEnds);
    ringEnds = next;
  }
  ringEnds[ringCount++] = shapePtCount;
}

function addEdge(x0: number, y0: number, x1: number, y1: number): void {
  if (y0 === y1 || !Number.isFinite(x0 + y0 + x1 + y1)) return;
  if (edgeCount === edgeDir.length) {
    const nb = new Float64Array(edgeBuf.length * 2);
    nb.set(edgeBuf);
    edgeBuf = nb;
    const nd = new Int8Array(edgeDir.length * 2);
    nd.set(edgeDir);
    edgeDir = nd;
  }
  const o = edgeCount * 4;
  if (y0 < y1) {
    edgeBuf[o] = x0;
    edgeBuf[o + 1] = y0;
    edgeBuf[o + 2] = x1;
    edgeBuf[o + 3] = y1;
    edgeDir[edgeCount] = 1;
  } else {
    edgeBuf[o] = x1;
    edgeBuf[o + 1] = y1;
    edgeBuf[o + 2] = x0;
    edgeBuf[o + 3] = y0;
    edgeDir[edgeCount] = -1;
  }
  edgeCount++;
}

/**
 * Scan-converts the current shape (shapePts / ringEnds) into `cov` over its bounding box
 * clipped to the image. Returns false when nothing can be covered.
 */
function scanShape(w: number, h: number, rule: FillRule, aa: boolean): boolean {
  edgeCount = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let start = 0;
  for (let r = 0; r < ringCount; r++) {
    const end = ringEnds[r]!;
    for (let i = start; i < end; i++) {
      const j = i + 1 === end ? start : i + 1;
      const x0 = shapePts[i * 2]!;
      const y0 = shapePts[i * 2 + 1]!;
      addEdge(x0, y0, shapePts[j * 2]!, shapePts[j * 2 + 1]!);
      if (x0 < minX) minX = x0;
      if (x0 > maxX) maxX = x0;
      if (y0 < minY) minY = y0;
      if (y0 > maxY) maxY = y0;
    }
    start = end;
  }
  if (edgeCount === 0) return false;
  covX0 = Math.max(0, Math.floor(minX));
  covY0 = Math.max(0, Math.floor(minY));
  covX1 = Math.min(w, Math.ceil(maxX) + 1);
  covY1 = Math.min(h, Math.ceil(maxY) + 1);
  if (covX0 >= covX1 || covY0 >= covY1) return false;
  const bw = covX1 - covX0;
  const size = bw * (covY1 - covY0);
  if (cov.length < size) {
    let n = cov.length;
    while (n < size) n *= 2;
    cov = new Float32Array(n);
  } else {
    cov.fill(0, 0, size);
  }
  if (crossX.length < edgeCount) {
    crossX = new Float64Array(edgeCount * 2);
    crossD = new Int8Array(edgeCount * 2);
  }
  const subs = aa ? AA_SUBSCANLINES : 1;
  const weight = 1 / subs;
  const evenOdd = rule === "evenodd";
  // Active edge list: edges sorted by top y enter as the sub-scanline passes their top and
  // leave past their bottom, so each sub-scanline only looks at the edges crossing it.
  if (edgeOrder.length < edgeCount) {
    edgeOrder = new Uint32Array(edgeCount * 2);
    active = new Uint32Array(edgeCount * 2);
  }
  for (let e = 0; e < edgeCount; e++) edgeOrder[e] = e;
  const order = edgeOrder.subarray(0, edgeCount);
  order.sort((a, b) => edgeBuf[a * 4 + 1]! - edgeBuf[b * 4 + 1]! || a - b);
  let next = 0;
  let activeCount = 0;
  for (let py = covY0; py < covY1; py++) {
    const row = (py - covY0) * bw;
    for (let s = 0; s < subs; s++) {
      const sy = py + (s + 0.5) * weight;
      while (next < edgeCount && edgeBuf[order[next]! * 4 + 1]! <= sy)
        active[activeCount++] = order[next++]!;
      // Crossings of this sub-scanline, sorted by x: insertion while the count is small, a
      // native sort past that (many overlapping shapes in one, e.g. a pile of coincident
      // polygons' edges: insertion would be quadratic in them).
      let n = 0;
      let kept = 0;
      const insert = activeCount <= INSERTION_SORT_MAX;
      for (let a = 0; a < activeCount; a++) {
        const e = active[a]!;
        const o = e * 4;
        const ey1 = edgeBuf[o + 3]!;
        if (sy >= ey1) continue; // finished: drop from the active list
        active[kept++] = e;
        const ey0 = edgeBuf[o + 1]!;
        const ex0 = edgeBuf[o]!;
        const x = ex0 + ((sy - ey0) * (edgeBuf[o + 2]! - ex0)) / (ey1 - ey0);
        const d = edgeDir[e]!;
        let k = n++;
        if (insert) {
          while (k > 0 && crossX[k - 1]! > x) {
            crossX[k] = crossX[k - 1]!;
            crossD[k] = crossD[k - 1]!;
            k--;
          }
        }
        crossX[k] = x;
        crossD[k] = d;
      }
      activeCount = kept;
      if (!insert) sortCrossings(n);
      let wind = 0;
      for (let k = 0; k < n - 1; k++) {
        wind += crossD[k]!;
        const inside = evenOdd ? (k & 1) === 0 : wind !== 0;
        if (!inside) continue;
        const xa = crossX[k]!;
        const xb = crossX[k + 1]!;
        if (xb <= xa) continue;
        if (aa) addSpanCoverage(row, xa, xb, weight);
        else {
          // Pixels whose centre lies in [xa, xb).
          const ia = Math.max(covX0, Math.ceil(xa - 0.5));
          const ib = Math.min(covX1, Math.ceil(xb - 0.5));
          for (let x = ia; x < ib; x++) cov[row + x - covX0] = 1;
        }
      }
    }
  }
  return true;
}

/** Active edges up to which crossings are insertion-sorted as they are found. */
const INSERTION_SORT_MAX = 32;
/** Crossing x by direction, for sortCrossings. */
let upX = new Float64Array(64);
let downX = new Float64Array(64);

/**
 * Sorts crossX[0, n) (with crossD) by x: the +1 and -1 crossings sorted apart (native numeric
 * sorts) and merged. Crossings at equal x bound empty spans, so their order does not matter.
 */
function sortCrossings(n: number): void {
  if (upX.length < n) {
    upX = new Float64Array(n * 2);
    downX = new Float64Array(n * 2);
  }
  let nu = 0;
  let nd = 0;
  for (let k = 0; k < n; k++) {
    if (crossD[k]! > 0) upX[nu++] = crossX[k]!;
    else downX[nd++] = crossX[k]!;
  }
  const u = upX.subarray(0, nu).sort();
  const d = downX.subarray(0, nd).sort();
  let i = 0;
  let j = 0;
  for (let k = 0; k < n; k++) {
    if (j >= nd || (i < nu && u[i]! <= d[j]!)) {
      crossX[k] = u[i++]!;
      crossD[k] = 1;
    } else {
      crossX[k] = d[j++]!;
      crossD[k] = -1;
    }
  }
}

/** Adds the exact horizontal overlap of [xa, xb) with each pixel of the row, times `weight`. */
function addSpanCoverage(row: number, xa: number, xb: number, weight: number): void {
  if (xa < covX0) xa = covX0;
  if (xb > covX1) xb = covX1;
  if (xb <= xa) return;
  const ia = Math.floor(xa);
  const ib = Math.floor(xb);
  const base = row - covX0;
  if (ia === ib) {
    cov[base + ia]! += (xb - xa) * weight;
    return;
  }
  cov[base + ia]! += (ia + 1 - xa) * weight;
  for (let x = ia + 1; x < ib; x++) cov[base + x]! += weight;
  if (ib < covX1) cov[base + ib]! += (xb - ib) * weight;
}

/** Blends one colour through the coverage mask (and the clip mask, if any). */
function blendCoverage(img: RgbaImage, colour: Rgba, clip: Uint8Array | null): void {
  const d = img.data;
  const w = img.width;
  const bw = covX1 - covX0;
  const [r, g, b, a] = colour;
  const alpha = a / 255;
  for (let y = covY0; y < covY1; y++) {
    const row = (y - covY0) * bw;
    for (let x = covX0; x < covX1; x++) {
      let c = cov[row + x - covX0]!;
      if (c <= 0) continue;
      if (c > 1) c = 1;
      if (clip !== null) c *= clip[y * w + x]! / 255;
      blendAt(d, (y * w + x) * 4, r, g, b, alpha * c);
    }
  }
}

function fillCurrentShape(img: RgbaImage, colour: Rgba, rule: FillRule, options: DrawOptions) {
  if (colour[3] <= 0) return;
  const clip = checkClip(img, options.clip);
  if (scanShape(img.width, img.height, rule, options.antialias === true)) {
    blendCoverage(img, colour, clip);
  }
}

function checkClip(img: RgbaImage, clip: Uint8Array | null | undefined): Uint8Array | null {
  if (clip == null) return null;
  if (clip.length !== img.width * img.height) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `clip mask has ${clip.length} bytes, expected ${img.width * img.height}`,
    );
  }
  return clip;
}

// ---------------------------------------------------------------------------------------------
// Filled shapes.

/**
 * Fills a polygon given as x, y pairs (convex, concave or self-intersecting; the fill rule
 * decides). Pass several rings (e.g. an outline and its holes) as an array of point lists.
 */
export function fillPolygon(
  img: RgbaImage,
  points: ArrayLike<number> | readonly ArrayLike<number>[],
  colour: Rgba,
  options: FillOptions = {},
): void {
  resetShape();
  const rings = isRingList(points) ? points : [points];
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i += 2) pushPoint(ring[i]!, ring[i + 1]!);
    endRing(false);
  }
  fillCurrentShape(img, colour, options.rule ?? "nonzero", options);
}

function isRingList(
  p: ArrayLike<number> | readonly ArrayLike<number>[],
): p is readonly ArrayLike<number>[] {
  return p.length > 0 && typeof p[0] !== "number";
}

/** Fills an axis-aligned rectangle [x, x + w) × [y, y + h). */
export function fillRect(
  img: RgbaImage,
  x: number,
  y: number,
  w: number,
  h: number,
  colour: Rgba,
  options: FillOptions = {},
): void {
  fillPolygon(img, [x, y, x + w, y, x + w, y + h, x, y + h], colour, options);
}

/**
 * Fills a triangle with one colour, or with three per-vertex colours interpolated
 * (barycentric, evaluated at pixel centres).
 */
export function fillTriangle(
  img: RgbaImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  colour: Rgba | readonly [Rgba, Rgba, Rgba],
  options: DrawOptions = {},
): void {
  resetShape();
  pushPoint(x0, y0);
  pushPoint(x1, y1);
  pushPoint(x2, y2);
  endRing(false);
  if (typeof colour[0] === "number") {
    fillCurrentShape(img, colour as Rgba, "nonzero", options);
    return;
  }
  const [c0, c1, c2] = colour as readonly [Rgba, Rgba, Rgba];
  const clip = checkClip(img, options.clip);
  if (!scanShape(img.width, img.height, "nonzero", options.antialias === true)) return;
  const det = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2);
  if (det === 0) return;
  const d = img.data;
  const w = img.width;
  const bw = covX1 - covX0;
  for (let y = covY0; y < covY1; y++) {
    const row = (y - covY0) * bw;
    const py = y + 0.5;
    for (let x = covX0; x < covX1; x++) {
      let c = cov[row + x - covX0]!;
      if (c <= 0) continue;
      if (c > 1) c = 1;
      if (clip !== null) c *= clip[y * w + x]! / 255;
      const px = x + 0.5;
      // Barycentric weights at the pixel centre, clamped for AA fringe pixels outside.
      let l0 = ((y1 - y2) * (px - x2) + (x2 - x1) * (py - y2)) / det;
      let l1 = ((y2 - y0) * (px - x2) + (x0 - x2) * (py - y2)) / det;
      l0 = l0 < 0 ? 0 : Math.min(l0, 1);
      l1 = l1 < 0 ? 0 : Math.min(l1, 1 - l0);
      const l2 = 1 - l0 - l1;
      const a = (c0[3] * l0 + c1[3] * l1 + c2[3] * l2) / 255;
      blendAt(
        d,
        (y * w + x) * 4,
        Math.round(c0[0] * l0 + c1[0] * l1 + c2[0] * l2),
        Math.round(c0[1] * l0 + c1[1] * l1 + c2[1] * l2),
        Math.round(c0[2] * l0 + c1[2] * l1 + c2[2] * l2),
        a * c,
      );
    }
  }
}

/**
 * Fills a disc. Without anti-aliasing a pixel is covered iff its centre is strictly inside;
 * with it, coverage is the distance-based ramp clamp(r + 0.5 - d, 0, 1).
 */
export function fillCircle(
  img: RgbaImage,
  cx: number,
  cy: number,
  radius: number,
  colour: Rgba,
  options: DrawOptions = {},
): void {
  ringCoverage(img, cx, cy, -Infinity, radius, colour, options);
}

/** Draws a circle outline of the given line width centred on the radius. */
export function strokeCircle(
  img: RgbaImage,
  cx: number,
  cy: number,
  radius: number,
  width: number,
  colour: Rgba,
  options: DrawOptions = {},
): void {
  ringCoverage(img, cx, cy, radius - width / 2, radius + width / 2, colour, options);
}

function ringCoverage(
  img: RgbaImage,
  cx: number,
  cy: number,
  rIn: number,
  rOut: number,
  colour: Rgba,
  options: DrawOptions,
): void {
  if (!(rOut > 0) || colour[3] <= 0) return;
  const aa = options.antialias === true;
  const clip = checkClip(img, options.clip);
  const pad = aa ? 1 : 0;
  const x0 = Math.max(0, Math.floor(cx - rOut - pad));
  const x1 = Math.min(img.width, Math.ceil(cx + rOut + pad) + 1);
  const y0 = Math.max(0, Math.floor(cy - rOut - pad));
  const y1 = Math.min(img.height, Math.ceil(cy + rOut + pad) + 1);
  const d = img.data;
  const [r, g, b, a] = colour;
  const alpha = a / 255;
  const rOut2 = rOut * rOut;
  const rIn2 = rIn > 0 ? rIn * rIn : -1;
  for (let y = y0; y < y1; y++) {
    const dy = y + 0.5 - cy;
    for (let x = x0; x < x1; x++) {
      const dx = x + 0.5 - cx;
      const dist2 = dx * dx + dy * dy;
      let c: number;
      if (aa) {
        const dist = Math.sqrt(dist2);
        c = Math.min(rOut + 0.5 - dist, rIn > 0 ? dist - rIn + 0.5 : 1, 1);
        if (c <= 0) continue;
      } else {
        if (dist2 >= rOut2 || dist2 < rIn2) continue;
        c = 1;
      }
      if (clip !== null) c *= clip[y * img.width + x]! / 255;
      blendAt(d, (y * img.width + x) * 4, r, g, b, alpha * c);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Strokes: built as one shape (segment quads + round joins, all wound the same way) and filled
// nonzero, so overlaps blend once even with a translucent colour.

/** Max distance (px) between a true circle and the polygon standing in for it in strokes. */
const ARC_TOLERANCE = 0.05;

function pushDisc(cx: number, cy: number, r: number): void {
  const n = Math.min(
    256,
    Math.max(8, Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - ARC_TOLERANCE / r)))),
  );
  for (let i = 0; i < n; i++) {
    const t = (i / n) * 2 * Math.PI;
    pushPoint(cx + r * Math.cos(t), cy + r * Math.sin(t));
  }
  endRing(true);
}

/** Appends the quad of segment (ax, ay)–(bx, by) of half width hw, extended by `ext` at both ends. */
function pushSegmentQuad(ax: number, ay: number, bx: number, by: number, hw: number, ext: number) {
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy);
  if (len === 0) return;
  const ux = dx / len;
  const uy = dy / len;
  const nx = -uy * hw;
  const ny = ux * hw;
  const sx = ax - ux * ext;
  const sy = ay - uy * ext;
  const ex = bx + ux * ext;
  const ey = by + uy * ext;
  pushPoint(sx + nx, sy + ny);
  pushPoint(ex + nx, ey + ny);
  pushPoint(ex - nx, ey - ny);
  pushPoint(sx - nx, sy - ny);
  endRing(true);
}

/** Draws a line of the given width (pixels) from (x0, y0) to (x1, y1). */
export function drawLine(
  img: RgbaImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  width: number,
  colour: Rgba,
  options: StrokeOptions = {},
): void {
  drawPolyline(img, [x0, y0, x1, y1], width, colour, options);
}

/** Draws connected segments through x, y pairs with round joins. */
export function drawPolyline(
  img: RgbaImage,
  points: ArrayLike<number>,
  width: number,
  colour: Rgba,
  options: StrokeOptions = {},
): void {
  if (!(width > 0)) return;
  resetShape();
  const hw = width / 2;
  const cap = options.cap ?? "butt";
  const closed = options.closed === true;
  const n = Math.floor(points.length / 2);
  if (n === 0) return;
  const segs = closed ? n : n - 1;
  for (let i = 0; i < segs; i++) {
    const j = (i + 1) % n;
    const ax = points[i * 2]!;
    const ay = points[i * 2 + 1]!;
    const bx = points[j * 2]!;
    const by = points[j * 2 + 1]!;
    const first = !closed && i === 0;
    const last = !closed && i === segs - 1;
    if (cap === "square" && (first || last)) {
      // Extend only the open ends: split the extension by end.
      const dx = bx - ax;
      const dy = by - ay;
      const len = Math.hypot(dx, dy);
      if (len === 0) continue;
      const ux = (dx / len) * hw;
      const uy = (dy / len) * hw;
      pushSegmentQuad(
        first ? ax - ux : ax,
        first ? ay - uy : ay,
        last ? bx + ux : bx,
        last ? by + uy : by,
        hw,
        0,
      );
    } else {
      pushSegmentQuad(ax, ay, bx, by, hw, 0);
    }
  }
  for (let i = 0; i < n; i++) {
    const isEnd = !closed && (i === 0 || i === n - 1);
    if (isEnd ? cap === "round" : true) pushDisc(points[i * 2]!, points[i * 2 + 1]!, hw);
  }
  fillCurrentShape(img, colour, "nonzero", options);
}

/**
 * Draws many separate segments (x0, y0, x1, y1 quadruples) as one shape: where they meet or
 * overlap the colour is blended once.
 */
export function drawSegments(
  img: RgbaImage,
  segments: ArrayLike<number>,
  width: number,
  colour: Rgba,
  options: Omit<StrokeOptions, "closed"> = {},
): void {
  if (!(width > 0)) return;
  resetShape();
  const hw = width / 2;
  const cap = options.cap ?? "butt";
  const ext = cap === "square" ? hw : 0;
  for (let i = 0; i + 3 < segments.length; i += 4) {
    const ax = segments[i]!;
    const ay = segments[i + 1]!;
    const bx = segments[i + 2]!;
    const by = segments[i + 3]!;
    pushSegmentQuad(ax, ay, bx, by, hw, ext);
    if (cap === "round") {
      pushDisc(ax, ay, hw);
      pushDisc(bx, by, hw);
    }
  }
  fillCurrentShape(img, colour, "nonzero", options);
}

/**
 * Writes `value` into every cell of a per-pixel buffer (width × height, row-major) whose
 * pixel centre the polygon covers: the same pixels a non-anti-aliased fillPolygon colours.
 * Useful for id and height buffers (e.g. which shape is on top at each pixel).
 */
export function fillPolygonValue(
  target: Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array,
  width: number,
  height: number,
  points: ArrayLike<number> | readonly ArrayLike<number>[],
  value: number,
  rule: FillRule = "nonzero",
): void {
  if (target.length !== width * height) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `target has ${target.length} cells, expected ${width * height}`,
    );
  }
  resetShape();
  const rings = isRingList(points) ? points : [points];
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i += 2) pushPoint(ring[i]!, ring[i + 1]!);
    endRing(false);
  }
  if (!scanShape(width, height, rule, false)) return;
  const bw = covX1 - covX0;
  for (let y = covY0; y < covY1; y++) {
    const row = (y - covY0) * bw - covX0;
    for (let x = covX0; x < covX1; x++) if (cov[row + x]! > 0) target[y * width + x] = value;
  }
}
