import { MeshwayError } from "../errors.js";
import { checkThreadCount } from "./threads.js";
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
  checkThreadCount(threads);
  const ports: TileWorkerPort[] = [];
  for (let i = 0; i < threads; i++) ports.push(webWorkerPort(createWorker()));
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return new WorkerTilePool(ports, isolated);
}

function webWorkerPort(worker: Worker): TileWorkerPort {
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onReply, onFailure) {
      const message = (e: MessageEvent<TileWorkerReply>) => onReply(e.data);
      const error = (e: ErrorEvent) =>
        onFailure(new MeshwayError("WORKER_FAILED", `tile worker failed: ${e.message}`));
      worker.addEventListener("message", message);
      worker.addEventListener("error", error);
      return () => {
        worker.removeEventListener("message", message);
        worker.removeEventListener("error", error);
      };
    },
    terminate: () => worker.terminate(),
  };
}
