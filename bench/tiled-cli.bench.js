// Threads row, cold: `meshway build scene.obj --tile-size 64 --threads N` as a user runs it, a
// fresh process per build (import, OBJ parse, build, write all timed), thread counts
// alternating with the order rotated per run. Reports median wall ms and CPU ms (all the
// child's threads) per thread count, each count's wall ratio to --threads 1 from the same run,
// and the load average around the runs (the ratios only mean something on a quiet machine;
// CPU ms shows what extra threads cost). The scene is written once as an OBJ file.
// Usage: node bench/tiled-cli.bench.js [--runs 3] [--scenes large] [--threads 1,2]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    scenes: { type: "string", default: "large" },
    threads: { type: "string", default: `1,${availableParallelism()}` },
    "tile-size": { type: "string", default: "64" },
  },
});
const runs = Number(values.runs);
const counts = values.threads.split(",").map(Number);
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "meshway-tiled-cli-"));

/** The mesh as OBJ text (what the CLI reads). */
function toObj(mesh) {
  const lines = [];
  const p = mesh.positions;
  const ix = mesh.indices;
  for (let i = 0; i < p.length; i += 3) lines.push(`v ${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  for (let i = 0; i < ix.length; i += 3)
    lines.push(`f ${ix[i] + 1} ${ix[i + 1] + 1} ${ix[i + 2] + 1}`);
  return `${lines.join("\n")}\n`;
}

const rows = [];
try {
  for (const scene of values.scenes.split(",")) {
    const mesh = loadScene(scene);
    const obj = join(dir, `${scene}.obj`);
    writeFileSync(obj, toObj(mesh));
    const wall = Object.fromEntries(counts.map((n) => [n, []]));
    const cpu = Object.fromEntries(counts.map((n) => [n, []]));
    const load0 = loadavg()[0];
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < counts.length; k++) {
        const n = counts[(i + k) % counts.length];
        const out = join(dir, `${scene}-${n}.navmesh`);
        const args = ["build", obj, "-o", out, "--tile-size", values["tile-size"]];
        const text = execFileSync(
          process.execPath,
          [join(here, "tiled-cli-once.js"), ...args, "--threads", String(n), "--quiet"],
          { encoding: "utf8" },
        );
        const m = JSON.parse(text.trim().split("\n").pop());
        wall[n].push(m.wallMs);
        cpu[n].push(m.cpuMs);
      }
    }
    const row = {
      scene,
      triangles: mesh.triangleCount,
      load: `${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
    };
    const one = median(wall[counts[0]]);
    for (const n of counts) {
      row[`threads ${n} ms`] = Math.round(median(wall[n]));
      row[`threads ${n} cpu ms`] = Math.round(median(cpu[n]));
      row[`threads ${n} / ${counts[0]}`] = +(median(wall[n]) / one).toFixed(2);
    }
    rows.push(row);
    console.error(
      `done ${scene}: ${counts.map((n) => `${n}: ${wall[n].map((t) => t.toFixed(0)).join(", ")} ms`).join("; ")}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const row of rows) console.table(Object.entries(row).map(([k, v]) => ({ key: k, value: v })));
