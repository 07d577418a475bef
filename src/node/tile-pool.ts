import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { BuildConfig } from "../config.js";
import { MeshwayError, type MeshwayErrorCode } from "../errors.js";
import type { TriangleMeshInput } from "../input.js";
import {
  buildTiledNavMesh,
  type TiledBuildOptions,
  type TiledBuildResult,
} from "../tiles/build-tiled.js";
import {
  InProcessTilePool,
  type TileBuildPool,
  type TileBuildSetup,
  type TileResultHandler,
} from "../tiles/pool.js";

interface WorkerReply {
  job: number;
  block?: Uint8Array | null;
  warnings?: string[];
  error?: { message: string; code?: string; stack?: string };
}

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
    "INVALID_ARGUMENT",
    `tile worker script not found at ${fileURLToPath(sibling)} (run npm run build)`,
  );
}

/** A copy of `a` in shared memory, so every worker reads the same bytes without a copy each. */
function shared<T extends Float32Array | Uint32Array | Uint8Array>(a: T): T {
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new Ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a as never);
  return out;
}

/**
 * Builds tiles on `threads` worker_threads. The setup (mesh, triangle areas, bins) is copied
 * once into SharedArrayBuffers and posted to every worker; jobs are tile coordinates handed to
 * whichever worker is free; finished tiles come back as transferred ArrayBuffers.
 */
export class NodeTilePool implements TileBuildPool {
  readonly threads: number;
  private readonly workers: Worker[] = [];
  private closed = false;

  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `threads = ${threads}: expected an integer 1..256`,
      );
    }
    this.threads = threads;
    const script = workerScript();
    for (let i = 0; i < threads; i++) this.workers.push(new Worker(script));
  }

  buildTiles(
    setup: TileBuildSetup,
    jobs: Int32Array,
    onResult: TileResultHandler,
  ): Promise<(Uint8Array | null)[]> {
    if (this.closed) throw new MeshwayError("INVALID_ARGUMENT", "the tile pool is closed");
    const n = jobs.length >> 1;
    const out: (Uint8Array | null)[] = new Array(n).fill(null);
    if (n === 0) return Promise.resolve(out);
    const sharedSetup: TileBuildSetup = {
      ...setup,
      positions: shared(setup.positions),
      indices: shared(setup.indices),
      triAreas: shared(setup.triAreas),
      binOffsets: shared(setup.binOffsets),
      binTriangles: shared(setup.binTriangles),
    };
    return new Promise((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let failed = false;
      const listeners: (() => void)[] = [];
      const cleanup = () => {
        for (const off of listeners) off();
      };
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        cleanup();
        reject(e);
      };
      const give = (w: Worker) => {
        if (next >= n) return;
        const j = next++;
        w.postMessage({ type: "job", job: j, tx: jobs[2 * j], tz: jobs[2 * j + 1] });
      };
      for (const w of this.workers) {
        const onMessage = (r: WorkerReply) => {
          if (failed) return;
          if (r.error) {
            const code = (r.error.code ?? "INVALID_ARGUMENT") as MeshwayErrorCode;
            fail(
              new MeshwayError(
                code,
                `tile (${jobs[2 * r.job]}, ${jobs[2 * r.job + 1]}): ${r.error.message}`,
              ),
            );
            return;
          }
          const block = r.block ?? null;
          out[r.job] = block;
          try {
            onResult(r.job, block, r.warnings ?? []);
          } catch (e) {
            fail(e as Error);
            return;
          }
          finished++;
          if (finished === n) {
            cleanup();
            resolve(out);
          } else {
            give(w);
          }
        };
        const onError = (e: Error) => fail(e);
        const onExit = (code: number) => fail(new Error(`tile worker exited with code ${code}`));
        w.on("message", onMessage);
        w.on("error", onError);
        w.on("exit", onExit);
        listeners.push(() => {
          w.off("message", onMessage);
          w.off("error", onError);
          w.off("exit", onExit);
        });
        w.postMessage({ type: "setup", setup: sharedSetup });
      }
      for (const w of this.workers) give(w);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
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
  config: Partial<BuildConfig> = {},
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
