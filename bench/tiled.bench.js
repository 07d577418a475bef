// Tiled build benchmark: meshway's buildTiledNavMesh on 1 thread and on 2 worker threads vs
// recast-navigation's generateTiledNavMesh (Recast/Detour compiled to WebAssembly), same config
// (RecastDemo defaults) and tile size, one process, rotating order after a warm-up; medians and
// ratios against WASM measured in the same run. Peak RSS of one whole build (scene generation
// excluded: the child reads it from a raw file) in a fresh child process per builder: "MB" is the
// process's peak, "+MB" its growth during the build; for meshway-2 that includes the workers.
// "node-N" is buildTiledNavMeshNode on N threads (this thread included, warm workers kept).
// Usage: node bench/tiled.bench.js [--runs 3] [--warmup 1] [--scenes huge] [--tile-size 64]
//          [--builders wasm,meshway-1,meshway-2,node-2] [--no-rss]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadScene } from "./scenes.js";
import { addRatioColumns, median } from "./stats.js";
import { makeTiledBuilders } from "./tiled-builders.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    scenes: { type: "string", default: "huge" },
    "tile-size": { type: "string", default: "64" },
    builders: { type: "string", default: "wasm,meshway-1,meshway-2,node-2" },
    "no-rss": { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const tileSize = Number(values["tile-size"]);
const names = values.builders.split(",");
const here = dirname(fileURLToPath(import.meta.url));
const builders = await makeTiledBuilders(tileSize, names);

const rows = [];
for (const scene of values.scenes.split(",")) {
  const mesh = loadScene(scene);
  let xs = 0;
  for (let i = 0; i < mesh.positions.length; i += 3) xs = Math.max(xs, mesh.positions[i]);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const counts = {};
  for (let i = 0; i < warmup + runs; i++) {
    // Rotate the order so no builder always runs right after another.
    for (let k = 0; k < names.length; k++) {
      const n = names[(i + k) % names.length];
      const t0 = performance.now();
      counts[n] = await builders[n](mesh);
      const dt = performance.now() - t0;
      if (i >= warmup) times[n].push(dt);
    }
  }
  const row = { scene, triangles: mesh.triangleCount, tileSize };
  for (const n of names) {
    row[`${n} ms`] = +median(times[n]).toFixed(0);
    row[`${n} polys`] = counts[n].polys;
  }
  addRatioColumns(row, names);
  if (!values["no-rss"]) {
    const dir = mkdtempSync(join(tmpdir(), "meshway-bench-"));
    const file = join(dir, `${scene}.bin`);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(mesh.positions.length, 0);
    header.writeUInt32LE(mesh.indices.length, 4);
    writeFileSync(
      file,
      Buffer.concat([
        header,
        Buffer.from(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.byteLength),
        Buffer.from(mesh.indices.buffer, mesh.indices.byteOffset, mesh.indices.byteLength),
      ]),
    );
    for (const n of names) {
      const out = execFileSync(
        process.execPath,
        [join(here, "tiled-once.js"), n, file, String(tileSize)],
        { encoding: "utf8", maxBuffer: 1 << 20 },
      );
      const m = JSON.parse(out);
      row[`${n} MB`] = Math.round(m.peak / 1024);
      row[`${n} +MB`] = Math.round((m.peak - m.before) / 1024);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(row);
  console.error(`done ${scene} (${mesh.triangleCount} triangles, ${xs.toFixed(0)} units across)`);
  for (const n of names)
    console.error(`  ${n}: ${times[n].map((t) => t.toFixed(0)).join(", ")} ms`);
}
await builders.close();
// One row per scene, transposed for reading.
for (const row of rows) console.table(Object.entries(row).map(([k, v]) => ({ key: k, value: v })));
