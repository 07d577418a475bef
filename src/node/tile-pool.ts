import { existsSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
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
import { InProcessTilePool } from "../tiles/pool.js";
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
 * another worker: a cold worker needs ~0.1 s to start and then JIT-compiles the builder again
 * (measured: ~0.7 s of CPU on V8's background threads and ~0.2 s of slow first tiles, on the
 * 305k-triangle scene), so below ~0.3 s of work per thread one more thread costs more than it
 * saves.
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
 * Measures how many cores other processes leave free and returns a function giving the
 * workers that leaves room for: the machine's cores, less this thread, less what other
 * processes used since the last judged call (at first: since now) — the machine's busy time
 * minus this process's own, all its threads, so a worker warming up does not count against
 * itself — rounded. A window shorter than MIN_LOAD_WINDOW_MS cannot judge; it keeps the window
 * open and answers from the 1-minute load average instead (cores less the load, rounded).
 */
export function spareWorkerCores(): () => number {
  const cores = defaultTileThreads();
  const all = cpus().length;
  const clamp = (idle: number) => Math.max(0, Math.min(cores - 1, Math.floor(idle + 0.5)));
  let t0 = performance.now();
  let busy0 = machineBusyMs();
  let own0 = process.cpuUsage();
  return () => {
    // No per-CPU times here (some containers): nothing to judge by.
    if (all === 0) return cores - 1;
    const now = performance.now();
    const ms = now - t0;
    if (ms < MIN_LOAD_WINDOW_MS) return clamp(all - loadavg()[0]!);
    const busy = machineBusyMs();
    const own = process.cpuUsage(own0);
    const others = Math.max(0, (busy - busy0 - (own.user + own.system) / 1000) / ms);
    t0 = now;
    busy0 = busy;
    own0 = process.cpuUsage();
    // Idle cores of the whole machine (all its CPUs) but this thread's, within our share.
    return clamp(all - 1 - others);
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

/** How long buildTiledNavMeshNode keeps an idle pool's workers (warm) for the next build. [ms] */
const SHARED_POOL_IDLE_MS = 10_000;

/** buildTiledNavMeshNode's pools by thread count: builds in flight, and the idle timer. */
const sharedPools = new Map<
  number,
  { pool: NodeTilePool; builds: number; timer: ReturnType<typeof setTimeout> | null }
>();

/**
 * Runs `build` on the shared pool of `threads`: made on first use, kept while builds come
 * within SHARED_POOL_IDLE_MS of each other, so a process building again (an editor, a server,
 * a bench) meets workers whose code is already optimized instead of paying a fresh isolate's
 * start-up and JIT every time; closed after that idle time (idle workers and the timer never
 * keep the process alive).
 */
async function onSharedPool<T>(threads: number, build: (pool: NodeTilePool) => Promise<T>) {
  let entry = sharedPools.get(threads);
  if (!entry) {
    entry = { pool: createNodeBuildPool(threads), builds: 0, timer: null };
    sharedPools.set(threads, entry);
  }
  const e = entry;
  if (e.timer) clearTimeout(e.timer);
  e.timer = null;
  e.builds++;
  try {
    return await build(e.pool);
  } finally {
    if (--e.builds === 0) {
      e.timer = setTimeout(() => {
        if (sharedPools.get(threads) === e) sharedPools.delete(threads);
        void e.pool.close();
      }, SHARED_POOL_IDLE_MS);
      e.timer.unref?.();
    }
  }
}

/**
 * buildTiledNavMesh on `options.threads` threads (default: available cores): this thread
 * builds tiles too, from a shared queue, and worker_threads are used only as far as the work
 * (MIN_WORK_PER_THREAD) and the machine's idle cores (spareWorkerCores) pay for them, so more
 * threads do not lose to one; the workers are kept for the next build for a while
 * (SHARED_POOL_IDLE_MS), warm. threads = 1 builds on this thread. The result is
 * byte-identical for every thread count. (To keep this thread free, pass a
 * `pool: new NodeTilePool(n)`.)
 */
export async function buildTiledNavMeshNode(
  input: TriangleMeshInput,
  config: BuildConfigInput = {},
  options: TiledBuildOptions = {},
): Promise<TiledBuildResult> {
  if (options.pool) return buildTiledNavMesh(input, config, options);
  const threads = options.threads ?? defaultTileThreads();
  if (threads <= 1) {
    return buildTiledNavMesh(input, config, { ...options, threads, pool: new InProcessTilePool() });
  }
  checkThreadCount(threads);
  return onSharedPool(threads, (pool) =>
    buildTiledNavMesh(input, config, { ...options, threads, pool }),
  );
}
