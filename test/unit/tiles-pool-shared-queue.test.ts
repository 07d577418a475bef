import { describe, expect, it } from "vitest";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildTiledNavMeshNode } from "../../src/node/tile-pool.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { type TileWorkerPort, WorkerTilePool } from "../../src/tiles/worker-pool.js";
import {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "../../src/tiles/worker-protocol.js";
import { loadSharedMesh } from "../helpers/meshes.js";

/**
 * A stand-in worker running the real handler; no reply before `delayMs` (a cold worker
 * still starting), then 1 ms each. Counts the jobs it was posted and answered.
 */
function port(delayMs = 0): TileWorkerPort & { posted: number; answered: number } {
  let listener: ((r: TileWorkerReply) => void) | null = null;
  // Nothing comes back before the worker is "warm".
  const warmAt = Date.now() + delayMs;
  const self = {
    posted: 0,
    answered: 0,
    post(msg: TileWorkerRequest) {
      if (msg.type === "job") self.posted++;
      handle(structuredClone(msg));
    },
    listen(onReply: (r: TileWorkerReply) => void) {
      listener = onReply;
      return () => {
        listener = null;
      };
    },
    terminate() {},
  };
  const handle = createTileWorkerHandler((reply, transfer) => {
    const copy = structuredClone(reply, { transfer });
    const wait = Math.max(1, warmAt - Date.now());
    setTimeout(() => {
      self.answered++;
      listener?.(copy);
    }, wait);
  });
  return self;
}

const mesh = loadSharedMesh("dungeon");
const config = { tileSize: 32 };
const bytes = async (pool?: WorkerTilePool) => {
  const r = await buildTiledNavMesh(mesh, config, pool ? { pool } : {});
  return { bytes: Buffer.from(serializeNavMesh(r.navMesh, null)), r };
};

describe("the calling thread shares the tile queue with the workers", () => {
  it("in-thread + workers: the in-process bytes, and both sides built tiles", async () => {
    const ref = await bytes();
    const w = port();
    const pool = new WorkerTilePool([w], false, { inThread: true });
    const got = await bytes(pool);
    await pool.close();
    expect(pool.threads).toBe(2);
    expect(got.bytes.equals(ref.bytes)).toBe(true);
    expect(w.posted).toBeGreaterThan(0);
    expect(w.posted).toBeLessThan(ref.r.stats.tiles + ref.r.stats.emptyTiles);
  });

  it("a cold worker takes fewer tiles instead of stalling: the build does not wait for it", async () => {
    const ref = await bytes();
    const cold = port(10_000); // would hold the build for 10 s if it were waited for
    const pool = new WorkerTilePool([cold], false, { inThread: true });
    const t0 = Date.now();
    const got = await bytes(pool);
    await pool.close();
    expect(got.bytes.equals(ref.bytes)).toBe(true);
    expect(cold.posted).toBeLessThanOrEqual(2);
    expect(cold.answered).toBe(0);
    // Not a timing assertion on speed: only that the 10 s reply was not awaited.
    expect(Date.now() - t0).toBeLessThan(9_000);
  });

  it("workers start only when the work pays for them: a small build stays on the calling thread", async () => {
    const ref = await bytes();
    const w = port();
    const pool = new WorkerTilePool([w], false, { inThread: true, minWorkPerThread: 1e12 });
    const got = await bytes(pool);
    await pool.close();
    expect(got.bytes.equals(ref.bytes)).toBe(true);
    expect(w.posted).toBe(0);
  });

  it("buildTiledNavMeshNode on 1, 2 and 8 threads gives the same bytes", async () => {
    const one = await buildTiledNavMeshNode(mesh, config, { threads: 1 });
    const ref = Buffer.from(serializeNavMesh(one.navMesh, null));
    for (const threads of [2, 8]) {
      const r = await buildTiledNavMeshNode(mesh, config, { threads });
      expect(Buffer.from(serializeNavMesh(r.navMesh, null)).equals(ref)).toBe(true);
      // Too little work to pay for a worker: the stats say it ran on this thread alone.
      expect([r.stats.threads, r.stats.threadsUsed]).toEqual([threads, 1]);
    }
    expect([one.stats.threads, one.stats.threadsUsed]).toEqual([1, 1]);
  });
});
