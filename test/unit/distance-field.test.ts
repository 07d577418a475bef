import { describe, expect, it } from "vitest";
import { buildDistanceField } from "../../src/build/distance-field.js";
import {
  type CompactHeightfield,
  NOT_CONNECTED,
  NULL_AREA,
  WALKABLE_AREA,
} from "../../src/build/types.js";

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/**
 * Single-layer compact heightfield from a picture: row r is z = r, character c is x = c.
 * '.' walkable span, 'x' span with NULL_AREA, '1'..'9' span with that area id, ' ' no span.
 * Every two spans in neighbouring columns are connected.
 */
function gridChf(rows: string[]): CompactHeightfield {
  const depth = rows.length;
  const width = Math.max(...rows.map((r) => r.length));
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const areaList: number[] = [];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const ch = rows[z]![x] ?? " ";
      const c = x + z * width;
      cellFirst[c] = areaList.length;
      if (ch === " ") continue;
      cellCount[c] = 1;
      areaList.push(ch === "." ? WALKABLE_AREA : ch === "x" ? NULL_AREA : Number(ch));
    }
  }
  const n = areaList.length;
  const spanCon = new Uint32Array(n);
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      if (cellCount[c] === 0) continue;
      let con = 0;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d]!;
        const nz = z + DZ[d]!;
        const ok = nx >= 0 && nz >= 0 && nx < width && nz < depth && cellCount[nx + nz * width];
        con |= (ok ? 0 : NOT_CONNECTED) << (8 * d);
      }
      spanCon[cellFirst[c]!] = con >>> 0;
    }
  }
  return {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: 10,
    walkableClimbVoxels: 4,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [width, 10, depth],
    cellSize: 1,
    cellHeight: 1,
    cellFirst,
    cellCount,
    spanY: new Uint16Array(n),
    spanH: new Uint16Array(n).fill(100),
    spanCon,
    areas: Uint8Array.from(areaList),
  };
}

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
