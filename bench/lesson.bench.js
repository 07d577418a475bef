// runLesson timing: how long a slider move costs on the explainer page.
// "cold" = the first call at a radius (voxelize, meshway build, partitions, both paths, criteria);
// "warm" = a repeated call (cached per radius: only tables, checks and readouts are assembled).
// Each run clears the cache, walks all 26 radii cold, then repeats them warm; medians over runs.
//
// Usage: npm run build && node bench/lesson.bench.js [--runs 5]
import { parseArgs } from "node:util";
import { clearLessonCache, lessonRadii, renderLessonSection, runLesson } from "../dist/lesson.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);
const radii = lessonRadii();
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// Warm-up: JIT the whole pipeline once.
for (const r of radii) runLesson({ radius: r, shape: "L", method: "meshway", view: "straight" });

const cold = [];
const coldMax = [];
const warm = [];
const render = [];
for (let run = 0; run < RUNS; run++) {
  clearLessonCache();
  const times = [];
  for (const r of radii) {
    const t0 = performance.now();
    runLesson({ radius: r, shape: "square", method: "meshway", view: "straight" });
    times.push(performance.now() - t0);
  }
  cold.push(median(times));
  coldMax.push(Math.max(...times));
  const w = [];
  const d = [];
  for (const r of radii) {
    for (const method of ["simple", "meshway"]) {
      const t0 = performance.now();
      const res = runLesson({ radius: r, shape: "L", method, view: "midpoint" });
      const t1 = performance.now();
      for (const s of [1, 2, 3, 4]) renderLessonSection(res, s);
      d.push(performance.now() - t1);
      w.push(t1 - t0);
    }
  }
  warm.push(median(w));
  render.push(median(d));
}
const f = (x) => x.toFixed(2).padStart(8);
console.log("runLesson per call [ms]      median over runs");
console.log(
  `cold (first at a radius)  ${f(median(cold))}   (slowest radius, median over runs: ${f(median(coldMax))})`,
);
console.log(`warm (cached radius)      ${f(median(warm))}`);
console.log(`renderLessonSection ×4    ${f(median(render))}`);
