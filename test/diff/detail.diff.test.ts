/**
 * buildPolyMeshDetail on Recast's own poly mesh, compact heightfield and regions, compared with
 * Recast's rcBuildPolyMeshDetail (WASM) on the same input: per-polygon vertex and triangle
 * counts, vertex coordinates and triangles (with edge flags) must be identical.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { type BuildConfig, resolveConfig } from "../../src/config.js";
import { BuildContext } from "../../src/generate/context.js";
import { buildPolyMeshDetail } from "../../src/generate/detail.js";
import { MESH_NULL_INDEX, type PolyMesh, type PolyMeshDetail } from "../../src/generate/types.js";
import { loadSharedMesh, type SharedMeshName } from "../helpers/meshes.js";
import {
  initRecast,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
  toMeshwayDetail,
  toMeshwayPolyMesh,
} from "../helpers/recast.js";

beforeAll(async () => {
  await initRecast();
});

/** Polygon p's detail triangles: nonzero area with the polygon's winding, summing to its area. */
function expectCoversPolygons(pm: PolyMesh, dm: PolyMeshDetail): void {
  const nvp = pm.maxVertsPerPoly;
  let maxAbs = 0;
  for (let i = 0; i < dm.vertCount * 3; i++) maxAbs = Math.max(maxAbs, Math.abs(dm.verts[i]!));
  const ulp = maxAbs * 2 ** -23; // float32 spacing at the largest coordinate
  for (let p = 0; p < pm.polyCount; p++) {
    const vb = dm.meshes[p * 4]!;
    const tb = dm.meshes[p * 4 + 2]!;
    const nt = dm.meshes[p * 4 + 3]!;
    let npoly = 0;
    while (npoly < nvp && pm.polys[p * nvp * 2 + npoly] !== MESH_NULL_INDEX) npoly++;
    const x = (i: number) => dm.verts[(vb + i) * 3]!;
    const z = (i: number) => dm.verts[(vb + i) * 3 + 2]!;
    const cross = (a: number, b: number, c: number) =>
      (x(b) - x(a)) * (z(c) - z(a)) - (z(b) - z(a)) * (x(c) - x(a));
    let polyArea = 0;
    let perimeter = 0;
    for (let j = 0; j < npoly; j++) {
      if (j >= 1 && j + 1 < npoly) polyArea += cross(0, j, j + 1);
      const k = (j + 1) % npoly;
      perimeter += Math.hypot(x(k) - x(j), z(k) - z(j));
    }
    let triArea = 0;
    for (let t = tb; t < tb + nt; t++) {
      const area = cross(dm.tris[t * 4]!, dm.tris[t * 4 + 1]!, dm.tris[t * 4 + 2]!);
      expect(area * Math.sign(polyArea)).toBeGreaterThan(0);
      triArea += area;
    }
    // Edge samples are float32 world positions: each may sit an ulp or two off its edge.
    const tol = 1e-6 * Math.abs(polyArea) + 8 * ulp * perimeter;
    expect(Math.abs(triArea - polyArea)).toBeLessThanOrEqual(tol);
  }
}

const CASES: [SharedMeshName, Partial<BuildConfig>][] = [
  ["nav_test", {}],
  ["dungeon", {}],
  ["undulating", {}],
  ["nav_test", { detailSampleDist: 2, detailSampleMaxError: 0.5 }],
  ["undulating", { partition: "monotone", vertsPerPoly: 3 }],
];

describe("buildPolyMeshDetail vs Recast rcBuildPolyMeshDetail", () => {
  for (const [name, overrides] of CASES) {
    const label = Object.keys(overrides).length ? `${name} ${JSON.stringify(overrides)}` : name;
    test(`${label}: identical per-polygon counts, vertices, triangles and edge flags`, () => {
      const cfg = resolveConfig(overrides);
      const r = runRecastPipeline(loadSharedMesh(name), cfg);
      try {
        const { chf, regions } = toMeshwayCompact(r.chf!);
        const pm = toMeshwayPolyMesh(r.pmesh!);
        const ref = toMeshwayDetail(r.dmesh!);
        const sd = cfg.detailSampleDistWorld;
        const se = cfg.detailSampleMaxErrorWorld;
        const ctx = new BuildContext();
        const ours = buildPolyMeshDetail(pm, chf, regions, sd, se, ctx);
        // Rough warm timings: best of a few runs each (the first call above warmed the JIT).
        let msOurs = Infinity;
        let msRecast = Infinity;
        const rcCtx = new recast.RecastBuildContext(false);
        for (let rep = 0; rep < 3; rep++) {
          let t0 = performance.now();
          buildPolyMeshDetail(pm, chf, regions, sd, se);
          msOurs = Math.min(msOurs, performance.now() - t0);
          const rcOut = recast.allocPolyMeshDetail();
          t0 = performance.now();
          recast.buildPolyMeshDetail(rcCtx, r.pmesh!, r.chf!, sd, se, rcOut);
          msRecast = Math.min(msRecast, performance.now() - t0);
          recast.freePolyMeshDetail(rcOut);
        }

        let countMismatches = 0;
        let maxDy = 0;
        for (let p = 0; p < pm.polyCount; p++) {
          const nv = ours.meshes[p * 4 + 1]!;
          if (nv !== ref.meshes[p * 4 + 1] || ours.meshes[p * 4 + 3] !== ref.meshes[p * 4 + 3]) {
            countMismatches++;
            continue;
          }
          for (let j = 0; j < nv; j++) {
            const a = (ours.meshes[p * 4]! + j) * 3 + 1;
            const b = (ref.meshes[p * 4]! + j) * 3 + 1;
            maxDy = Math.max(maxDy, Math.abs(ours.verts[a]! - ref.verts[b]!));
          }
        }
        console.log(
          `detail ${label}: polys ${pm.polyCount}, verts ${ours.vertCount}/${ref.vertCount}, ` +
            `tris ${ours.triCount}/${ref.triCount} (ours/Recast), polygons with other counts ` +
            `${countMismatches}, max |dy| ${maxDy}; ${msOurs.toFixed(2)} ms vs Recast WASM ` +
            `${msRecast.toFixed(2)} ms (best of 3)`,
        );
        expect(countMismatches).toBe(0);
        expect(maxDy).toBe(0);
        expect(ours.meshCount).toBe(ref.meshCount);
        expect(ours.vertCount).toBe(ref.vertCount);
        expect(ours.triCount).toBe(ref.triCount);
        expect(Array.from(ours.meshes)).toEqual(Array.from(ref.meshes));
        expect(Buffer.from(ours.verts.buffer).equals(Buffer.from(ref.verts.buffer))).toBe(true);
        expect(Buffer.from(ours.tris.buffer).equals(Buffer.from(ref.tris.buffer))).toBe(true);
        // Recast logs the same "dangling face" warnings for the same (identical) triangulations.
        for (const w of ctx.warnings) expect(w).toMatch(/dangling Delaunay face/);
        expectCoversPolygons(pm, ours);
      } finally {
        r.free();
      }
    }, 30_000);
  }
});
