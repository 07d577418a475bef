import { it } from "vitest";
import { buildNavMesh } from "../../src/build/build-nav-mesh.js";
import { resolveConfig } from "../../src/config.js";
import { polyCenter } from "../../src/navmesh/geometry.js";
import { createFindPathResult, createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { StraightPath } from "../../src/query/straight-path.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { initRecast, recast } from "../helpers/recast.js";

function rng(seed: number) { return () => { seed |= 0; seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }

it("bench", async () => {
  await initRecast();
  // biome-ignore lint: temp
  const gen: any = await import("@recast-navigation/generators");
  for (const name of ["nav_test", "dungeon", "undulating"] as const) {
    const mesh = loadSharedMesh(name);
    const cfg = resolveConfig({});
    const { navMesh } = buildNavMesh(mesh, {});
    const wasmConfig = { cs: cfg.cellSize, ch: cfg.cellHeight, walkableSlopeAngle: cfg.agentMaxSlope, walkableHeight: cfg.walkableHeightVoxels, walkableClimb: cfg.walkableClimbVoxels, walkableRadius: cfg.walkableRadiusVoxels, maxEdgeLen: cfg.edgeMaxLenVoxels, maxSimplificationError: cfg.edgeMaxError, minRegionArea: cfg.regionMinSize, mergeRegionArea: cfg.regionMergeSize, maxVertsPerPoly: cfg.vertsPerPoly, detailSampleDist: cfg.detailSampleDist, detailSampleMaxError: cfg.detailSampleMaxError };
    const r = gen.generateSoloNavMesh(mesh.positions, mesh.indices, wasmConfig);
    // biome-ignore lint: temp
    const R: any = recast;
    const wq = new R.NavMeshQuery(r.navMesh);
    const q = new NavMeshQuery(navMesh, { maxNodes: 2048 });
    const tile = navMesh.tiles[0]!;
    const rand = rng(42);
    const c = new Float64Array(3);
    const pts: number[][] = [];
    while (pts.length < 2000) {
      polyCenter(tile, Math.floor(rand() * tile.polyCount), c);
      pts.push([c[0]! + (rand() - 0.5), c[1]!, c[2]! + (rand() - 0.5)]);
    }
    const ext = [1, 1, 1];
    const N = 1000;
    // meshway computePath
    const run = (f: () => void, reps: number) => { const t0 = performance.now(); for (let k = 0; k < reps; k++) f(); return performance.now() - t0; };
    let total = 0;
    const mwCompute = () => { for (let i = 0; i < N; i++) { const res = q.computePath(pts[2 * i]!, pts[2 * i + 1]!, { halfExtents: ext }); total += res.points.length; } };
    // raw wasm computePath with reused buffers
    const Raw = R.Raw.Module;
    const refA = new Raw.UnsignedIntRef(), refB = new Raw.UnsignedIntRef();
    const pA = new Raw.Vec3(), pB = new Raw.Vec3(), over = new Raw.BoolRef();
    const polys = new R.UnsignedIntArray(); polys.resize(256);
    const sp = new R.FloatArray(); sp.resize(256 * 3);
    const spf = new R.UnsignedCharArray(); spf.resize(256);
    const spr = new R.UnsignedIntArray(); spr.resize(256);
    const cnt = new Raw.IntRef();
    const filt = wq.defaultFilter.raw;
    const wasmCompute = () => { for (let i = 0; i < N; i++) {
      const a = pts[2 * i]!, b = pts[2 * i + 1]!;
      wq.raw.findNearestPoly(a, ext, filt, refA, pA, over);
      wq.raw.findNearestPoly(b, ext, filt, refB, pB, over);
      const sa = [pA.x, pA.y, pA.z], sb = [pB.x, pB.y, pB.z];
      wq.raw.findPath(refA.value, refB.value, sa, sb, filt, polys.raw, 256);
      wq.raw.findStraightPath(sa, sb, polys.raw, sp.raw, spf.raw, spr.raw, cnt, 256, 0);
      total += cnt.value;
    } };
    const wrapCompute = () => { for (let i = 0; i < N; i++) { const a = pts[2*i]!, b = pts[2*i+1]!; const res = wq.computePath({x:a[0],y:a[1],z:a[2]}, {x:b[0],y:b[1],z:b[2]}); total += res.path.length; } };
    const out = createNearestPolyResult();
    const mwNearest = () => { for (let i = 0; i < 2 * N; i++) { q.findNearestPoly(pts[i]!, ext, q.defaultFilter, out); total += out.ref; } };
    const wasmNearest = () => { for (let i = 0; i < 2 * N; i++) { wq.raw.findNearestPoly(pts[i]!, ext, filt, refA, pA, over); total += refA.value; } };
    const res: Record<string, number[]> = { mw: [], raw: [], wrap: [], mwN: [], rawN: [] };
    for (let rep = 0; rep < 6; rep++) {
      res.mw!.push(run(mwCompute, 1)); res.raw!.push(run(wasmCompute, 1)); res.wrap!.push(run(wrapCompute, 1));
      res.mwN!.push(run(mwNearest, 1)); res.rawN!.push(run(wasmNearest, 1));
    }
    const med = (xs: number[]) => { const s = xs.slice(2).sort((a, b) => a - b); return s[s.length >> 1]!; };
    const qps = (ms: number, n: number) => Math.round(n / ms * 1000);
    console.log(name, "polys", tile.polyCount, "computePath q/s mw", qps(med(res.mw!), N), "raw", qps(med(res.raw!), N), "wrap", qps(med(res.wrap!), N), "ratio mw/raw", (med(res.raw!) / med(res.mw!)).toFixed(2),
      "| nearest q/s mw", qps(med(res.mwN!), 2 * N), "raw", qps(med(res.rawN!), 2 * N), "ratio", (med(res.rawN!) / med(res.mwN!)).toFixed(2), total > 0);
  }
});
