// Cold build benchmark: the FIRST build in a fresh process (what a CLI run or a level load
// waits for), meshway vs recast-navigation's Recast/Detour-WASM (and navcat on request), same
// config (RecastDemo defaults). One child process per build (bench/cold-once.js), builders
// alternating, order rotated per run; the library import (for WASM: import + init()) is timed
// separately and excluded from "ms". Scenes are written once as raw files, so no parsing
// happens in the children. Medians; ratios against WASM from the same run.
// Usage: node bench/cold.bench.js [--runs 5] [--scenes nav_test,dungeon,undulating]
//          [--builders meshway,wasm,navcat] [--clock wall|cpu]
// --clock cpu times the build by the CPU time of all the child's threads (main thread, V8's
// background compilers, GC) instead of wall time: steadier on a loaded machine.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadScene, SHARED_MESHES } from "./scenes.js";
import { addRatioColumns, median } from "./stats.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    scenes: { type: "string", default: SHARED_MESHES.join(",") },
    builders: { type: "string", default: "meshway,wasm" },
    clock: { type: "string", default: "wall" },
  },
});
const runs = Number(values.runs);
if (values.clock !== "wall" && values.clock !== "cpu") throw new Error("--clock wall|cpu");
const timeKey = values.clock === "cpu" ? "buildCpuMs" : "buildMs";
const names = values.builders.split(",");
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "meshway-cold-"));

const rows = [];
try {
  for (const scene of values.scenes.split(",")) {
    const mesh = loadScene(scene);
    writeFileSync(join(dir, `${scene}.positions`), new Uint8Array(mesh.positions.buffer));
    writeFileSync(join(dir, `${scene}.indices`), new Uint8Array(mesh.indices.buffer));
    const build = Object.fromEntries(names.map((n) => [n, []]));
    const imp = Object.fromEntries(names.map((n) => [n, []]));
    const polys = {};
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < names.length; k++) {
        const n = names[(i + k) % names.length];
        const out = execFileSync(process.execPath, [join(here, "cold-once.js"), n, dir, scene], {
          encoding: "utf8",
        });
        const r = JSON.parse(out);
        build[n].push(r[timeKey]);
        imp[n].push(r.importMs);
        polys[n] = r.polys;
      }
    }
    const row = { scene, triangles: mesh.indices.length / 3 };
    for (const n of names) {
      row[`${n} ms`] = +median(build[n]).toFixed(1);
      row[`${n} import ms`] = +median(imp[n]).toFixed(1);
    }
    addRatioColumns(row, names);
    rows.push(row);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `cold first build in a fresh process, median of ${runs} (import excluded, shown apart; ${values.clock === "cpu" ? "build ms = CPU time of all threads" : "wall clock"})`,
);
console.table(rows);
