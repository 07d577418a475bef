// Child process of bench/cold.bench.js: the first build of one builder in a fresh process.
// Reads the scene from raw files (so no library is loaded before the import is timed), then
// times the library's import (and WASM's init()) and the first build separately.
// Usage: node bench/cold-once.js <meshway|wasm|navcat> <dir> <scene>
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [builder, dir, scene] = process.argv.slice(2);
const raw = (ext, Ctor) => {
  const b = readFileSync(join(dir, `${scene}.${ext}`));
  return new Ctor(b.buffer, b.byteOffset, b.byteLength / Ctor.BYTES_PER_ELEMENT);
};
const mesh = { positions: raw("positions", Float32Array), indices: raw("indices", Uint32Array) };

let t = performance.now();
let build;
if (builder === "meshway") {
  const { buildNavMesh } = await import("../dist/index.js");
  build = () => buildNavMesh(mesh, {}).stats.polygons;
} else if (builder === "wasm") {
  const core = await import("@recast-navigation/core");
  await core.init();
  const { generateSoloNavMesh } = await import("@recast-navigation/generators");
  const { resolveConfig } = await import("../dist/index.js");
  const { recastGeneratorConfig } = await import("./generator-config.js");
  const config = recastGeneratorConfig(resolveConfig({}));
  build = () => {
    const r = generateSoloNavMesh(mesh.positions, mesh.indices, config);
    if (!r.success) throw new Error(`recast wasm failed: ${r.error}`);
    const n = r.navMesh.getMaxTiles();
    r.navMesh.destroy();
    return n;
  };
} else if (builder === "navcat") {
  const { generateSoloNavMesh } = await import("navcat/blocks");
  const { resolveConfig } = await import("../dist/index.js");
  const { navcatGeneratorOptions } = await import("./generator-config.js");
  const options = navcatGeneratorOptions(resolveConfig({}));
  build = () => generateSoloNavMesh(mesh, options).intermediates.polyMesh.nPolys;
} else {
  throw new Error(`unknown builder ${builder}`);
}
const importMs = performance.now() - t;
// CPU time of all threads (the main thread plus V8's background compilers and GC helpers):
// on a loaded machine that is what the build really costs, and it varies far less than wall.
const cpu0 = process.cpuUsage();
t = performance.now();
const polys = build();
const buildMs = performance.now() - t;
const cpu = process.cpuUsage(cpu0);
const buildCpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(JSON.stringify({ importMs, buildMs, buildCpuMs, polys }));
