import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { markWalkableTriangles } from "../../src/generate/rasterize.js";
import type { CompactHeightfield } from "../../src/generate/types.js";
import { binTriangles, buildTileCompact } from "../../src/tiles/build-tile.js";
import {
  compactHeightfieldByteLength,
  deserializeCompactHeightfield,
  serializeCompactHeightfield,
} from "../../src/tiles/compact-codec.js";
import { createTileGrid } from "../../src/tiles/tile-grid.js";
import { makeChf, type SpanSpec } from "../helpers/hand-chf.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

/** Every field of a compact heightfield, arrays as plain number lists (type included). */
function fields(chf: CompactHeightfield) {
  return {
    scalars: [
      chf.width,
      chf.depth,
      chf.spanCount,
      chf.walkableHeightVoxels,
      chf.walkableClimbVoxels,
      chf.borderSize,
      ...chf.bmin,
      ...chf.bmax,
      chf.cellSize,
      chf.cellHeight,
    ],
    arrays: (["cellFirst", "cellCount", "spanY", "spanH", "spanCon", "areas"] as const).map((k) => [
      chf[k].constructor.name,
      Array.from(chf[k]),
    ]),
  };
}

/** A real tile heightfield: a floor with a box and a ramp, tile (1, 1) of 16-cell tiles. */
function tileChf(): CompactHeightfield {
  const mesh = new SceneBuilder()
    .floor(0, 0, 20, 20)
    .box(9, 0, 9, 3, 2, 2, 0.4)
    .ramp(4, 10, 12, 14, 0, 1.2)
    .build();
  const cfg = resolveConfig({ cellSize: 0.3, cellHeight: 0.1, agentRadius: 0.4, tileSize: 16 });
  const { bmin, bmax } = { bmin: [0, 0, 0] as const, bmax: [20, 3, 20] as const };
  const grid = createTileGrid([...bmin], [...bmax], cfg);
  const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize);
  const { areas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
  return buildTileCompact(mesh, areas, bins, grid, cfg, 1, 1)!;
}

describe("compact heightfield blocks (serializeCompactHeightfield)", () => {
  it("round-trip a tile's heightfield exactly, arrays viewing the block in place", () => {
    const chf = tileChf();
    expect(chf.spanCount).toBeGreaterThan(500);
    const block = serializeCompactHeightfield(chf);
    expect(block.length).toBe(compactHeightfieldByteLength(chf));
    expect(block.length).toBe(96 + chf.width * chf.depth * 6 + chf.spanCount * 9);
    const back = deserializeCompactHeightfield(block);
    expect(fields(back)).toEqual(fields(chf));
    expect(back.spanY.buffer).toBe(block.buffer);
    expect(Buffer.from(serializeCompactHeightfield(back)).equals(Buffer.from(block))).toBe(true);
  });

  it("read a block at an unaligned offset by copying", () => {
    const chf = tileChf();
    const block = serializeCompactHeightfield(chf);
    const shifted = new Uint8Array(block.length + 1);
    shifted.set(block, 1);
    const back = deserializeCompactHeightfield(shifted.subarray(1));
    expect(back.spanY.buffer).not.toBe(shifted.buffer);
    expect(fields(back)).toEqual(fields(chf));
  });

  it("round-trip any hand-built heightfield (property)", () => {
    const span = fc.tuple(
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: 0, max: 63 }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.array(span, { maxLength: 3 }), { minLength: 49, maxLength: 49 }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (w, d, cols, x0) => {
          const chf = makeChf(w, d, cols.slice(0, w * d) as SpanSpec[][], 3, 2);
          chf.bmin = [x0, -1 / 3, 0.1];
          chf.borderSize = w >> 1;
          const back = deserializeCompactHeightfield(serializeCompactHeightfield(chf));
          expect(fields(back)).toEqual(fields(chf));
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });

  it("reject damaged blocks with INVALID_INPUT naming the byte", () => {
    const chf = makeChf(2, 2, [[[0, 10, 63]], [[0, 10, 63]], [], [[5, 10, 63]]]);
    const good = serializeCompactHeightfield(chf);
    const poke = (b: Uint8Array, at: number, v: number) => {
      b[at] = v;
      return b;
    };
    const cases: [string, (b: Uint8Array) => Uint8Array, RegExp][] = [
      ["truncated", (b) => b.subarray(0, 50), /truncated: the header needs 96 bytes.* at byte 50/],
      ["magic", (b) => poke(b, 0, 0), /not a compact heightfield block at byte 0/],
      ["length", (b) => b.subarray(0, b.length - 1), /length 146, the header says 147 at byte 146/],
      // cellFirst[1] = 2 (should be 1)
      ["cellFirst", (b) => poke(b, 96 + 4, 2), /column 1 starts at span 2, expected 1 at byte 100/],
      // span 0's +x link (direction 2) to index 5 of a one-span column
      [
        "link",
        (b) => poke(b, 96 + 16 + 2, 5),
        /span 0 links \(direction 2\) outside its neighbour column at byte 112/,
      ],
    ];
    for (const [, damage, message] of cases) {
      const e = thrownMeshwayError(() => deserializeCompactHeightfield(damage(good.slice())));
      expect(e.code).toBe("INVALID_INPUT");
      expect(e.message).toMatch(message);
    }
  });
});
