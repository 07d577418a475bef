import { inflateSync, crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { encodePng } from "../../src/node/png.js";
import { createImage, fillCircle, fillRect, type RgbaImage } from "../../src/render/raster.js";

interface Chunk {
  type: string;
  data: Uint8Array;
  crc: number;
  /** CRC computed over type + data. */
  actualCrc: number;
}

function u32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}

/** An independent reading of the file: chunks with their stored and recomputed CRCs. */
function readChunks(png: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  let o = 8;
  while (o < png.length) {
    const len = u32(png, o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    chunks.push({
      type,
      data,
      crc: u32(png, o + 8 + len),
      actualCrc: zlibCrc32(png.subarray(o + 4, o + 8 + len)),
    });
    o += 12 + len;
  }
  expect(o).toBe(png.length);
  return chunks;
}

/** Decodes an 8-bit RGBA non-interlaced PNG: inflate the IDAT stream, undo the row filters. */
function decode(png: Uint8Array): RgbaImage {
  const chunks = readChunks(png);
  const ihdr = chunks[0]!.data;
  const width = u32(ihdr, 0);
  const height = u32(ihdr, 4);
  const idat = Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data));
  const raw = inflateSync(idat);
  const stride = width * 4;
  expect(raw.length).toBe((stride + 1) * height);
  const out = new Uint8ClampedArray(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= 4 ? out[y * stride + i - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= 4 && y > 0 ? out[(y - 1) * stride + i - 4]! : 0;
      let pred = 0;
      if (f === 1) pred = a;
      else if (f === 2) pred = b;
      else if (f === 3) pred = (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else expect(f).toBe(0);
      out[y * stride + i] = (x + pred) & 0xff;
    }
  }
  return { width, height, data: out };
}

function filtersUsed(png: Uint8Array): Set<number> {
  const chunks = readChunks(png);
  const width = u32(chunks[0]!.data, 0);
  const raw = inflateSync(
    Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data)),
  );
  const used = new Set<number>();
  for (let o = 0; o < raw.length; o += width * 4 + 1) used.add(raw[o]!);
  return used;
}

/** A picture with flat areas, gradients, noise and transparency (exercises every filter). */
function testImage(): RgbaImage {
  const img = createImage(61, 37, [0, 0, 0, 0]);
  let seed = 12345;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      if (x < 20) {
        img.data.set([x * 12, y * 6, (x * y) & 0xff, 255], i);
      } else if (x < 40) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        img.data.set([seed >>> 24, (seed >>> 16) & 0xff, (seed >>> 8) & 0xff, 128 + (y & 7)], i);
      }
    }
  }
  fillRect(img, 42, 3, 15, 10, [20, 200, 90, 200]);
  fillCircle(img, 50, 25, 8, [250, 30, 60, 255], { antialias: true });
  return img;
}

describe("encodePng", () => {
  it("writes the signature, an IHDR for 8-bit RGBA, IDAT and IEND, all with valid CRCs", () => {
    const png = encodePng(testImage());
    expect(Array.from(png.subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const chunks = readChunks(png);
    expect(chunks[0]!.type).toBe("IHDR");
    expect(chunks[chunks.length - 1]!.type).toBe("IEND");
    expect(chunks[chunks.length - 1]!.data.length).toBe(0);
    expect(chunks.some((c) => c.type === "IDAT")).toBe(true);
    const ihdr = chunks[0]!.data;
    expect(ihdr.length).toBe(13);
    expect(u32(ihdr, 0)).toBe(61);
    expect(u32(ihdr, 4)).toBe(37);
    // Bit depth 8, colour type 6 (RGBA), deflate, adaptive filters, no interlace.
    expect(Array.from(ihdr.subarray(8))).toEqual([8, 6, 0, 0, 0]);
    for (const c of chunks) expect(c.crc, c.type).toBe(c.actualCrc);
  });

  it("decodes (inflateSync + unfiltering) back to exactly the same pixels", () => {
    const img = testImage();
    const back = decode(encodePng(img));
    expect(back.width).toBe(img.width);
    expect(back.height).toBe(img.height);
    expect(Buffer.from(back.data).equals(Buffer.from(img.data))).toBe(true);
  });

  it("chooses filters per row (more than one kind on a varied picture)", () => {
    expect(filtersUsed(encodePng(testImage())).size).toBeGreaterThan(1);
  });

  it("is deterministic and handles a 1 × 1 image", () => {
    const a = encodePng(testImage());
    const b = encodePng(testImage());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const one = createImage(1, 1, [1, 2, 3, 4]);
    expect(Array.from(decode(encodePng(one)).data)).toEqual([1, 2, 3, 4]);
  });

  it("rejects empty images and data of the wrong length", () => {
    expect(() => encodePng(createImage(0, 3))).toThrow(MeshwayError);
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8ClampedArray(15) })).toThrow(
      MeshwayError,
    );
  });
});
