import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import type { AreaVolume } from "../../src/generate/areas.js";
import type { TriangleMesh } from "../../src/input.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { createTileCacheNode } from "../../src/node/tile-cache-node.js";
import { NodeTilePool } from "../../src/node/tile-pool.js";
import { mulberry32 } from "../../src/query/random-point.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import type { TileBuildPool } from "../../src/tiles/pool.js";
import { createTileCache, type TileCache } from "../../src/tiles/tile-cache.js";
import { createTileCacheAsync } from "../../src/tiles/tile-cache-async.js";
import { type TileWorkerPort, WorkerTilePool } from "../../src/tiles/worker-pool.js";
import {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "../../src/tiles/worker-protocol.js";
import { tiledScene } from "../helpers/tiled-scene.js";

/** 96 m scene (boxes, a deck with a ramp, stairs) in 12 m tiles: 8 × 8. */
const CONFIG = { cellSize: 0.5, cellHeight: 0.25, agentRadius: 0.5, tileSize: 24 };
/** Water across tile seams, and a no-go square covering tile (1, 1) whole (floor, no polygon). */
const VOLUMES: AreaVolume[] = [
  { kind: "box", min: [20, -1, 40], max: [50, 1, 47], area: 5 },
  { kind: "box", min: [9, -1, 9], max: [27, 5, 27], area: 0 },
  { kind: "cylinder", center: [70, -1, 30], radius: 6, height: 3, area: 7 },
];

/**
 * In-process stand-in for a worker: the real handler, messages structured-cloned (transfer
 * list honoured), replies delayed a seeded 0..3 ms so tiles finish in a scrambled order.
 */
function fakePort(seed: number): TileWorkerPort {
  const rand = mulberry32(seed);
  let listener: ((r: TileWorkerReply) => void) | null = null;
  const handle = createTileWorkerHandler((reply, transfer) => {
    const copy = structuredClone(reply, { transfer });
    setTimeout(() => listener?.(copy), Math.floor(rand() * 4));
  });
  return {
    post: (msg: TileWorkerRequest) => handle(structuredClone(msg)),
    listen(onReply) {
      listener = onReply;
      return () => {
        listener = null;
      };
    },
    terminate() {},
  };
}

/** A seeded run of requests of every kind, with update(0) / flush in between. */
function exercise(cache: TileCache): Uint8Array[] {
  const cfg = resolveConfig(CONFIG);
  const rand = mulberry32(5);
  const snapshots: Uint8Array[] = [];
  const ids: number[] = [];
  const shape = (k: number): ObstacleShape => {
    const x = 4 + rand() * 88;
    const z = 4 + rand() * 88;
    if (k % 4 === 0)
      return { kind: "cylinder", center: [x, -0.5, z], radius: 0.5 + rand() * 2, height: 5 };
    if (k % 4 === 1) return { kind: "box", min: [x, -0.5, z], max: [x + 1 + rand() * 4, 4, z + 2] };
    if (k % 4 === 2) {
      return {
        kind: "orientedBox",
        center: [x, 1, z],
        halfExtents: [2, 1.6, 0.7],
        yawRadians: rand() * 3,
      };
    }
    return { kind: "prism", points: [x, z, x + 3, z, x + 1, z + 3], minY: -0.5, maxY: 4 };
  };
  for (let k = 0; k < 24; k++) ids.push(cache.addObstacle(shape(k)));
  cache.update(0);
  cache.update(0);
  snapshots.push(serializeNavMesh(cache.navMesh, cfg));
  for (let k = 0; k < 8; k++) cache.updateObstacle(ids[k]!, shape(k + 1));
  const water = cache.addAreaVolume({ kind: "box", min: [60, -1, 60], max: [90, 4, 64], area: 3 });
  cache.updateAreaVolume(2, { kind: "box", min: [9, -1, 9], max: [20, 5, 20], area: 0 });
  cache.flush();
  snapshots.push(serializeNavMesh(cache.navMesh, cfg));
  for (let k = 0; k < 24; k += 2) cache.removeObstacle(ids[k]!);
  cache.removeAreaVolume(water);
  cache.removeAreaVolume(1);
  cache.flush();
  snapshots.push(serializeNavMesh(cache.navMesh, cfg));
  return snapshots;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

let mesh: TriangleMesh;
let reference: Uint8Array;
let referenceBytes: number;
let referenceRun: Uint8Array[];
let referenceStats: TileCache["stats"];

beforeAll(() => {
  mesh = tiledScene();
  const { navMesh, cache } = createTileCache(mesh, CONFIG, { areaVolumes: VOLUMES });
  reference = serializeNavMesh(navMesh, resolveConfig(CONFIG));
  referenceBytes = cache.cachedBytes;
  referenceRun = exercise(cache);
  referenceStats = { ...cache.stats, rebuildMs: 0 };
});

/** The async cache equals the sync one: same bytes at the start and after the same requests. */
async function expectSameAsSync(r: { navMesh: NavMesh; cache: TileCache }) {
  expect(same(serializeNavMesh(r.navMesh, resolveConfig(CONFIG)), reference)).toBe(true);
  expect(r.cache.cachedBytes).toBe(referenceBytes);
  const run = exercise(r.cache);
  for (let i = 0; i < run.length; i++) {
    expect(same(run[i]!, referenceRun[i]!), `snapshot ${i}`).toBe(true);
  }
  expect({ ...r.cache.stats, rebuildMs: 0 }).toEqual(referenceStats);
}

describe("createTileCacheAsync: the tile cache built on workers", () => {
  it("the reference has an empty tile (floor, no polygon) and requests change its bytes", () => {
    const { navMesh } = createTileCache(mesh, CONFIG, { areaVolumes: VOLUMES });
    expect(navMesh.tiles.some((t) => t.polyCount === 0)).toBe(true);
    expect(same(referenceRun[1]!, reference)).toBe(false);
    expect(same(referenceRun[2]!, referenceRun[1]!)).toBe(false);
    expect(referenceStats.tilesRebuilt).toBeGreaterThan(20);
  });

  it("on the calling thread (threads = 1) gives createTileCache's bytes, before and after the same requests", async () => {
    const r = await createTileCacheAsync(mesh, CONFIG, { areaVolumes: VOLUMES });
    expect(r.threads).toBe(1);
    await expectSameAsSync(r);
  });

  it("on 2 and 4 workers finishing in scrambled order gives createTileCache's bytes", async () => {
    for (const seeds of [
      [1, 2],
      [3, 4, 5, 6],
    ]) {
      const pool = new WorkerTilePool(
        seeds.map((s) => fakePort(s)),
        false,
      );
      const order: number[] = [];
      const r = await createTileCacheAsync(mesh, CONFIG, {
        pool,
        areaVolumes: VOLUMES,
        onTile: (_done, _total, tx, tz) => order.push(tx + tz * 8),
      });
      await pool.close();
      expect(r.threads).toBe(seeds.length);
      expect(order.length).toBe(64);
      expect(order).not.toEqual([...order].sort((a, b) => a - b));
      await expectSameAsSync(r);
    }
  });

  it("on 2 and 4 worker_threads (meshway/node) gives createTileCache's bytes", async () => {
    const two = await createTileCacheNode(mesh, CONFIG, { threads: 2, areaVolumes: VOLUMES });
    expect(two.threads).toBe(2);
    await expectSameAsSync(two);
    const pool: TileBuildPool = new NodeTilePool(4);
    try {
      const four = await createTileCacheNode(mesh, CONFIG, { pool, areaVolumes: VOLUMES });
      expect(four.threads).toBe(4);
      await expectSameAsSync(four);
    } finally {
      await pool.close();
    }
  });

  it("rejects bad threads and config like createTileCache", async () => {
    await expect(createTileCacheAsync(mesh, CONFIG, { threads: 0 })).rejects.toThrow(
      /threads = 0: expected an integer 1..256/,
    );
    await expect(createTileCacheAsync(mesh, { ...CONFIG, tileSize: 0 })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
    });
    await expect(
      createTileCacheAsync(mesh, CONFIG, {
        areaVolumes: [{ kind: "box", min: [0, 0, 0], max: [1, 1, 1], area: 99 }],
      }),
    ).rejects.toThrow(/areaVolumes\[0\]/);
  });
});
