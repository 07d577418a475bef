// Build benchmark: meshway vs Recast compiled to WebAssembly vs navcat, same config, one process,
// alternating runs after a warm-up; medians and ratios against the WASM anchor. Peak RSS of one
// build is measured in a fresh child process per builder.
// Usage: node bench/build.bench.js [--runs 7] [--scenes nav_test,dungeon,undulating,large] [--no-rss]
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { makeBuilders } from "./builders.js";
import { loadScene, SHARED_MESHES } from "./scenes.js";
import { addRatioColumns, median } from "./stats.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    warmup: { type: "string", default: "2" },
    scenes: { type: "string", default: [...SHARED_MESHES, "large"].join(",") },
    builders: { type: "string", default: "meshway,wasm,navcat" },
    "no-rss": { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const names = values.builders.split(",");
const here = dirname(fileURLToPath(import.meta.url));
const builders = await makeBuilders({}, names);

const rows = [];
for (const scene of values.scenes.split(",")) {
  const mesh = loadScene(scene);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const n of names) {
      const t0 = performance.now();
      builders[n](mesh);
      const dt = performance.now() - t0;
      if (i >= warmup) times[n].push(dt);
    }
  }
  const row = { scene, triangles: mesh.triangleCount };
  for (const n of names) row[`${n} ms`] = +median(times[n]).toFixed(1);
  addRatioColumns(row, names);
  if (!values["no-rss"]) {
    for (const n of names) {
      const out = execFileSync(process.execPath, [join(here, "build-once.js"), n, scene], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      row[`${n} MB`] = Math.round(JSON.parse(out).peak / 1024);
    }
  }
  rows.push(row);
  console.error(`done ${scene}`);
}
console.table(rows);
