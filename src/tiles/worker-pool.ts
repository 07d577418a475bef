import type { ResolvedConfig } from "../config.js";
import { MeshwayError, type MeshwayErrorCode } from "../errors.js";
import { BuildContext } from "../generate/context.js";
import {
  buildTileBlock,
  prepareTileBuild,
  type TileBuildPool,
  type TileBuildSetup,
  type TileResultHandler,
} from "./pool.js";
import type { TileWorkerReply, TileWorkerRequest } from "./worker-protocol.js";

/** What the pool needs of one worker, whatever the platform (worker_threads, Web Workers). */
export interface TileWorkerPort {
  post(msg: TileWorkerRequest): void;
  /** Registers the reply, error and exit listeners; returns a function that removes them. */
  listen(onReply: (reply: TileWorkerReply) => void, onFailure: (error: Error) => void): () => void;
  terminate(): Promise<void> | void;
  /**
   * Keeps the host alive while a build is running (true) and lets it exit when idle (false),
   * where the platform has such a notion (Node's ref / unref); optional.
   */
  hold?(active: boolean): void;
  /**
   * Replaces the worker with a fresh one (called with no listeners attached, after the worker
   * failed), so one dead worker does not break every later build; optional.
   */
  restart?(): void;
}

/** How a WorkerTilePool shares the work with the calling thread. */
export interface WorkerTilePoolOptions {
  /**
   * The calling thread builds tiles too, from the same queue, between worker messages (it
   * counts as one of `threads`). For Node's CLI-style builds; a page keeps its main thread free.
   */
  inThread?: boolean;
  /**
   * Estimated work (tileWork units: tile columns plus per-triangle costs) each thread must
   * have before another worker is used; below it the build stays on fewer threads (with
   * `inThread`, none but the calling one), so small builds never pay for starting workers.
   * Default 0: every worker is used.
   */
  minWorkPerThread?: number;
  /**
   * Workers the machine has idle cores for, asked when a build starts (and by warmUp); no more
   * are used. On a machine already busy, another thread only adds its start-up and JIT work to
   * the queue for the same cores. Default: no limit.
   */
  spareCores?: () => number;
}

/** Tile-work units a triangle costs per tile it is binned into (rasterizing it, clipping). */
const WORK_PER_BINNED_TRIANGLE = 16;

/** Estimated work of the jobs: each tile's columns (with border) and its binned triangles. */
export function tileWork(setup: TileBuildSetup, jobs: Int32Array): number {
  const side = setup.grid.tileSize + 2 * setup.config.borderSizeVoxels;
  const tilesX = setup.grid.tilesX;
  let work = 0;
  for (let j = 0; j < jobs.length; j += 2) {
    const k = jobs[j]! + jobs[j + 1]! * tilesX;
    const tris = setup.binOffsets[k + 1]! - setup.binOffsets[k]!;
    work += side * side + WORK_PER_BINNED_TRIANGLE * tris;
  }
  return work;
}

/** One event-loop turn, so worker replies are handled between in-thread tiles. */
const nextTurn: () => Promise<void> =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? () =>
        new Promise((r) =>
          (globalThis as unknown as { setImmediate: (f: () => void) => void }).setImmediate(r),
        )
    : () => new Promise((r) => setTimeout(r, 0));

/**
 * Builds tiles on a set of workers (and, with `inThread`, on the calling thread): the setup
 * goes to every worker used once per build (in shared memory when `shareMemory` is true and
 * SharedArrayBuffer exists, so the mesh exists once), then tile coordinates go, from one
 * queue, to whichever thread is free; blocks come back transferred. A worker still starting
 * up (cold) simply takes fewer tiles; when the queue is empty the calling thread also builds
 * the jobs still waiting in a worker's inbox (the first result wins), so the build never
 * waits on a slow worker's backlog. Results are reported in completion order; the caller
 * orders them, so the bytes do not depend on who built what.
 */
export class WorkerTilePool implements TileBuildPool {
  readonly threads: number;
  /** Threads the last build ran on (workers used, plus this one with inThread). */
  threadsUsed: number;
  private closed = false;
  /** Settles when the last build queued so far has ended (either way). */
  private idle: Promise<void> = Promise.resolve();
  /** Builds started, for tagging their jobs. */
  private builds = 0;
  private readonly inThread: boolean;
  private readonly minWorkPerThread: number;
  private readonly spareCores: (() => number) | null;

  constructor(
    private readonly ports: TileWorkerPort[],
    private readonly shareMemory: boolean,
    options: WorkerTilePoolOptions = {},
  ) {
    this.inThread = options.inThread === true;
    this.minWorkPerThread = options.minWorkPerThread ?? 0;
    this.spareCores = options.spareCores ?? null;
    this.threads = ports.length + (this.inThread ? 1 : 0);
    this.threadsUsed = this.threads;
  }

  buildTiles(
    setup: TileBuildSetup,
    jobs: Int32Array,
    onResult: TileResultHandler,
  ): Promise<(Uint8Array | null)[]> {
    if (this.closed) {
      return Promise.reject(new MeshwayError("INVALID_ARGUMENT", "the tile pool is closed"));
    }
    // Builds sharing the pool run one after another: the workers hold one setup at a time.
    const run = this.idle.then(() => this.run(setup, jobs, onResult));
    this.idle = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Starts the workers a build of this config will likely use and has them build warm-up
   * tiles (warm-up.ts) until the build's setup reaches them, so they meet the real tiles with
   * optimized code. For a caller that knows a build is coming before it has the input (the
   * CLI, while it parses the file); up to `workers` workers, within the spare cores.
   */
  warmUp(config: ResolvedConfig, workers = this.ports.length, maxMs = 3000): void {
    if (this.closed) return;
    let k = Math.min(workers, this.ports.length);
    if (this.spareCores) k = Math.min(k, this.coresCap());
    for (let p = 0; p < k; p++) this.ports[p]!.post({ type: "warm", config, maxMs });
  }

  /** Workers the spare cores leave room for. */
  private coresCap(): number {
    return this.spareCores ? Math.max(0, Math.floor(this.spareCores())) : this.ports.length;
  }

  /** Workers to use for this build: as many as the work pays for, at least one without inThread. */
  private workersFor(setup: TileBuildSetup, jobs: Int32Array): number {
    const n = jobs.length >> 1;
    const max = Math.min(this.ports.length, this.inThread ? n - 1 : n, this.coresCap());
    if (this.minWorkPerThread <= 0) return Math.max(max, this.inThread ? 0 : 1);
    const affordable = Math.floor(tileWork(setup, jobs) / this.minWorkPerThread);
    const threads = Math.min(max + (this.inThread ? 1 : 0), Math.max(1, affordable));
    return this.inThread ? Math.max(0, threads - 1) : Math.max(1, threads);
  }

  private run(
    setup: TileBuildSetup,
    jobs: Int32Array,
    onResult: TileResultHandler,
  ): Promise<(Uint8Array | null)[]> {
    if (this.closed) {
      return Promise.reject(new MeshwayError("INVALID_ARGUMENT", "the tile pool is closed"));
    }
    const n = jobs.length >> 1;
    const out: (Uint8Array | null)[] = new Array(n).fill(null);
    if (n === 0) return Promise.resolve(out);
    const build = ++this.builds;
    const ports = this.ports.slice(0, this.workersFor(setup, jobs));
    this.threadsUsed = ports.length + (this.inThread ? 1 : 0);
    const sent =
      ports.length > 0 && this.shareMemory && typeof SharedArrayBuffer === "function"
        ? shareSetup(setup)
        : setup;
    const tileName = (j: number) => `tile (${jobs[2 * j]}, ${jobs[2 * j + 1]})`;
    return new Promise((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let failed = false;
      let settled = false;
      const done = new Uint8Array(n);
      const unlisten: (() => void)[] = [];
      // Jobs posted to each port and not answered yet (at most two), for naming a dead one's
      // and for the calling thread to take over at the end.
      const inFlight: number[][] = ports.map(() => []);
      const broken = new Set<TileWorkerPort>();
      const stop = () => {
        settled = true;
        for (const off of unlisten) off();
        for (const port of ports) if (!broken.has(port)) port.post({ type: "release" });
        for (const port of ports) port.hold?.(false);
        for (const port of broken) port.restart?.();
      };
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        stop();
        reject(e);
      };
      /** Records job j's block (once: a job taken over may be answered twice). */
      const finish = (j: number, block: Uint8Array | null, warnings: string[]): boolean => {
        if (done[j]) return true;
        done[j] = 1;
        out[j] = block;
        try {
          onResult(j, block, warnings);
        } catch (e) {
          fail(e as Error);
          return false;
        }
        if (++finished === n) {
          stop();
          resolve(out);
          return false;
        }
        return true;
      };
      const give = (port: TileWorkerPort, p: number) => {
        if (next >= n) return;
        const j = next++;
        inFlight[p]!.push(j);
        port.post({ type: "job", build, job: j, tx: jobs[2 * j]!, tz: jobs[2 * j + 1]! });
      };
      ports.forEach((port, p) => {
        port.hold?.(true);
        const onReply = (r: TileWorkerReply) => {
          if (failed || settled || r.build !== build) return; // a reply to an earlier build's job
          const k = inFlight[p]!.indexOf(r.job);
          if (k >= 0) inFlight[p]!.splice(k, 1);
          if (r.error) {
            if (done[r.job]) return; // taken over and built here already
            fail(
              new MeshwayError(
                (r.error.code ?? "WORKER_FAILED") as MeshwayErrorCode,
                `${tileName(r.job)}: ${r.error.message}`,
              ),
            );
            return;
          }
          if (finish(r.job, r.block ?? null, r.warnings ?? [])) give(port, p);
        };
        const onFailure = (e: Error) => {
          broken.add(port);
          const lost = inFlight[p]!;
          const where = lost.length > 0 ? tileName(lost[0]!) : "a tile worker";
          // The port's own error (e.g. "exited with code 134"), prefixed with the lost tile.
          const code = e instanceof MeshwayError ? e.code : "WORKER_FAILED";
          fail(new MeshwayError(code, `${where}: ${e.message} (the worker is replaced)`));
        };
        unlisten.push(port.listen(onReply, onFailure));
        port.post({ type: "setup", setup: sent });
      });
      // Two jobs in flight per worker, so a worker never waits for the round trip.
      for (let k = 0; k < 2; k++) for (let p = 0; p < ports.length; p++) give(ports[p]!, p);
      if (this.inThread || ports.length === 0)
        this.buildHere(setup, jobs, {
          take: () => {
            if (next < n) return next++;
            // The queue is empty: take over the job posted last that no worker has answered.
            let best = -1;
            for (const list of inFlight) {
              for (const j of list) if (!done[j] && j > best) best = j;
            }
            return best;
          },
          active: () => !settled,
          finish,
          fail,
        }).catch(fail);
    });
  }

  /**
   * The calling thread's share: takes jobs from the queue and builds them here, one event-loop
   * turn between tiles so worker replies keep the workers fed.
   */
  private async buildHere(
    setup: TileBuildSetup,
    jobs: Int32Array,
    q: {
      take: () => number;
      active: () => boolean;
      finish: (j: number, block: Uint8Array | null, warnings: string[]) => boolean;
      fail: (e: Error) => void;
    },
  ): Promise<void> {
    const state = prepareTileBuild(setup);
    while (q.active()) {
      const j = q.take();
      if (j < 0) return;
      const ctx = new BuildContext();
      let block: Uint8Array | null;
      try {
        block = buildTileBlock(state, jobs[2 * j]!, jobs[2 * j + 1]!, ctx);
      } catch (e) {
        q.fail(e as Error);
        return;
      }
      if (!q.finish(j, block, ctx.warnings)) return;
      await nextTurn();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.ports.map((p) => p.terminate()));
  }
}

/** The setup with its typed arrays copied once into SharedArrayBuffers. */
function shareSetup(setup: TileBuildSetup): TileBuildSetup {
  return {
    ...setup,
    positions: shared(setup.positions),
    indices: shared(setup.indices),
    triAreas: shared(setup.triAreas),
    binOffsets: shared(setup.binOffsets),
    binTriangles: shared(setup.binTriangles),
  };
}

function shared<T extends Float32Array | Uint32Array | Uint8Array>(a: T): T {
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new Ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a as never);
  return out;
}
