import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { parseHexColour } from "../../src/render/raster.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { checkThreadCount, isThreadCount, MAX_THREADS } from "../../src/tiles/threads.js";
import { createTileWorkerHandler, type TileWorkerReply } from "../../src/tiles/worker-protocol.js";
import { thrownError } from "../helpers/thrown.js";

const FLOOR = {
  positions: new Float32Array([0, 0, 0, 10, 0, 0, 10, 0, 10, 0, 0, 10]),
  indices: new Uint32Array([0, 2, 1, 0, 3, 2]),
};

describe("one error type with a code at every entry point", () => {
  it("the threads check is one function: integers 1..256", () => {
    expect(MAX_THREADS).toBe(256);
    for (const ok of [1, 2, 256]) expect(isThreadCount(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, 257, Number.NaN, "2", null]) {
      expect(isThreadCount(bad)).toBe(false);
      const e = thrownError(() => checkThreadCount(bad));
      expect(e).toBeInstanceOf(MeshwayError);
      expect((e as MeshwayError).code).toBe("INVALID_ARGUMENT");
      expect((e as MeshwayError).message).toBe(
        `threads = ${String(bad)}: expected an integer 1..256`,
      );
    }
  });

  it("buildTiledNavMesh refuses threads 0 with INVALID_ARGUMENT", async () => {
    await expect(buildTiledNavMesh(FLOOR, { tileSize: 16 }, { threads: 0 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("a tile job that reaches a worker before its setup is WORKER_FAILED, not INVALID_ARGUMENT", () => {
    const replies: TileWorkerReply[] = [];
    const handle = createTileWorkerHandler((r) => replies.push(r));
    handle({ type: "job", build: 1, job: 0, tx: 0, tz: 0 });
    expect(replies).toEqual([
      { build: 1, job: 0, error: { message: "tile job before setup", code: "WORKER_FAILED" } },
    ]);
  });

  it("a bad colour is a MeshwayError, not a RangeError", () => {
    const e = thrownError(() => parseHexColour("#12"));
    expect(e).toBeInstanceOf(MeshwayError);
    expect((e as MeshwayError).code).toBe("INVALID_ARGUMENT");
  });
});
