import { MeshwayError } from "../errors.js";
import { BuildContext } from "../generate/context.js";
import {
  buildTileBlock,
  prepareTileBuild,
  type TileBuildSetup,
  type TileBuildState,
} from "./pool.js";

/**
 * Pool → worker: the setup once per build, then one message per tile. `build` numbers the
 * pool's builds; replies carry it back, so a reply to an earlier (failed) build is never
 * taken for one of the current build's jobs.
 */
export type TileWorkerRequest =
  | { type: "setup"; setup: TileBuildSetup }
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
  return (msg) => {
    if (msg.type === "setup") {
      state = prepareTileBuild(msg.setup);
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
