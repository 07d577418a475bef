import { describe, expect, it } from "vitest";
import { buildDistanceField } from "../../src/generate/distance-field.js";
import type { CompactHeightfield } from "../../src/generate/types.js";
import { gridChf } from "../helpers/hand-chf.js";

/** Distance values as a picture matching gridChf's rows ('-' where there is no span). */
function distRows(chf: CompactHeightfield, dist: Uint16Array): string[] {
  const rows: string[] = [];
  for (let z = 0; z < chf.depth; z++) {
    const cells: string[] = [];
    for (let x = 0; x < chf.width; x++) {
      const c = x + z * chf.width;
      cells.push(chf.cellCount[c] ? String(dist[chf.cellFirst[c]!]) : "-");
    }
    rows.push(cells.join(" "));
  }
  return rows;
}

describe("buildDistanceField", () => {
  it("gives half-cell chamfer distances to the edge of an open 7×5 rectangle, blurred in the middle", () => {
    const chf = gridChf([".......", ".......", ".......", ".......", "......."]);
    const df = buildDistanceField(chf);
    // Before the blur the middle row is 0 2 4 4 4 2 0; maxDistance reports that.
    expect(df.maxDistance).toBe(4);
    expect(distRows(chf, df.dist)).toEqual([
      "0 0 0 0 0 0 0",
      "0 2 2 2 2 2 0",
      "0 2 3 3 3 2 0",
      "0 2 2 2 2 2 0",
      "0 0 0 0 0 0 0",
    ]);
  });

  it("uses 3 per diagonal step and blurs spans farther than one cell from the border", () => {
    const chf = gridChf(Array.from({ length: 9 }, () => "........."));
    const df = buildDistanceField(chf);
    // Raw centre distance is 8 (four straight steps); ring 3 is 6, ring 2 is 4.
    expect(df.maxDistance).toBe(8);
    const rows = distRows(chf, df.dist);
    expect(rows[0]).toBe("0 0 0 0 0 0 0 0 0");
    expect(rows[1]).toBe("0 2 2 2 2 2 2 2 0");
    // Centre: (8 + 4 * 6 + 4 * 6 + 5) / 9 rounded down = (8 + 48 + 5) / 9 = 6.
    expect(rows[4]!.split(" ")[4]).toBe("6");
    // Symmetric under the square's symmetries.
    for (let z = 0; z < 9; z++) {
      for (let x = 0; x < 9; x++) {
        const v = df.dist[chf.cellFirst[x + z * 9]!];
        expect(df.dist[chf.cellFirst[z + x * 9]!]).toBe(v);
        expect(df.dist[chf.cellFirst[8 - x + z * 9]!]).toBe(v);
      }
    }
  });

  it("treats spans next to a different area or a missing neighbour as border (distance 0)", () => {
    const chf = gridChf(["......", "......", "..22..", "......", "......"]);
    const df = buildDistanceField(chf);
    expect(distRows(chf, df.dist)).toEqual([
      "0 0 0 0 0 0",
      "0 2 0 0 2 0",
      "0 0 0 0 0 0",
      "0 2 0 0 2 0",
      "0 0 0 0 0 0",
    ]);
    expect(df.maxDistance).toBe(2);
  });

  it("returns an empty field for a heightfield without spans", () => {
    const chf = gridChf(["   ", "   "]);
    const df = buildDistanceField(chf);
    expect(df.dist.length).toBe(0);
    expect(df.maxDistance).toBe(0);
  });

  it("is deterministic: two runs give identical arrays", () => {
    const chf = gridChf([".........", "...x.....", ".........", "....  ...", "........."]);
    const a = buildDistanceField(chf);
    const b = buildDistanceField(chf);
    expect(Array.from(a.dist)).toEqual(Array.from(b.dist));
    expect(a.maxDistance).toBe(b.maxDistance);
  });
});
