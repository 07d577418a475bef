import { describe, expect, it } from "vitest";
import { buildRegionsMonotone, sweepMonotoneRows } from "../../src/build/regions-monotone.js";
import {
  BORDER_REGION,
  type CompactHeightfield,
  NOT_CONNECTED,
  NULL_AREA,
  WALKABLE_AREA,
} from "../../src/build/types.js";

/** One open span: floor y, clearance h, area id. */
type SpanSpec = [y: number, h: number, area: number];

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/**
 * Hand-built compact heightfield. Neighbour links follow Recast's compact build: the first
 * (lowest) span of the neighbour column whose gap overlaps by >= walkableHeight and whose floor
 * differs by <= walkableClimb.
 */
function makeChf(
  width: number,
  depth: number,
  columns: SpanSpec[][],
  walkableHeight = 2,
  walkableClimb = 1,
): CompactHeightfield {
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const flat: SpanSpec[] = [];
  for (let c = 0; c < width * depth; c++) {
    const col = columns[c] ?? [];
    cellFirst[c] = flat.length;
    cellCount[c] = col.length;
    flat.push(...col);
  }
  const n = flat.length;
  const spanY = new Uint16Array(n);
  const spanH = new Uint16Array(n);
  const areas = new Uint8Array(n);
  const spanCon = new Uint32Array(n);
  flat.forEach(([y, h, a], i) => {
    spanY[i] = y;
    spanH[i] = h;
    areas[i] = a;
  });
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      for (let i = cellFirst[c]!; i < cellFirst[c]! + cellCount[c]!; i++) {
        let con = 0;
        for (let dir = 0; dir < 4; dir++) {
          let link = NOT_CONNECTED;
          const nx = x + DX[dir]!;
          const nz = z + DZ[dir]!;
          if (nx >= 0 && nz >= 0 && nx < width && nz < depth) {
            const nc = nx + nz * width;
            for (let k = 0; k < cellCount[nc]!; k++) {
              const j = cellFirst[nc]! + k;
              const bot = Math.max(spanY[i]!, spanY[j]!);
              const top = Math.min(spanY[i]! + spanH[i]!, spanY[j]! + spanH[j]!);
              if (top - bot >= walkableHeight && Math.abs(spanY[j]! - spanY[i]!) <= walkableClimb) {
                link = k;
                break;
              }
            }
          }
          con |= link << (8 * dir);
        }
        spanCon[i] = con >>> 0;
      }
    }
  }
  return {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: walkableHeight,
    walkableClimbVoxels: walkableClimb,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [width, 10, depth],
    cellSize: 1,
    cellHeight: 1,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    areas,
  };
}

/** Single-level floor from rows (row index = z): '#' walkable, 'x' null area, '.' no span. */
function floorChf(rows: string[]): CompactHeightfield {
  const depth = rows.length;
  const width = rows[0]!.length;
  const columns: SpanSpec[][] = [];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const ch = rows[z]![x];
      columns.push(
        ch === "#" ? [[0, 0xffff, WALKABLE_AREA]] : ch === "x" ? [[0, 0xffff, NULL_AREA]] : [],
      );
    }
  }
  return makeChf(width, depth, columns);
}

/** Region id of the single span of each column as rows of numbers (-1 = no span). */
function regionGrid(chf: CompactHeightfield, spanRegion: Uint16Array): number[][] {
  const out: number[][] = [];
  for (let z = 0; z < chf.depth; z++) {
    const row: number[] = [];
    for (let x = 0; x < chf.width; x++) {
      const c = x + z * chf.width;
      row.push(chf.cellCount[c] === 0 ? -1 : spanRegion[chf.cellFirst[c]!]!);
    }
    out.push(row);
  }
  return out;
}

describe("buildRegionsMonotone", () => {
  it("a plain rectangle becomes one region", () => {
    const chf = floorChf(["######", "######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 0, 0, 0);
    expect([...new Set(spanRegion)]).toEqual([1]);
    expect(regionCount).toBe(1);
  });

  it("a U opening towards -z splits into two arms and the joining row", () => {
    const chf = floorChf(["##..##", "##..##", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, -1, -1, 2, 2],
      [1, 1, -1, -1, 2, 2],
      [3, 3, 3, 3, 3, 3],
    ]);
    expect(regionCount).toBe(3);
  });

  it("a U opening towards +z splits where one row region forks into two", () => {
    const chf = floorChf(["######", "##..##", "##..##"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 1, 1, 1, 1],
      [2, 2, -1, -1, 3, 3],
      [2, 2, -1, -1, 3, 3],
    ]);
  });

  it("null-area spans get region 0 and cut sweeps", () => {
    const chf = floorChf(["##x##", "##x##"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 0, 2, 2],
      [1, 1, 0, 2, 2],
    ]);
  });

  it("spans of different area ids never share a region", () => {
    const chf = floorChf(["####", "####"]);
    chf.areas[chf.cellFirst[2]!] = 5;
    chf.areas[chf.cellFirst[3]!] = 5;
    chf.areas[chf.cellFirst[6]!] = 5;
    chf.areas[chf.cellFirst[7]!] = 5;
    const { spanRegion } = buildRegionsMonotone(chf, 0, 0, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, 2, 2],
      [1, 1, 2, 2],
    ]);
  });

  it("regions smaller than minRegionArea are removed", () => {
    const chf = floorChf(["##...####", "##...####"]);
    const { spanRegion } = buildRegionsMonotone(chf, 0, 5, 0);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [0, 0, -1, -1, -1, 1, 1, 1, 1],
      [0, 0, -1, -1, -1, 1, 1, 1, 1],
    ]);
  });

  it("borderSize > 0 paints four BORDER_REGION strips and sweeps only the inside", () => {
    const chf = floorChf(["######", "######", "######", "######", "######", "######"]);
    const { spanRegion, regionCount } = buildRegionsMonotone(chf, 1, 0, 0);
    const grid = regionGrid(chf, spanRegion);
    for (let z = 0; z < 6; z++) {
      for (let x = 0; x < 6; x++) {
        const inside = x >= 1 && x < 5 && z >= 1 && z < 5;
        if (inside) expect(grid[z]![x]).toBe(1);
        else expect(grid[z]![x]! & BORDER_REGION).toBe(BORDER_REGION);
      }
    }
    // Unlike Recast (which would call it 5 of 6), empty border placeholder ids get no number.
    expect(regionCount).toBe(1);
  });

  it("the sweep alone numbers regions row by row and returns the next free id", () => {
    const chf = floorChf(["##.##", "#####", "##.##"]);
    const spanRegion = new Uint16Array(chf.spanCount);
    const next = sweepMonotoneRows(chf, spanRegion, 0, 1);
    expect(next).toBe(6);
    expect(regionGrid(chf, spanRegion)).toEqual([
      [1, 1, -1, 2, 2],
      [3, 3, 3, 3, 3],
      [4, 4, -1, 5, 5],
    ]);
  });

  it("is deterministic: the same input gives identical ids", () => {
    const chf = floorChf(["#.#.####", "########", "##.##..#", "########"]);
    const a = buildRegionsMonotone(chf, 0, 0, 0);
    const b = buildRegionsMonotone(chf, 0, 0, 0);
    expect(Buffer.from(a.spanRegion.buffer)).toEqual(Buffer.from(b.spanRegion.buffer));
    expect(a.regionCount).toBe(b.regionCount);
  });
});
