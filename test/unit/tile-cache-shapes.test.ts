import { describe, expect, it } from "vitest";
import { NULL_AREA, WALKABLE_AREA } from "../../src/generate/types.js";
import {
  areaVolumeBounds,
  markObstacle,
  type ObstacleShape,
  obstacleBounds,
  orientedBoxCorners,
  validateAreaVolume,
  validateObstacleShape,
} from "../../src/tiles/obstacles.js";
import { gridChf } from "../helpers/hand-chf.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

/** A width × depth all-walkable floor (cell size 1, floor at y = 0). */
function floor(width: number, depth: number) {
  return gridChf(Array.from({ length: depth }, () => ".".repeat(width)));
}

/** The floor as rows: '.' walkable, 'x' null. */
function picture(chf: ReturnType<typeof floor>): string[] {
  const rows: string[] = [];
  for (let z = 0; z < chf.depth; z++) {
    let row = "";
    for (let x = 0; x < chf.width; x++) {
      const a = chf.areas[chf.cellFirst[x + z * chf.width]!]!;
      row += a === NULL_AREA ? "x" : a === WALKABLE_AREA ? "." : String(a);
    }
    rows.push(row);
  }
  return rows;
}

describe("obstacle shapes", () => {
  it("a cylinder marks the cells whose centres lie strictly inside its circle", () => {
    const chf = floor(7, 7);
    markObstacle(
      chf,
      validateObstacleShape({ kind: "cylinder", center: [3.5, -1, 3.5], radius: 1.6, height: 3 }),
    );
    expect(picture(chf)).toEqual([
      ".......",
      ".......",
      "..xxx..",
      "..xxx..",
      "..xxx..",
      ".......",
      ".......",
    ]);
  });

  it("an axis box marks every column its extent reaches", () => {
    const chf = floor(6, 5);
    markObstacle(
      chf,
      validateObstacleShape({ kind: "box", min: [1.2, -1, 1.5], max: [3.1, 2, 2.9] }),
    );
    expect(picture(chf)).toEqual(["......", ".xxx..", ".xxx..", "......", "......"]);
  });

  it("an oriented box at yaw 0 marks the same cells as the prism of its footprint", () => {
    const chf = floor(8, 8);
    markObstacle(
      chf,
      validateObstacleShape({
        kind: "orientedBox",
        center: [4, 0, 4],
        halfExtents: [2, 1, 1],
        yawRadians: 0,
      }),
    );
    expect(picture(chf)).toEqual([
      "........",
      "........",
      "........",
      "..xxxx..",
      "..xxxx..",
      "........",
      "........",
      "........",
    ]);
  });

  it("an oriented box turned a quarter turn swaps its footprint's x and z extents", () => {
    const chf = floor(8, 8);
    markObstacle(
      chf,
      validateObstacleShape({
        kind: "orientedBox",
        center: [4, 0, 4],
        halfExtents: [2, 1, 1],
        yawRadians: Math.PI / 2,
      }),
    );
    expect(picture(chf)).toEqual([
      "........",
      "........",
      "...xx...",
      "...xx...",
      "...xx...",
      "...xx...",
      "........",
      "........",
    ]);
  });

  it("a diagonal oriented box marks a diamond (cell centres inside the rotated square)", () => {
    const chf = floor(9, 9);
    const h = 2.5 / Math.SQRT2;
    markObstacle(
      chf,
      validateObstacleShape({
        kind: "orientedBox",
        center: [4.5, 0, 4.5],
        halfExtents: [h, 1, h],
        yawRadians: Math.PI / 4,
      }),
    );
    expect(picture(chf)).toEqual([
      ".........",
      ".........",
      "....x....",
      "...xxx...",
      "..xxxxx..",
      "...xxx...",
      "....x....",
      ".........",
      ".........",
    ]);
  });

  it("a prism marks the cells inside its convex footprint, in either winding", () => {
    const tri = [1, 1, 6, 1, 1, 6];
    const a = floor(7, 7);
    const b = floor(7, 7);
    markObstacle(a, validateObstacleShape({ kind: "prism", points: tri, minY: -1, maxY: 1 }));
    const reversed = [1, 6, 6, 1, 1, 1];
    markObstacle(b, validateObstacleShape({ kind: "prism", points: reversed, minY: -1, maxY: 1 }));
    expect(picture(a)).toEqual([
      ".......",
      ".xxxx..",
      ".xxx...",
      ".xx....",
      ".x.....",
      ".......",
      ".......",
    ]);
    expect(picture(b)).toEqual(picture(a));
  });

  it("a shape above or below the floor's height marks nothing", () => {
    const chf = floor(5, 5);
    markObstacle(chf, validateObstacleShape({ kind: "box", min: [0, 1, 0], max: [5, 3, 5] }));
    markObstacle(
      chf,
      validateObstacleShape({ kind: "cylinder", center: [2.5, -3, 2.5], radius: 2, height: 2 }),
    );
    expect(picture(chf).join("")).not.toContain("x");
  });

  it("oriented box corners turn counter-clockwise from above like SceneBuilder.box", () => {
    const c = orientedBoxCorners([0, 0, 0], [2, 1, 1], Math.PI / 2);
    expect(c.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, -2, -1, -2, -1, 2, 1, 2]);
  });

  it("bounds cover each shape", () => {
    expect(obstacleBounds({ kind: "cylinder", center: [1, 2, 3], radius: 0.5, height: 4 })).toEqual(
      { bmin: [0.5, 2, 2.5], bmax: [1.5, 6, 3.5] },
    );
    expect(obstacleBounds({ kind: "box", min: [0, 1, 2], max: [3, 4, 5] })).toEqual({
      bmin: [0, 1, 2],
      bmax: [3, 4, 5],
    });
    const ob = obstacleBounds({
      kind: "orientedBox",
      center: [10, 1, 20],
      halfExtents: [2, 1, 1],
      yawRadians: Math.PI / 2,
    });
    expect(ob.bmin.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([9, 0, 18]);
    expect(ob.bmax.map((v) => Math.round(v * 1e9) / 1e9)).toEqual([11, 2, 22]);
    expect(
      obstacleBounds({ kind: "prism", points: [0, 0, 4, 1, 1, 3], minY: -1, maxY: 2 }),
    ).toEqual({ bmin: [0, -1, 0], bmax: [4, 2, 3] });
    expect(
      areaVolumeBounds({
        kind: "convex",
        points: [0, 9, 0, 4, 9, 1, 1, 9, 3],
        minY: -1,
        maxY: 2,
        area: 3,
      }),
    ).toEqual({ bmin: [0, -1, 0], bmax: [4, 2, 3] });
  });

  it("validation copies the shape, so later edits by the caller change nothing", () => {
    const center: [number, number, number] = [1, 0, 1];
    const shape = validateObstacleShape({ kind: "cylinder", center, radius: 1, height: 1 });
    center[0] = 50;
    expect(shape).toEqual({ kind: "cylinder", center: [1, 0, 1], radius: 1, height: 1 });
    expect(Object.isFrozen(shape)).toBe(true);
  });
});

describe("invalid shapes throw MeshwayError naming the field", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", null, /obstacle: shape must be an object/],
    ["unknown kind", { kind: "sphere" }, /kind must be one of cylinder, box, orientedBox, prism/],
    [
      "NaN centre",
      { kind: "cylinder", center: [0, Number.NaN, 0], radius: 1, height: 1 },
      /center\[1\] must be a finite number, got NaN/,
    ],
    [
      "short centre",
      { kind: "cylinder", center: [0, 0], radius: 1, height: 1 },
      /center must have 3 components/,
    ],
    [
      "zero radius",
      { kind: "cylinder", center: [0, 0, 0], radius: 0, height: 1 },
      /radius must be > 0, got 0/,
    ],
    [
      "negative height",
      { kind: "cylinder", center: [0, 0, 0], radius: 1, height: -2 },
      /height must be > 0, got -2/,
    ],
    [
      "inverted box",
      { kind: "box", min: [0, 0, 5], max: [1, 1, 4] },
      /max\[2\] must be > min\[2\] \(5\), got 4/,
    ],
    [
      "flat oriented box",
      { kind: "orientedBox", center: [0, 0, 0], halfExtents: [1, 0, 1], yawRadians: 0 },
      /halfExtents\[1\] must be > 0/,
    ],
    [
      "infinite yaw",
      { kind: "orientedBox", center: [0, 0, 0], halfExtents: [1, 1, 1], yawRadians: Infinity },
      /yawRadians must be a finite number/,
    ],
    [
      "odd point list",
      { kind: "prism", points: [0, 0, 1, 0, 1], minY: 0, maxY: 1 },
      /points.length must be a multiple of 2, got 5/,
    ],
    [
      "two points",
      { kind: "prism", points: [0, 0, 1, 0], minY: 0, maxY: 1 },
      /points must have at least 3 points, got 2/,
    ],
    [
      "concave prism",
      { kind: "prism", points: [0, 0, 4, 0, 1, 1, 0, 4], minY: 0, maxY: 1 },
      /points must be a convex polygon/,
    ],
    [
      "collinear prism",
      { kind: "prism", points: [0, 0, 1, 0, 2, 0], minY: 0, maxY: 1 },
      /points must be a convex polygon/,
    ],
    [
      "inverted prism height",
      { kind: "prism", points: [0, 0, 1, 0, 0, 1], minY: 2, maxY: 1 },
      /maxY must be > minY \(2\), got 1/,
    ],
  ];
  for (const [name, shape, message] of cases) {
    it(name, () => {
      const e = thrownMeshwayError(() => validateObstacleShape(shape as ObstacleShape));
      expect(e.code).toBe("INVALID_ARGUMENT");
      expect(e.message).toMatch(message);
    });
  }

  it("area volumes name a bad area id or field", () => {
    expect(
      thrownMeshwayError(() =>
        validateAreaVolume({ kind: "box", min: [0, 0, 0], max: [1, 1, 1], area: 64 }),
      ).message,
    ).toMatch(/area volume: area must be an integer in \[0, 63\], got 64/);
    expect(
      thrownMeshwayError(() =>
        validateAreaVolume({
          kind: "convex",
          points: [0, 0, 0, 1, 0, 0],
          minY: 0,
          maxY: 1,
          area: 2,
        }),
      ).message,
    ).toMatch(/points must have at least 3 points/);
  });
});

describe("obstacles beyond float32's range (huge-obstacle)", () => {
  it.each([
    [
      { kind: "orientedBox", center: [0, 0, 0], halfExtents: [1e39, 1, 1e39], yawRadians: 0 },
      /reach x = -1e\+39/,
    ],
    [{ kind: "prism", points: [0, 0, 4e38, 0, 0, 4e38], minY: 0, maxY: 1 }, /reach x = 4e\+38/],
    [{ kind: "cylinder", center: [3e38, 0, 0], radius: 1e38, height: 1 }, /reach x = 4e\+38/],
    [{ kind: "box", min: [0, -1e39, 0], max: [1, 0, 1] }, /reach y = -1e\+39/],
  ] as const)("refuses %j instead of silently marking nothing", (shape, message) => {
    const e = thrownMeshwayError(() => validateObstacleShape(shape as never, "addObstacle"));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/^addObstacle: bounds .*beyond float32's ±3\.4e38/);
  });

  it("still accepts a 1e38 obstacle", () => {
    const s = {
      kind: "orientedBox",
      center: [0, 0, 0],
      halfExtents: [1e38, 1, 1e38],
      yawRadians: 0,
    } as const;
    expect(validateObstacleShape(s as never).kind).toBe("orientedBox");
  });
});
