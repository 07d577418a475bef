// Web Worker entry of the browser tile pool (web-worker-pool.ts). Load it as a module worker.
import { createTileWorkerHandler, type TileWorkerRequest } from "./worker-protocol.js";

interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (e: MessageEvent<TileWorkerRequest>) => void): void;
}

const scope = globalThis as unknown as WorkerScope;
const handle = createTileWorkerHandler((reply, transfer) => scope.postMessage(reply, transfer));
scope.addEventListener("message", (e) => handle(e.data));
