import { it } from "vitest";
import { allocPolyMesh, buildPolyMesh as rcBuildPolyMesh, freePolyMesh, RecastBuildContext } from "@recast-navigation/core";
import { buildPolyMesh } from "../../src/build/polymesh.js";
import { resolveConfig, type Partition } from "../../src/config.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { initRecast, runRecastPipeline, toMeshwayContours, toMeshwayPolyMesh } from "../helpers/recast.js";
function same(a: ArrayLike<number>, b: ArrayLike<number>) { if (a.length !== b.length) return false; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }
function best(n: number, f: () => void) { for (let i = 0; i < 20; i++) f(); let b = Infinity; for (let i = 0; i < n; i++) { const t = performance.now(); f(); b = Math.min(b, performance.now() - t); } return b; }
it("scratch", async () => {
  await initRecast();
  for (const name of SHARED_MESH_NAMES) for (const cs of [0.3, 0.1]) for (const partition of ["watershed", "monotone", "layers"] as Partition[]) for (const nvp of [3, 4, 6, 12]) {
    const cfg = resolveConfig({ cellSize: cs, partition, vertsPerPoly: nvp, edgeMaxError: partition === "layers" ? 0.5 : 1.3 });
    const r = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "polymesh" });
    const cset = toMeshwayContours(r.cset!);
    const theirs = toMeshwayPolyMesh(r.pmesh!);
    const mine = buildPolyMesh(cset, nvp);
    const ok = same(mine.verts, theirs.verts) && same(mine.polys, theirs.polys) && same(mine.regions, theirs.regions) && same(mine.areas, theirs.areas);
    let line = `${name} cs${cs} ${partition} nvp${nvp}: ${ok ? "IDENTICAL" : "DIFF"} ${mine.polyCount}/${theirs.polyCount} polys ${mine.vertCount}/${theirs.vertCount} verts`;
    if (nvp === 6) {
      const ctx = new RecastBuildContext(false);
      const o = best(30, () => buildPolyMesh(cset, nvp));
      const w = best(30, () => { const pm = allocPolyMesh(); rcBuildPolyMesh(ctx, r.cset!, nvp, pm); freePolyMesh(pm); });
      line += ` ours ${o.toFixed(3)} wasm ${w.toFixed(3)}`;
    }
    console.log(line);
    r.free();
  }
});
