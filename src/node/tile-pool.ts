import { existsSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
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
import {
  type TileWorkerPort,
  WorkerTilePool,
  type WorkerTilePoolOptions,
} from "../tiles/worker-pool.js";

/**
 * The worker script: the bundled tile-worker.js beside this module (every .js of dist/ sits in
 * one folder, scripts/build.mjs), or, when this module runs from TypeScript sources (tests),
 * the one in dist/ (`npm run build` makes it).
 */
function workerScript(): URL {
  const sibling = new URL("./tile-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  const built = new URL("../../dist/tile-worker.js", import.meta.url);
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
  // Started on first use, so a pool whose build stays on the calling thread costs no thread.
  let worker: Worker | null = null;
  let dead = false;
  const spawn = (): Worker => {
    const w = new Worker(script);
    // Idle workers don't keep the process alive; a running build holds them (hold).
    w.unref();
    dead = false;
    w.once("exit", () => {
      if (w === worker) dead = true;
    });
    worker = w;
    return w;
  };
  const live = (): Worker => (worker === null || dead ? spawn() : worker);
  return {
    post: (msg) => live().postMessage(msg),
    listen(onReply, onFailure) {
      const w = live();
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
      await worker?.terminate();
    },
    hold: (active) => {
      if (worker === null) return;
      if (active) worker.ref();
      else worker.unref();
    },
    restart() {
      const old = worker;
      worker = null;
      spawn();
      void old?.terminate();
    },
  };
}

/**
 * Builds tiles on `threads` threads: worker_threads, started on first use (with `inThread`,
 * the calling thread is one of the `threads` and builds from the same queue). The setup
 * (mesh, triangle areas, bins) is copied once into SharedArrayBuffers and posted to every
 * worker used; jobs are tile coordinates handed to whichever thread is free; finished tiles
 * come back as transferred ArrayBuffers. Idle workers don't keep the process alive; `close()`
 * ends them. See WorkerTilePoolOptions for `inThread` and `minWorkPerThread`.
 */
export class NodeTilePool extends WorkerTilePool {
  constructor(threads: number, options: WorkerTilePoolOptions = {}) {
    checkThreadCount(threads);
    const script = workerScript();
    const ports: TileWorkerPort[] = [];
    const workers = options.inThread === true ? threads - 1 : threads;
    for (let i = 0; i < workers; i++) ports.push(nodeWorkerPort(script));
    super(ports, true, options);
  }
}

/**
 * Work (tileWork units, ≈ tile columns) a thread must have before buildTiledNavMeshNode starts
 * another worker: a cold worker needs ~0.1 s to start and warm up, so below ~0.3 s of work
 * per thread one more thread costs more than it saves.
 */
export const MIN_WORK_PER_THREAD = 300_000;

/** Shortest window over which spareWorkerCores judges the machine's load. [ms] */
const MIN_LOAD_WINDOW_MS = 40;

/** Busy CPU time of the whole machine, all cores, from os.cpus(). [ms] */
function machineBusyMs(): number {
  let busy = 0;
  for (const c of cpus()) busy += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return busy;
}

/**
 * Measures, from now on, how many cores other processes leave free, and returns a function
 * giving the workers that leaves room for: the machine's cores, less this thread, less what
 * other processes used over the window (the machine's busy time minus this process's own, all
 * its threads, so a worker warming up does not count against itself), rounded. Before the
 * window is MIN_LOAD_WINDOW_MS long it cannot judge and allows every core but this one.
 */
export function spareWorkerCores(): () => number {
  const cores = defaultTileThreads();
  const t0 = performance.now();
  const busy0 = machineBusyMs();
  const own0 = process.cpuUsage();
  return () => {
    const ms = performance.now() - t0;
    if (ms < MIN_LOAD_WINDOW_MS) return cores - 1;
    const own = process.cpuUsage(own0);
    const othersMs = machineBusyMs() - busy0 - (own.user + own.system) / 1000;
    const others = Math.max(0, othersMs / ms);
    // Idle cores of the whole machine (all its CPUs), within this process's share of them.
    const idle = cpus().length - 1 - others;
    return Math.max(0, Math.min(cores - 1, Math.floor(idle + 0.5)));
  };
}

/**
 * The pool buildTiledNavMeshNode builds on when given none: `threads` in all, this thread one
 * of them, workers only as far as the work (MIN_WORK_PER_THREAD) and the machine's idle cores
 * (spareWorkerCores, measured from now until the build starts) pay for. Make it before reading
 * the input and call `warmUp(config)` to have the workers start while the input is parsed.
 */
export function createNodeBuildPool(threads: number): NodeTilePool {
  return new NodeTilePool(threads, {
    inThread: true,
    minWorkPerThread: MIN_WORK_PER_THREAD,
    spareCores: spareWorkerCores(),
  });
}

/** Threads to use by default: the machine's available cores. */
export function defaultTileThreads(): number {
  return Math.max(1, availableParallelism());
}

/**
 * buildTiledNavMesh on `options.threads` threads (default: available cores): this thread
 * builds tiles too, from a shared queue, and worker_threads are started only as far as the
 * work pays for them (MIN_WORK_PER_THREAD), so more threads are never slower than one; the
 * pool is made for this build and closed after it. threads = 1 builds on this thread. The
 * result is byte-identical for every thread count. (To keep this thread free, pass a
 * `pool: new NodeTilePool(n)`.)
 */
export async function buildTiledNavMeshNode(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TiledBuildOptions = {},
): Promise<TiledBuildResult> {
  if (options.pool) return buildTiledNavMesh(input, config, options);
  const threads = options.threads ?? defaultTileThreads();
  const pool: TileBuildPool = threads > 1 ? createNodeBuildPool(threads) : new InProcessTilePool();
  try {
    return await buildTiledNavMesh(input, config, { ...options, threads, pool });
  } finally {
    await pool.close();
  }
}
