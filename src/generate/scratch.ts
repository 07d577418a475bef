/**
 * Scratch memory shared by the build stages, the way Recast's stages reuse one heap: a few
 * numbered slots of raw bytes, each viewed as whatever typed array the current stage needs.
 * Stages run one after another, so stages that never overlap share slots and the build's
 * scratch costs the largest stage's need rather than the sum of all stages. Buffers are kept
 * between builds (allocating and zeroing a fresh multi-megabyte array costs about a pass over
 * it) unless larger than MAX_RETAINED_BYTES. Contents are garbage on entry: write before read.
 *
 * Slot owners (per span of the compact heightfield, n spans):
 *  0  region neighbour table (16n); the solid heightfield's dead span pool is adopted here
 *  1, 2, 3  also the filter's open-span records (clearance, area, floor) before the compact stage
 *  1  span → column (erosion, distance field) / pending spans (watershed)
 *  2  erosion distance / raw distance field / watershed seed distance
 *  3  distance-field span order / watershed spans by level
 *  4, 5  watershed sweep assignments
 */
const MAX_RETAINED_BYTES = 1 << 26;
const buffers: (ArrayBuffer | undefined)[] = [];

function scratchBuffer(slot: number, bytes: number): ArrayBuffer {
  let buf = buffers[slot];
  if (buf === undefined || buf.byteLength < bytes) {
    const grown = Math.min(MAX_RETAINED_BYTES, (buf?.byteLength ?? 0) * 2);
    // Multiple of 8 so every view type fits.
    buf = new ArrayBuffer((Math.max(bytes, grown) + 7) & ~7);
    buffers[slot] = buf.byteLength <= MAX_RETAINED_BYTES ? buf : undefined;
  }
  return buf;
}

/**
 * The raw buffer of slot `slot`, at least `bytes` long. Pages a stage never touches are not
 * resident, so reserving a later stage's need here costs no memory until that stage runs.
 */
export function scratchBytes(slot: number, bytes: number): ArrayBuffer {
  return scratchBuffer(slot, bytes);
}

/**
 * Hands a dead buffer to slot `slot` (e.g. a finished stage's pool), so the next stage that
 * needs that slot reuses its already resident pages instead of allocating more. Ignored when
 * the slot already holds at least as much or the buffer is too large to retain.
 */
export function adoptScratch(slot: number, buffer: ArrayBuffer): void {
  const current = buffers[slot];
  if (buffer.byteLength > MAX_RETAINED_BYTES) return;
  if (current !== undefined && current.byteLength >= buffer.byteLength) return;
  buffers[slot] = buffer;
}

/** An Int32Array of exactly `length` elements over scratch slot `slot`. */
export function scratchInt32(slot: number, length: number): Int32Array {
  return new Int32Array(scratchBuffer(slot, length * 4), 0, length);
}

/** A Uint16Array of exactly `length` elements over scratch slot `slot`. */
export function scratchUint16(slot: number, length: number): Uint16Array {
  return new Uint16Array(scratchBuffer(slot, length * 2), 0, length);
}

/** A Uint8Array of exactly `length` elements over scratch slot `slot`. */
export function scratchUint8(slot: number, length: number): Uint8Array {
  return new Uint8Array(scratchBuffer(slot, length), 0, length);
}

/** Lets go of every retained scratch buffer (their memory returns at the next collection). */
export function releaseScratch(): void {
  buffers.length = 0;
}
