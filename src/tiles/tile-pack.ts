import { linkNeighbours } from "../generate/compact.js";
import { compactHeightfieldLayout } from "./compact-codec.js";

/*
 * Reversible transform of a compact heightfield block (compact-codec.ts) that makes it
 * compress: cellFirst and spanCon are dropped (zeroed: the running sum of cellCount, and the
 * links the compaction stage derives from the spans — recomputed exactly on unpacking by the
 * same linkNeighbours, from the walkable height and climb in the header), spanY and spanH
 * become zig-zagged differences from the previous span (floors and ceilings are smooth), and
 * every multi-byte array is split into byte planes (all low bytes, then the next byte …), so
 * near-constant high bytes and connection bytes form long runs for the LZ stage (the
 * "shuffle" of Blosc). Header and area bytes are kept as they are. The block's own reader
 * checks the result whole afterwards. Host byte order, like the block itself.
 */

interface Sections {
  cells: number;
  spans: number;
  cellFirst: number;
  spanCon: number;
  width: number;
  depth: number;
  walkableHeight: number;
  walkableClimb: number;
  /** Arrays to shuffle: byte offset, element count, element size, delta-coded. */
  list: { at: number; count: number; size: 2 | 4; delta: boolean }[]; // delta: u16 only
}

function sections(block: Uint8Array): Sections | null {
  if (block.length < 96) return null;
  const dv = new DataView(block.buffer, block.byteOffset, 96);
  const cells = dv.getUint32(8, true) * dv.getUint32(12, true);
  const spans = dv.getUint32(16, true);
  const l = compactHeightfieldLayout(cells, spans);
  if (l.length !== block.length) return null;
  return {
    cells,
    spans,
    cellFirst: l.cellFirst,
    spanCon: l.spanCon,
    width: dv.getUint32(8, true),
    depth: dv.getUint32(12, true),
    walkableHeight: dv.getUint32(20, true),
    walkableClimb: dv.getUint32(24, true),
    list: [
      { at: l.cellCount, count: cells, size: 2, delta: false },
      { at: l.spanY, count: spans, size: 2, delta: true },
      { at: l.spanH, count: spans, size: 2, delta: true },
    ],
  };
}

function view(
  bytes: Uint8Array,
  at: number,
  count: number,
  size: 2 | 4,
): Uint16Array | Uint32Array {
  return size === 4
    ? new Uint32Array(bytes.buffer, bytes.byteOffset + at, count)
    : new Uint16Array(bytes.buffer, bytes.byteOffset + at, count);
}

/** Transforms a compact heightfield block for compression (a copy; the input is kept). */
export function packCompactBlock(block: Uint8Array): Uint8Array {
  const src = block.slice(); // aligned copy to view
  const out = block.slice();
  const s = sections(block);
  if (!s) return out;
  out.fill(0, s.cellFirst, s.cellFirst + 4 * s.cells);
  out.fill(0, s.spanCon, s.spanCon + 4 * s.spans);
  for (const sec of s.list) {
    const a = view(src, sec.at, sec.count, sec.size);
    let prev = 0;
    for (let i = 0; i < sec.count; i++) {
      let v = a[i]!;
      if (sec.delta) {
        const d = ((v - prev) << 16) >> 16; // the difference mod 2^16, as a signed 16-bit value
        prev = v;
        v = ((d << 1) ^ (d >> 31)) & 0xffff; // zig-zag: small ± → small
      }
      for (let b = 0; b < sec.size; b++) out[sec.at + b * sec.count + i] = (v >>> (8 * b)) & 0xff;
    }
  }
  return out;
}

/** Inverse of {@link packCompactBlock} (on a block of the same length and header). */
export function unpackCompactBlock(packed: Uint8Array): Uint8Array {
  const out = packed.slice();
  const s = sections(packed);
  if (!s) return out;
  for (const sec of s.list) {
    const a = view(out, sec.at, sec.count, sec.size);
    const n = sec.count;
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const p = sec.at + i;
      let v =
        sec.size === 4
          ? (packed[p]! |
              (packed[p + n]! << 8) |
              (packed[p + 2 * n]! << 16) |
              (packed[p + 3 * n]! << 24)) >>>
            0
          : packed[p]! | (packed[p + n]! << 8);
      if (sec.delta) {
        v = (prev + ((v >>> 1) ^ -(v & 1))) & 0xffff;
        prev = v;
      }
      a[i] = v;
    }
  }
  const cellCount = view(out, s.list[0]!.at, s.cells, 2) as Uint16Array;
  const cellFirst = view(out, s.cellFirst, s.cells, 4) as Uint32Array;
  let sum = 0;
  for (let c = 0; c < s.cells; c++) {
    cellFirst[c] = sum;
    sum += cellCount[c]!;
  }
  // Links only from columns that tile the spans (a damaged block is refused by its reader).
  if (sum !== s.spans) return out;
  linkNeighbours(
    s.width,
    s.depth,
    cellFirst,
    cellCount,
    view(out, s.list[1]!.at, s.spans, 2) as Uint16Array,
    view(out, s.list[2]!.at, s.spans, 2) as Uint16Array,
    view(out, s.spanCon, s.spans, 4) as Uint32Array,
    s.walkableHeight,
    s.walkableClimb,
  );
  return out;
}
