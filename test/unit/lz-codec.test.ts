import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { serializeCompactHeightfield } from "../../src/tiles/compact-codec.js";
import { lzCompress, lzDecompress } from "../../src/tiles/lz-codec.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { packCompactBlock, unpackCompactBlock } from "../../src/tiles/tile-pack.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

describe("lz-codec", () => {
  it("round-trips any bytes, and runs-heavy bytes shrink", () => {
    const bytesArb = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc
        .array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 600 })), {
          maxLength: 20,
        })
        .map((runs) => Uint8Array.from(runs.flatMap(([v, n]) => new Array<number>(n).fill(v)))),
    );
    fc.assert(
      fc.property(bytesArb, (src) => {
        const z = lzCompress(src);
        expect(lzDecompress(z, src.length, "t")).toEqual(src);
      }),
      { numRuns: 300, seed: 17 },
    );
    const zeros = new Uint8Array(100_000);
    expect(lzCompress(zeros).length).toBeLessThan(500);
    expect(lzCompress(new Uint8Array(0))).toEqual(new Uint8Array([0]));
  });

  it("refuses malformed data with the byte, never reading or writing out of range", () => {
    const src = new TextEncoder().encode("abcabcabcabcabcabcabcabc-meshway-meshway-meshway");
    const z = lzCompress(src);
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        return (e as Error).message;
      }
      return "ok";
    };
    expect(msg(() => lzDecompress(z, src.length + 1, "blk"))).toMatch(
      /^blk: decoded \d+ bytes, expected \d+ at byte \d+$/,
    );
    expect(msg(() => lzDecompress(z, src.length - 1, "blk"))).toMatch(/past the decoded size/);
    expect(msg(() => lzDecompress(z.subarray(0, z.length - 3), src.length, "blk"))).toMatch(
      /^blk: /,
    );
    expect(msg(() => lzDecompress(new Uint8Array([0x00, 0x05, 0x00]), 10, "blk"))).toMatch(
      /offset 5 points before the start/,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(400), (junk, len) => {
        const m = msg(() => lzDecompress(junk, len, "j"));
        expect(m === "ok" || m.startsWith("j: ")).toBe(true);
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it("tile-pack round-trips a real compact heightfield block and makes it compress", () => {
    const scene = new SceneBuilder().floor(0, 0, 40, 40).box(10, -0.5, 10, 3, 3, 2).build();
    const { cache } = createTileCache(scene, { cellSize: 0.5, cellHeight: 0.2, tileSize: 16 });
    const state = cache.exportState();
    const chf = state.tiles.find((t) => t !== null)!.chf;
    const block = serializeCompactHeightfield(chf);
    const packed = packCompactBlock(block);
    expect(unpackCompactBlock(packed)).toEqual(block);
    expect(lzCompress(packed).length).toBeLessThan(lzCompress(block).length);
    expect(lzCompress(packed).length).toBeLessThan(block.length / 8);
  });

  it("tile-pack restores every heightfield of a multi-storey level exactly (links recomputed)", () => {
    const { cache } = createTileCache(loadSharedMesh("dungeon"), { tileSize: 32 });
    let tiles = 0;
    for (const t of cache.exportState().tiles) {
      if (!t) continue;
      const block = serializeCompactHeightfield(t.chf);
      expect(unpackCompactBlock(packCompactBlock(block))).toEqual(block);
      tiles++;
    }
    expect(tiles).toBeGreaterThan(4);
  });
});
