import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCompactHeightfield } from "../../src/generate/compact.js";
import { erodeNewObstructions, erodeWalkableArea } from "../../src/generate/erode.js";
import { NULL_AREA } from "../../src/generate/types.js";
import { flatHeightfield } from "../helpers/hand-heightfield.js";

/** A width × depth floor with holes, two heights (steps the links cross or not). */
function field(width: number, depth: number, holes: boolean[], high: boolean[]) {
  return buildCompactHeightfield(
    flatHeightfield(width, depth, (x, z) => {
      const k = x + z * width;
      return holes[k] ? null : high[k] ? 3 : 1;
    }),
    2,
    1,
  );
}

describe("erodeNewObstructions", () => {
  it("gives exactly erodeWalkableArea of the obstructed areas, for any obstruction and radius", () => {
    const w = 14;
    const d = 12;
    const cells = w * d;
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: cells, maxLength: cells }),
        fc.array(fc.boolean(), { minLength: cells, maxLength: cells }),
        fc.array(fc.nat(cells - 1), { maxLength: 8 }),
        fc.integer({ min: 0, max: 4 }),
        (holeBits, highBits, blocked, radius) => {
          const holes = holeBits.map((b, i) => b && i % 5 === 0);
          const high = highBits.map((b, i) => b && i % 3 === 0);
          const chf = field(w, d, holes, high);
          const before = chf.areas.slice();
          const erodedBefore = before.slice();
          erodeWalkableArea({ ...chf, areas: erodedBefore }, radius);
          const after = before.slice();
          for (const c of blocked) {
            for (let i = chf.cellFirst[c]!; i < chf.cellFirst[c]! + chf.cellCount[c]!; i++) {
              after[i] = NULL_AREA;
            }
          }
          const expected = after.slice();
          erodeWalkableArea({ ...chf, areas: expected }, radius);
          const out = new Uint8Array(chf.spanCount);
          erodeNewObstructions(chf, before, after, erodedBefore, radius, out);
          expect(Array.from(out)).toEqual(Array.from(expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("copies the earlier erosion and reports false when no span changed", () => {
    const chf = field(6, 6, [], []);
    const eroded = chf.areas.slice();
    erodeWalkableArea({ ...chf, areas: eroded }, 1);
    const out = new Uint8Array(chf.spanCount);
    expect(erodeNewObstructions(chf, chf.areas, chf.areas.slice(), eroded, 1, out)).toBe(false);
    expect(Array.from(out)).toEqual(Array.from(eroded));
  });
});
