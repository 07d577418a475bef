/*
 * An adaptive binary range coder (the LZMA "rc" scheme, Pavlov; after Martin's range coding,
 * 1979): every bit is coded with an 11-bit probability that moves 1/32 of the way toward each
 * bit seen, so the cost of a bit follows what its context has held so far. Models (contexts)
 * are plain Uint16Array slices, one entry per binary decision. On top: small unsigned and
 * signed integers as a zero flag, a sign and an Elias-gamma magnitude with an adaptive bit
 * per prefix position (cheap for the near-zero residuals the tile codec feeds it), and 8-bit
 * symbols as a binary tree of 255 decisions.
 *
 * Decoding never reads out of range: past the end of its input it reads zero bytes, so a
 * damaged stream only decodes to wrong values, which the caller checks.
 */

const PROB_BITS = 11;
const PROB_ONE = 1 << PROB_BITS;
const MOVE_BITS = 5;
const TOP = 2 ** 24;
const U32 = 2 ** 32;

/** Probabilities of `n` binary decisions, all starting at one half. */
export function newModel(n: number): Uint16Array {
  return new Uint16Array(n).fill(PROB_ONE >>> 1);
}

/** Slots an integer model needs (see encodeUint). */
export const INT_MODEL_SIZE = 2 + 2 * 32;
/** Slots a byte model needs (see encodeByte). */
export const BYTE_MODEL_SIZE = 256;

export class RangeEncoder {
  private low = 0;
  private range = 0xffffffff;
  private cache = 0;
  private cacheSize = 1;
  private out = new Uint8Array(1024);
  private n = 0;
  /** The first byte out is always 0 (the empty carry cache): it is left out. */
  private first = true;

  private put(b: number): void {
    if (this.first) {
      this.first = false;
      return;
    }
    if (this.n === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.n++] = b;
  }

  private shiftLow(): void {
    if (this.low < 0xff000000 || this.low >= U32) {
      const carry = this.low >= U32 ? 1 : 0;
      let temp = this.cache;
      do {
        this.put((temp + carry) & 0xff);
        temp = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = Math.floor(this.low / TOP) & 0xff;
    }
    this.cacheSize++;
    this.low = (this.low % TOP) * 256;
  }

  bit(model: Uint16Array, i: number, bit: number): void {
    const p = model[i]!;
    const bound = (this.range >>> PROB_BITS) * p;
    if (bit === 0) {
      this.range = bound;
      model[i] = p + ((PROB_ONE - p) >>> MOVE_BITS);
    } else {
      this.low += bound;
      this.range -= bound;
      model[i] = p - (p >>> MOVE_BITS);
    }
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.shiftLow();
    }
  }

  /** `v` ≥ 0 (below 2^31) in the integer model at `at` (INT_MODEL_SIZE slots). */
  uint(model: Uint16Array, at: number, v: number): void {
    if (v === 0) {
      this.bit(model, at, 0);
      return;
    }
    this.bit(model, at, 1);
    this.magnitude(model, at, v);
  }

  /** Any integer of magnitude below 2^31 in the integer model at `at`. */
  sint(model: Uint16Array, at: number, v: number): void {
    if (v === 0) {
      this.bit(model, at, 0);
      return;
    }
    this.bit(model, at, 1);
    this.bit(model, at + 1, v < 0 ? 1 : 0);
    this.magnitude(model, at, Math.abs(v));
  }

  /** m ≥ 1 as Elias gamma: k = ⌊log2 m⌋ in unary (adaptive), then its k low bits. */
  private magnitude(model: Uint16Array, at: number, m: number): void {
    const k = 31 - Math.clz32(m);
    for (let j = 0; j < k; j++) this.bit(model, at + 2 + j, 1);
    if (k < 31) this.bit(model, at + 2 + k, 0);
    for (let j = k - 1; j >= 0; j--) this.bit(model, at + 34 + j, (m >>> j) & 1);
  }

  /** An 8-bit symbol in the byte model at `at` (BYTE_MODEL_SIZE slots). */
  byte(model: Uint16Array, at: number, v: number): void {
    let node = 1;
    for (let j = 7; j >= 0; j--) {
      const b = (v >>> j) & 1;
      this.bit(model, at + node, b);
      node = (node << 1) | b;
    }
  }

  finish(): Uint8Array {
    for (let i = 0; i < 5; i++) this.shiftLow();
    return this.out.slice(0, this.n);
  }
}

export class RangeDecoder {
  private range = 0xffffffff;
  private code = 0;
  private ip: number;

  constructor(
    private readonly src: Uint8Array,
    start = 0,
  ) {
    this.ip = start;
    // The encoder's first byte (always 0) is not stored: the code starts with the next four.
    for (let i = 0; i < 4; i++) this.code = (this.code * 256 + this.next()) >>> 0;
  }

  private next(): number {
    const b = this.ip < this.src.length ? this.src[this.ip]! : 0;
    this.ip++;
    return b;
  }

  /** True when decoding has read past the end of the input (the stream was cut short). */
  overran(): boolean {
    return this.ip > this.src.length;
  }

  bit(model: Uint16Array, i: number): number {
    const p = model[i]!;
    const bound = (this.range >>> PROB_BITS) * p;
    let bit: number;
    if (this.code < bound) {
      this.range = bound;
      model[i] = p + ((PROB_ONE - p) >>> MOVE_BITS);
      bit = 0;
    } else {
      this.code -= bound;
      this.range -= bound;
      model[i] = p - (p >>> MOVE_BITS);
      bit = 1;
    }
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.code = (this.code * 256 + this.next()) >>> 0;
    }
    return bit;
  }

  uint(model: Uint16Array, at: number): number {
    return this.bit(model, at) === 0 ? 0 : this.magnitude(model, at);
  }

  sint(model: Uint16Array, at: number): number {
    if (this.bit(model, at) === 0) return 0;
    const negative = this.bit(model, at + 1) === 1;
    const m = this.magnitude(model, at);
    return negative ? -m : m;
  }

  private magnitude(model: Uint16Array, at: number): number {
    let k = 0;
    while (k < 31 && this.bit(model, at + 2 + k) === 1) k++;
    let m = 1;
    for (let j = k - 1; j >= 0; j--) m = m * 2 + this.bit(model, at + 34 + j);
    return m;
  }

  byte(model: Uint16Array, at: number): number {
    let node = 1;
    for (let j = 0; j < 8; j++) node = (node << 1) | this.bit(model, at + node);
    return node & 0xff;
  }
}
