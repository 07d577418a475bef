// Child process for peak-RSS measurement: one tiled build of one scene by one builder. The scene
// is read from a raw file the parent wrote (positions then indices), so generating it does not
// set the high-water mark.
// Usage: node bench/tiled-once.js <wasm|meshway-N> <scene.bin> <tileSize>
import { existsSync, readFileSync } from "node:fs";
import { makeTiledBuilders } from "./tiled-builders.js";

const [builderName, sceneFile, tileSize] = process.argv.slice(2);
const bytes = readFileSync(sceneFile);
const vertexFloats = bytes.readUInt32LE(0);
const indexCount = bytes.readUInt32LE(4);
const positions = new Float32Array(vertexFloats);
const indices = new Uint32Array(indexCount);
new Uint8Array(positions.buffer).set(bytes.subarray(8, 8 + vertexFloats * 4));
new Uint8Array(indices.buffer).set(
  bytes.subarray(8 + vertexFloats * 4, 8 + vertexFloats * 4 + indexCount * 4),
);
const mesh = {
  positions,
  indices,
  vertexCount: vertexFloats / 3,
  triangleCount: indexCount / 3,
};
/**
 * Peak resident memory of this process so far, KiB. Linux: VmHWM, the high-water mark of this
 * address space (worker threads included). Not resourceUsage().maxRSS: on Linux that starts at
 * the parent's RSS, carried over through fork + exec, so a child of a big bench process would
 * report the parent's size.
 */
function peakKiB() {
  if (existsSync("/proc/self/status")) {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]);
  }
  return process.resourceUsage().maxRSS;
}

const builders = await makeTiledBuilders(Number(tileSize), [builderName]);
const before = peakKiB();
const result = await builders[builderName](mesh);
const peak = peakKiB();
await builders.close();
process.stdout.write(JSON.stringify({ before, peak, ...result }));
