// Several agent sizes: buildNavMeshes(input, [3 radii]) (one rasterize + filter + compact,
// then erosion onward per agent) against three separate buildNavMesh calls, interleaved,
// medians. The machine is shared: read the ratio.
//
// Usage: npm run build && node bench/multi-agent.bench.js [--scene nav_test] [--runs 5]
import { parseArgs } from "node:util";
import { buildNavMesh, buildNavMeshes } from "../dist/index.js";
import { loadScene } from "./scenes.js";
import { median } from "./stats.js";

const { values } = parseArgs({
  options: {
    scene: { type: "string", default: "nav_test" },
    runs: { type: "string", default: "5" },
  },
});
const mesh = loadScene(values.scene);
const configs = [{ agentRadius: 0.3 }, { agentRadius: 0.6 }, { agentRadius: 1.2 }];
const together = [];
const apart = [];
for (let r = 0; r < Number(values.runs) + 1; r++) {
  let t = performance.now();
  buildNavMeshes(mesh, configs);
  const a = performance.now() - t;
  t = performance.now();
  for (const c of configs) buildNavMesh(mesh, c);
  const b = performance.now() - t;
  if (r > 0) {
    together.push(a);
    apart.push(b);
  }
}
console.table([
  {
    scene: values.scene,
    agents: configs.length,
    buildNavMeshesMs: median(together).toFixed(1),
    separateBuildsMs: median(apart).toFixed(1),
    speedup: (median(apart) / median(together)).toFixed(2),
  },
]);
