/**
 * CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF — the
 * checksum of zlib, PNG and zip), table-driven with slicing-by-8 (Intel's method: eight
 * 256-entry tables so the inner loop consumes eight bytes per step).
 */

// Built on the first checksum, not on import: a cold `import("meshway")` skips the 3.8k
// table steps and compiling their code (issue 17).
let TABLES: Int32Array | null = null;

function makeTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  // Table k advances a byte that is followed by k more bytes.
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
}

/**
 * CRC-32 of bytes[start, end). Pass a previous result as `crc` to continue a checksum over
 * several ranges (crc32(b, 0, 8) then crc32(b, 8, 20, that) equals crc32(b, 0, 20)).
 * Returns an unsigned 32-bit integer.
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  if (TABLES === null) TABLES = makeTables();
  const t = TABLES;
  let c = ~crc;
  let i = start;
  const end8 = end - ((end - start) & 7);
  while (i < end8) {
    const lo =
      c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
    i += 8;
  }
  while (i < end) c = t[(c ^ bytes[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
