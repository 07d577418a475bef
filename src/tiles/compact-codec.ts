import { MeshwayError } from "../errors.js";
import { type CompactHeightfield, NOT_CONNECTED } from "../generate/types.js";
import type { Vec3 } from "../math/vec3.js";

/*
 * A compact heightfield as one byte block, for handing it between threads (a tile cache's
 * workers build each tile's heightfield and transfer the block's buffer). Not a file format:
 * the arrays are in the host's byte order and nothing is checksummed.
 *
 *    0  "MWCH", u32 version
 *    8  u32 width, depth, spanCount, walkableHeightVoxels, walkableClimbVoxels, borderSize
 *   32  f64 bmin xyz, bmax xyz, cellSize, cellHeight   (f64: the numbers round-trip exactly)
 *   96  u32 cellFirst[width * depth], u32 spanCon[spanCount],
 *       u16 cellCount[width * depth], u16 spanY[spanCount], u16 spanH[spanCount],
 *       u8 areas[spanCount]
 *
 * Widest elements first, so every array is aligned when the block is: a reader then views the
 * arrays in place (no copy).
 */

const MAGIC = [0x4d, 0x57, 0x43, 0x48]; // "MWCH"
const VERSION = 1;
const HEADER_SIZE = 96;
/** Largest column count accepted when reading (a 65536 × 65536 grid). */
const MAX_CELLS = 2 ** 32;

export interface Layout {
  cellFirst: number;
  spanCon: number;
  cellCount: number;
  spanY: number;
  spanH: number;
  areas: number;
  length: number;
}

/** Byte offsets of each array in a block of `cells` columns and `spans` spans (and its length). */
export function compactHeightfieldLayout(cells: number, spans: number): Layout {
  return layout(cells, spans);
}

function layout(cells: number, spans: number): Layout {
  const cellFirst = HEADER_SIZE;
  const spanCon = cellFirst + 4 * cells;
  const cellCount = spanCon + 4 * spans;
  const spanY = cellCount + 2 * cells;
  const spanH = spanY + 2 * spans;
  const areas = spanH + 2 * spans;
  return { cellFirst, spanCon, cellCount, spanY, spanH, areas, length: areas + spans };
}

/** Bytes {@link writeCompactHeightfield} writes for `chf`. */
export function compactHeightfieldByteLength(chf: CompactHeightfield): number {
  return layout(chf.width * chf.depth, chf.spanCount).length;
}

/**
 * Writes `chf` into `out` at `offset` (a multiple of 4 from the start of `out.buffer`, so the
 * arrays can be copied as they are); returns the offset just past it.
 */
export function writeCompactHeightfield(
  out: Uint8Array,
  offset: number,
  chf: CompactHeightfield,
): number {
  const cells = chf.width * chf.depth;
  const spans = chf.spanCount;
  const fail = (what: string): never => {
    throw new MeshwayError("INVALID_ARGUMENT", `writeCompactHeightfield: ${what}`);
  };
  if ((out.byteOffset + offset) % 4 !== 0) fail(`offset ${offset} is not 4-byte aligned`);
  if (chf.cellFirst.length !== cells || chf.cellCount.length !== cells) {
    fail(
      `cellFirst / cellCount have ${chf.cellFirst.length} / ${chf.cellCount.length} entries, the grid ${cells} columns`,
    );
  }
  for (const key of ["spanY", "spanH", "spanCon", "areas"] as const) {
    if (chf[key].length !== spans)
      fail(`${key} has ${chf[key].length} entries, spanCount is ${spans}`);
  }
  const at = layout(cells, spans);
  if (offset + at.length > out.length) fail(`${at.length} bytes do not fit at offset ${offset}`);
  const dv = new DataView(out.buffer, out.byteOffset + offset, HEADER_SIZE);
  for (let i = 0; i < 4; i++) dv.setUint8(i, MAGIC[i]!);
  dv.setUint32(4, VERSION, true);
  const ints = [
    chf.width,
    chf.depth,
    spans,
    chf.walkableHeightVoxels,
    chf.walkableClimbVoxels,
    chf.borderSize,
  ];
  for (let i = 0; i < ints.length; i++) dv.setUint32(8 + 4 * i, ints[i]!, true);
  const reals = [...chf.bmin, ...chf.bmax, chf.cellSize, chf.cellHeight];
  for (let i = 0; i < reals.length; i++) dv.setFloat64(32 + 8 * i, reals[i]!, true);
  const base = out.byteOffset + offset;
  new Uint32Array(out.buffer, base + at.cellFirst, cells).set(chf.cellFirst);
  new Uint32Array(out.buffer, base + at.spanCon, spans).set(chf.spanCon);
  new Uint16Array(out.buffer, base + at.cellCount, cells).set(chf.cellCount);
  new Uint16Array(out.buffer, base + at.spanY, spans).set(chf.spanY);
  new Uint16Array(out.buffer, base + at.spanH, spans).set(chf.spanH);
  out.set(chf.areas, offset + at.areas);
  return offset + at.length;
}

/** `chf` as a standalone block (see the layout above). */
export function serializeCompactHeightfield(chf: CompactHeightfield): Uint8Array {
  const out = new Uint8Array(compactHeightfieldByteLength(chf));
  writeCompactHeightfield(out, 0, chf);
  return out;
}

/**
 * Reads a block written by {@link serializeCompactHeightfield}. The arrays are views on
 * `block` when it is 4-byte aligned, else copies. Checks the header, the length, that
 * cellFirst / cellCount tile [0, spanCount) column by column and that every connection points
 * at a span of the neighbouring column; errors are MeshwayError("INVALID_INPUT") naming
 * `source` and the byte offset.
 */
export function deserializeCompactHeightfield(
  block: Uint8Array,
  source = "compact heightfield",
): CompactHeightfield {
  const fail = (at: number, what: string): never => {
    throw new MeshwayError("INVALID_INPUT", `${source}: ${what} at byte ${at}`);
  };
  if (!(block instanceof Uint8Array)) {
    throw new MeshwayError("INVALID_ARGUMENT", `${source}: expected a Uint8Array`);
  }
  if (block.length < HEADER_SIZE) {
    fail(
      block.length,
      `truncated: the header needs ${HEADER_SIZE} bytes, the block has ${block.length}`,
    );
  }
  for (let i = 0; i < 4; i++) if (block[i] !== MAGIC[i]) fail(0, "not a compact heightfield block");
  const dv = new DataView(block.buffer, block.byteOffset, HEADER_SIZE);
  const version = dv.getUint32(4, true);
  if (version !== VERSION) fail(4, `version ${version} (this reader knows ${VERSION})`);
  const width = dv.getUint32(8, true);
  const depth = dv.getUint32(12, true);
  const spanCount = dv.getUint32(16, true);
  const cells = width * depth;
  if (cells > MAX_CELLS) fail(8, `grid ${width} × ${depth} is too large`);
  const at = layout(cells, spanCount);
  if (at.length !== block.length) {
    fail(Math.min(at.length, block.length), `length ${block.length}, the header says ${at.length}`);
  }
  const reals: number[] = [];
  for (let i = 0; i < 8; i++) {
    const v = dv.getFloat64(32 + 8 * i, true);
    if (!Number.isFinite(v)) fail(32 + 8 * i, `non-finite bounds or cell size ${v}`);
    reals.push(v);
  }
  const aligned = block.byteOffset % 4 === 0;
  const bytes = aligned ? block : block.slice();
  const base = bytes.byteOffset;
  const buf = bytes.buffer;
  const chf: CompactHeightfield = {
    width,
    depth,
    spanCount,
    walkableHeightVoxels: dv.getUint32(20, true),
    walkableClimbVoxels: dv.getUint32(24, true),
    borderSize: dv.getUint32(28, true),
    bmin: reals.slice(0, 3) as Vec3,
    bmax: reals.slice(3, 6) as Vec3,
    cellSize: reals[6]!,
    cellHeight: reals[7]!,
    cellFirst: new Uint32Array(buf, base + at.cellFirst, cells),
    cellCount: new Uint16Array(buf, base + at.cellCount, cells),
    spanY: new Uint16Array(buf, base + at.spanY, spanCount),
    spanH: new Uint16Array(buf, base + at.spanH, spanCount),
    spanCon: new Uint32Array(buf, base + at.spanCon, spanCount),
    areas: new Uint8Array(buf, base + at.areas, spanCount),
  };
  checkColumns(chf, at, fail);
  return chf;
}

/** Columns are consecutive runs covering every span once; links stay inside neighbour columns. */
function checkColumns(
  chf: CompactHeightfield,
  at: Layout,
  fail: (at: number, what: string) => never,
): void {
  const { width, depth, cellFirst, cellCount, spanCon } = chf;
  let next = 0;
  for (let c = 0; c < width * depth; c++) {
    if (cellFirst[c] !== next) {
      fail(at.cellFirst + 4 * c, `column ${c} starts at span ${cellFirst[c]}, expected ${next}`);
    }
    next += cellCount[c]!;
  }
  if (next !== chf.spanCount) {
    fail(at.cellCount, `the columns hold ${next} spans, spanCount is ${chf.spanCount}`);
  }
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      const end = cellFirst[c]! + cellCount[c]!;
      for (let s = cellFirst[c]!; s < end; s++) {
        const con = spanCon[s]!;
        for (let d = 0; d < 4; d++) {
          const k = (con >>> (8 * d)) & 0xff;
          if (k === NOT_CONNECTED) continue;
          // Directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z.
          const nx = x + (d === 0 ? -1 : d === 2 ? 1 : 0);
          const nz = z + (d === 1 ? 1 : d === 3 ? -1 : 0);
          if (nx < 0 || nz < 0 || nx >= width || nz >= depth || k >= cellCount[nx + nz * width]!) {
            fail(
              at.spanCon + 4 * s,
              `span ${s} links (direction ${d}) outside its neighbour column`,
            );
          }
        }
      }
    }
  }
}
