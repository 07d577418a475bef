import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import {
  BLACK,
  blendPixel,
  createImage,
  drawLine,
  drawPolyline,
  drawSegments,
  fillCircle,
  fillPolygon,
  fillPolygonValue,
  fillRect,
  fillTriangle,
  getPixel,
  parseHexColour,
  type Rgba,
  type RgbaImage,
  rgba,
  strokeCircle,
  TRANSPARENT,
  WHITE,
} from "../../src/render/raster.js";

/** The set of pixels that differ from `bg`, as "x,y" strings in row order. */
function touched(img: RgbaImage, bg: Rgba = WHITE): string[] {
  const out: string[] = [];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const p = getPixel(img, x, y);
      if (p.some((v, i) => v !== bg[i])) out.push(`${x},${y}`);
    }
  }
  return out;
}

function rect(x0: number, y0: number, x1: number, y1: number): string[] {
  const out: string[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(`${x},${y}`);
  return out;
}

describe("image buffer", () => {
  it("createImage fills every pixel with the background, 4 bytes per pixel", () => {
    const img = createImage(3, 2, [10, 20, 30, 40]);
    expect(img.width).toBe(3);
    expect(img.height).toBe(2);
    expect(img.data).toBeInstanceOf(Uint8ClampedArray);
    expect(Array.from(img.data)).toEqual(Array(6).fill([10, 20, 30, 40]).flat());
    expect(getPixel(createImage(1, 1), 0, 0)).toEqual([255, 255, 255, 255]);
    expect(() => createImage(-1, 2)).toThrow(MeshwayError);
    expect(() => createImage(1.5, 2)).toThrow(MeshwayError);
  });

  it("parses hex colours and clamps rgba()", () => {
    expect(parseHexColour("#ff8000")).toEqual([255, 128, 0, 255]);
    expect(parseHexColour("#f80")).toEqual([255, 136, 0, 255]);
    expect(parseHexColour("10203040")).toEqual([16, 32, 48, 64]);
    expect(() => parseHexColour("#12")).toThrow(MeshwayError);
    expect(rgba(300, -5, 12.4, 127.6)).toEqual([255, 0, 12, 128]);
  });
});

describe("blending", () => {
  it("opaque colour replaces; 128/255 red over white gives (255, 127, 127)", () => {
    const img = createImage(2, 1);
    blendPixel(img, 0, 0, [0, 0, 255, 255]);
    blendPixel(img, 1, 0, [255, 0, 0, 128]);
    expect(getPixel(img, 0, 0)).toEqual([0, 0, 255, 255]);
    // g = 255 × (1 − 128/255) = 127 exactly.
    expect(getPixel(img, 1, 0)).toEqual([255, 127, 127, 255]);
  });

  it("over a transparent background keeps the source colour and its alpha (straight alpha)", () => {
    const img = createImage(1, 1, TRANSPARENT);
    blendPixel(img, 0, 0, [40, 80, 120, 100]);
    expect(getPixel(img, 0, 0)).toEqual([40, 80, 120, 100]);
    // A second layer: alpha = a + b(1 − a) = 100/255 + 100/255 × 155/255 → 161.
    blendPixel(img, 0, 0, [40, 80, 120, 100]);
    expect(getPixel(img, 0, 0)).toEqual([40, 80, 120, 161]);
  });

  it("coverage scales the colour's alpha; zero alpha and out-of-range pixels are no-ops", () => {
    const img = createImage(2, 1);
    blendPixel(img, 0, 0, BLACK, 0.5);
    blendPixel(img, 1, 0, [0, 0, 0, 0]);
    blendPixel(img, 5, 0, BLACK);
    blendPixel(img, -1, 0, BLACK);
    expect(getPixel(img, 0, 0)).toEqual([128, 128, 128, 255]); // round(127.5)
    expect(getPixel(img, 1, 0)).toEqual([255, 255, 255, 255]);
  });
});

describe("filled polygons", () => {
  it("an integer square covers exactly its pixels", () => {
    const img = createImage(8, 8);
    fillRect(img, 2, 2, 3, 3, BLACK);
    expect(touched(img)).toEqual(rect(2, 2, 5, 5));
    expect(getPixel(img, 3, 3)).toEqual([0, 0, 0, 255]);
  });

  it("covers the pixels whose centres are inside (fractional square)", () => {
    const img = createImage(8, 8);
    // Centres x + 0.5 in [1.6, 4.5) → x = 2, 3; y + 0.5 in [1.4, 3.6) → y = 1, 2, 3.
    fillPolygon(img, [1.6, 1.4, 4.5, 1.4, 4.5, 3.6, 1.6, 3.6], BLACK);
    expect(touched(img)).toEqual(rect(2, 1, 4, 4));
  });

  it("fills a concave L shape exactly, either winding", () => {
    const L = [1, 1, 3, 1, 3, 4, 6, 4, 6, 6, 1, 6];
    const expected = [...rect(1, 1, 3, 4), ...rect(1, 4, 6, 6)].sort();
    for (const pts of [L, reversePairs(L)]) {
      const img = createImage(8, 8);
      fillPolygon(img, pts, BLACK);
      expect(touched(img).sort()).toEqual(expected);
    }
  });

  it("even-odd leaves a hole where nonzero fills an inner ring of the same winding", () => {
    const outer = [0, 0, 6, 0, 6, 6, 0, 6];
    const inner = [2, 2, 4, 2, 4, 4, 2, 4];
    const nz = createImage(6, 6);
    fillPolygon(nz, [outer, inner], BLACK, { rule: "nonzero" });
    expect(touched(nz).length).toBe(36);
    const eo = createImage(6, 6);
    fillPolygon(eo, [outer, inner], BLACK, { rule: "evenodd" });
    const hole = new Set(rect(2, 2, 4, 4));
    expect(touched(eo)).toEqual(rect(0, 0, 6, 6).filter((p) => !hole.has(p)));
    // An inner ring wound the other way is a hole under nonzero too.
    const nz2 = createImage(6, 6);
    fillPolygon(nz2, [outer, reversePairs(inner)], BLACK);
    expect(touched(nz2)).toEqual(touched(eo));
  });

  it("two triangles sharing a diagonal blend every pixel of their square exactly once", () => {
    const img = createImage(10, 10);
    const c: Rgba = [0, 0, 255, 100];
    fillTriangle(img, 1, 1, 9, 1, 9, 7.3, c);
    fillTriangle(img, 1, 1, 9, 7.3, 1, 7.3, c);
    const once = getPixel(img, 5, 4);
    expect(once).toEqual([155, 155, 255, 255]);
    for (const p of rect(1, 1, 9, 7)) {
      const [x, y] = p.split(",").map(Number);
      expect(getPixel(img, x!, y!)).toEqual(once);
    }
    expect(touched(img).length).toBe(8 * 6);
  });

  it("interpolates per-vertex colours at pixel centres", () => {
    const img = createImage(40, 40);
    fillTriangle(img, 0, 0, 40, 0, 0, 40, [BLACK, WHITE, BLACK]);
    // Along the top row, the weight of the white vertex is (x + 0.5) / 40.
    for (const x of [0, 7, 19, 30]) {
      const v = Math.round((255 * (x + 0.5)) / 40);
      expect(getPixel(img, x, 0)).toEqual([v, v, v, 255]);
    }
  });

  it("anti-aliasing gives half coverage on half-covered pixels and full inside", () => {
    const img = createImage(6, 3);
    fillRect(img, 1.5, 1, 2, 1, BLACK, { antialias: true });
    expect(getPixel(img, 1, 1)).toEqual([128, 128, 128, 255]);
    expect(getPixel(img, 2, 1)).toEqual([0, 0, 0, 255]);
    expect(getPixel(img, 3, 1)).toEqual([128, 128, 128, 255]);
    expect(touched(img)).toEqual(["1,1", "2,1", "3,1"]);
  });

  it("clips shapes at the image border and ignores degenerate or non-finite input", () => {
    const img = createImage(4, 4);
    fillRect(img, -10, -10, 12, 12, BLACK);
    expect(touched(img)).toEqual(rect(0, 0, 2, 2));
    const img2 = createImage(4, 4);
    fillPolygon(img2, [0, 0, 4, 4], BLACK);
    fillPolygon(img2, [0, 0, 4, 0, Number.NaN, 4], BLACK);
    fillPolygon(img2, [10, 10, 20, 10, 20, 20], BLACK);
    fillPolygon(img2, [], BLACK);
    expect(touched(img2)).toEqual([]);
  });

  it("a clip mask hides pixels (0) and scales coverage (128)", () => {
    const img = createImage(4, 1);
    const clip = Uint8Array.of(255, 0, 128, 255);
    fillRect(img, 0, 0, 4, 1, BLACK, { clip });
    expect(touched(img)).toEqual(["0,0", "2,0", "3,0"]);
    expect(getPixel(img, 2, 0)).toEqual([127, 127, 127, 255]);
    expect(() => fillRect(img, 0, 0, 1, 1, BLACK, { clip: new Uint8Array(3) })).toThrow(
      MeshwayError,
    );
  });

  it("fillPolygonValue marks the same pixels fillPolygon colours", () => {
    const pts = [0.7, 0.2, 9.3, 2.5, 6.1, 8.8, 1.2, 5.5];
    const img = createImage(10, 10);
    fillPolygon(img, pts, BLACK);
    const ids = new Int32Array(100).fill(-1);
    fillPolygonValue(ids, 10, 10, pts, 7);
    const marked: string[] = [];
    for (let i = 0; i < 100; i++) if (ids[i] === 7) marked.push(`${i % 10},${Math.floor(i / 10)}`);
    expect(marked).toEqual(touched(img));
    expect(marked.length).toBeGreaterThan(30);
  });
});

describe("lines and circles", () => {
  it("a 1-pixel horizontal line covers one row between its ends (butt caps)", () => {
    const img = createImage(8, 5);
    drawLine(img, 1, 2.5, 6, 2.5, 1, BLACK);
    expect(touched(img)).toEqual(rect(1, 2, 6, 3));
  });

  it("a vertical line of width 2 covers two columns; square caps extend by half the width", () => {
    const img = createImage(8, 8);
    drawLine(img, 4, 2, 4, 6, 2, BLACK);
    expect(touched(img)).toEqual(rect(3, 2, 5, 6));
    const sq = createImage(8, 8);
    drawLine(sq, 4, 2, 4, 6, 2, BLACK, { cap: "square" });
    expect(touched(sq)).toEqual(rect(3, 1, 5, 7));
  });

  it("a thick line covers the pixels whose centres lie in its rectangle", () => {
    const img = createImage(40, 40);
    const [ax, ay, bx, by, w] = [5.2, 5.1, 35.3, 31.7, 4];
    drawLine(img, ax, ay, bx, by, w, BLACK);
    const len = Math.hypot(bx - ax, by - ay);
    const expected: string[] = [];
    for (let y = 0; y < 40; y++) {
      for (let x = 0; x < 40; x++) {
        const dx = x + 0.5 - ax;
        const dy = y + 0.5 - ay;
        const along = (dx * (bx - ax) + dy * (by - ay)) / len;
        const across = (dx * (by - ay) - dy * (bx - ax)) / len;
        if (along > 0 && along < len && Math.abs(across) < w / 2) expected.push(`${x},${y}`);
      }
    }
    expect(touched(img)).toEqual(expected);
    expect(Math.abs(expected.length - len * w)).toBeLessThan(len * w * 0.05);
  });

  it("a 45° line is mirror-symmetric about its axis", () => {
    const img = createImage(40, 40);
    drawLine(img, 5, 5, 35, 35, 4, BLACK, { cap: "round" });
    const px = touched(img);
    expect(px.length).toBeGreaterThan(100);
    for (const p of px) {
      const [x, y] = xy(p);
      expect(getPixel(img, y, x)).toEqual([0, 0, 0, 255]);
    }
  });

  it("a translucent polyline blends once where segments join and overlap", () => {
    const img = createImage(30, 30);
    const c: Rgba = [200, 0, 0, 120];
    drawPolyline(img, [3, 3, 25, 5, 6, 20, 26, 26], 3, c, { antialias: false, cap: "round" });
    const colours = new Set(touched(img).map((p) => getPixel(img, ...xy(p)).join()));
    expect(colours.size).toBe(1);
    const segs = createImage(30, 30);
    drawSegments(segs, [3, 3, 25, 5, 25, 5, 6, 20, 6, 20, 26, 26], 3, c, { cap: "round" });
    expect(new Set(touched(segs).map((p) => getPixel(segs, ...xy(p)).join())).size).toBe(1);
  });

  it("a disc covers the pixels whose centres are closer than the radius", () => {
    const img = createImage(11, 11);
    fillCircle(img, 5, 5, 2, BLACK);
    const expected: string[] = [];
    for (let y = 0; y < 11; y++) {
      for (let x = 0; x < 11; x++) {
        if ((x + 0.5 - 5) ** 2 + (y + 0.5 - 5) ** 2 < 4) expected.push(`${x},${y}`);
      }
    }
    expect(expected.length).toBe(12);
    expect(touched(img)).toEqual(expected);
  });

  it("an anti-aliased disc is solid inside, partial on the rim, and a ring leaves its centre", () => {
    const img = createImage(21, 21);
    fillCircle(img, 10.5, 10.5, 6, BLACK, { antialias: true });
    expect(getPixel(img, 10, 10)).toEqual([0, 0, 0, 255]);
    const rim = getPixel(img, 16, 10); // centre 6 px from the disc's centre
    expect(rim[0]).toBeGreaterThan(100);
    expect(rim[0]).toBeLessThan(160);
    expect(getPixel(img, 0, 0)).toEqual([255, 255, 255, 255]);
    const ring = createImage(21, 21);
    strokeCircle(ring, 10.5, 10.5, 6, 2, BLACK);
    expect(getPixel(ring, 10, 10)).toEqual([255, 255, 255, 255]);
    expect(getPixel(ring, 16, 10)).toEqual([0, 0, 0, 255]);
  });
});

function xy(p: string): [number, number] {
  const [x, y] = p.split(",").map(Number);
  return [x!, y!];
}

function reversePairs(pts: number[]): number[] {
  const out: number[] = [];
  for (let i = pts.length - 2; i >= 0; i -= 2) out.push(pts[i]!, pts[i + 1]!);
  return out;
}
