import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { BuildContext } from "../generate/context.js";
import {
  buildTileBlock,
  prepareTileBuild,
  type TileBuildSetup,
  type TileBuildState,
} from "./pool.js";
import { warmUpJobs, warmUpSetup } from "./warm-up.js";

/**
 * Pool → worker: the setup once per build, then one message per tile. `build` numbers the
 * pool's builds; replies carry it back, so a reply to an earlier (failed) build is never
 * taken for one of the current build's jobs.
 */
export type TileWorkerRequest =
  | { type: "setup"; setup: TileBuildSetup }
  /**
   * Before any setup: build warm-up tiles (warm-up.ts) of this config until the setup comes
   * or `maxMs` have passed, one tile per event-loop turn so the setup is never kept waiting
   * longer than one small tile. Nothing is posted back.
   */
  | { type: "warm"; config: ResolvedConfig; maxMs: number }
  /** After a build: drop the setup, so an idle worker does not keep the mesh alive. */
  | { type: "release" }
  | { type: "job"; build: number; job: number; tx: number; tz: number };

/** Worker → pool: a finished tile (block null when empty) or the error that stopped it. */
export interface TileWorkerReply {
  build: number;
  job: number;
  block?: Uint8Array | null;
  warnings?: string[];
  error?: { message: string; code?: string };
}

/**
 * The message handler of a tile worker (worker_threads or Web Worker): keeps the prepared
 * setup, builds each requested tile and posts its block with the block's buffer in the
 * transfer list, so the bytes move rather than being copied.
 */
export function createTileWorkerHandler(
  post: (reply: TileWorkerReply, transfer: ArrayBuffer[]) => void,
): (msg: TileWorkerRequest) => void {
  let state: TileBuildState | null = null;
  /** Set by the first setup: a warm-up still running stops at its next turn. */
  let started = false;
  return (msg) => {
    if (msg.type === "setup") {
      started = true;
      state = prepareTileBuild(msg.setup);
      return;
    }
    if (msg.type === "release") {
      state = null;
      return;
    }
    if (msg.type === "warm") {
      if (!started) warmUp(msg.config, msg.maxMs, () => started);
      return;
    }
    try {
      if (!state) throw new MeshwayError("WORKER_FAILED", "tile job before setup");
      const ctx = new BuildContext();
      const block = buildTileBlock(state, msg.tx, msg.tz, ctx);
      post(
        { build: msg.build, job: msg.job, block, warnings: ctx.warnings },
        block ? [block.buffer as ArrayBuffer] : [],
      );
    } catch (e) {
      // Only meshway's own codes cross over; anything else is the worker failing.
      const message = e instanceof Error ? e.message : String(e);
      const code = e instanceof MeshwayError ? e.code : "WORKER_FAILED";
      post({ build: msg.build, job: msg.job, error: { message, code } }, []);
    }
  };
}

/** Runs one callback on a later event-loop turn (after pending messages). */
const later: (f: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (f) => (globalThis as unknown as { setImmediate: (f: () => void) => void }).setImmediate(f)
    : (f) => setTimeout(f, 0);

/** Builds the warm-up scene's tiles round after round until `stop()` or `maxMs` is up. */
function warmUp(config: ResolvedConfig, maxMs: number, stop: () => boolean): void {
  const end = performance.now() + maxMs;
  let state: TileBuildState;
  let jobs: Int32Array;
  try {
    const setup = warmUpSetup(config);
    state = prepareTileBuild(setup);
    jobs = warmUpJobs(setup);
  } catch {
    return; // only a warm-up: the real build reports real errors
  }
  let k = 0;
  const step = () => {
    if (stop() || performance.now() >= end) return;
    try {
      buildTileBlock(state, jobs[k]!, jobs[k + 1]!, new BuildContext());
    } catch {
      return;
    }
    k = (k + 2) % jobs.length;
    later(step);
  };
  later(step);
}
