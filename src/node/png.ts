/**
 * PNG encoding of an RGBA image (8-bit RGBA, non-interlaced) with node:zlib. Each row gets
 * the filter (none, sub, up, average, Paeth) with the smallest sum of absolute residuals, the
 * usual heuristic from the PNG specification. Deterministic: same pixels → same bytes.
 */

import { deflateSync } from "node:zlib";
import { MeshwayError } from "../errors.js";
import { crc32 } from "../format/crc32.js";
import type { RgbaImage } from "../render/raster.js";

const SIGNATURE = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Writes row y filtered with `filter` into out at offset o (filter byte first). */
function filterRow(
  data: Uint8ClampedArray,
  y: number,
  stride: number,
  filter: number,
  out: Uint8Array,
  o: number,
): void {
  out[o] = filter;
  const row = y * stride;
  const prev = row - stride;
  const dst = o + 1;
  // The pixel to the left (a), above (b) and above-left (c) are 0 outside the image.
  switch (filter) {
    case 0:
      for (let i = 0; i < stride; i++) out[dst + i] = data[row + i]!;
      break;
    case 1:
      for (let i = 0; i < stride; i++) {
        out[dst + i] = (data[row + i]! - (i >= 4 ? data[row + i - 4]! : 0)) & 0xff;
      }
      break;
    case 2:
      for (let i = 0; i < stride; i++) {
        out[dst + i] = (data[row + i]! - (y > 0 ? data[prev + i]! : 0)) & 0xff;
      }
      break;
    case 3:
      for (let i = 0; i < stride; i++) {
        const a = i >= 4 ? data[row + i - 4]! : 0;
        const b = y > 0 ? data[prev + i]! : 0;
        out[dst + i] = (data[row + i]! - ((a + b) >> 1)) & 0xff;
      }
      break;
    default:
      for (let i = 0; i < stride; i++) {
        const a = i >= 4 ? data[row + i - 4]! : 0;
        const b = y > 0 ? data[prev + i]! : 0;
        const c = i >= 4 && y > 0 ? data[prev + i - 4]! : 0;
        out[dst + i] = (data[row + i]! - paeth(a, b, c)) & 0xff;
      }
  }
}

/** Sum of residuals read as signed bytes: smaller tends to compress better. */
function residualCost(buf: Uint8Array, o: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) {
    const v = buf[o + i]!;
    s += v < 128 ? v : 256 - v;
  }
  return s;
}

function writeU32(out: Uint8Array, o: number, v: number): void {
  out[o] = v >>> 24;
  out[o + 1] = (v >>> 16) & 0xff;
  out[o + 2] = (v >>> 8) & 0xff;
  out[o + 3] = v & 0xff;
}

function chunk(type: string, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + payload.length);
  writeU32(out, 0, payload.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(payload, 8);
  writeU32(out, 8 + payload.length, crc32(out, 4, 8 + payload.length));
  return out;
}

/** Encodes an RGBA image as a PNG file. */
export function encodePng(image: RgbaImage): Uint8Array {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `PNG size must be positive integers, got ${width} × ${height}`,
    );
  }
  if (data.length !== width * height * 4) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `image data has ${data.length} bytes, expected ${width * height * 4}`,
    );
  }
  const stride = width * 4;
  const raw = new Uint8Array((stride + 1) * height);
  const trial = new Uint8Array(stride + 1);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    filterRow(data, y, stride, 0, raw, o);
    let bestCost = residualCost(raw, o + 1, stride);
    for (let f = 1; f <= 4; f++) {
      filterRow(data, y, stride, f, trial, 0);
      const cost = residualCost(trial, 1, stride);
      if (cost < bestCost) {
        bestCost = cost;
        raw.set(trial, o);
      }
    }
  }
  const ihdr = new Uint8Array(13);
  writeU32(ihdr, 0, width);
  writeU32(ihdr, 4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  const idat = deflateSync(raw, { level: 6 });
  const parts = [
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(idat.buffer, idat.byteOffset, idat.byteLength)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
