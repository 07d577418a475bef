import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { BuildConfigInput } from "../config.js";
import { MeshwayError } from "../errors.js";
import type { TriangleMeshInput } from "../input.js";
import {
  buildTiledNavMesh,
  type TiledBuildOptions,
  type TiledBuildResult,
} from "../tiles/build-tiled.js";
import { InProcessTilePool, type TileBuildPool } from "../tiles/pool.js";
import { checkThreadCount } from "../tiles/threads.js";
import { type TileWorkerPort, WorkerTilePool } from "../tiles/worker-pool.js";

/**
 * The worker script: the compiled tile-worker.js beside this module, or, when this module runs
 * from TypeScript sources (tests), the one in dist/ (`npm run build` makes it).
 */
function workerScript(): URL {
  const sibling = new URL("./tile-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  const built = new URL("../../dist/node/tile-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new MeshwayError(
    "WORKER_FAILED",
    `tile worker script not found at ${fileURLToPath(sibling)} (run npm run build)`,
  );
}

/**
 * A port over a worker_threads Worker that replaces its worker when it has died (noticed at
 * exit even between builds, so the next build does not post into a dead thread) or when the
 * pool asks (restart, after a failure).
 */
function nodeWorkerPort(script: URL): TileWorkerPort {
  let worker: Worker;
  let dead = false;
  const spawn = () => {
    const w = new Worker(script);
    // Idle workers don't keep the process alive; a running build holds them (hold).
    w.unref();
    dead = false;
    w.once("exit", () => {
      if (w === worker) dead = true;
    });
    worker = w;
  };
  spawn();
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onReply, onFailure) {
      if (dead) spawn();
      const w = worker;
      const error = (e: Error) =>
        onFailure(
          e instanceof MeshwayError
            ? e
            : new MeshwayError("WORKER_FAILED", `tile worker failed: ${e.message}`),
        );
      const exit = (code: number) =>
        onFailure(new MeshwayError("WORKER_FAILED", `tile worker exited with code ${code}`));
      w.on("message", onReply);
      w.on("error", error);
      w.on("exit", exit);
      return () => {
        w.off("message", onReply);
        w.off("error", error);
        w.off("exit", exit);
      };
    },
    terminate: async () => {
      await worker.terminate();
    },
    hold: (active) => (active ? worker.ref() : worker.unref()),
    restart() {
      const old = worker;
      spawn();
      void old.terminate();
    },
  };
}

/**
 * Builds tiles on `threads` worker_threads. The setup (mesh, triangle areas, bins) is copied
 * once into SharedArrayBuffers and posted to every worker; jobs are tile coordinates handed to
 * whichever worker is free; finished tiles come back as transferred ArrayBuffers. Idle workers
 * don't keep the process alive; `close()` ends them.
 */
export class NodeTilePool extends WorkerTilePool {
  constructor(threads: number) {
    checkThreadCount(threads);
    const script = workerScript();
    const ports: TileWorkerPort[] = [];
    for (let i = 0; i < threads; i++) ports.push(nodeWorkerPort(script));
    super(ports, true);
  }
}

/** Threads to use by default: the machine's available cores. */
export function defaultTileThreads(): number {
  return Math.max(1, availableParallelism());
}

/**
 * buildTiledNavMesh with a worker_threads pool of `options.threads` (default: available
 * cores) made for this build and closed after it; threads = 1 builds on this thread. The
 * result is byte-identical for every thread count.
 */
export async function buildTiledNavMeshNode(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TiledBuildOptions = {},
): Promise<TiledBuildResult> {
  if (options.pool) return buildTiledNavMesh(input, config, options);
  const threads = options.threads ?? defaultTileThreads();
  const pool: TileBuildPool = threads > 1 ? new NodeTilePool(threads) : new InProcessTilePool();
  try {
    return await buildTiledNavMesh(input, config, { ...options, threads, pool });
  } finally {
    await pool.close();
  }
}
