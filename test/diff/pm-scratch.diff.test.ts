import { it } from "vitest";
import { buildPolyMesh } from "../../src/build/polymesh.js";
import { resolveConfig } from "../../src/config.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { initRecast, runRecastPipeline, toMeshwayContours } from "../helpers/recast.js";
it("scratch", async () => {
  await initRecast();
  const r = runRecastPipeline(loadSharedMesh("undulating"), resolveConfig({ cellSize: 0.1, partition: "monotone" }), { stopAfter: "polymesh" });
  const cset = toMeshwayContours(r.cset!);
  let mx = 0; for (const c of cset.contours) mx = Math.max(mx, c.verts.length / 4);
  for (let i = 0; i < 5000; i++) buildPolyMesh(cset, 6);
  let best = Infinity;
  for (let i = 0; i < 500; i++) { const t = performance.now(); buildPolyMesh(cset, 6); best = Math.min(best, performance.now() - t); }
  console.log("best", best.toFixed(3), cset.contours.length, mx);
  r.free();
});
