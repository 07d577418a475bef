// Worker-thread entry of the Node tile pool (tile-pool.ts): receives the build setup once, then
// tile coordinates; answers each with the tile's byte block, transferred (not cloned).
import { parentPort } from "node:worker_threads";
import { createTileWorkerHandler } from "../tiles/worker-protocol.js";

const port = parentPort;
if (port) {
  port.on(
    "message",
    createTileWorkerHandler((reply, transfer) => port.postMessage(reply, transfer)),
  );
}
