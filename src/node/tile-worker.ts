// Worker-thread entry of the Node tile pool (tile-pool.ts): receives the build setup once, then
// tile coordinates; answers each with the tile's byte block, transferred (not cloned).
import { parentPort } from "node:worker_threads";
import { BuildContext } from "../build/context.js";
import {
  buildTileBlock,
  prepareTileBuild,
  type TileBuildSetup,
  type TileBuildState,
} from "../tiles/pool.js";

type Message =
  | { type: "setup"; setup: TileBuildSetup }
  | { type: "job"; job: number; tx: number; tz: number };

let state: TileBuildState | null = null;

parentPort?.on("message", (msg: Message) => {
  if (msg.type === "setup") {
    state = prepareTileBuild(msg.setup);
    return;
  }
  try {
    if (!state) throw new Error("tile job before setup");
    const ctx = new BuildContext();
    const block = buildTileBlock(state, msg.tx, msg.tz, ctx);
    parentPort!.postMessage(
      { job: msg.job, block, warnings: ctx.warnings },
      block ? [block.buffer as ArrayBuffer] : [],
    );
  } catch (e) {
    const err = e as Error;
    parentPort!.postMessage({
      job: msg.job,
      error: { message: err.message, code: (err as { code?: string }).code, stack: err.stack },
    });
  }
});
