import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildCompactHeightfield } from "../../src/generate/compact.js";
import { computeBoundaryDistance, erodeWalkableArea } from "../../src/generate/erode.js";
import {
  type CompactHeightfield,
  type Heightfield,
  NULL_AREA,
  WALKABLE_AREA,
} from "../../src/generate/types.js";
import { flatHeightfield } from "../helpers/hand-heightfield.js";

/** A width×depth floor: one walkable solid span [0, 1) per column (none where `solid` is false). */
function flatSolidField(
  width: number,
  depth: number,
  solid: (x: number, z: number) => boolean = () => true,
): Heightfield {
  return flatHeightfield(width, depth, (x, z) => (solid(x, z) ? 1 : null));
}

function flatField(width: number, depth: number, solid?: (x: number, z: number) => boolean) {
  return buildCompactHeightfield(flatSolidField(width, depth, solid), 2, 1);
}

/** Walkable cells as "x,z" strings, for readable comparisons (one span per column here). */
function walkableCells(chf: CompactHeightfield): Set<string> {
  const out = new Set<string>();
  for (let z = 0; z < chf.depth; z++) {
    for (let x = 0; x < chf.width; x++) {
      const c = x + z * chf.width;
      for (let i = chf.cellFirst[c]!; i < chf.cellFirst[c]! + chf.cellCount[c]!; i++) {
        if (chf.areas[i] !== NULL_AREA) out.add(`${x},${z}`);
      }
    }
  }
  return out;
}

function rect(x0: number, z0: number, x1: number, z1: number): Set<string> {
  const out = new Set<string>();
  for (let z = z0; z <= z1; z++) for (let x = x0; x <= x1; x++) out.add(`${x},${z}`);
  return out;
}

/** Span index of column (x, z) in a one-span-per-column field. */
function spanAt(chf: CompactHeightfield, x: number, z: number): number {
  return chf.cellFirst[x + z * chf.width]!;
}

describe("erodeWalkableArea", () => {
  it("radius 1 on a flat 10×10 floor removes exactly the outer ring", () => {
    const chf = flatField(10, 10);
    erodeWalkableArea(chf, 1);
    expect(walkableCells(chf)).toEqual(rect(1, 1, 8, 8));
  });

  it("radius 2 on a flat 10×10 floor leaves exactly the 6×6 interior", () => {
    const chf = flatField(10, 10);
    erodeWalkableArea(chf, 2);
    expect(walkableCells(chf)).toEqual(rect(2, 2, 7, 7));
  });

  it("radius 3 on a flat 10×10 floor leaves exactly the 4×4 interior", () => {
    const chf = flatField(10, 10);
    erodeWalkableArea(chf, 3);
    expect(walkableCells(chf)).toEqual(rect(3, 3, 6, 6));
  });

  it("radius 0 changes nothing", () => {
    const chf = flatField(10, 10);
    erodeWalkableArea(chf, 0);
    expect(walkableCells(chf).size).toBe(100);
  });

  it("a NULL_AREA span erodes its 4-neighbours at radius 1 but not its diagonals", () => {
    const chf = flatField(10, 10);
    chf.areas[spanAt(chf, 5, 5)] = NULL_AREA;
    erodeWalkableArea(chf, 1);
    const expected = rect(1, 1, 8, 8);
    for (const cell of ["5,5", "4,5", "6,5", "5,4", "5,6"]) expected.delete(cell);
    expect(walkableCells(chf)).toEqual(expected);
  });

  it("a missing column acts like an obstacle", () => {
    const chf = flatField(10, 10, (x, z) => !(x === 5 && z === 5));
    erodeWalkableArea(chf, 1);
    const expected = rect(1, 1, 8, 8);
    for (const cell of ["5,5", "4,5", "6,5", "5,4", "5,6"]) expected.delete(cell);
    expect(walkableCells(chf)).toEqual(expected);
  });

  it("diagonal steps cost 3 half-cells: at radius 2 a knight's-move cell from a hole erodes", () => {
    const chf = flatField(16, 16);
    chf.areas[spanAt(chf, 8, 8)] = NULL_AREA;
    const dist = new Uint8Array(chf.spanCount);
    computeBoundaryDistance(chf, dist);
    expect(dist[spanAt(chf, 8, 8)]).toBe(0);
    expect(dist[spanAt(chf, 9, 8)]).toBe(0); // next to the hole: boundary
    expect(dist[spanAt(chf, 9, 9)]).toBe(2); // diagonal: one straight step from a boundary span
    expect(dist[spanAt(chf, 10, 9)]).toBe(3); // one diagonal step from (9, 8)
    expect(dist[spanAt(chf, 10, 10)]).toBe(5);
    expect(dist[spanAt(chf, 10, 8)]).toBe(2);
    erodeWalkableArea(chf, 2);
    expect(chf.areas[spanAt(chf, 10, 9)]).toBe(NULL_AREA);
    expect(chf.areas[spanAt(chf, 10, 10)]).toBe(WALKABLE_AREA);
    expect(chf.areas[spanAt(chf, 11, 8)]).toBe(WALKABLE_AREA);
  });

  it("matches the 2-3 chamfer distance to the nearest boundary span on random obstacle sets", () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let trial = 0; trial < 20; trial++) {
      const w = 5 + Math.floor(rand() * 30);
      const d = 5 + Math.floor(rand() * 30);
      const chf = flatField(w, d);
      const density = rand() * 0.1;
      for (let i = 0; i < chf.spanCount; i++) if (rand() < density) chf.areas[i] = NULL_AREA;
      const boundary: [number, number][] = [];
      for (let z = 0; z < d; z++) {
        for (let x = 0; x < w; x++) {
          const edge = x === 0 || z === 0 || x === w - 1 || z === d - 1;
          const nullAt = (xx: number, zz: number) => chf.areas[spanAt(chf, xx, zz)] === NULL_AREA;
          if (
            edge ||
            nullAt(x, z) ||
            nullAt(x - 1, z) ||
            nullAt(x + 1, z) ||
            nullAt(x, z - 1) ||
            nullAt(x, z + 1)
          ) {
            boundary.push([x, z]);
          }
        }
      }
      const dist = new Uint8Array(chf.spanCount);
      computeBoundaryDistance(chf, dist);
      for (let z = 0; z < d; z++) {
        for (let x = 0; x < w; x++) {
          let best = 255;
          for (const [bx, bz] of boundary) {
            const dx = Math.abs(bx - x);
            const dz = Math.abs(bz - z);
            const lo = Math.min(dx, dz);
            best = Math.min(best, 3 * lo + 2 * (Math.max(dx, dz) - lo));
          }
          expect(dist[spanAt(chf, x, z)]).toBe(best);
        }
      }
    }
  });

  it("distances saturate at 255 on a large open floor", () => {
    const chf = flatField(300, 300);
    const dist = new Uint8Array(chf.spanCount);
    computeBoundaryDistance(chf, dist);
    expect(dist[spanAt(chf, 150, 150)]).toBe(255);
    expect(dist[spanAt(chf, 50, 100)]).toBe(100);
  });

  it("only follows connections: a floor at another height is a separate component", () => {
    // Left half at height 1, right half at height 10: no links across x = 4|5.
    const hf = flatSolidField(10, 10);
    for (let z = 0; z < 10; z++)
      for (let x = 5; x < 10; x++)
        hf.spans[(x + z * 10) * 2] = (hf.spans[(x + z * 10) * 2]! & 0xffff) | (10 << 16);
    const chf = buildCompactHeightfield(hf, 2, 1);
    erodeWalkableArea(chf, 1);
    const expected = new Set([...rect(1, 1, 3, 8), ...rect(6, 1, 8, 8)]);
    expect(walkableCells(chf)).toEqual(expected);
  });

  it("keeps NULL_AREA spans NULL and leaves other area ids as they were", () => {
    const chf = flatField(10, 10);
    chf.areas[spanAt(chf, 3, 3)] = 5;
    chf.areas[spanAt(chf, 0, 0)] = NULL_AREA;
    erodeWalkableArea(chf, 1);
    expect(chf.areas[spanAt(chf, 3, 3)]).toBe(5);
    expect(chf.areas[spanAt(chf, 0, 0)]).toBe(NULL_AREA);
  });

  it("a radius past the 255 half-cell range erodes everything (no 8-bit wrap of 2 * radius)", () => {
    const chf = flatField(10, 10);
    erodeWalkableArea(chf, 128);
    expect(walkableCells(chf).size).toBe(0);
  });

  it("rejects a negative or NaN radius", () => {
    const chf = flatField(3, 3);
    expect(() => erodeWalkableArea(chf, -1)).toThrow(MeshwayError);
    expect(() => erodeWalkableArea(chf, Number.NaN)).toThrow(MeshwayError);
  });

  it("leaves an empty field empty (no span, nothing written)", () => {
    const chf = flatField(3, 3, () => false);
    expect(chf.spanCount).toBe(0);
    expect(Array.from(chf.cellCount)).toEqual(new Array(9).fill(0));
    erodeWalkableArea(chf, 2);
    expect(chf.spanCount).toBe(0);
    expect(Array.from(chf.areas)).toEqual([]);
    expect(walkableCells(chf)).toEqual(new Set());
  });

  it("erodes a field narrower than twice the radius to nothing, every span NULL_AREA", () => {
    const chf = flatField(3, 3);
    erodeWalkableArea(chf, 2);
    expect(Array.from(chf.areas)).toEqual(new Array(9).fill(NULL_AREA));
  });
});
