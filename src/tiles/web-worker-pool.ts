import { MeshwayError } from "../errors.js";
import { type TileWorkerPort, WorkerTilePool } from "./worker-pool.js";
import type { TileWorkerReply } from "./worker-protocol.js";

/**
 * A tile pool on `threads` Web Workers (browsers; Deno). `createWorker` makes one worker
 * running web-tile-worker.js; the default loads it as a module worker beside this module, the
 * pattern bundlers (Vite, webpack 5) recognise and bundle. The mesh is shared through
 * SharedArrayBuffers when the page is cross-origin isolated, else copied to each worker once.
 */
export function createWebWorkerTilePool(
  threads: number,
  createWorker: () => Worker = () =>
    new Worker(new URL("./web-tile-worker.js", import.meta.url), { type: "module" }),
): WorkerTilePool {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new MeshwayError("INVALID_ARGUMENT", `threads = ${threads}: expected an integer 1..256`);
  }
  const ports: TileWorkerPort[] = [];
  for (let i = 0; i < threads; i++) ports.push(webWorkerPort(createWorker));
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return new WorkerTilePool(ports, isolated);
}

/** A port over a Web Worker; restart (after a failure) replaces it with a fresh one. */
function webWorkerPort(createWorker: () => Worker): TileWorkerPort {
  let worker = createWorker();
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onReply, onFailure) {
      const w = worker;
      const message = (e: MessageEvent<TileWorkerReply>) => onReply(e.data);
      const error = (e: ErrorEvent) => onFailure(new Error(`tile worker failed: ${e.message}`));
      w.addEventListener("message", message);
      w.addEventListener("error", error);
      return () => {
        w.removeEventListener("message", message);
        w.removeEventListener("error", error);
      };
    },
    terminate: () => worker.terminate(),
    restart() {
      worker.terminate();
      worker = createWorker();
    },
  };
}
