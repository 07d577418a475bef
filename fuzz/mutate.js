// Byte and text mutations shared by the fuzz targets: fast-check arbitraries of edit lists and
// the functions that apply them. Plain data in, new bytes out; the seed is never modified.
import fc from "fast-check";

/** u32 values that break length and count checks: edges of every integer width. */
export const INTERESTING_U32 = [
  0, 1, 2, 3, 4, 7, 8, 12, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xfffff, 0x100000, 0x7fffffff,
  0x80000000, 0xfffffffe, 0xffffffff,
];

/** Bytes that matter to parsers: NUL, space, quote, digits, braces, high bit, all ones. */
const INTERESTING_BYTES = [0x00, 0x01, 0x20, 0x22, 0x2c, 0x30, 0x39, 0x5b, 0x7b, 0x7d, 0x80, 0xff];

/**
 * A position as a fraction of the length, uniform (fast-check's doubles lean to 0 and 1, which
 * would spend most edits on the magic number), so an edit list stays meaningful while
 * shrinking and across seeds of different sizes.
 */
const atArb = fc.noBias(fc.integer({ min: 0, max: 0xffff })).map((v) => v / 0x10000);

/** One edit of a byte string. */
const editArb = fc.oneof(
  fc.record({ op: fc.constant("flip"), at: atArb, bit: fc.nat(7) }),
  fc.record({
    op: fc.constant("set"),
    at: atArb,
    value: fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.nat(255)),
  }),
  fc.record({
    op: fc.constant("u32"),
    at: atArb,
    // Relative to the length (len - 1, len, len + 1, 2 len), or one of the edge values.
    value: fc.oneof(
      fc.constantFrom(...INTERESTING_U32),
      fc.constantFrom("len-1", "len", "len+1", "2len", "len/4"),
    ),
    aligned: fc.boolean(),
  }),
  fc.record({ op: fc.constant("truncate"), at: atArb }),
  fc.record({
    op: fc.constant("insert"),
    at: atArb,
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({
    op: fc.constant("delete"),
    at: atArb,
    count: fc.integer({ min: 1, max: 64 }),
  }),
  fc.record({
    op: fc.constant("duplicate"),
    at: atArb,
    count: fc.integer({ min: 1, max: 128 }),
  }),
);

/** One to `max` edits. */
export function editsArb(max = 4) {
  return fc.array(editArb, { minLength: 1, maxLength: max });
}

function u32Value(value, len) {
  if (typeof value === "number") return value;
  const table = { "len-1": len - 1, len, "len+1": len + 1, "2len": 2 * len, "len/4": len >>> 2 };
  return table[value] >>> 0;
}

/** Applies `edits` to a copy of `seed` (a Uint8Array). */
export function applyEdits(seed, edits) {
  let b = seed.slice();
  for (const e of edits) {
    const pos = (n) => Math.min(n, Math.floor(e.at * (n + 1)));
    if (b.length === 0 && e.op !== "insert") continue;
    switch (e.op) {
      case "flip": {
        const i = pos(b.length - 1);
        b[i] ^= 1 << e.bit;
        break;
      }
      case "set":
        b[pos(b.length - 1)] = e.value;
        break;
      case "u32": {
        if (b.length < 4) break;
        let i = pos(b.length - 4);
        if (e.aligned) i &= ~3;
        new DataView(b.buffer, b.byteOffset).setUint32(i, u32Value(e.value, b.length), true);
        break;
      }
      case "truncate":
        b = b.slice(0, pos(b.length));
        break;
      case "insert": {
        const i = pos(b.length);
        const out = new Uint8Array(b.length + e.bytes.length);
        out.set(b.subarray(0, i));
        out.set(e.bytes, i);
        out.set(b.subarray(i), i + e.bytes.length);
        b = out;
        break;
      }
      case "delete": {
        const i = pos(b.length);
        const tail = b.subarray(Math.min(b.length, i + e.count));
        const out = new Uint8Array(i + tail.length);
        out.set(b.subarray(0, i));
        out.set(tail, i);
        b = out;
        break;
      }
      case "duplicate": {
        const i = pos(b.length);
        const part = b.subarray(i, Math.min(b.length, i + e.count));
        const out = new Uint8Array(b.length + part.length);
        out.set(b.subarray(0, i + part.length));
        out.set(part, i + part.length);
        out.set(b.subarray(i + part.length), i + 2 * part.length);
        b = out;
        break;
      }
    }
  }
  return b;
}

/** Text tokens that break number and index parsing, and a few harmless ones. */
export const NASTY_TOKENS = [
  "NaN",
  "nan",
  "Infinity",
  "-Infinity",
  "inf",
  "1e39",
  "-1e39",
  "3.4028235e38",
  "-3.4028234e38",
  "1e-46",
  "-0",
  "0",
  "-1",
  "-2147483649",
  "4294967295",
  "4294967296",
  "18446744073709551617",
  "99999999999999999999999999",
  "1.5",
  "0x10",
  "1e",
  "--1",
  "+",
  ".",
  "1/2/3",
  "1//3",
  "1///",
  "/1",
  "1/x",
  "\u0661",
  "\uff11",
  "\u00a0",
  "\ud83d\ude00",
  "\ud800",
  "v",
  "f",
  "#",
  "",
];
