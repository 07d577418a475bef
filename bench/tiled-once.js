// Child process for peak-RSS measurement: one tiled build of one scene by one builder. The scene
// is read from a raw file the parent wrote (positions then indices), so generating it does not
// set the high-water mark.
// Usage: node bench/tiled-once.js <wasm|meshway-N> <scene.bin> <tileSize>
import { readFileSync } from "node:fs";
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
const builders = await makeTiledBuilders(Number(tileSize), [builderName]);
const before = process.resourceUsage().maxRSS;
const result = await builders[builderName](mesh);
const peak = process.resourceUsage().maxRSS;
await builders.close();
process.stdout.write(JSON.stringify({ before, peak, ...result }));
