import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
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
function fakePort(seed: number, failOn = -1, dieOn = -1): TileWorkerPort & { restarts: number } {
  const rand = mulberry32(seed);
  let listener: ((r: TileWorkerReply) => void) | null = null;
  let failure: ((e: Error) => void) | null = null;
  let died = false;
  let transferred = 0;
  const handle = createTileWorkerHandler((reply, transfer) => {
    const copy = structuredClone(reply, { transfer });
    transferred += transfer.length;
    setTimeout(() => listener?.(copy), Math.floor(rand() * 4));
  });
  return {
    restarts: 0,
    restart() {
      this.restarts++;
    },
    post(msg: TileWorkerRequest) {
      const m = structuredClone(msg);
      if (m.type === "job" && m.job === dieOn && !died) {
        died = true;
        setTimeout(() => failure?.(new Error("tile worker exited with code 134")), 0);
        return;
      }
      if (m.type === "job" && m.job === failOn) {
        setTimeout(
          () =>
            listener?.({
              build: m.build,
              job: m.job,
              error: { message: "boom", code: "INVALID_INPUT" },
            }),
          0,
        );
        return;
      }
      handle(m);
    },
    listen(onReply, onFailure) {
      listener = onReply;
      failure = onFailure;
      return () => {
        listener = null;
        failure = null;
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

  const tiledBytes = async (mesh: ReturnType<typeof loadSharedMesh>, pool?: WorkerTilePool) =>
    Buffer.from(
      serializeNavMesh((await buildTiledNavMesh(mesh, { tileSize: 32 }, { pool })).navMesh, null),
    );

  it("runs concurrent builds on one pool one after the other, each correct (pool-concurrent-builds)", async () => {
    const a = loadSharedMesh("dungeon");
    const b = loadSharedMesh("nav_test");
    const [refA, refB] = [await tiledBytes(a), await tiledBytes(b)];
    const pool = new WorkerTilePool([fakePort(1), fakePort(2)], false);
    const [ga, gb] = await Promise.all([tiledBytes(a, pool), tiledBytes(b, pool)]);
    await pool.close();
    expect(ga.equals(refA)).toBe(true);
    expect(gb.equals(refB)).toBe(true);
  });

  it("ignores a failed build's late replies: the next build on the pool is correct (pool-after-failure)", async () => {
    const mesh = loadSharedMesh("dungeon");
    const ref = await tiledBytes(mesh);
    const pool = new WorkerTilePool([fakePort(1), fakePort(2)], false);
    const onTile = () => {
      throw new Error("caller gave up");
    };
    await expect(buildTiledNavMesh(mesh, { tileSize: 32 }, { pool, onTile })).rejects.toThrow(
      "caller gave up",
    );
    expect((await tiledBytes(mesh, pool)).equals(ref)).toBe(true);
    await pool.close();
  });

  it("a worker that dies fails its build with WORKER_FAILED naming the tile, and is replaced", async () => {
    const mesh = loadSharedMesh("dungeon");
    const ref = await tiledBytes(mesh);
    const dying = fakePort(1, -1, 2);
    const pool = new WorkerTilePool([dying, fakePort(2)], false);
    const e = await buildTiledNavMesh(mesh, { tileSize: 32 }, { pool }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MeshwayError);
    expect((e as MeshwayError).code).toBe("WORKER_FAILED");
    expect((e as MeshwayError).message).toMatch(
      /^tile \(\d+, \d+\): tile worker exited with code 134 \(the worker is replaced\)$/,
    );
    expect(dying.restarts).toBe(1);
    expect((await tiledBytes(mesh, pool)).equals(ref)).toBe(true);
    await pool.close();
  });
});
