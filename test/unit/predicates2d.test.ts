import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { betweenOnLineXZ, onSegmentXZ, triArea2XZ } from "../../src/math/predicates2d.js";

/** Recast's area2 (RecastContour.cpp / RecastMesh.cpp), written out as Recast does. */
function recastArea2(ax: number, az: number, bx: number, bz: number, cx: number, cz: number) {
  return (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
}

/** Detour's dtTriArea2D, written out as Detour does. */
function detourTriArea2D(ax: number, az: number, bx: number, bz: number, cx: number, cz: number) {
  const abx = bx - ax;
  const abz = bz - az;
  const acx = cx - ax;
  const acz = cz - az;
  return acx * abz - abx * acz;
}

const coord = fc.integer({ min: -(2 ** 20), max: 2 ** 20 });
const float = fc.double({ min: -1e4, max: 1e4, noNaN: true });

describe("triArea2XZ: one orientation convention", () => {
  it("is positive for a counter-clockwise turn seen from +Y (c left of a→b), negative clockwise, 0 collinear", () => {
    expect(triArea2XZ(0, 0, 1, 0, 0, -1)).toBe(1);
    expect(triArea2XZ(0, 0, 1, 0, 0, 1)).toBe(-1);
    expect(triArea2XZ(0, 0, 2, 2, 5, 5)).toBe(0);
    // Twice the area: the unit right triangle gives ±1, a 2 × 3 one ±6.
    expect(Math.abs(triArea2XZ(0, 0, 2, 0, 0, 3))).toBe(6);
  });

  it("equals Detour's dtTriArea2D exactly, and Recast's area2 with b and c swapped (property)", () => {
    fc.assert(
      fc.property(float, float, float, float, float, float, (ax, az, bx, bz, cx, cz) => {
        return (
          Object.is(triArea2XZ(ax, az, bx, bz, cx, cz), detourTriArea2D(ax, az, bx, bz, cx, cz)) &&
          Object.is(triArea2XZ(ax, az, cx, cz, bx, bz), recastArea2(ax, az, bx, bz, cx, cz))
        );
      }),
      { numRuns: 3000, seed: 2 },
    );
  });

  it("swapping b and c negates it exactly for integer cells (property)", () => {
    fc.assert(
      fc.property(coord, coord, coord, coord, coord, coord, (ax, az, bx, bz, cx, cz) => {
        return triArea2XZ(ax, az, bx, bz, cx, cz) === -triArea2XZ(ax, az, cx, cz, bx, bz);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe("onSegmentXZ and betweenOnLineXZ: two contracts", () => {
  it("onSegmentXZ: exactly on the closed segment (ends included), nothing else", () => {
    expect(onSegmentXZ(0, 0, 4, 4, 2, 2)).toBe(true);
    expect(onSegmentXZ(0, 0, 4, 4, 0, 0)).toBe(true);
    expect(onSegmentXZ(0, 0, 4, 4, 4, 4)).toBe(true);
    expect(onSegmentXZ(0, 0, 4, 4, 5, 5)).toBe(false); // on the line, past the end
    expect(onSegmentXZ(0, 0, 4, 4, 2, 3)).toBe(false); // off the line, inside the box
    expect(onSegmentXZ(1, 0, 1, 4, 1, 2)).toBe(true); // vertical in X: decided on Z
    expect(onSegmentXZ(1, 0, 1, 4, 1, 5)).toBe(false);
  });

  it("betweenOnLineXZ: the extent test alone (callers know the points are collinear)", () => {
    expect(betweenOnLineXZ(0, 0, 4, 4, 2, 2)).toBe(true);
    expect(betweenOnLineXZ(0, 0, 4, 4, 5, 5)).toBe(false);
    // Off the line but within the X extent: true — collinearity is the caller's to check.
    expect(betweenOnLineXZ(0, 0, 4, 4, 2, 3)).toBe(true);
    expect(betweenOnLineXZ(4, 0, 0, 0, 3, 9)).toBe(true);
  });

  it("onSegmentXZ = collinear and between, for integer points (property)", () => {
    fc.assert(
      fc.property(coord, coord, coord, coord, coord, coord, (ax, az, bx, bz, cx, cz) => {
        const expected =
          triArea2XZ(ax, az, bx, bz, cx, cz) === 0 &&
          Math.min(ax, bx) <= cx &&
          cx <= Math.max(ax, bx) &&
          Math.min(az, bz) <= cz &&
          cz <= Math.max(az, bz);
        return onSegmentXZ(ax, az, bx, bz, cx, cz) === expected;
      }),
      { numRuns: 2000, seed: 4 },
    );
  });
});
