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
    const n = jobs.length >> 1;
    const out: (Uint8Array | null)[] = new Array(n).fill(null);
    if (n === 0) return Promise.resolve(out);
    const sent =
      this.shareMemory && typeof SharedArrayBuffer === "function" ? shareSetup(setup) : setup;
    return new Promise((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let failed = false;
      const unlisten: (() => void)[] = [];
      const stop = () => {
        for (const off of unlisten) off();
        for (const port of this.ports) port.hold?.(false);
      };
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        stop();
        reject(e);
      };
      const give = (port: TileWorkerPort) => {
        if (next >= n) return;
        const j = next++;
        port.post({ type: "job", job: j, tx: jobs[2 * j]!, tz: jobs[2 * j + 1]! });
      };
      for (const port of this.ports) {
        port.hold?.(true);
        const onReply = (r: TileWorkerReply) => {
          if (failed) return;
          if (r.error) {
            fail(
              new MeshwayError(
                (r.error.code ?? "WORKER_FAILED") as MeshwayErrorCode,
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
          if (++finished === n) {
            stop();
            resolve(out);
          } else {
            give(port);
          }
        };
        unlisten.push(port.listen(onReply, fail));
        port.post({ type: "setup", setup: sent });
      }
      // Two jobs in flight per worker, so a worker never waits for the round trip.
      for (let k = 0; k < 2; k++) for (const port of this.ports) give(port);
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
