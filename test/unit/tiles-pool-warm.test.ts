import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { BuildContext } from "../../src/generate/context.js";
import { defaultTileThreads, spareWorkerCores } from "../../src/node/tile-pool.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { buildTileBlock, prepareTileBuild } from "../../src/tiles/pool.js";
import { warmUpJobs, warmUpSetup } from "../../src/tiles/warm-up.js";
import { type TileWorkerPort, WorkerTilePool } from "../../src/tiles/worker-pool.js";
import {
  createTileWorkerHandler,
  type TileWorkerReply,
  type TileWorkerRequest,
} from "../../src/tiles/worker-protocol.js";
import { loadSharedMesh } from "../helpers/meshes.js";

/** A stand-in worker running the real handler (asynchronously, as a thread would). */
function port(): TileWorkerPort & { kinds: string[] } {
  let listener: ((r: TileWorkerReply) => void) | null = null;
  const handle = createTileWorkerHandler((reply, transfer) => {
    const copy = structuredClone(reply, { transfer });
    setTimeout(() => listener?.(copy), 1);
  });
  const self = {
    kinds: [] as string[],
    post(msg: TileWorkerRequest) {
      self.kinds.push(msg.type);
      const copy = structuredClone(msg);
      setTimeout(() => handle(copy), 0);
    },
    listen(onReply: (r: TileWorkerReply) => void) {
      listener = onReply;
      return () => {
        listener = null;
      };
    },
    terminate() {},
  };
  return self;
}

const mesh = loadSharedMesh("dungeon");
const config = { tileSize: 32 };
const bytesOf = async (pool?: WorkerTilePool) => {
  const r = await buildTiledNavMesh(mesh, config, pool ? { pool } : {});
  return Buffer.from(serializeNavMesh(r.navMesh, null));
};
/** The in-process bytes, built once for both pool tests. */
let inProcess: Promise<Buffer> | null = null;
const reference = () => {
  inProcess ??= bytesOf();
  return inProcess;
};

describe("tile pool warm-up and spare cores", () => {
  it("the warm-up scene runs every stage: each of its tiles has polygons", () => {
    for (const tileSize of [32, 64]) {
      const setup = warmUpSetup(resolveConfig({ tileSize }));
      const jobs = warmUpJobs(setup);
      expect(jobs.length).toBe(8);
      const state = prepareTileBuild(setup);
      for (let j = 0; j < jobs.length; j += 2) {
        const block = buildTileBlock(state, jobs[j]!, jobs[j + 1]!, new BuildContext());
        expect(block).not.toBeNull();
      }
    }
  });

  it("a worker warmed up before the build gives the in-process bytes, and is released after", async () => {
    const ref = await reference();
    const w = port();
    const pool = new WorkerTilePool([w], false, { inThread: true });
    pool.warmUp(resolveConfig(config));
    await new Promise((r) => setTimeout(r, 50)); // warm-up tiles run meanwhile
    const got = await bytesOf(pool);
    await pool.close();
    expect(got.equals(ref)).toBe(true);
    expect(w.kinds[0]).toBe("warm");
    expect(w.kinds).toContain("job");
    expect(w.kinds[w.kinds.length - 1]).toBe("release");
  });

  it("no spare cores: the build stays on the calling thread, nothing is warmed", async () => {
    const ref = await reference();
    const w = port();
    const pool = new WorkerTilePool([w], false, { inThread: true, spareCores: () => 0 });
    pool.warmUp(resolveConfig(config));
    const got = await bytesOf(pool);
    await pool.close();
    expect(got.equals(ref)).toBe(true);
    expect(w.kinds).toEqual([]);
  });

  it("spareWorkerCores answers a whole number of workers in 0 .. cores - 1, before and after its window", async () => {
    const spare = spareWorkerCores();
    const cores = defaultTileThreads();
    const answers = [spare()];
    await new Promise((r) => setTimeout(r, 60));
    answers.push(spare(), spare());
    for (const a of answers) {
      expect(Number.isInteger(a)).toBe(true);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThanOrEqual(cores - 1);
    }
  });
});
