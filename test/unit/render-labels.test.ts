import { describe, expect, it } from "vitest";
import { drawLabel, labelBeside } from "../../src/render/labels.js";
import { createImage, getPixel } from "../../src/render/raster.js";
import { renderTopDownSvg } from "../../src/render/svg.js";
import { layoutTopDown, renderTopDown } from "../../src/render/top-down.js";

// Issue 19 A7: the picture of `npm start` had no legend — which dot is the start?
const square = { positions: [0, 0, 0, 0, 0, 10, 10, 0, 10, 10, 0, 0], indices: [0, 1, 2, 0, 2, 3] };
const path = [
  [1, 0, 1],
  [9, 0, 9],
];

describe("path end labels (START / GOAL)", () => {
  it("sit beside their dots in the dots' colours, inside the image", () => {
    const L = layoutTopDown({ geometry: square, path, size: 400, labelPathEnds: true });
    expect(L.labels.map((l) => l.text)).toEqual(["START", "GOAL"]);
    expect(L.labels[0]!.colour).toEqual(L.style.startColour);
    expect(L.labels[1]!.colour).toEqual(L.style.endColour);
    for (const l of L.labels) {
      expect(l.x).toBeGreaterThanOrEqual(0);
      expect(l.y).toBeGreaterThanOrEqual(0);
      expect(l.x + l.width).toBeLessThanOrEqual(L.width);
      expect(l.y + l.height).toBeLessThanOrEqual(L.height);
    }
    // The goal dot is near the right edge: its label goes to the left of it.
    const goalX = L.pathXY[2]!;
    expect(L.labels[1]!.x + L.labels[1]!.width).toBeLessThan(goalX);
  });

  it("are off by default (library pictures unchanged) and drawn in PNG and SVG when on", () => {
    expect(layoutTopDown({ geometry: square, path, size: 400 }).labels).toEqual([]);
    const plain = renderTopDown({ geometry: square, path, size: 400 });
    const labelled = renderTopDown({ geometry: square, path, size: 400, labelPathEnds: true });
    expect(labelled.data).not.toEqual(plain.data);
    const svg = renderTopDownSvg({ geometry: square, path, size: 400, labelPathEnds: true });
    expect(svg).toContain("<title>START</title>");
    expect(svg).toContain("<title>GOAL</title>");
  });

  it("draws the glyphs exactly: the T of a one-letter label", () => {
    const img = createImage(20, 20);
    const l = labelBeside("T", 0, 10, 0, 1, [0, 0, 0, 255], 20, 20);
    drawLabel(img, l);
    const ink = (x: number, y: number) => getPixel(img, l.x + 2 + x, l.y + 2 + y)[0] === 0;
    expect([0, 1, 2, 3, 4].map((x) => ink(x, 0))).toEqual([true, true, true, true, true]);
    expect([0, 1, 2, 3, 4].map((x) => ink(x, 6))).toEqual([false, false, true, false, false]);
    expect(() => labelBeside("x", 0, 0, 0, 1, [0, 0, 0, 255], 20, 20)).toThrow(/no glyph/);
  });
});
