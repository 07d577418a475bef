/**
 * The lesson's four pictures, drawn into the shared software rasterizer. The page puts these
 * pixels on its canvases (putImageData) and `meshway lesson --png` writes the same pixels,
 * so the two can be compared byte for byte.
 *
 * Layout: every section is LESSON_CANVAS (480 × 320) and shows the whole 24 × 16 scene at 20
 * pixels per world unit (10 per cell), +x right, +z down, no margin, one panel.
 */

import { MeshwayError } from "../errors.js";
import {
  drawLine,
  drawPolyline,
  drawSegments,
  fillCircle,
  fillPolygon,
  fillRect,
  type Rgba,
  type RgbaImage,
  setPixel,
  strokeCircle,
  WHITE,
} from "../render/raster.js";
import type { ShapeConvexity } from "./convex.js";
import type { Ring } from "./geometry.js";
import { digitsWidth, forEachDigitPixel } from "./glyphs.js";
import { insideDepth, labelSpot } from "./label-place.js";
import { LESSON_SCENE } from "./scene.js";
import type { LessonMethod } from "./settings.js";
import { CELL_BLOCKED, CELL_WALKABLE } from "./surface.js";
import { droppedBefore, funnelRecord, type PathStep, pathStepAt } from "./timeline.js";
import type { LessonResult } from "./types.js";

/** Size of every section's picture [pixels]. */
export const LESSON_CANVAS = Object.freeze({ width: 480, height: 320 });
/** Pixels per world unit (10 per 0.5 cell). */
export const LESSON_SCALE = 20;

export type LessonSection = 1 | 2 | 3 | 4;
type PathPhase = PathStep["phase"];

const OBSTACLE: Rgba = [52, 56, 64, 255];
const WALKABLE: Rgba = [214, 233, 248, 255];
// Removed cells: dark and hatched, ≥ 3:1 in luminance against walkable cells (a test checks).
const REMOVED: Rgba = [120, 106, 94, 255];
const REMOVED_HATCH: Rgba = [156, 142, 128, 255];
const DIFFER: Rgba = [200, 40, 120, 255];
const OUTLINE: Rgba = [40, 48, 60, 255];
const SHAPE_FILL: Rgba = [190, 220, 245, 255];
const CROSS_AGREES: Rgba = [20, 120, 60, 255];
const CROSS_FLIPS: Rgba = [200, 30, 30, 255];
const INSIDE: Rgba = [40, 150, 80, 200];
const LEAVES: Rgba = [220, 40, 40, 255];
const MIDPOINT: Rgba = [170, 65, 0, 255];
const DROPPED: Rgba = [50, 100, 190, 255];
const DROPPED_FAINT: Rgba = [50, 100, 190, 120];
const FUNNEL: Rgba = [10, 15, 60, 255];
const EXACT: Rgba = [188, 0, 152, 255];
const PORTAL: Rgba = [0, 120, 110, 255];
const FUNNEL_LEFT: Rgba = [0, 140, 70, 255];
const FUNNEL_RIGHT: Rgba = [200, 30, 30, 255];
const SHORTCUT_OK: Rgba = [0, 140, 70, 255];
const SHORTCUT_BLOCKED: Rgba = [200, 30, 30, 255];
const ID_BOX: Rgba = [255, 255, 255, 230];
const ID_TEXT: Rgba = [20, 24, 32, 255];
/** A leader line from a label beside a too-thin polygon to its pole (not ID_TEXT: tests count those pixels). */
const ID_LEADER: Rgba = [70, 76, 90, 255];
const SEQUENCE_OUTLINE: Rgba = [20, 28, 44, 255];
const START: Rgba = [30, 160, 60, 255];
const GOAL: Rgba = [210, 40, 40, 255];
const POINT_CONTACT: Rgba = [220, 40, 40, 255];
const HANDLE: Rgba = [30, 60, 160, 255];
const DIAGONAL: Rgba = [90, 96, 110, 255];

/** Light fills for polygons; neighbours rarely share one with 8 hues over a small scene. */
const PALETTE: readonly Rgba[] = [
  [158, 202, 238, 255],
  [250, 196, 140, 255],
  [168, 218, 168, 255],
  [240, 168, 170, 255],
  [190, 222, 218, 255],
  [245, 226, 150, 255],
  [214, 186, 208, 255],
  [205, 210, 150, 255],
];

const S = LESSON_SCALE;

/** The colours the encoding rules are about (test/unit/lesson-encoding.test.ts measures them). */
export const LESSON_COLOURS = Object.freeze({
  walkable: WALKABLE,
  removed: REMOVED,
  removedHatch: REMOVED_HATCH,
  obstacle: OBSTACLE,
  palette: PALETTE,
  sequenceOutline: SEQUENCE_OUTLINE,
  idText: ID_TEXT,
  paths: { midpoint: MIDPOINT, dropped: DROPPED, funnel: FUNNEL, exact: EXACT },
});

/** One entry of a picture's legend: a lesson message key and the colour it is drawn in. */
export interface LessonLegendEntry {
  /** Message key in the lesson's MESSAGES (src/lesson/i18n.ts). */
  key: string;
  /** Drawn as a filled area (cells, polygons), a line, or a dot. */
  kind: "area" | "line" | "dot" | "square";
  colour: Rgba;
  /** Lines drawn dashed in the picture. */
  dashed?: boolean;
  /** Section 4: the steps (src/lesson/timeline.ts) that draw it; absent: every step. */
  phases?: readonly PathPhase[];
}

/**
 * What each section's picture draws, with the exact colours used below, so a page or a
 * report can print a legend that cannot drift from the pixels.
 */
export const LESSON_LEGEND: Readonly<Record<LessonSection, readonly LessonLegendEntry[]>> =
  Object.freeze({
    1: [
      { key: "legend.shape", kind: "area", colour: SHAPE_FILL },
      { key: "legend.segmentInside", kind: "line", colour: INSIDE },
      { key: "legend.segmentLeaves", kind: "line", colour: LEAVES },
      { key: "legend.crossAgrees", kind: "dot", colour: CROSS_AGREES },
      { key: "legend.crossFlips", kind: "square", colour: CROSS_FLIPS },
      { key: "legend.cornerHandle", kind: "dot", colour: HANDLE },
      { key: "legend.diagonal", kind: "line", colour: DIAGONAL, dashed: true },
    ],
    2: [
      { key: "legend.walkable", kind: "area", colour: WALKABLE },
      { key: "legend.removed", kind: "area", colour: REMOVED },
      { key: "legend.obstacle", kind: "area", colour: OBSTACLE },
      { key: "legend.differ", kind: "area", colour: DIFFER },
      { key: "legend.start", kind: "dot", colour: START },
      { key: "legend.goal", kind: "dot", colour: GOAL },
    ],
    3: [
      { key: "legend.polygon", kind: "area", colour: PALETTE[0]! },
      { key: "legend.removed", kind: "area", colour: REMOVED },
      { key: "legend.obstacle", kind: "area", colour: OBSTACLE },
      { key: "legend.pointContact", kind: "dot", colour: POINT_CONTACT },
    ],
    4: [
      { key: "legend.sequence", kind: "area", colour: PALETTE[2]! },
      {
        key: "legend.midpoint",
        kind: "line",
        colour: MIDPOINT,
        dashed: true,
        phases: ["midpoint", "drop", "done"],
      },
      { key: "legend.dropped", kind: "line", colour: DROPPED, phases: ["drop", "done"] },
      { key: "legend.funnel", kind: "line", colour: FUNNEL, phases: ["funnel", "done"] },
      { key: "legend.exact", kind: "line", colour: EXACT, dashed: true, phases: ["done"] },
      { key: "legend.portal", kind: "line", colour: PORTAL, dashed: true, phases: ["funnel"] },
      { key: "legend.funnelLeft", kind: "line", colour: FUNNEL_LEFT, phases: ["funnel"] },
      {
        key: "legend.funnelRight",
        kind: "line",
        colour: FUNNEL_RIGHT,
        dashed: true,
        phases: ["funnel"],
      },
      { key: "legend.shortcut", kind: "line", colour: SHORTCUT_OK, dashed: true, phases: ["drop"] },
      {
        key: "legend.shortcutBlocked",
        kind: "line",
        colour: SHORTCUT_BLOCKED,
        dashed: true,
        phases: ["drop"],
      },
      { key: "legend.start", kind: "dot", colour: START },
      { key: "legend.goal", kind: "dot", colour: GOAL },
    ],
  });

/**
 * The legend of what `result`'s picture of `section` draws now: section 4's entries for the
 * step shown (a drop test draws its shortcut in one of two colours: only that one is listed).
 */
export function lessonLegend(result: LessonResult, section: LessonSection): LessonLegendEntry[] {
  const entries = LESSON_LEGEND[section];
  if (section === 1) {
    const flips = cornerSigns(result.convex.shown.ring).count > 0;
    const L = result.settings.shape === "L";
    return entries.filter(
      (e) =>
        (e.key !== "legend.crossFlips" || flips) &&
        ((e.key !== "legend.cornerHandle" && e.key !== "legend.diagonal") || L),
    );
  }
  if (section === 2 && result.settings.method !== "meshway")
    return entries.filter((e) => e.key !== "legend.differ");
  if (section !== 4) return entries.slice();
  const at = pathStepAt(
    result.path,
    result.settings.view === "midpoint" ? 0 : result.settings.step,
  );
  return entries.filter((e) => {
    if (e.phases && !e.phases.includes(at.phase)) return false;
    if (
      at.phase === "drop" &&
      (e.key === "legend.shortcut" || e.key === "legend.shortcutBlocked")
    ) {
      const ok = result.path.drops.dropped[at.index] === 1;
      return ok === (e.key === "legend.shortcut");
    }
    if (
      at.phase === "funnel" &&
      (e.key === "legend.funnelLeft" || e.key === "legend.funnelRight")
    ) {
      // Right after a bend both edges sit on the new apex: nothing to show yet.
      const rec = funnelRecord(result.path, at.index);
      const end = e.key === "legend.funnelLeft" ? rec.left : rec.right;
      return end[0] !== rec.apex[0] || end[1] !== rec.apex[1];
    }
    return true;
  });
}

/**
 * Section 1 is drawn larger than the scene's 20 px per unit: the 10 × 10 test shapes fill the
 * picture's height, centred on the shapes' centre (12, 8).
 */
export const LESSON_SHAPE_VIEW = Object.freeze({ scale: 28, centreX: 12, centreZ: 8 });

/** A world point → section `section`'s picture pixels. */
export function lessonWorldToPixel(section: LessonSection, x: number, z: number): [number, number] {
  if (section !== 1) return [x * S, z * S];
  const v = LESSON_SHAPE_VIEW;
  return [
    (x - v.centreX) * v.scale + LESSON_CANVAS.width / 2,
    (z - v.centreZ) * v.scale + LESSON_CANVAS.height / 2,
  ];
}

/**
 * A pixel of a section's picture → the world XZ point under its centre, with the panel it
 * belongs to (always null: each section has one panel). Null outside the picture.
 */
export function lessonPixelToWorld(
  section: LessonSection,
  px: number,
  py: number,
): { x: number; z: number; panel: LessonMethod | null } | null {
  if (!(px >= 0 && py >= 0 && px < LESSON_CANVAS.width && py < LESSON_CANVAS.height)) return null;
  if (section !== 1) return { x: px / S, z: py / S, panel: null };
  const v = LESSON_SHAPE_VIEW;
  return {
    x: (px - LESSON_CANVAS.width / 2) / v.scale + v.centreX,
    z: (py - LESSON_CANVAS.height / 2) / v.scale + v.centreZ,
    panel: null,
  };
}

/** A ring or segment list in section 1's pixels. */
function shapePixels(pts: ArrayLike<number>): Float64Array {
  const out = new Float64Array(pts.length);
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const [x, y] = lessonWorldToPixel(1, pts[i]!, pts[i + 1]!);
    out[i] = x;
    out[i + 1] = y;
  }
  return out;
}

function ringPixels(ring: Ring): Float64Array {
  const out = new Float64Array(ring.length);
  for (let i = 0; i < ring.length; i++) out[i] = ring[i]! * S;
  return out;
}

function drawObstacles(img: RgbaImage): void {
  for (const o of LESSON_SCENE.obstacles) {
    fillRect(img, o.x0 * S, o.z0 * S, (o.x1 - o.x0) * S, (o.z1 - o.z0) * S, OBSTACLE);
  }
}

/** `colour` as one 32-bit word in the platform's byte order (a pixel of RGBA bytes). */
function packed(colour: Rgba): number {
  return new Uint32Array(Uint8Array.from(colour).buffer)[0]!;
}

/** The image's pixels as 32-bit words, for whole-pixel writes (same bytes as setPixel). */
function words(img: RgbaImage): Uint32Array {
  const d = img.data;
  return new Uint32Array(d.buffer, d.byteOffset, d.byteLength >> 2);
}

/**
 * Cells by state as opaque 9 × 9 squares on their 10 × 10 pixel cell, leaving a 1-pixel white
 * gap so the voxels read as voxels. Written as whole pixels (one 32-bit word each): 1536 scan
 * conversions through fillRect, or 120 000 setPixel calls, would cost most of a frame while
 * the slider moves.
 */
function drawCells(img: RgbaImage, state: Uint8Array): void {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const c = cellSize * S;
  const px = words(img);
  const w = img.width;
  const walkable = packed(WALKABLE);
  const removed = packed(REMOVED);
  const hatch = packed(REMOVED_HATCH);
  for (let j = 0; j < rows; j++) {
    for (let y = j * c; y < j * c + c - 1 && y < img.height; y++) {
      for (let i = 0; i < cols; i++) {
        const s = state[i + j * cols]!;
        if (s === CELL_BLOCKED) continue;
        const row = y * w;
        const x1 = Math.min(i * c + c - 1, w);
        if (s === CELL_WALKABLE) px.fill(walkable, row + i * c, row + x1);
        // Removed cells carry a diagonal hatch, so they read as removed without colour too.
        else for (let x = i * c; x < x1; x++) px[row + x] = (x + y) % 4 === 0 ? hatch : removed;
      }
    }
  }
}

/**
 * Cells and obstacles of one method's surface (the first layers of sections 2–4), drawn once
 * per cell-state array and copied after: a few recent ones are kept, keyed by the array itself
 * (run.ts keeps one per radius and method, so the key is stable while the result lives).
 */
const baseLayers: { state: Uint8Array; pixels: Uint8ClampedArray }[] = [];
const BASE_LAYERS_KEPT = 6;

function drawCellsAndObstacles(img: RgbaImage, state: Uint8Array): void {
  const hit = baseLayers.findIndex((l) => l.state === state);
  if (hit >= 0) {
    const layer = baseLayers[hit]!;
    baseLayers.splice(hit, 1);
    baseLayers.unshift(layer);
    img.data.set(layer.pixels);
    return;
  }
  drawCells(img, state);
  drawObstacles(img);
  baseLayers.unshift({ state, pixels: img.data.slice() });
  if (baseLayers.length > BASE_LAYERS_KEPT) baseLayers.pop();
}

function dot(img: RgbaImage, x: number, z: number, r: number, colour: Rgba): void {
  fillCircle(img, x * S, z * S, r + 1.5, WHITE, { antialias: true });
  fillCircle(img, x * S, z * S, r, colour, { antialias: true });
}

function drawStartGoal(img: RgbaImage, result: LessonResult): void {
  const { start, goal } = result.settings;
  dot(img, start[0], start[1], 5, START);
  dot(img, goal[0], goal[1], 5, GOAL);
}

/**
 * Section 1: the chosen shape and 60 of its sampled segments, the leaving ones in red, each
 * corner's cross-product sign, and for the L its draggable inner corner and the diagonal it
 * must cross to make the shape convex.
 */
function drawConvex(img: RgbaImage, shape: ShapeConvexity): void {
  const ring = shapePixels(shape.ring);
  fillPolygon(img, ring, SHAPE_FILL);
  const isL = shape.shape === "L";
  if (isL) {
    const [ax, ay] = lessonWorldToPixel(1, 12, 3);
    const [bx, by] = lessonWorldToPixel(1, 17, 8);
    drawSegments(img, dashes([ax, ay, bx, by], 6, 5), 1.5, DIAGONAL, { antialias: true });
  }
  const inside: number[] = [];
  const leaving: number[] = [];
  const d = shapePixels(shape.drawn);
  for (let k = 0; k < shape.drawnLeaves.length; k++) {
    const seg = [d[k * 4]!, d[k * 4 + 1]!, d[k * 4 + 2]!, d[k * 4 + 3]!];
    (shape.drawnLeaves[k] ? leaving : inside).push(...seg);
  }
  drawSegments(img, inside, 1.2, INSIDE, { antialias: true });
  drawSegments(img, leaving, 2, LEAVES, { antialias: true });
  drawPolyline(img, ring, 2.5, OUTLINE, { antialias: true, closed: true });
  // Criterion ① drawn: each corner's cross product, its sign printed beside it; a green dot
  // where the sign agrees with most corners, a red square where it flips (the L's inner
  // corner while it is reflex) — told apart by shape and sign, not by hue alone.
  const signs = cornerSigns(shape.ring);
  const n = shape.ring.length >> 1;
  for (let i = 0; i < n; i++) {
    const x = ring[i * 2]!;
    const y = ring[i * 2 + 1]!;
    if (signs.flips[i]) {
      fillRect(img, Math.round(x) - 8, Math.round(y) - 8, 16, 16, WHITE);
      fillRect(img, Math.round(x) - 6, Math.round(y) - 6, 12, 12, CROSS_FLIPS);
    } else {
      fillCircle(img, x, y, 8, WHITE, { antialias: true });
      fillCircle(img, x, y, 6, CROSS_AGREES, { antialias: true });
    }
    if (signs.sign[i] === 0) continue;
    // Outside the shape: away from the corner's two edges at a convex corner, between them
    // (into the notch) at a reflex one.
    const a = ((i + n - 1) % n) * 2;
    const c = ((i + 1) % n) * 2;
    const ux = ring[a]! - x;
    const uy = ring[a + 1]! - y;
    const wx = ring[c]! - x;
    const wy = ring[c + 1]! - y;
    const lu = Math.hypot(ux, uy) || 1;
    const lw = Math.hypot(wx, wy) || 1;
    const out = signs.flips[i] ? 1 : -1;
    drawCornerSign(
      img,
      x,
      y,
      out * (ux / lu + wx / lw),
      out * (uy / lu + wy / lw),
      signs.sign[i]! > 0 ? "+" : "-",
    );
  }
  if (isL) {
    // The handle: a ring around the inner corner (ring index 2), wide enough for a finger.
    strokeCircle(img, ring[4]!, ring[5]!, 13, 3, HANDLE, { antialias: true });
  }
}

/**
 * The sign glyph of a corner's cross product in a white box, 22 pixels from the corner (x, y)
 * along (dx, dy), kept on the canvas.
 */
function drawCornerSign(
  img: RgbaImage,
  x: number,
  y: number,
  dx: number,
  dy: number,
  sign: "+" | "-",
): void {
  const len = Math.hypot(dx, dy) || 1;
  const scale = 3;
  const w = digitsWidth(sign, scale);
  const h = 5 * scale;
  const bx = Math.round(x + (dx / len) * 22 - w / 2);
  const by = Math.round(y + (dy / len) * 22 - h / 2);
  const x0 = Math.min(Math.max(bx, 3), img.width - w - 3);
  const y0 = Math.min(Math.max(by, 3), img.height - h - 3);
  fillRect(img, x0 - 3, y0 - 3, w + 6, h + 6, ID_BOX);
  forEachDigitPixel(sign, x0, y0, scale, (px, py) => setPixel(img, px, py, ID_TEXT));
}

/**
 * Per corner of `ring`: the sign of the cross product of its two edges (−1, 0, 1), and 1 in
 * `flips` where that sign is the minority one.
 */
function cornerSigns(ring: Ring): { sign: Int8Array; flips: Uint8Array; count: number } {
  const n = ring.length >> 1;
  const sign = new Int8Array(n);
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < n; i++) {
    const a = ((i + n - 1) % n) * 2;
    const b = i * 2;
    const c = ((i + 1) % n) * 2;
    const cross =
      (ring[b]! - ring[a]!) * (ring[c + 1]! - ring[b + 1]!) -
      (ring[b + 1]! - ring[a + 1]!) * (ring[c]! - ring[b]!);
    sign[i] = cross > 1e-12 ? 1 : cross < -1e-12 ? -1 : 0;
    if (sign[i]! > 0) positive++;
    else if (sign[i]! < 0) negative++;
  }
  const minority = positive >= negative ? -1 : 1;
  const flips = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (sign[i] === minority) {
      flips[i] = 1;
      count++;
    }
  }
  return { sign, flips, count };
}

/**
 * Section 2: cells of the chosen method (walkable, removed by the radius); in meshway's view
 * the cells where it disagrees with the toy are marked (the toy's own view stays the toy's).
 */
function drawSurface(img: RgbaImage, result: LessonResult): void {
  const m = result.settings.method;
  drawCellsAndObstacles(img, result.surface[m].state);
  if (m === "meshway") markDifferingCells(img, result);
  drawStartGoal(img, result);
}

function markDifferingCells(img: RgbaImage, result: LessonResult): void {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const c = cellSize * S;
  const differ = result.surface.differ;
  const px = words(img);
  const mark = packed(DIFFER);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      if (!differ[i + j * cols]) continue;
      for (let y = j * c + 3; y < j * c + c - 3; y++)
        px.fill(mark, y * img.width + i * c + 3, y * img.width + i * c + c - 3);
    }
  }
}

/** The chosen method's polygons, filled and outlined; `strong` polygons drawn opaque. */
function drawPolygons(
  img: RgbaImage,
  result: LessonResult,
  alpha: number,
  strong: ReadonlySet<number> | null,
): void {
  const part = result.partition.current;
  const rings = part.polygons.map(ringPixels);
  for (let p = 0; p < rings.length; p++) {
    const base = PALETTE[p % PALETTE.length]!;
    const a = strong === null || strong.has(p) ? alpha : Math.round(alpha * 0.35);
    fillPolygon(img, rings[p]!, [base[0], base[1], base[2], a]);
  }
  // All outlines as one shape: shared edges are blended once, and one scan conversion is cheap.
  const edges: number[] = [];
  for (const r of rings) {
    const n = r.length >> 1;
    for (let k = 0, m = n - 1; k < n; m = k++)
      edges.push(r[m * 2]!, r[m * 2 + 1]!, r[k * 2]!, r[k * 2 + 1]!);
  }
  drawSegments(img, edges, 1.2, OUTLINE, { antialias: true, cap: "round" });
  if (strong === null) return;
  // The highlighted polygons: a dark outline, ≥ 3:1 against the faded ones around them.
  const bold: number[] = [];
  for (const p of strong) {
    const r = rings[p];
    if (!r) continue;
    const n = r.length >> 1;
    for (let k = 0, m = n - 1; k < n; m = k++)
      bold.push(r[m * 2]!, r[m * 2 + 1]!, r[k * 2]!, r[k * 2 + 1]!);
  }
  drawSegments(img, bold, 2.5, SEQUENCE_OUTLINE, { antialias: true, cap: "round" });
}

/**
 * Section 4's first layers (cells, obstacles, the polygons with the sequence highlighted):
 * the same for every step of one path, so kept for the few most recent paths.
 */
const sequenceLayers: {
  state: Uint8Array;
  polygons: readonly Ring[];
  sequence: readonly number[];
  pixels: Uint8ClampedArray;
}[] = [];

function drawSequenceLayer(img: RgbaImage, result: LessonResult): void {
  const state = result.surface[result.settings.method].state;
  const polygons = result.partition.current.polygons;
  const sequence = result.path.polygons;
  const hit = sequenceLayers.findIndex(
    (l) =>
      l.state === state &&
      l.polygons === polygons &&
      l.sequence.length === sequence.length &&
      l.sequence.every((p, i) => p === sequence[i]),
  );
  if (hit >= 0) {
    const layer = sequenceLayers[hit]!;
    sequenceLayers.splice(hit, 1);
    sequenceLayers.unshift(layer);
    img.data.set(layer.pixels);
    return;
  }
  drawCellsAndObstacles(img, state);
  drawPolygons(img, result, 210, new Set(sequence));
  sequenceLayers.unshift({ state, polygons, sequence: sequence.slice(), pixels: img.data.slice() });
  if (sequenceLayers.length > BASE_LAYERS_KEPT) sequenceLayers.pop();
}

/**
 * Section 3: the method's cells underneath, its partition on top, single-point contacts marked,
 * every polygon's id on top (the ids table ④ and section ④'s picture use).
 */
function drawPartition(img: RgbaImage, result: LessonResult): void {
  drawCellsAndObstacles(img, result.surface[result.settings.method].state);
  drawPolygons(img, result, 200, null);
  const pts = result.partition.current.adjacency.points;
  for (let k = 0; k < pts.length; k += 2) {
    fillCircle(img, pts[k]! * S, pts[k + 1]! * S, 3, POINT_CONTACT, { antialias: true });
  }
  drawPolygonIds(
    img,
    result,
    result.partition.current.polygons.map((_, p) => p),
  );
}

/** Splits a polyline into dash segments (x0, y0, x1, y1 quadruples): `on` pixels drawn, `off` skipped. */
function dashes(pts: ArrayLike<number>, on: number, off: number): number[] {
  const out: number[] = [];
  let phase = 0; // distance into the current on+off period
  for (let i = 2; i + 1 < pts.length; i += 2) {
    const ax = pts[i - 2]!;
    const ay = pts[i - 1]!;
    const dx = pts[i]! - ax;
    const dy = pts[i + 1]! - ay;
    const len = Math.hypot(dx, dy);
    let t = 0;
    while (t < len) {
      const inOn = phase < on;
      const left = inOn ? on - phase : on + off - phase;
      const step = Math.min(left, len - t);
      if (inOn) {
        out.push(ax + (dx * t) / len, ay + (dy * t) / len);
        out.push(ax + (dx * (t + step)) / len, ay + (dy * (t + step)) / len);
      }
      t += step;
      phase = (phase + step) % (on + off);
    }
  }
  return out;
}

const scaled = (pts: ArrayLike<number>): Float64Array => {
  const out = new Float64Array(pts.length);
  for (let i = 0; i < pts.length; i++) out[i] = pts[i]! * S;
  return out;
};

/** Where one polygon id is drawn (see placePolygonIds). */
export interface IdPlacement {
  id: number;
  /** Top left of the digits [pixels] and their scale (2, or 1 where 2 does not fit). */
  x0: number;
  y0: number;
  scale: number;
  /** The white box behind the digits [pixels]. */
  box: { x: number; y: number; w: number; h: number };
  /** Set when even scale 1 does not fit: the pole the leader line runs to [pixels]. */
  leaderTo: { x: number; y: number } | null;
}

/**
 * Where the polygon ids `ids` go (sections 3 and 4): at the vertex centroid when the box
 * fits inside the polygon there, else at the pole of inaccessibility (the deepest point,
 * src/lesson/label-place.ts), else half size there; a polygon too thin even for that gets a
 * small label beside it with a leader line to its pole.
 */
export function placePolygonIds(result: LessonResult, ids: readonly number[]): IdPlacement[] {
  const polys = result.partition.current.polygons;
  const out: IdPlacement[] = [];
  for (const p of ids) {
    const ring = polys[p];
    if (!ring) continue;
    const label = String(p);
    const n = ring.length >> 1;
    let cx = 0;
    let cz = 0;
    for (let k = 0; k < n; k++) {
      cx += ring[k * 2]!;
      cz += ring[k * 2 + 1]!;
    }
    const centroid = { x: (cx / n) * S, y: (cz / n) * S };
    const pole = labelSpot(ring);
    const at = { x: pole.x * S, y: pole.z * S };
    const fit = fitId(ring, p, centroid, 2) ?? fitId(ring, p, at, 2) ?? fitId(ring, p, at, 1);
    if (fit) {
      out.push(fit);
      continue;
    }
    // Beside the polygon, up and to the right (inside the picture), joined to its pole.
    const w = digitsWidth(label, 1);
    const x0 = Math.min(LESSON_CANVAS.width - w - 2, Math.max(1, Math.round(at.x + 6)));
    const y0 = Math.min(LESSON_CANVAS.height - 7, Math.max(1, Math.round(at.y - 12)));
    out.push({ id: p, x0, y0, scale: 1, box: idBox(label, x0, y0, 1), leaderTo: at });
  }
  return out;
}

/** Polygon ids `ids`, dark digits on a white box, where placePolygonIds puts them. */
function drawPolygonIds(img: RgbaImage, result: LessonResult, ids: readonly number[]): void {
  for (const l of placePolygonIds(result, ids)) {
    if (l.leaderTo) {
      const { x, y } = l.leaderTo;
      drawLine(img, x, y, l.box.x, l.box.y + l.box.h, 1, ID_LEADER, { antialias: true });
      fillCircle(img, x, y, 1.5, ID_LEADER, { antialias: true });
    }
    fillRect(img, l.box.x, l.box.y, l.box.w, l.box.h, ID_BOX);
    forEachDigitPixel(String(l.id), l.x0, l.y0, l.scale, (x, y) => setPixel(img, x, y, ID_TEXT));
  }
}

/** The id box's pixel rectangle for `label` at `scale` with its digits' top left at (x0, y0). */
function idBox(label: string, x0: number, y0: number, scale: number) {
  // Scale 2 keeps the pictures' original box (2 pixels around, 14 high); scale 1 has 1 around.
  const pad = scale;
  return {
    x: x0 - pad,
    y: y0 - pad,
    w: digitsWidth(label, scale) + 2 * pad,
    h: 5 * scale + 2 * pad,
  };
}

/** The id of polygon `id` centred on `at` (pixels) when its whole box lies inside `ring`. */
function fitId(
  ring: Ring,
  id: number,
  at: { x: number; y: number },
  scale: number,
): IdPlacement | null {
  const label = String(id);
  const w = digitsWidth(label, scale);
  const x0 = Math.round(at.x - w / 2);
  const y0 = Math.round(at.y - (scale === 2 ? 5 : 2.5));
  const box = idBox(label, x0, y0, scale);
  for (const [x, y] of [
    [box.x, box.y],
    [box.x + box.w, box.y],
    [box.x, box.y + box.h],
    [box.x + box.w, box.y + box.h],
  ] as const) {
    if (insideDepth(ring, x / S, y / S) < 0) return null;
  }
  return { id, x0, y0, scale, box, leaderTo: null };
}

function portalSegments(portals: Float64Array, upTo: number): Float64Array {
  return scaled(portals.subarray(0, Math.min(portals.length, upTo * 4)));
}

/** The final path with every other line for comparison, drawn widest first so none hides another. */
function drawFinalPaths(img: RgbaImage, result: LessonResult): void {
  const path = result.path;
  const aa = { antialias: true, cap: "round" as const };
  const mid = scaled(path.midpoint.points);
  const dropped = scaled(path.dropped.points);
  // Point-dropping: a wide pale band (white casing) that stays visible around the lines on it.
  drawPolyline(img, dropped, 14, WHITE, aa);
  drawPolyline(img, dropped, 12, DROPPED, aa);
  if (path.funnel) {
    // Wider than the exact path's casing, so it shows on both sides where they coincide.
    const f = scaled(path.funnel.points);
    drawPolyline(img, f, 7, FUNNEL, aa);
    for (let i = 0; i < f.length; i += 2)
      fillCircle(img, f[i]!, f[i + 1]!, 4, FUNNEL, { antialias: true });
  }
  // Midpoints: dashed over the funnel, so whatever lies under them shows between the dashes.
  const midDashes = dashes(mid, 8, 4);
  drawSegments(img, midDashes, 5, WHITE, { antialias: true });
  drawSegments(img, midDashes, 3, MIDPOINT, { antialias: true });
  for (let i = 0; i < mid.length; i += 2)
    fillCircle(img, mid[i]!, mid[i + 1]!, 3, MIDPOINT, { antialias: true });
  if (path.exact) {
    // On top, thin and dashed: where it coincides with the funnel, the funnel shows through.
    const ex = scaled(path.exact.points);
    const exDashes = dashes(ex, 5, 5);
    drawSegments(img, exDashes, 4.5, WHITE, { antialias: true });
    drawSegments(img, exDashes, 2.5, EXACT, { antialias: true });
    for (let i = 0; i < ex.length; i += 2)
      fillCircle(img, ex[i]!, ex[i + 1]!, 2, EXACT, { antialias: true });
  }
}

/** Step 0: the polyline through the portals' midpoints, with the portals themselves. */
function drawMidpointStep(img: RgbaImage, result: LessonResult): void {
  const path = result.path;
  const mid = scaled(path.midpoint.points);
  const aa = { antialias: true, cap: "round" as const };
  drawPolyline(img, mid, 5, WHITE, aa);
  drawPolyline(img, mid, 3, MIDPOINT, aa);
  for (let i = 0; i < mid.length; i += 2)
    fillCircle(img, mid[i]!, mid[i + 1]!, 3.5, MIDPOINT, { antialias: true });
}

/** A drop test: the polyline so far, the tested point and its shortcut (kept or dropped). */
function drawDropStep(img: RgbaImage, result: LessonResult, index: number): void {
  const path = result.path;
  const aa = { antialias: true, cap: "round" as const };
  const now = scaled(droppedBefore(path, index));
  drawPolyline(img, now, 9, WHITE, aa);
  drawPolyline(img, now, 7, DROPPED, aa);
  // The midpoints on top, dashed: the band shows what is left of them so far.
  drawSegments(img, dashes(scaled(path.midpoint.points), 7, 5), 2.5, MIDPOINT, { antialias: true });
  const d = path.drops;
  const m = path.midpoint.points;
  const a = d.prev[index]!;
  const b = d.next[index]!;
  const t = d.tested[index]!;
  const ok = d.dropped[index] === 1;
  const colour = ok ? SHORTCUT_OK : SHORTCUT_BLOCKED;
  const cut = [m[a * 2]! * S, m[a * 2 + 1]! * S, m[b * 2]! * S, m[b * 2 + 1]! * S];
  drawSegments(img, dashes(cut, 6, 4), 3, colour, { antialias: true });
  strokeCircle(img, m[t * 2]! * S, m[t * 2 + 1]! * S, 7, 2.5, colour, { antialias: true });
}

/** A funnel step: the path fixed so far, the apex and the funnel's left and right edges. */
function drawFunnelStep(img: RgbaImage, result: LessonResult, index: number): void {
  const path = result.path;
  const aa = { antialias: true, cap: "round" as const };
  // The stalled point-dropping result stays faintly in view for comparison.
  drawPolyline(img, scaled(path.dropped.points), 3, DROPPED_FAINT, aa);
  const rec = funnelRecord(path, index);
  // Portals dashed: they differ from the funnel's edges by more than hue.
  const portals = portalSegments(path.portals, rec.portal + 1);
  const portalDashes: number[] = [];
  for (let i = 0; i + 3 < portals.length; i += 4)
    portalDashes.push(...dashes(portals.subarray(i, i + 4), 5, 4));
  drawSegments(img, portalDashes, 2.5, PORTAL, aa);
  const fixed = scaled(path.funnelRun.bends.subarray(0, rec.fixed * 2));
  const soFar = new Float64Array(fixed.length + 2);
  soFar.set(fixed);
  soFar.set([rec.apex[0] * S, rec.apex[1] * S], fixed.length);
  drawPolyline(img, soFar, 5, FUNNEL, aa);
  const [ax, az] = rec.apex;
  drawLine(img, ax * S, az * S, rec.left[0] * S, rec.left[1] * S, 3, FUNNEL_LEFT, aa);
  drawSegments(
    img,
    dashes([ax * S, az * S, rec.right[0] * S, rec.right[1] * S], 6, 3),
    3,
    FUNNEL_RIGHT,
    { antialias: true },
  );
  fillCircle(img, rec.left[0] * S, rec.left[1] * S, 4, FUNNEL_LEFT, { antialias: true });
  fillCircle(img, rec.right[0] * S, rec.right[1] * S, 4, FUNNEL_RIGHT, { antialias: true });
  // The apex as a ring, so the start (or a bend) under it stays visible.
  strokeCircle(img, ax * S, az * S, 8, 3, FUNNEL, { antialias: true });
}

/**
 * Section 4 at the settings' step (src/lesson/timeline.ts): the polygon sequence highlighted
 * with its ids, then the midpoints, a point-dropping test, a funnel step, or at the last step
 * the final path with the midpoints, point-dropping and the exact path all visible.
 */
function drawPath(img: RgbaImage, result: LessonResult): void {
  const path = result.path;
  drawSequenceLayer(img, result);
  const at = pathStepAt(path, result.settings.view === "midpoint" ? 0 : result.settings.step);
  if (path.midpoint.count > 0) {
    if (at.phase === "midpoint") drawMidpointStep(img, result);
    else if (at.phase === "drop") drawDropStep(img, result, at.index);
    else if (at.phase === "funnel") {
      // The apex starts on the start point: the funnel is drawn over the dots, not under.
      drawStartGoal(img, result);
      drawFunnelStep(img, result, at.index);
      dot(img, result.settings.goal[0], result.settings.goal[1], 5, GOAL);
      drawPolygonIds(img, result, path.polygons);
      return;
    } else drawFinalPaths(img, result);
  }
  // The ids on top: the numbers table ④ lists must never hide under a path.
  drawPolygonIds(img, result, path.polygons);
  drawStartGoal(img, result);
}

/**
 * Draws section 1..4 of the lesson for `result`'s settings into `out` (cleared to white) or
 * a new LESSON_CANVAS-sized image. Deterministic: the same result gives the same pixels.
 */
export function renderLessonSection(
  result: LessonResult,
  section: LessonSection,
  out?: RgbaImage,
): RgbaImage {
  const { width, height } = LESSON_CANVAS;
  let img: RgbaImage;
  if (out) {
    if (out.width !== width || out.height !== height) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `renderLessonSection: out must be ${width}×${height}, got ${out.width}×${out.height}`,
      );
    }
    out.data.fill(255);
    img = out;
  } else {
    // All-white is every byte 255: one native fill, not a per-pixel loop (cold on a first draw).
    img = { width, height, data: new Uint8ClampedArray(width * height * 4).fill(255) };
  }
  if (section === 1) drawConvex(img, result.convex.shown);
  else if (section === 2) drawSurface(img, result);
  else if (section === 3) drawPartition(img, result);
  else if (section === 4) drawPath(img, result);
  else
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `renderLessonSection: section must be 1, 2, 3 or 4, got ${String(section)}`,
    );
  return img;
}
