/**
 * Scratch memory shared by the build stages, the way Recast's stages reuse one heap: a few
 * named slots of raw bytes, each viewed as whatever typed array the current stage needs.
 * Stages run one after another, so stages that never overlap share slots and the build's
 * scratch costs the largest stage's need rather than the sum of all stages. Buffers are kept
 * between builds (allocating and zeroing a fresh multi-megabyte array costs about a pass over
 * it) unless larger than {@link MAX_RETAINED_SCRATCH_BYTES}. Contents are garbage on entry:
 * write before read.
 *
 * Slot users (n = spans of the compact heightfield, or solid spans before compaction):
 *  neighbours   span neighbour table (16n, built by the distance field, reused by the watershed);
 *               the solid heightfield's dead span pool (8 bytes/span)
 *  spanColumn   span → column (erosion); watershed pending spans; the filter's
 *               open-span clearance records
 *  distance     erosion distance; raw distance field; watershed seed distance; open-span areas
 *  spanOrder    distance-field span order; watershed spans by level; open-span floors
 *  dirtySpans   watershed ring assignments (span) and the previous ring's list; the solid
 *               heightfield's span areas
 *  dirtyValues  watershed ring assignments (value)
 *  spanMarks    watershed expansion stamps
 *
 * Retained memory is bounded: at most MAX_RETAINED_SCRATCH_BYTES (64 MiB) per slot, so at most
 * 7 × 64 MiB = 448 MiB per BuildScratch; bigger needs are allocated per build and dropped.
 * `release()` lets go of everything (memory returns at the next garbage collection).
 */
export type ScratchSlot =
  | "neighbours"
  | "spanColumn"
  | "distance"
  | "spanOrder"
  | "dirtySpans"
  | "dirtyValues"
  | "spanMarks";

/** Largest buffer a slot keeps between builds. [bytes] */
export const MAX_RETAINED_SCRATCH_BYTES = 1 << 26;

export class BuildScratch {
  private buffers: Partial<Record<ScratchSlot, ArrayBuffer>> = {};
  private handOuts: Partial<Record<ScratchSlot, number>> = {};

  /**
   * How many times `slot` has been handed out (bytes, views, adopt). A stage that leaves a
   * table in a slot for a later one records this; unchanged means nobody wrote there since.
   */
  version(slot: ScratchSlot): number {
    return this.handOuts[slot] ?? 0;
  }

  /**
   * The raw buffer of `slot`, at least `bytes` long. Pages a stage never touches are not
   * resident, so reserving a later stage's need here costs no memory until that stage runs.
   */
  bytes(slot: ScratchSlot, bytes: number): ArrayBuffer {
    this.handOuts[slot] = (this.handOuts[slot] ?? 0) + 1;
    let buf = this.buffers[slot];
    if (buf === undefined || buf.byteLength < bytes) {
      const grown = Math.min(MAX_RETAINED_SCRATCH_BYTES, (buf?.byteLength ?? 0) * 2);
      // Multiple of 8 so every view type fits.
      buf = new ArrayBuffer((Math.max(bytes, grown) + 7) & ~7);
      if (buf.byteLength <= MAX_RETAINED_SCRATCH_BYTES) this.buffers[slot] = buf;
      else delete this.buffers[slot];
    }
    return buf;
  }

  /**
   * Hands a dead buffer to `slot` (e.g. a finished stage's pool), so the next stage that
   * needs that slot reuses its already resident pages instead of allocating more. Ignored when
   * the slot already holds at least as much or the buffer is too large to retain.
   */
  adopt(slot: ScratchSlot, buffer: ArrayBuffer): void {
    this.handOuts[slot] = (this.handOuts[slot] ?? 0) + 1;
    const current = this.buffers[slot];
    if (buffer.byteLength > MAX_RETAINED_SCRATCH_BYTES) return;
    if (current !== undefined && current.byteLength >= buffer.byteLength) return;
    this.buffers[slot] = buffer;
  }

  /** An Int32Array of exactly `length` elements over `slot`. */
  int32(slot: ScratchSlot, length: number): Int32Array {
    return new Int32Array(this.bytes(slot, length * 4), 0, length);
  }

  /** A Uint16Array of exactly `length` elements over `slot`. */
  uint16(slot: ScratchSlot, length: number): Uint16Array {
    return new Uint16Array(this.bytes(slot, length * 2), 0, length);
  }

  /** A Uint8Array of exactly `length` elements over `slot`. */
  uint8(slot: ScratchSlot, length: number): Uint8Array {
    return new Uint8Array(this.bytes(slot, length), 0, length);
  }

  /** Bytes held between builds right now. */
  get retainedBytes(): number {
    let total = 0;
    for (const b of Object.values(this.buffers)) total += b?.byteLength ?? 0;
    return total;
  }

  /** Lets go of every retained buffer (their memory returns at the next collection). */
  release(): void {
    this.buffers = {};
  }
}

/**
 * The scratch a BuildContext uses unless given its own: one per thread (module instance), so
 * consecutive builds on a thread reuse its pages. Tile workers each have their own.
 */
export const sharedBuildScratch = /* @__PURE__ */ new BuildScratch();
