import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseObj } from "../../src/io/obj.js";

// parseObj reads plain decimals without making strings (obj.ts parseDecimal); every coordinate
// must still be the float32 of exactly what Number() reads, for any spelling.
const digits = (max: number) =>
  fc
    .array(fc.constantFrom(..."0123456789"), { minLength: 0, maxLength: max })
    .map((a) => a.join(""));
const plain = fc
  .tuple(fc.constantFrom("", "-", "+"), digits(8), fc.boolean(), digits(8))
  .map(([sign, int, dot, frac]) => `${sign}${int}${dot ? "." : ""}${frac}`)
  .filter((t) => /\d/.test(t));
const anyNumber = fc.oneof(
  plain,
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }).map(String),
  fc.tuple(plain, fc.integer({ min: -20, max: 20 })).map(([m, e]) => `${m}e${e}`),
);

describe("OBJ coordinates", () => {
  it("equal Math.fround(Number(token)) for every decimal spelling", () => {
    fc.assert(
      fc.property(fc.array(anyNumber, { minLength: 3, maxLength: 3 }), (xyz) => {
        const mesh = parseObj(`v ${xyz.join(" ")}\nv 0 0 1\nv 1 0 0\nf 1 2 3\n`);
        for (let k = 0; k < 3; k++) {
          expect(Object.is(mesh.positions[k], Math.fround(Number(xyz[k])))).toBe(true);
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it("keeps -0 and refuses tokens Number() would not read as decimals", () => {
    expect(Object.is(parseObj("v -0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3").positions[0], -0)).toBe(true);
    for (const bad of [".", "-", "+", "1.2.3", "--1", "1-", "0x10", "1e", "Infinity"]) {
      expect(() => parseObj(`v ${bad} 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3`)).toThrow(
        /vertex coordinate/,
      );
    }
  });
});
