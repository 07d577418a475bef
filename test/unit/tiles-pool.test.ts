import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { type TileWorkerPort, WorkerTilePool } from "../../src/tiles/worker-pool.js";
import {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "../../src/tiles/worker-protocol.js";
import { loadSharedMesh } from "../helpers/meshes.js";

/**
 * An in-process stand-in for a worker: the real message handler, messages cloned with
 * structuredClone (transfer list honoured) and replies delayed by a seeded random 0..3 ms, so
 * tiles finish in a scrambled order.
 */
function fakePort(seed: number, failOn = -1): TileWorkerPort {
  const rand = mulberry32(seed);
  let listener: ((r: TileWorkerReply) => void) | null = null;
  let transferred = 0;
  const handle = createTileWorkerHandler((reply, transfer) => {
    const copy = structuredClone(reply, { transfer });
    transferred += transfer.length;
    setTimeout(() => listener?.(copy), Math.floor(rand() * 4));
  });
  return {
    post(msg: TileWorkerRequest) {
      const m = structuredClone(msg);
      if (m.type === "job" && m.job === failOn) {
        setTimeout(
          () => listener?.({ job: m.job, error: { message: "boom", code: "INVALID_INPUT" } }),
          0,
        );
        return;
      }
      handle(m);
    },
    listen(onReply) {
      listener = onReply;
      return () => {
        listener = null;
      };
    },
    terminate() {
      expect(transferred).toBeGreaterThanOrEqual(0);
    },
  };
}

describe("WorkerTilePool", () => {
  it("gives the in-process bytes whatever order the tiles finish in", async () => {
    const mesh = loadSharedMesh("dungeon");
    const cfg = resolveConfig({ tileSize: 32 });
    const reference = serializeNavMesh(
      (await buildTiledNavMesh(mesh, { tileSize: 32 })).navMesh,
      cfg,
    );
    for (const seeds of [
      [1, 2],
      [3, 4, 5],
    ]) {
      const pool = new WorkerTilePool(
        seeds.map((s) => fakePort(s)),
        false,
      );
      const order: number[] = [];
      const r = await buildTiledNavMesh(
        mesh,
        { tileSize: 32 },
        {
          pool,
          onTile: (_done, _total, tx, tz) => order.push(tx + tz * 100),
        },
      );
      await pool.close();
      expect(r.stats.threads).toBe(seeds.length);
      expect(Buffer.from(serializeNavMesh(r.navMesh, cfg)).equals(Buffer.from(reference))).toBe(
        true,
      );
      // The scrambled completion order really differs from the job order.
      expect(order).not.toEqual([...order].sort((a, b) => a - b));
    }
  });

  it("rejects with the worker's error naming the tile, and refuses use after close", async () => {
    const mesh = loadSharedMesh("dungeon");
    const pool = new WorkerTilePool([fakePort(1, 3), fakePort(2, 3)], false);
    await expect(buildTiledNavMesh(mesh, { tileSize: 32 }, { pool })).rejects.toThrow(
      /tile \(\d+, \d+\): boom/,
    );
    await pool.close();
    await expect(buildTiledNavMesh(mesh, { tileSize: 32 }, { pool })).rejects.toThrow(/closed/);
  });
});
