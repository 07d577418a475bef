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
  createImage,
  drawPolyline,
  drawSegments,
  fillCircle,
  fillPolygon,
  fillRect,
  type Rgba,
  type RgbaImage,
  setPixel,
  WHITE,
} from "../render/raster.js";
import type { Ring } from "./geometry.js";
import { LESSON_SCENE } from "./scene.js";
import type { LessonMethod } from "./settings.js";
import { CELL_BLOCKED, CELL_WALKABLE } from "./surface.js";
import type { LessonResult } from "./types.js";

/** Size of every section's picture [pixels]. */
export const LESSON_CANVAS = Object.freeze({ width: 480, height: 320 });
/** Pixels per world unit (10 per 0.5 cell). */
export const LESSON_SCALE = 20;

export type LessonSection = 1 | 2 | 3 | 4;

const OBSTACLE: Rgba = [84, 88, 96, 255];
const WALKABLE: Rgba = [214, 233, 248, 255];
const REMOVED: Rgba = [236, 229, 218, 255];
const DIFFER: Rgba = [200, 40, 120, 255];
const OUTLINE: Rgba = [40, 48, 60, 255];
const SHAPE_FILL: Rgba = [190, 220, 245, 255];
const INSIDE: Rgba = [40, 150, 80, 200];
const LEAVES: Rgba = [220, 40, 40, 255];
const MIDPOINT: Rgba = [235, 120, 20, 255];
const STRAIGHT: Rgba = [20, 70, 200, 255];
const EXACT: Rgba = [185, 30, 170, 255];
const START: Rgba = [30, 160, 60, 255];
const GOAL: Rgba = [210, 40, 40, 255];
const POINT_CONTACT: Rgba = [220, 40, 40, 255];

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

/** One entry of a picture's legend: a lesson message key and the colour it is drawn in. */
export interface LessonLegendEntry {
  /** Message key in the lesson's MESSAGES (src/lesson/i18n.ts). */
  key: string;
  /** Drawn as a filled area (cells, polygons), a line, or a dot. */
  kind: "area" | "line" | "dot";
  colour: Rgba;
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
      { key: "legend.midpoint", kind: "line", colour: MIDPOINT },
      { key: "legend.straight", kind: "line", colour: STRAIGHT },
      { key: "legend.exact", kind: "line", colour: EXACT },
      { key: "legend.start", kind: "dot", colour: START },
      { key: "legend.goal", kind: "dot", colour: GOAL },
    ],
  });

/**
 * A pixel of a section's picture → the world XZ point under its centre, with the panel it
 * belongs to (always null: each section has one panel). Null outside the picture.
 */
export function lessonPixelToWorld(
  _section: LessonSection,
  px: number,
  py: number,
): { x: number; z: number; panel: LessonMethod | null } | null {
  if (!(px >= 0 && py >= 0 && px < LESSON_CANVAS.width && py < LESSON_CANVAS.height)) return null;
  return { x: px / S, z: py / S, panel: null };
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

/**
 * Cells by state as opaque 9 × 9 squares on their 10 × 10 pixel cell, leaving a 1-pixel white
 * gap so the voxels read as voxels. Written pixel by pixel (setPixel): 1536 scan conversions
 * through fillRect would cost most of a frame while the slider moves.
 */
function drawCells(img: RgbaImage, state: Uint8Array): void {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const c = cellSize * S;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      const s = state[i + j * cols]!;
      if (s === CELL_BLOCKED) continue;
      const colour = s === CELL_WALKABLE ? WALKABLE : REMOVED;
      for (let y = j * c; y < j * c + c - 1; y++) {
        for (let x = i * c; x < i * c + c - 1; x++) setPixel(img, x, y, colour);
      }
    }
  }
}

function dot(img: RgbaImage, x: number, z: number, r: number, colour: Rgba): void {
  fillCircle(img, x * S, z * S, r + 1.5, WHITE, { antialias: true });
  fillCircle(img, x * S, z * S, r, colour, { antialias: true });
}

function drawStartGoal(img: RgbaImage): void {
  dot(img, LESSON_SCENE.start[0], LESSON_SCENE.start[1], 5, START);
  dot(img, LESSON_SCENE.goal[0], LESSON_SCENE.goal[1], 5, GOAL);
}

/** Section 1: the chosen shape and 60 of its sampled segments, the leaving ones in red. */
function drawConvex(img: RgbaImage, result: LessonResult): void {
  const shape = result.convex.shown;
  const ring = ringPixels(shape.ring);
  fillPolygon(img, ring, SHAPE_FILL);
  const inside: number[] = [];
  const leaving: number[] = [];
  const d = shape.drawn;
  for (let k = 0; k < shape.drawnLeaves.length; k++) {
    const seg = [d[k * 4]! * S, d[k * 4 + 1]! * S, d[k * 4 + 2]! * S, d[k * 4 + 3]! * S];
    (shape.drawnLeaves[k] ? leaving : inside).push(...seg);
  }
  drawSegments(img, inside, 1.2, INSIDE, { antialias: true });
  drawSegments(img, leaving, 2, LEAVES, { antialias: true });
  drawPolyline(img, ring, 2, OUTLINE, { antialias: true, closed: true });
}

/** Section 2: cells of the chosen method (walkable, removed by the radius), differing cells marked. */
function drawSurface(img: RgbaImage, result: LessonResult): void {
  const m = result.settings.method;
  drawCells(img, result.surface[m].state);
  drawObstacles(img);
  const { cols, rows, cellSize } = LESSON_SCENE;
  const c = cellSize * S;
  const differ = result.surface.differ;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < cols; i++) {
      if (!differ[i + j * cols]) continue;
      for (let y = j * c + 3; y < j * c + c - 3; y++) {
        for (let x = i * c + 3; x < i * c + c - 3; x++) setPixel(img, x, y, DIFFER);
      }
    }
  }
  drawStartGoal(img);
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
}

/** Section 3: the method's cells underneath, its partition on top, single-point contacts marked. */
function drawPartition(img: RgbaImage, result: LessonResult): void {
  drawCells(img, result.surface[result.settings.method].state);
  drawObstacles(img);
  drawPolygons(img, result, 200, null);
  const pts = result.partition.current.adjacency.points;
  for (let k = 0; k < pts.length; k += 2) {
    fillCircle(img, pts[k]! * S, pts[k + 1]! * S, 3, POINT_CONTACT, { antialias: true });
  }
}

/**
 * Section 4: the polygon sequence highlighted, the midpoint polyline or the straightened path,
 * and in both views the exact shortest path on top as a thin purple line (where it coincides
 * with the straightened path it runs inside the blue one).
 */
function drawPath(img: RgbaImage, result: LessonResult): void {
  drawCells(img, result.surface[result.settings.method].state);
  drawObstacles(img);
  const path = result.path;
  drawPolygons(img, result, 210, new Set(path.polygons));
  const scale = (pts: Float64Array) => pts.map((v) => v * S);
  const mid = scale(path.midpoint.points);
  const aa = { antialias: true, cap: "round" as const };
  if (result.settings.view === "midpoint") {
    drawPolyline(img, mid, 5, WHITE, aa);
    drawPolyline(img, mid, 2.5, MIDPOINT, aa);
    for (let i = 0; i < mid.length; i += 2)
      fillCircle(img, mid[i]!, mid[i + 1]!, 3, MIDPOINT, { antialias: true });
  } else {
    const final = path.final === "funnel" ? path.funnel! : path.dropped;
    const pts = scale(final.points);
    drawPolyline(img, mid, 1.5, MIDPOINT, aa);
    drawPolyline(img, pts, 5, WHITE, aa);
    drawPolyline(img, pts, 3, STRAIGHT, aa);
    for (let i = 0; i < pts.length; i += 2)
      fillCircle(img, pts[i]!, pts[i + 1]!, 3.5, STRAIGHT, { antialias: true });
  }
  if (path.exact) {
    const ex = scale(path.exact.points);
    drawPolyline(img, ex, 1.8, EXACT, aa);
    for (let i = 0; i < ex.length; i += 2)
      fillCircle(img, ex[i]!, ex[i + 1]!, 2, EXACT, { antialias: true });
  }
  drawStartGoal(img);
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
    img = createImage(width, height, WHITE);
  }
  if (section === 1) drawConvex(img, result);
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
