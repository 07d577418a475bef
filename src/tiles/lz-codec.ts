import { MeshwayError } from "../errors.js";

/*
 * A small LZ77 byte codec in the LZ4 block style (Collet): sequences of
 *   token (high nibble: literal count, low nibble: match length − 4; 15 = more bytes follow,
 *   each adding up to 255), literals, u16 little-endian match offset, extra match-length bytes;
 * the last sequence has literals only. Greedy matching with a 4-byte hash table, offsets up
 * to 65535. Decoding is a bounds-checked byte loop: nothing is read or written out of range
 * whatever the input. Chosen for its decode speed and its few lines; tile data is transformed
 * first so that runs and repeats dominate (the tile cache file range-codes its tiles instead).
 */

const HASH_BITS = 14;
const MIN_MATCH = 4;
const MAX_OFFSET = 65535;

function read32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

/** Compresses `src` (deterministic). Worst case a little larger than `src`. */
export function lzCompress(src: Uint8Array): Uint8Array {
  const n = src.length;
  let out = new Uint8Array(Math.max(16, n + Math.ceil(n / 255) + 16));
  let op = 0;
  const ensure = (k: number) => {
    if (op + k <= out.length) return;
    const grown = new Uint8Array(Math.max(out.length * 2, op + k));
    grown.set(out.subarray(0, op));
    out = grown;
  };
  const writeLength = (len: number) => {
    while (len >= 255) {
      ensure(1);
      out[op++] = 255;
      len -= 255;
    }
    ensure(1);
    out[op++] = len;
  };
  const emit = (litStart: number, litEnd: number, offset: number, matchLen: number) => {
    const lit = litEnd - litStart;
    const m = matchLen - MIN_MATCH;
    ensure(1);
    out[op++] = (Math.min(lit, 15) << 4) | (matchLen === 0 ? 0 : Math.min(m, 15));
    if (lit >= 15) writeLength(lit - 15);
    ensure(lit);
    out.set(src.subarray(litStart, litEnd), op);
    op += lit;
    if (matchLen === 0) return;
    ensure(2);
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
    if (m >= 15) writeLength(m - 15);
  };
  const table = new Int32Array(1 << HASH_BITS).fill(-1);
  let anchor = 0;
  let i = 0;
  while (i + MIN_MATCH <= n) {
    const seq = read32(src, i);
    const h = Math.imul(seq, 2654435761) >>> (32 - HASH_BITS);
    const ref = table[h]!;
    table[h] = i;
    if (ref >= 0 && i - ref <= MAX_OFFSET && read32(src, ref) === seq) {
      let len = MIN_MATCH;
      while (i + len < n && src[ref + len] === src[i + len]) len++;
      emit(anchor, i, i - ref, len);
      i += len;
      anchor = i;
    } else {
      i++;
    }
  }
  emit(anchor, n, 0, 0);
  return out.slice(0, op);
}

/**
 * Decompresses `src` into exactly `length` bytes. Throws MeshwayError("INVALID_INPUT") naming
 * `what` and the offset in `src` for anything inconsistent (overruns, zero or too-far offsets,
 * a wrong decoded length).
 */
export function lzDecompress(src: Uint8Array, length: number, what: string, base = 0): Uint8Array {
  const out = new Uint8Array(length);
  const fail = (at: number, msg: string): never => {
    throw new MeshwayError("INVALID_INPUT", `${what}: ${msg} at byte ${base + at}`);
  };
  const n = src.length;
  let ip = 0;
  let op = 0;
  const readLength = (start: number): number => {
    let len = start;
    if (start !== 15) return len;
    for (;;) {
      if (ip >= n) fail(ip, "compressed data ends inside a length");
      const b = src[ip++]!;
      len += b;
      if (b !== 255) return len;
      if (len > length) fail(ip, "length exceeds the decoded size");
    }
  };
  while (ip < n) {
    const token = src[ip++]!;
    const lit = readLength(token >>> 4);
    if (ip + lit > n) fail(ip, "literals run past the compressed data");
    if (op + lit > length) fail(ip, "literals run past the decoded size");
    out.set(src.subarray(ip, ip + lit), op);
    ip += lit;
    op += lit;
    if (ip === n) break;
    if (ip + 2 > n) fail(ip, "compressed data ends inside an offset");
    const offset = src[ip]! | (src[ip + 1]! << 8);
    if (offset === 0 || offset > op) fail(ip, `match offset ${offset} points before the start`);
    ip += 2;
    const len = readLength(token & 15) + MIN_MATCH;
    if (op + len > length) fail(ip, "match runs past the decoded size");
    if (offset >= len) {
      out.copyWithin(op, op - offset, op - offset + len);
      op += len;
    } else if (offset === 1) {
      out.fill(out[op - 1]!, op, op + len);
      op += len;
    } else {
      for (let k = 0; k < len; k++, op++) out[op] = out[op - offset]!;
    }
  }
  if (op !== length) fail(n, `decoded ${op} bytes, expected ${length}`);
  return out;
}
