import { MeshwayError } from "../errors.js";
import { checkThreadCount } from "./threads.js";
import { type TileWorkerPort, WorkerTilePool } from "./worker-pool.js";
import type { TileWorkerReply } from "./worker-protocol.js";

/**
 * The part of a Web Worker the pool uses. Structural, so the published types need no DOM lib
 * (a Node project with `lib: ["es2022"]` compiles them); a DOM `Worker` is one.
 */
export interface WebWorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: { data: TileWorkerReply }) => void): void;
  addEventListener(type: "error", listener: (event: { message?: string }) => void): void;
  removeEventListener(type: "message", listener: (event: { data: TileWorkerReply }) => void): void;
  removeEventListener(type: "error", listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

/** The global Worker constructor where there is one (browsers, Deno), typed structurally. */
type WebWorkerConstructor = new (url: URL, options: { type: "module" }) => WebWorkerLike;

/**
 * A tile pool on `threads` Web Workers (browsers; Deno). `createWorker` makes one worker
 * running web-tile-worker.js; the default loads it as a module worker beside this module, the
 * pattern bundlers (Vite, webpack 5) recognise and bundle. The mesh is shared through
 * SharedArrayBuffers when the page is cross-origin isolated, else copied to each worker once.
 */
export function createWebWorkerTilePool(
  threads: number,
  createWorker: () => WebWorkerLike = () => {
    const WebWorker = (globalThis as { Worker?: WebWorkerConstructor }).Worker;
    if (WebWorker === undefined) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        "no Web Worker here: pass createWorker, a pool, or threads = 1 (in Node: meshway/node)",
      );
    }
    return new WebWorker(new URL("./web-tile-worker.js", import.meta.url), { type: "module" });
  },
): WorkerTilePool {
  checkThreadCount(threads);
  const ports: TileWorkerPort[] = [];
  for (let i = 0; i < threads; i++) ports.push(webWorkerPort(createWorker));
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  return new WorkerTilePool(ports, isolated);
}

/** A port over a Web Worker; restart (after a failure) replaces it with a fresh one. */
function webWorkerPort(createWorker: () => WebWorkerLike): TileWorkerPort {
  let worker = createWorker();
  return {
    post: (msg) => worker.postMessage(msg),
    listen(onReply, onFailure) {
      const w = worker;
      const message = (e: { data: TileWorkerReply }) => onReply(e.data);
      const error = (e: { message?: string }) =>
        onFailure(
          new MeshwayError("WORKER_FAILED", `tile worker failed: ${e.message ?? "unknown error"}`),
        );
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
