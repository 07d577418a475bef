import { describe, expect, it } from "vitest";
import {
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
} from "../../src/generate/filter.js";
import { addSpan, createHeightfield } from "../../src/generate/heightfield.js";
import type { Heightfield } from "../../src/generate/types.js";

type Span = [min: number, max: number, area: number];

/** A width × depth grid (unit cells) whose column x + z * width holds columns[x + z * width]. */
function build(width: number, depth: number, columns: Span[][]): Heightfield {
  const hf = createHeightfield(width, depth, [0, 0, 0], [width, 100, depth], 1, 1);
  columns.forEach((spans, c) => {
    for (const [min, max, area] of spans) {
      addSpan(hf, c % width, Math.floor(c / width), min, max, area, 0);
    }
  });
  return hf;
}

function areasOf(hf: Heightfield, x: number, z: number): number[] {
  const out: number[] = [];
  for (let s = hf.columnHead[x + z * hf.width]!; s !== -1; s = hf.spans[s * 2 + 1]!) {
    out.push(hf.spanArea[s]!);
  }
  return out;
}

describe("filterLowHangingWalkableObstacles", () => {
  const climb = 2;
  const one = (spans: Span[]): number[] => {
    const hf = build(1, 1, [spans]);
    filterLowHangingWalkableObstacles(hf, climb);
    return areasOf(hf, 0, 0);
  };

  it("makes an obstacle whose top is exactly walkableClimb above a walkable top walkable, copying its area", () => {
    expect(
      one([
        [0, 2, 7],
        [3, 4, 0],
      ]),
    ).toEqual([7, 7]);
  });

  it("leaves an obstacle walkableClimb + 1 above unwalkable", () => {
    expect(
      one([
        [0, 2, 7],
        [3, 5, 0],
      ]),
    ).toEqual([7, 0]);
  });

  it("does not climb a stack of obstacles step by step", () => {
    expect(
      one([
        [0, 2, 7],
        [3, 4, 0],
        [5, 6, 0],
      ]),
    ).toEqual([7, 7, 0]);
  });

  it("leaves walkable spans and a non-walkable lowest span unchanged", () => {
    expect(
      one([
        [0, 2, 0],
        [3, 4, 5],
        [5, 6, 9],
      ]),
    ).toEqual([0, 5, 9]);
  });
});

describe("filterWalkableLowHeightSpans", () => {
  const height = 3;
  const one = (spans: Span[]): number[] => {
    const hf = build(1, 1, [spans]);
    filterWalkableLowHeightSpans(hf, height);
    return areasOf(hf, 0, 0);
  };

  it("keeps a span whose clearance equals walkableHeight", () => {
    expect(
      one([
        [0, 2, 63],
        [5, 6, 63],
      ]),
    ).toEqual([63, 63]);
  });

  it("clears a span whose clearance is walkableHeight - 1", () => {
    expect(
      one([
        [0, 2, 63],
        [4, 6, 63],
      ]),
    ).toEqual([0, 63]);
  });

  it("treats the top span of a column as having unlimited clearance", () => {
    expect(one([[0, 90, 63]])).toEqual([63]);
  });
});

describe("filterLedgeSpans", () => {
  const height = 5;
  const climb = 2;
  const floor: Span = [0, 10, 63];

  /** 3 × 3 grid of floors at y = 10, with the given columns replaced; returns centre areas. */
  function centre(replace: Record<number, Span[]> = {}): { hf: Heightfield; areas: number[] } {
    const cols: Span[][] = [];
    for (let c = 0; c < 9; c++) cols.push(replace[c] ?? [floor]);
    const hf = build(3, 3, cols);
    filterLedgeSpans(hf, height, climb);
    return { hf, areas: areasOf(hf, 1, 1) };
  }
  // Column indices of the centre's neighbours.
  const MINUS_Z = 1;
  const MINUS_X = 3;
  const PLUS_X = 5;
  const PLUS_Z = 7;

  it("clears every walkable span on the grid edge and keeps a flat interior", () => {
    const { hf, areas } = centre();
    expect(areas).toEqual([63]);
    for (let z = 0; z < 3; z++) {
      for (let x = 0; x < 3; x++) if (x !== 1 || z !== 1) expect(areasOf(hf, x, z)).toEqual([0]);
    }
  });

  it("keeps a span whose neighbour is exactly walkableClimb lower", () => {
    expect(centre({ [MINUS_Z]: [[0, 8, 63]] }).areas).toEqual([63]);
  });

  it("clears a span whose neighbour is walkableClimb + 1 lower (a ledge)", () => {
    expect(centre({ [MINUS_Z]: [[0, 7, 63]] }).areas).toEqual([0]);
  });

  it("clears a span next to an empty column (a drop to nothing)", () => {
    expect(centre({ [PLUS_X]: [] }).areas).toEqual([0]);
  });

  it("ignores a neighbour much higher than walkableClimb (a wall, not a ledge)", () => {
    expect(centre({ [MINUS_X]: [[0, 40, 63]] }).areas).toEqual([63]);
  });

  it("counts non-walkable neighbour floors like walkable ones", () => {
    expect(centre({ [MINUS_X]: [[0, 10, 0]] }).areas).toEqual([63]);
  });

  it("clears a span whose reachable neighbour floors spread more than walkableClimb", () => {
    // +climb on one side, -climb on the other: spread 2 * climb.
    expect(centre({ [MINUS_Z]: [[0, 12, 63]], [PLUS_Z]: [[0, 8, 63]] }).areas).toEqual([0]);
    // +climb and level: spread exactly climb.
    expect(centre({ [MINUS_Z]: [[0, 12, 63]] }).areas).toEqual([63]);
  });

  it("treats an opening under a neighbour's lowest span of exactly walkableHeight as a drop", () => {
    // Neighbour has only an overhang starting 5 (= walkableHeight) above the floor.
    expect(centre({ [PLUS_Z]: [[15, 16, 63]] }).areas).toEqual([0]);
    // One lower, the opening is too low to pass and the overhang's top is out of reach.
    expect(centre({ [PLUS_Z]: [[14, 16, 63]] }).areas).toEqual([63]);
  });

  it("ignores a lower neighbour floor when the shared opening is below walkableHeight", () => {
    // Centre ceiling at 16; the neighbour's floor at 3 is 7 down, but its own ceiling at 13
    // leaves only 13 - 10 = 3 < 5 of shared opening: no way down.
    const cols: Span[][] = Array.from({ length: 9 }, () => [floor]);
    cols[4] = [floor, [16, 30, 63]];
    cols[MINUS_X] = [
      [0, 3, 63],
      [13, 30, 63],
    ];
    let hf = build(3, 3, cols);
    filterLedgeSpans(hf, height, climb);
    expect(areasOf(hf, 1, 1)).toEqual([63, 0]);
    // With the neighbour's ceiling at 15 the opening is exactly 5: the drop counts.
    cols[MINUS_X] = [
      [0, 3, 63],
      [15, 30, 63],
    ];
    hf = build(3, 3, cols);
    filterLedgeSpans(hf, height, climb);
    expect(areasOf(hf, 1, 1)).toEqual([0, 0]);
  });

  it("leaves non-walkable spans untouched", () => {
    const { areas } = centre({ 4: [[0, 10, 0]], [PLUS_X]: [] });
    expect(areas).toEqual([0]);
  });
});
