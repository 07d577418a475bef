import { describe, expect, it } from "vitest";
import { BuildContext } from "../../src/generate/context.js";
import { buildDistanceField } from "../../src/generate/distance-field.js";
import { mergeAndFilterRegions, paintBorderRegions } from "../../src/generate/region-common.js";
import { buildRegionsWatershed } from "../../src/generate/regions-watershed.js";
import {
  BORDER_REGION,
  type CompactHeightfield,
  NOT_CONNECTED,
  NULL_AREA,
  WALKABLE_AREA,
} from "../../src/generate/types.js";
import { gridChf } from "../helpers/hand-chf.js";

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/**
 * Several stacked layers, each a picture as in gridChf ('.' walkable, ' ' none). Layer k's
 * spans stand at y = 50k with clearance 40; spans connect only within their layer.
 */
function layeredChf(layers: string[][]): CompactHeightfield {
  const depth = layers[0]!.length;
  const width = Math.max(...layers.flatMap((l) => l.map((r) => r.length)));
  const present = (k: number, x: number, z: number): boolean =>
    x >= 0 && z >= 0 && x < width && z < depth && (layers[k]![z]![x] ?? " ") !== " ";
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const spanY: number[] = [];
  const spanCon: number[] = [];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c = x + z * width;
      cellFirst[c] = spanY.length;
      for (let k = 0; k < layers.length; k++) {
        if (!present(k, x, z)) continue;
        let con = 0;
        for (let d = 0; d < 4; d++) {
          const nx = x + DX[d]!;
          const nz = z + DZ[d]!;
          let link = NOT_CONNECTED;
          if (present(k, nx, nz)) {
            link = 0;
            for (let q = 0; q < k; q++) if (present(q, nx, nz)) link++;
          }
          con |= link << (8 * d);
        }
        spanY.push(50 * k);
        spanCon.push(con >>> 0);
        cellCount[c]!++;
      }
    }
  }
  const n = spanY.length;
  return {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: 10,
    walkableClimbVoxels: 4,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [width, 50 * layers.length, depth],
    cellSize: 1,
    cellHeight: 1,
    cellFirst,
    cellCount,
    spanY: Uint16Array.from(spanY),
    spanH: new Uint16Array(n).fill(40),
    spanCon: Uint32Array.from(spanCon),
    areas: new Uint8Array(n).fill(WALKABLE_AREA),
  };
}

/**
 * The same heightfield with its columns stored in reverse order in memory. Returns it and
 * `perm`, where span `j` of the copy is span `perm[j]` of the original.
 */
function reversedLayout(chf: CompactHeightfield): { chf: CompactHeightfield; perm: number[] } {
  const cols = chf.width * chf.depth;
  const perm: number[] = [];
  const cellFirst = new Uint32Array(cols);
  for (let c = cols - 1; c >= 0; c--) {
    cellFirst[c] = perm.length;
    for (let k = 0; k < chf.cellCount[c]!; k++) perm.push(chf.cellFirst[c]! + k);
  }
  const pick = <T extends Uint8Array | Uint16Array | Uint32Array>(a: T): T =>
    a.map((_, j) => a[perm[j]!]!) as T;
  return {
    chf: {
      ...chf,
      cellFirst,
      cellCount: chf.cellCount.slice(),
      spanY: pick(chf.spanY),
      spanH: pick(chf.spanH),
      spanCon: pick(chf.spanCon),
      areas: pick(chf.areas),
    },
    perm,
  };
}

/** Region id of the span in column (x, z); -1 when the column is empty. */
function regionAt(chf: CompactHeightfield, spanRegion: Uint16Array, x: number, z: number): number {
  const c = x + z * chf.width;
  return chf.cellCount[c] ? spanRegion[chf.cellFirst[c]!]! : -1;
}

/** spanRegion from a picture of single-digit region ids ('0'..'9'), one span per non-space. */
function paintedRegions(chf: CompactHeightfield, rows: string[]): Uint16Array {
  const reg = new Uint16Array(chf.spanCount);
  for (let z = 0; z < rows.length; z++) {
    for (let x = 0; x < rows[z]!.length; x++) {
      const ch = rows[z]![x]!;
      if (ch !== " ") reg[chf.cellFirst[x + z * chf.width]!] = Number(ch);
    }
  }
  return reg;
}

function regionRows(chf: CompactHeightfield, spanRegion: Uint16Array): string[] {
  const rows: string[] = [];
  for (let z = 0; z < chf.depth; z++) {
    let row = "";
    for (let x = 0; x < chf.width; x++) {
      const r = regionAt(chf, spanRegion, x, z);
      row += r < 0 ? " " : r.toString(36);
    }
    rows.push(row);
  }
  return rows;
}

function watershed(chf: CompactHeightfield, minArea: number, mergeArea: number, borderSize = 0) {
  const ctx = new BuildContext();
  const regions = buildRegionsWatershed(
    chf,
    buildDistanceField(chf),
    borderSize,
    minArea,
    mergeArea,
    ctx,
  );
  return { ...regions, ctx };
}

/** Two 8×8 rooms joined by a one-cell-wide doorway two cells long. */
const TWO_ROOMS = [
  "........  ........",
  "........  ........",
  "........  ........",
  "..................",
  "........  ........",
  "........  ........",
  "........  ........",
  "........  ........",
];

describe("paintBorderRegions", () => {
  it("paints the -x, +x, -z, +z strips with flagged ids in that order and returns the next id", () => {
    const chf = gridChf(["......", "......", "......", "..x...", "......", "......"]);
    const reg = new Uint16Array(chf.spanCount);
    expect(paintBorderRegions(chf, reg, 1, 1)).toBe(5);
    const B = BORDER_REGION;
    // Corners belong to the later (z) strips.
    expect(regionAt(chf, reg, 0, 0)).toBe(3 | B);
    expect(regionAt(chf, reg, 5, 5)).toBe(4 | B);
    expect(regionAt(chf, reg, 0, 2)).toBe(1 | B);
    expect(regionAt(chf, reg, 5, 2)).toBe(2 | B);
    expect(regionAt(chf, reg, 2, 0)).toBe(3 | B);
    expect(regionAt(chf, reg, 2, 5)).toBe(4 | B);
    expect(regionAt(chf, reg, 2, 2)).toBe(0);
  });

  it("paints nothing and returns the first id when borderSize is 0", () => {
    const chf = gridChf(["...", "..."]);
    const reg = new Uint16Array(chf.spanCount);
    expect(paintBorderRegions(chf, reg, 0, 7)).toBe(7);
    expect(Array.from(reg)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("skips NULL_AREA spans", () => {
    const chf = gridChf(["x.", ".."]);
    const reg = new Uint16Array(chf.spanCount);
    paintBorderRegions(chf, reg, 1, 1);
    expect(regionAt(chf, reg, 0, 0)).toBe(0);
  });
});

describe("mergeAndFilterRegions", () => {
  it("merges a small region into its smallest neighbour", () => {
    const rows = ["111111332222", "111111332222", "111111332222"];
    const chf = gridChf(["............", "............", "............"]);
    const reg = paintedRegions(chf, rows);
    // Region 3 (6 spans) touches 1 (18 spans) and 2 (12 spans): it joins 2.
    const n = mergeAndFilterRegions(chf, reg, 3, 0, 10);
    expect(n).toBe(2);
    expect(regionRows(chf, reg)).toEqual(["111111222222", "111111222222", "111111222222"]);
  });

  it("keeps regions above the merge size that touch a wall", () => {
    const rows = ["111111332222", "111111332222", "111111332222"];
    const chf = gridChf(["............", "............", "............"]);
    const reg = paintedRegions(chf, rows);
    expect(mergeAndFilterRegions(chf, reg, 3, 0, 5)).toBe(3);
    // Ids are renumbered in region order: 1, 2, 3 stay 1, 2, 3.
    expect(regionRows(chf, reg)).toEqual(rows);
  });

  it("does not merge regions of different areas", () => {
    const rows = ["111111332222", "111111332222", "111111332222"];
    const chf = gridChf(["......99....", "......99....", "......99...."]);
    const reg = paintedRegions(chf, rows);
    expect(mergeAndFilterRegions(chf, reg, 3, 0, 10)).toBe(3);
  });

  it("removes a connected group smaller than minRegionArea and compacts the ids to 1..n", () => {
    const rows = ["1111 2 3333", "1111   3333", "1111 4 3333"];
    const chf = gridChf([".... . ....", "....   ....", ".... . ...."]);
    const reg = paintedRegions(chf, rows);
    const n = mergeAndFilterRegions(chf, reg, 4, 2, 0);
    expect(n).toBe(2);
    expect(regionRows(chf, reg)).toEqual(["1111 0 2222", "1111   2222", "1111 0 2222"]);
  });

  it("reports regions that overlap themselves vertically and never merges them", () => {
    const chf = layeredChf([
      ["....", "....", "...."],
      ["....", "....", "...."],
    ]);
    const reg = new Uint16Array(chf.spanCount).fill(1);
    const ctx = new BuildContext();
    expect(mergeAndFilterRegions(chf, reg, 1, 0, 1000, ctx)).toBe(1);
    expect(ctx.warnings).toHaveLength(1);
    expect(ctx.warnings[0]).toMatch(/1 regions? overlap/);
    expect(ctx.counts["regions.overlapping"]).toBe(1);
  });

  it("never merges regions that share a column (one is a floor of the other)", () => {
    // Region 1 on layer 0, region 2 (a bridge) on layer 1 along row 1, x = 0..4; the
    // bridge's end at x = 4 is linked to the floor span at x = 5 so they are neighbours.
    const build = (floorUnderBridge: boolean) => {
      const row1 = floorUnderBridge ? "......" : "     .";
      const chf = layeredChf([
        ["......", row1, "......"],
        ["      ", ".....", "      "],
      ]);
      const under = 4 + 1 * 6; // column (4, 1): the bridge's end, maybe above floor
      const beside = 5 + 1 * 6; // column (5, 1): floor only
      const bridgeEnd = chf.cellFirst[under]! + chf.cellCount[under]! - 1;
      const floorSpan = chf.cellFirst[beside]!;
      // bridge end --(+x)--> floor span (index 0); floor span --(-x)--> bridge end.
      chf.spanCon[bridgeEnd] = (chf.spanCon[bridgeEnd]! & ~(0xff << 16)) >>> 0;
      chf.spanCon[floorSpan] =
        ((chf.spanCon[floorSpan]! & ~0xff) | (chf.cellCount[under]! - 1)) >>> 0;
      const reg = new Uint16Array(chf.spanCount);
      for (let i = 0; i < chf.spanCount; i++) reg[i] = chf.spanY[i] === 0 ? 1 : 2;
      return mergeAndFilterRegions(chf, reg, 2, 0, 1000);
    };
    expect(build(false)).toBe(1);
    expect(build(true)).toBe(2);
  });

  it("throws for a region id above regionCount (a caller bug)", () => {
    const chf = gridChf(["..."]);
    const reg = Uint16Array.from([1, 2, 3]);
    expect(() => mergeAndFilterRegions(chf, reg, 2, 0, 0)).toThrow(/regionCount/);
  });

  it("keeps small regions that touch a tile-border region", () => {
    const chf = gridChf(["....", "....", "...."]);
    const reg = new Uint16Array(chf.spanCount);
    paintBorderRegions(chf, reg, 1, 1);
    reg[chf.cellFirst[1 + 1 * 4]!] = 5;
    reg[chf.cellFirst[2 + 1 * 4]!] = 6;
    const n = mergeAndFilterRegions(chf, reg, 6, 100, 0);
    // Both survive the size filter; touching no wall (id 0), 5 is then merged into 6.
    expect(n).toBe(1);
    expect(regionAt(chf, reg, 1, 1)).toBe(1);
    expect(regionAt(chf, reg, 2, 1)).toBe(1);
    expect(regionAt(chf, reg, 0, 1)).toBe(1 | BORDER_REGION);
    expect(regionAt(chf, reg, 0, 0)).toBe(3 | BORDER_REGION);
  });
});

describe("buildRegionsWatershed", () => {
  it("splits two rooms joined by a doorway into two regions", () => {
    const chf = gridChf(TWO_ROOMS);
    const { spanRegion, regionCount } = watershed(chf, 0, 0);
    expect(regionCount).toBe(2);
    const a = regionAt(chf, spanRegion, 3, 3);
    const b = regionAt(chf, spanRegion, 14, 3);
    expect(new Set([a, b])).toEqual(new Set([1, 2]));
    for (let z = 0; z < 8; z++) {
      for (let x = 0; x < 8; x++) expect(regionAt(chf, spanRegion, x, z)).toBe(a);
      for (let x = 10; x < 18; x++) expect(regionAt(chf, spanRegion, x, z)).toBe(b);
    }
    for (const x of [8, 9]) expect([a, b]).toContain(regionAt(chf, spanRegion, x, 3));
  });

  it("removes an island smaller than minRegionArea", () => {
    const chf = gridChf([
      ".........     ",
      ".........     ",
      ".........  .. ",
      ".........  .. ",
      ".........     ",
      ".........     ",
    ]);
    const { spanRegion, regionCount } = watershed(chf, 8, 20);
    expect(regionCount).toBe(1);
    for (const [x, z] of [
      [11, 2],
      [12, 2],
      [11, 3],
      [12, 3],
    ] as const) {
      expect(regionAt(chf, spanRegion, x, z)).toBe(0);
    }
    expect(regionAt(chf, spanRegion, 4, 3)).toBe(1);
  });

  it("keeps the island when minRegionArea allows it", () => {
    const chf = gridChf([".........  .. ", ".........  .. ", ".........     "]);
    const { regionCount } = watershed(chf, 4, 0);
    expect(regionCount).toBe(2);
  });

  it("merges the doorway rooms into one region when both are below the merge size", () => {
    const chf = gridChf(TWO_ROOMS);
    const { spanRegion, regionCount } = watershed(chf, 0, 1000);
    expect(regionCount).toBe(1);
    for (let i = 0; i < chf.spanCount; i++) expect(spanRegion[i]).toBe(1);
  });

  it("gives compact ids 1..n and leaves NULL_AREA spans at 0", () => {
    const chf = gridChf([
      "......x.......x......",
      "......x.......x......",
      "......x.......x......",
      "......x.......x......",
      "......x.......x......",
    ]);
    const { spanRegion, regionCount } = watershed(chf, 0, 0);
    expect(regionCount).toBe(3);
    const ids = new Set<number>();
    for (let i = 0; i < chf.spanCount; i++) {
      if (chf.areas[i] === NULL_AREA) expect(spanRegion[i]).toBe(0);
      else ids.add(spanRegion[i]!);
    }
    expect([...ids].sort()).toEqual([1, 2, 3]);
    // Numbered in order of creation: the watershed seeds them in scan order at equal height.
    expect(regionAt(chf, spanRegion, 0, 0)).toBe(1);
    expect(regionAt(chf, spanRegion, 10, 2)).toBe(2);
    expect(regionAt(chf, spanRegion, 20, 4)).toBe(3);
  });

  it("separates areas into different regions", () => {
    const chf = gridChf(["......222222", "......222222", "......222222", "......222222"]);
    const { spanRegion, regionCount } = watershed(chf, 0, 1000);
    expect(regionCount).toBe(2);
    expect(regionAt(chf, spanRegion, 0, 0)).not.toBe(regionAt(chf, spanRegion, 11, 0));
  });

  it("keeps tile-border spans in flagged border regions and numbers the rest 1..n", () => {
    const chf = gridChf(Array.from({ length: 10 }, () => ".........."));
    const { spanRegion, regionCount } = watershed(chf, 0, 0, 2);
    expect(regionCount).toBe(1);
    expect(regionAt(chf, spanRegion, 0, 5)).toBe(1 | BORDER_REGION);
    expect(regionAt(chf, spanRegion, 9, 5)).toBe(2 | BORDER_REGION);
    expect(regionAt(chf, spanRegion, 5, 1)).toBe(3 | BORDER_REGION);
    expect(regionAt(chf, spanRegion, 5, 8)).toBe(4 | BORDER_REGION);
    for (let z = 2; z < 8; z++) {
      for (let x = 2; x < 8; x++) expect(regionAt(chf, spanRegion, x, z)).toBe(1);
    }
  });

  it("returns no regions for a heightfield without walkable spans", () => {
    const chf = gridChf(["xxx", "xxx"]);
    const { spanRegion, regionCount } = watershed(chf, 0, 0);
    expect(regionCount).toBe(0);
    expect(Array.from(spanRegion)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("gives a bridge and the floor under it different regions", () => {
    const chf = layeredChf([
      Array.from({ length: 10 }, () => ".........."),
      ["", "", "", "..........", "..........", "..........", "..........", "", "", ""],
    ]);
    const { spanRegion, regionCount, ctx } = watershed(chf, 0, 0);
    expect(regionCount).toBe(2);
    expect(ctx.warnings).toEqual([]);
    const floor = new Set<number>();
    const bridge = new Set<number>();
    for (let i = 0; i < chf.spanCount; i++) {
      (chf.spanY[i] === 0 ? floor : bridge).add(spanRegion[i]!);
    }
    expect(floor.size).toBe(1);
    expect(bridge.size).toBe(1);
    expect([...floor][0]).not.toBe([...bridge][0]);
  });

  it("gives the same result whatever order the columns are stored in", () => {
    const chf = gridChf([
      ".................",
      "....xx...........",
      ".......   .....22",
      ".......   .....22",
      "................2",
      "..........  .....",
    ]);
    const reversed = reversedLayout(chf);
    const a = watershed(chf, 2, 6);
    const b = watershed(reversed.chf, 2, 6);
    expect(b.regionCount).toBe(a.regionCount);
    expect(Array.from(b.spanRegion)).toEqual(reversed.perm.map((i) => a.spanRegion[i]));
    const da = buildDistanceField(chf);
    const db = buildDistanceField(reversed.chf);
    expect(db.maxDistance).toBe(da.maxDistance);
    expect(Array.from(db.dist)).toEqual(reversed.perm.map((i) => da.dist[i]));
  });

  it("reuses its scratch memory without carrying state between calls", () => {
    const big = gridChf(
      Array.from({ length: 30 }, (_, z) => (z % 7 === 3 ? "...   ..." : ".........").repeat(4)),
    );
    const small = gridChf(TWO_ROOMS);
    const first = watershed(big, 8, 20);
    watershed(small, 8, 20);
    const again = watershed(big, 8, 20);
    expect(Array.from(again.spanRegion)).toEqual(Array.from(first.spanRegion));
    expect(again.regionCount).toBe(first.regionCount);
  });

  it("is deterministic: two runs give identical region ids", () => {
    const chf = gridChf(TWO_ROOMS);
    const a = watershed(chf, 8, 20);
    const b = watershed(chf, 8, 20);
    expect(Array.from(a.spanRegion)).toEqual(Array.from(b.spanRegion));
  });
});

describe("buildRegionsWatershed reusing the distance field's neighbour table", () => {
  const picture = [
    "..........  ........",
    "..........  ........",
    "....................",
    "..........  ........",
    "..........  ........",
    "..........  ........",
  ];

  it("gives the same regions as a fresh build, and rebuilds the table once its slot was reused", async () => {
    const { BuildScratch } = await import("../../src/generate/scratch.js");
    const chf = gridChf(picture);
    const fresh = buildRegionsWatershed(chf, buildDistanceField(chf, new BuildScratch()), 0, 1, 4);

    const scratch = new BuildScratch();
    const ctx = new BuildContext(scratch);
    const reused = buildRegionsWatershed(chf, buildDistanceField(chf, scratch), 0, 1, 4, ctx);
    expect(reused).toEqual(fresh);

    // Another stage writes over the slot between the two: the watershed must not trust it.
    const dist = buildDistanceField(chf, scratch);
    scratch.int32("neighbours", chf.spanCount * 4).fill(-1);
    const clobbered = buildRegionsWatershed(chf, dist, 0, 1, 4, ctx);
    expect(clobbered).toEqual(fresh);
  });
});
