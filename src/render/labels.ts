import { fillRect, type Rgba, type RgbaImage } from "./raster.js";

/**
 * Tiny text for picture legends: a 5 × 7 bitmap font holding just the letters the legends use
 * (no font files, same pixels everywhere), drawn as squares of `pixel` image pixels.
 */
const GLYPHS: Record<string, readonly number[]> = {
  // Rows top to bottom, bit 4 = leftmost column.
  A: [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
  G: [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
  L: [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
  O: [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
  R: [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
  S: [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
  T: [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
};
const GLYPH_W = 5;
const GLYPH_H = 7;

/** A text label in a white box: top-left corner, size and glyph scale in pixels. */
export interface TopDownLabel {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Image pixels per font pixel. */
  pixel: number;
  colour: Rgba;
}

/** The legend box colour: white, slightly see-through. */
export const LABEL_BOX: Rgba = [255, 255, 255, 225];

/**
 * A label beside a marker at (cx, cy) of radius r: right of it, or left when it would leave
 * the image, kept inside the image vertically.
 */
export function labelBeside(
  text: string,
  cx: number,
  cy: number,
  r: number,
  pixel: number,
  colour: Rgba,
  imageWidth: number,
  imageHeight: number,
): TopDownLabel {
  for (const ch of text) {
    if (GLYPHS[ch] === undefined) throw new Error(`no glyph for "${ch}" in the legend font`);
  }
  const pad = 2 * pixel;
  const width = text.length * (GLYPH_W + 1) * pixel - pixel + 2 * pad;
  const height = GLYPH_H * pixel + 2 * pad;
  const gap = r + 2 * pixel;
  let x = cx + gap;
  if (x + width > imageWidth) x = cx - gap - width;
  const y = Math.min(Math.max(cy - height / 2, 0), Math.max(imageHeight - height, 0));
  return { text, x: Math.round(Math.max(x, 0)), y: Math.round(y), width, height, pixel, colour };
}

/** Draws a label: its white box, then the glyphs (pixel-aligned squares, no anti-aliasing). */
export function drawLabel(img: RgbaImage, label: TopDownLabel): void {
  const { x, y, pixel: p } = label;
  fillRect(img, x, y, label.width, label.height, LABEL_BOX);
  let gx = x + 2 * p;
  for (const ch of label.text) {
    const rows = GLYPHS[ch]!;
    for (let row = 0; row < GLYPH_H; row++) {
      for (let col = 0; col < GLYPH_W; col++) {
        if ((rows[row]! >> (GLYPH_W - 1 - col)) & 1) {
          fillRect(img, gx + col * p, y + 2 * p + row * p, p, p, label.colour);
        }
      }
    }
    gx += (GLYPH_W + 1) * p;
  }
}

/** The same glyph squares as SVG path data (one `M…h…v…h…z` square each). */
export function labelSvgPath(label: TopDownLabel): string {
  const { x, y, pixel: p } = label;
  const parts: string[] = [];
  let gx = x + 2 * p;
  for (const ch of label.text) {
    const rows = GLYPHS[ch]!;
    for (let row = 0; row < GLYPH_H; row++) {
      for (let col = 0; col < GLYPH_W; col++) {
        if ((rows[row]! >> (GLYPH_W - 1 - col)) & 1) {
          parts.push(`M${gx + col * p} ${y + 2 * p + row * p}h${p}v${p}h${-p}z`);
        }
      }
    }
    gx += (GLYPH_W + 1) * p;
  }
  return parts.join("");
}
