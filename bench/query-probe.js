// temporary profiling probe (deleted after use)
import * as core from "@recast-navigation/core";
import { generateSoloNavMesh } from "@recast-navigation/generators";
import * as mw from "../dist/index.js";
import { NavMeshQuery } from "../dist/query/nav-mesh-query.js";
import { raycast, RaycastHit } from "../dist/query/raycast.js";
import { loadScene } from "./scenes.js";
await core.init();
const cfg = mw.resolveConfig();
const mesh = loadScene(process.argv[2] ?? "nav_test");
const r = generateSoloNavMesh(mesh.positions, mesh.indices, { cs: cfg.cellSize, ch: cfg.cellHeight, walkableSlopeAngle: cfg.walkableSlopeDegrees, walkableHeight: cfg.walkableHeightVoxels, walkableClimb: cfg.walkableClimbVoxels, walkableRadius: cfg.walkableRadiusVoxels, maxEdgeLen: cfg.edgeMaxLenVoxels, maxSimplificationError: cfg.edgeMaxErrorVoxels, minRegionArea: cfg.regionMinSize, mergeRegionArea: cfg.regionMergeSize, maxVertsPerPoly: cfg.vertsPerPoly, detailSampleDist: cfg.detailSampleDist, detailSampleMaxError: cfg.detailSampleMaxError });
const nm = mw.importDetourNavMesh(core.exportNavMesh(r.navMesh));
const q = new NavMeshQuery(nm);
const filter = new mw.QueryFilter();
const t = nm.tiles[0]; const slot = nm.tilesAt(0,0)[0];
let a = 7; const rand = () => (a = (a * 16807) % 2147483647) / 2147483647;
const rays = [];
for (let i = 0; i < 1000; i++) { const p = Math.floor(rand() * t.polyCount); const c = new Float64Array(3); mw.polyCenter(t, p, c); const e = [c[0] + (rand() - 0.5) * 40, c[1], c[2] + (rand() - 0.5) * 40]; rays.push([nm.polyRef(slot, p), Array.from(c), e]); }
const hit = new RaycastHit(64);
const mode = process.argv[3] ?? "raycast";
const T = performance.now(); let n = 0;
while (performance.now() - T < 3000) {
  for (const [ref, s, e] of rays) { if (mode === "raycast") raycast(q, ref, s, e, filter, undefined, hit); else q.computePath(s, e); n++; }
}
console.log(mode, (n / (performance.now() - T) * 1000).toFixed(0), "q/s");
