import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { lzCompress, lzDecompress } from "../../src/tiles/lz-codec.js";

describe("lz-codec", () => {
  it("round-trips any bytes, and runs-heavy bytes shrink", () => {
    const bytesArb = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc
        .array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 600 })), {
          maxLength: 20,
        })
        .map((runs) => Uint8Array.from(runs.flatMap(([v, n]) => new Array<number>(n).fill(v)))),
    );
    fc.assert(
      fc.property(bytesArb, (src) => {
        const z = lzCompress(src);
        expect(lzDecompress(z, src.length, "t")).toEqual(src);
      }),
      { numRuns: 300, seed: 17 },
    );
    const zeros = new Uint8Array(100_000);
    expect(lzCompress(zeros).length).toBeLessThan(500);
    expect(lzCompress(new Uint8Array(0))).toEqual(new Uint8Array([0]));
  });

  it("refuses malformed data with the byte, never reading or writing out of range", () => {
    const src = new TextEncoder().encode("abcabcabcabcabcabcabcabc-meshway-meshway-meshway");
    const z = lzCompress(src);
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        return (e as Error).message;
      }
      return "ok";
    };
    expect(msg(() => lzDecompress(z, src.length + 1, "blk"))).toMatch(
      /^blk: decoded \d+ bytes, expected \d+ at byte \d+$/,
    );
    expect(msg(() => lzDecompress(z, src.length - 1, "blk"))).toMatch(/past the decoded size/);
    expect(msg(() => lzDecompress(z.subarray(0, z.length - 3), src.length, "blk"))).toMatch(
      /^blk: /,
    );
    expect(msg(() => lzDecompress(new Uint8Array([0x00, 0x05, 0x00]), 10, "blk"))).toMatch(
      /offset 5 points before the start/,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(400), (junk, len) => {
        const m = msg(() => lzDecompress(junk, len, "j"));
        expect(m === "ok" || m.startsWith("j: ")).toBe(true);
      }),
      { numRuns: 500, seed: 5 },
    );
  });
});
