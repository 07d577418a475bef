/**
 * A 3 × 5 pixel font for what the lesson's pictures print (polygon ids, cross-product signs),
 * so the pictures need no text renderer and stay identical on page and CLI. Each glyph is 5
 * rows of 3 bits, most significant bit left.
 */
const DIGITS: readonly (readonly number[])[] = [
  [7, 5, 5, 5, 7],
  [2, 6, 2, 2, 7],
  [7, 1, 7, 4, 7],
  [7, 1, 3, 1, 7],
  [5, 5, 7, 1, 1],
  [7, 4, 7, 1, 7],
  [7, 4, 7, 5, 7],
  [7, 1, 1, 2, 2],
  [7, 5, 7, 5, 7],
  [7, 5, 7, 1, 7],
];
const PLUS: readonly number[] = [0, 2, 7, 2, 0];
const MINUS: readonly number[] = [0, 0, 7, 0, 0];

/** Width of `text` drawn at `scale` [pixels]: 3 per glyph plus 1 between glyphs, times scale. */
export function digitsWidth(text: string, scale: number): number {
  return text.length === 0 ? 0 : (text.length * 4 - 1) * scale;
}

/**
 * Calls `plot(x, y)` for every lit pixel of the decimal digits and signs ("+", "-") in `text`
 * drawn with the top left corner at (x0, y0), each font pixel a scale × scale block. Other
 * characters are skipped.
 */
export function forEachDigitPixel(
  text: string,
  x0: number,
  y0: number,
  scale: number,
  plot: (x: number, y: number) => void,
): void {
  for (let g = 0; g < text.length; g++) {
    const ch = text[g];
    const rows = ch === "+" ? PLUS : ch === "-" ? MINUS : DIGITS[text.charCodeAt(g) - 48];
    if (!rows) continue;
    const gx = x0 + g * 4 * scale;
    for (let r = 0; r < 5; r++) {
      for (let c = 0; c < 3; c++) {
        if (!((rows[r]! >> (2 - c)) & 1)) continue;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) plot(gx + c * scale + dx, y0 + r * scale + dy);
      }
    }
  }
}
