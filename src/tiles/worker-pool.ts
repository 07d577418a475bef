import { MeshwayError, type MeshwayErrorCode } from "../errors.js";
import type { TileBuildPool, TileBuildSetup, TileResultHandler } from "./pool.js";
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

/**
 * Builds tiles on a set of workers: the setup goes to every worker once per build (in shared
 * memory when `shareMemory` is true and SharedArrayBuffer exists, so the mesh exists once),
 * then tile coordinates go to whichever worker is free; blocks come back transferred.
 * Results are reported in completion order; the caller orders them.
 */
export class WorkerTilePool implements TileBuildPool {
  readonly threads: number;
  private closed = false;
  /** Settles when the last build queued so far has ended (either way). */
  private idle: Promise<void> = Promise.resolve();
  /** Builds started, for tagging their jobs. */
  private builds = 0;

  constructor(
    private readonly ports: TileWorkerPort[],
    private readonly shareMemory: boolean,
  ) {
    this.threads = ports.length;
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
    const sent =
      this.shareMemory && typeof SharedArrayBuffer === "function" ? shareSetup(setup) : setup;
    const tileName = (j: number) => `tile (${jobs[2 * j]}, ${jobs[2 * j + 1]})`;
    return new Promise((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let failed = false;
      const unlisten: (() => void)[] = [];
      // Jobs posted to each port and not answered yet (at most two), for naming a dead one's.
      const inFlight: number[][] = this.ports.map(() => []);
      const broken = new Set<TileWorkerPort>();
      const stop = () => {
        for (const off of unlisten) off();
        for (const port of this.ports) port.hold?.(false);
        for (const port of broken) port.restart?.();
      };
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        stop();
        reject(e);
      };
      const give = (port: TileWorkerPort, p: number) => {
        if (next >= n) return;
        const j = next++;
        inFlight[p]!.push(j);
        port.post({ type: "job", build, job: j, tx: jobs[2 * j]!, tz: jobs[2 * j + 1]! });
      };
      this.ports.forEach((port, p) => {
        port.hold?.(true);
        const onReply = (r: TileWorkerReply) => {
          if (failed || r.build !== build) return; // a reply to an earlier build's job
          const k = inFlight[p]!.indexOf(r.job);
          if (k >= 0) inFlight[p]!.splice(k, 1);
          if (r.error) {
            fail(
              new MeshwayError(
                (r.error.code ?? "WORKER_FAILED") as MeshwayErrorCode,
                `${tileName(r.job)}: ${r.error.message}`,
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
          if (++finished === n) {
            stop();
            resolve(out);
          } else {
            give(port, p);
          }
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
      for (let k = 0; k < 2; k++)
        for (let p = 0; p < this.ports.length; p++) give(this.ports[p]!, p);
    });
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
