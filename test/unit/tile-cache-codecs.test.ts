import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { layerPartition, sharedTileAreas } from "../../src/tiles/cached-layer.js";
import {
  type CachedTileShape,
  decodeCachedTile,
  encodeCachedTile,
  obstacleFreeErosion,
  readCachedTileHeader,
} from "../../src/tiles/cached-tile-codec.js";
import {
  type NavTileContext,
  NavTileReader,
  NavTileWriter,
} from "../../src/tiles/nav-tile-codec.js";
import {
  INT_MODEL_SIZE,
  newModel,
  RangeDecoder,
  RangeEncoder,
} from "../../src/tiles/range-coder.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";

const fail = (at: number, what: string): never => {
  throw new MeshwayError("INVALID_INPUT", `${what} at byte ${at}`);
};

const decode = (bytes: Uint8Array, shape: CachedTileShape) =>
  decodeCachedTile(bytes, readCachedTileHeader(bytes, shape, fail), shape);

/** The dungeon's cache at tile size 32: several storeys, so several layers per tile. */
let dungeonState:
  | ReturnType<ReturnType<typeof createTileCache>["cache"]["exportState"]>
  | undefined;
function dungeon() {
  dungeonState ??= createTileCache(loadSharedMesh("dungeon"), { tileSize: 32 }).cache.exportState();
  return dungeonState;
}

function shapeOf(chf: CachedTileShape["bounds"] & { [k: string]: unknown }, radius: number) {
  const c = chf as unknown as CachedTileShape & {
    bmin: [number, number, number];
    bmax: [number, number, number];
  };
  return {
    width: c.width,
    depth: c.depth,
    borderSize: c.borderSize,
    cellSize: c.cellSize,
    cellHeight: c.cellHeight,
    walkableHeightVoxels: c.walkableHeightVoxels,
    walkableClimbVoxels: c.walkableClimbVoxels,
    walkableRadiusVoxels: radius,
    bounds: { bmin: c.bmin, bmax: c.bmax },
  };
}

describe("range coder", () => {
  it("round-trips bits, signed and unsigned integers and bytes in any mix", () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant("bit"), v: fc.nat(1), ctx: fc.nat(3) }),
      fc.record({ k: fc.constant("uint"), v: fc.nat(2 ** 31 - 1), ctx: fc.nat(1) }),
      fc.record({
        k: fc.constant("sint"),
        v: fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }),
        ctx: fc.nat(1),
      }),
      fc.record({ k: fc.constant("byte"), v: fc.nat(255), ctx: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const models = () => ({
          bit: newModel(4),
          int: newModel(2 * INT_MODEL_SIZE),
          byte: newModel(256),
        });
        const e = new RangeEncoder();
        const me = models();
        for (const o of ops) {
          if (o.k === "bit") e.bit(me.bit, o.ctx, o.v);
          else if (o.k === "uint") e.uint(me.int, o.ctx * INT_MODEL_SIZE, o.v);
          else if (o.k === "sint") e.sint(me.int, o.ctx * INT_MODEL_SIZE, o.v);
          else e.byte(me.byte, 0, o.v);
        }
        const d = new RangeDecoder(e.finish());
        const md = models();
        for (const o of ops) {
          const got =
            o.k === "bit"
              ? d.bit(md.bit, o.ctx)
              : o.k === "uint"
                ? d.uint(md.int, o.ctx * INT_MODEL_SIZE)
                : o.k === "sint"
                  ? d.sint(md.int, o.ctx * INT_MODEL_SIZE)
                  : d.byte(md.byte, 0);
          expect(got).toBe(o.v);
        }
        expect(d.overran()).toBe(false);
      }),
      { numRuns: 300, seed: 18 },
    );
  });

  it("a run of likely bits costs a small fraction of a bit each", () => {
    const e = new RangeEncoder();
    const m = newModel(1);
    for (let i = 0; i < 80_000; i++) e.bit(m, 0, 0);
    expect(e.finish().length).toBeLessThan(400);
  });
});

describe("cached tile codec", () => {
  it("gives back every heightfield, partition and tile area exactly (links recomputed)", () => {
    const state = dungeon();
    const radius = state.config.walkableRadiusVoxels;
    let tiles = 0;
    let multiLayer = 0;
    let coded = 0;
    let spans = 0;
    for (const t of state.tiles) {
      if (!t) continue;
      const grids = t.grids!;
      const layerOf = layerPartition(t.chf!, grids);
      const areas = sharedTileAreas(t.chf!, grids);
      expect(areas).not.toBeNull();
      const eroded = obstacleFreeErosion(t.chf!, radius);
      const bytes = encodeCachedTile(
        { chf: t.chf!, layerOf, layerCount: grids.length, areas },
        eroded,
        { bmin: t.chf!.bmin, bmax: t.chf!.bmax },
      );
      const back = decode(bytes, shapeOf(t.chf! as never, radius));
      for (const k of ["cellFirst", "cellCount", "spanY", "spanH", "spanCon", "areas"] as const) {
        expect(back.chf[k]).toEqual(t.chf![k]);
      }
      expect(back.chf.bmin).toEqual(t.chf!.bmin);
      expect(back.chf.bmax).toEqual(t.chf!.bmax);
      expect(back.layerOf).toEqual(layerOf);
      expect(back.areas).toEqual(areas);
      expect(back.eroded).toEqual(eroded);
      coded += bytes.length;
      spans += t.chf!.spanCount;
      tiles++;
      if (grids.length > 1) multiLayer++;
    }
    expect(tiles).toBeGreaterThan(4);
    expect(multiLayer).toBeGreaterThan(0);
    // Under a byte a span, headers included (the raw heightfield takes 9 bytes a span).
    expect(coded).toBeLessThan(spans);
  });

  it("stores bounds that differ from the tile's as the build makes them", () => {
    const t = dungeon().tiles.find((x) => x !== null)!;
    const radius = 2;
    const layerOf = layerPartition(t.chf!, t.grids!);
    const guess = {
      bmin: [0, 0, 0] as [number, number, number],
      bmax: [1, 1, 1] as [number, number, number],
    };
    const bytes = encodeCachedTile(
      { chf: t.chf!, layerOf, layerCount: t.grids!.length, areas: null },
      obstacleFreeErosion(t.chf!, radius),
      guess,
    );
    const back = decode(bytes, { ...shapeOf(t.chf! as never, radius), bounds: guess });
    expect(back.chf.bmin).toEqual(t.chf!.bmin);
    expect(back.areas).toBeNull();
  });

  it("refuses a damaged header at a byte; any stream decodes to a well-formed heightfield", () => {
    const t = dungeon().tiles.find((x) => x !== null && x.grids!.length > 0)!;
    const radius = 2;
    const layerOf = layerPartition(t.chf!, t.grids!);
    const layerCount = t.grids!.length;
    const bytes = encodeCachedTile(
      { chf: t.chf!, layerOf, layerCount, areas: sharedTileAreas(t.chf!, t.grids!) },
      obstacleFreeErosion(t.chf!, radius),
      { bmin: t.chf!.bmin, bmax: t.chf!.bmax },
    );
    const shape = shapeOf(t.chf! as never, radius);
    const refused = (b: Uint8Array) => {
      try {
        readCachedTileHeader(b, shape, fail);
        return false;
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        expect((e as Error).message).toMatch(/ at byte \d+$/);
        return true;
      }
    };
    expect(refused(bytes.subarray(0, 4))).toBe(true);
    const flags = bytes.slice();
    flags[0] = 0x80;
    expect(refused(flags)).toBe(true);
    const layers = bytes.slice();
    layers[1] = 200;
    expect(refused(layers)).toBe(true);
    const count = bytes.slice();
    new DataView(count.buffer).setUint32(4, 0xffffffff, true);
    expect(refused(count)).toBe(true);
    // Whatever the stream holds (edited, cut short), decoding ends with columns that tile the
    // spans, floors and clearances in range and at most one span per layer and column.
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.nat(255), fc.boolean(), (at, v, cut) => {
        const b = cut ? bytes.subarray(0, Math.max(8, at)) : bytes.slice();
        if (!cut) b[Math.max(8, at)] = v;
        const d = decode(b, shape);
        let s = 0;
        for (let c = 0; c < d.chf.width * d.chf.depth; c++) {
          expect(d.chf.cellFirst[c]).toBe(s);
          const seen = new Set<number>();
          for (let i = s; i < s + d.chf.cellCount[c]!; i++) {
            expect(d.chf.spanY[i]! + d.chf.spanH[i]!).toBeLessThanOrEqual(0xffff);
            expect(d.chf.areas[i]).toBeGreaterThan(0);
            const l = d.layerOf[i]!;
            if (l !== 0xff) {
              expect(l).toBeLessThan(layerCount);
              expect(seen.has(l)).toBe(false);
              seen.add(l);
            }
          }
          s += d.chf.cellCount[c]!;
        }
        expect(s).toBe(d.chf.spanCount);
      }),
      { numRuns: 60, seed: 19 },
    );
  });
});

describe("navmesh tile codec", () => {
  const context = (tile: NavMeshTile, cs: number, ch: number): NavTileContext => ({
    tileX: tile.tileX,
    tileZ: tile.tileZ,
    maxVertsPerPoly: tile.maxVertsPerPoly,
    cellSize: cs,
    cellHeight: ch,
    candidates: [{ bmin: tile.bmin, bmax: tile.bmax }],
  });

  it("gives back every tile byte for byte, in one stream with shared models", () => {
    const state = dungeon();
    const tiles = state.navMesh.tiles;
    const cs = state.config.cellSize;
    const ch = state.config.cellHeight;
    const rc = new RangeEncoder();
    const w = new NavTileWriter(rc);
    for (const t of tiles) w.write(t, context(t, cs, ch));
    const stream = rc.finish();
    const r = new NavTileReader(new RangeDecoder(stream), 1e6);
    let raw = 0;
    for (const t of tiles) {
      const back = r.read(context(t, cs, ch), fail);
      const block = serializeNavMeshTile(t);
      expect(serializeNavMeshTile(back)).toEqual(block);
      raw += block.length;
    }
    expect(stream.length).toBeLessThan(raw / 6);
  });

  it("keeps a tile its model does not fit (off-grid vertices) as its block, exactly", () => {
    const state = dungeon();
    const src = state.navMesh.tiles.find((t) => t.polyCount > 2)!;
    const odd: NavMeshTile = {
      ...src,
      vertices: src.vertices.map((v, i) => (i === 0 ? v + 1e-3 : v)),
    };
    const ctx = context(odd, state.config.cellSize, state.config.cellHeight);
    const rc = new RangeEncoder();
    new NavTileWriter(rc).write(odd, ctx);
    const back = new NavTileReader(new RangeDecoder(rc.finish()), 1e6).read(ctx, fail);
    expect(serializeNavMeshTile(back)).toEqual(serializeNavMeshTile(odd));
  });
});
