import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import {
  initRecast,
  pipelineCounts,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
  toMeshwayContours,
  toMeshwayDetail,
  toMeshwayHeightfield,
  toMeshwayPolyMesh,
} from "../helpers/recast.js";

// Values of src/generate/types.ts, local so this harness check does not load stage code.
const BORDER_REGION = 0x8000;
const NOT_CONNECTED = 0xff;
const MESH_NULL_INDEX = 0xffffffff;
const DIR_OFFSET_X = [-1, 0, 1, 0];
const DIR_OFFSET_Z = [0, 1, 0, -1];

const { getCon, Raw } = recast;

beforeAll(async () => {
  await initRecast();
});

describe("Recast WASM harness", () => {
  it.each(SHARED_MESH_NAMES)(
    "%s: every stage produces output and the converters keep every size",
    (name) => {
      const mesh = loadSharedMesh(name);
      const cfg = resolveConfig();
      const r = runRecastPipeline(mesh, cfg);
      try {
        console.log(`recast ${name}:`, JSON.stringify(pipelineCounts(r)));
        for (const [k, v] of Object.entries(pipelineCounts(r))) {
          expect(v, k).toBeGreaterThan(0);
        }
        expect(r.triAreas.length).toBe(mesh.triangleCount);

        // Heightfield: filters only relabel areas, so the span count is unchanged.
        const hf = toMeshwayHeightfield(r.hf);
        expect(hf.width).toBe(r.width);
        expect(hf.depth).toBe(r.depth);
        expect(hf.poolUsed).toBe(r.rasterizedSpans);
        expect(r.hfRasterized.poolUsed).toBe(r.rasterizedSpans);
        let walkable = 0;
        let badOrder = 0;
        for (let c = 0; c < hf.width * hf.depth; c++) {
          let prevMax = -1;
          for (let s = hf.columnHead[c]!; s !== -1; s = hf.spans[s * 2 + 1]!) {
            const lo = hf.spans[s * 2]! & 0xffff;
            const hi = hf.spans[s * 2]! >>> 16;
            if (lo <= prevMax || hi < lo) badOrder++;
            prevMax = hi;
            if (hf.spanArea[s] !== 0) walkable++;
          }
        }
        expect(badOrder).toBe(0);
        expect(walkable).toBe(r.spansAfterFilter);

        // Compact heightfield: cells cover all spans in order; connections point into range.
        const { chf, regions, dist } = toMeshwayCompact(r.chf!);
        expect(chf.spanCount).toBe(r.compactSpans);
        expect(r.chfBeforeErosion!.spanCount).toBe(r.compactSpans);
        let next = 0;
        let badCells = 0;
        for (let c = 0; c < chf.width * chf.depth; c++) {
          if (chf.cellCount[c] === 0) continue;
          if (chf.cellFirst[c] !== next) badCells++;
          next += chf.cellCount[c]!;
        }
        expect(badCells).toBe(0);
        expect(next).toBe(chf.spanCount);
        let connections = 0;
        let badCons = 0;
        for (let z = 0; z < chf.depth; z++) {
          for (let x = 0; x < chf.width; x++) {
            const c = x + z * chf.width;
            for (let i = chf.cellFirst[c]!; i < chf.cellFirst[c]! + chf.cellCount[c]!; i++) {
              for (let d = 0; d < 4; d++) {
                const k = (chf.spanCon[i]! >>> (8 * d)) & 0xff;
                if (k === NOT_CONNECTED) continue;
                connections++;
                const nc = x + DIR_OFFSET_X[d]! + (z + DIR_OFFSET_Z[d]!) * chf.width;
                if (k >= chf.cellCount[nc]!) badCons++;
              }
            }
          }
        }
        expect(badCons).toBe(0);
        // Spot-check the memory-read conversion against Recast's own per-element getters.
        let mismatches = 0;
        for (let i = 0; i < chf.spanCount; i += 37) {
          const span = r.chf!.spans(i);
          if (span.y() !== chf.spanY[i] || span.h() !== chf.spanH[i]) mismatches++;
          if (span.reg() !== regions.spanRegion[i] || r.chf!.areas(i) !== chf.areas[i])
            mismatches++;
          if (r.chf!.dist(i) !== dist.dist[i]) mismatches++;
          for (let d = 0; d < 4; d++) {
            const rc = getCon(span, d);
            const mine = (chf.spanCon[i]! >>> (8 * d)) & 0xff;
            if (mine !== (rc === 0x3f ? NOT_CONNECTED : rc)) mismatches++;
          }
        }
        for (let c = 0; c < chf.width * chf.depth; c += 13) {
          const cell = r.chf!.cells(c);
          if (cell.count() !== chf.cellCount[c]) mismatches++;
          if (cell.count() > 0 && cell.index() !== chf.cellFirst[c]) mismatches++;
        }
        for (let c = 0; c < hf.width * hf.depth; c += 11) {
          let mine = hf.columnHead[c]!;
          let rs: ReturnType<typeof r.hf.spans> | null = r.hf.spans(c);
          for (; rs !== null && !Raw.isNull(rs.raw); rs = rs.next()) {
            if (mine === -1) {
              mismatches++;
              break;
            }
            const bounds = hf.spans[mine * 2]!;
            if (rs.smin() !== (bounds & 0xffff) || rs.smax() !== bounds >>> 16) mismatches++;
            if (rs.area() !== hf.spanArea[mine]) mismatches++;
            mine = hf.spans[mine * 2 + 1]!;
          }
          if (mine !== -1) mismatches++;
        }
        expect(mismatches).toBe(0);
        expect(connections).toBeGreaterThan(0);
        expect(chf.areas.filter((a) => a !== 0).length).toBe(r.walkableAfterErosion);
        expect(r.chfBeforeErosion!.areas.filter((a) => a !== 0).length).toBeGreaterThanOrEqual(
          r.walkableAfterErosion,
        );
        expect(regions.regionCount).toBe(r.regionCount);
        // Recast's maxRegions counts one id past the last real region (see distinctRegions).
        const seen = new Set<number>();
        let badRegions = 0;
        for (const reg of regions.spanRegion) {
          if ((reg & BORDER_REGION) !== 0 || reg > r.regionCount) badRegions++;
          if (reg !== 0) seen.add(reg);
        }
        expect(badRegions).toBe(0);
        expect(seen.size).toBe(r.distinctRegions);
        expect(r.distinctRegions).toBeLessThanOrEqual(r.regionCount);
        expect(dist.maxDistance).toBeGreaterThan(0);
        // Recast records maxDistance before the box blur, so blurred values may stay below it.
        let maxBlurred = 0;
        for (const v of dist.dist) if (v > maxBlurred) maxBlurred = v;
        expect(maxBlurred).toBeGreaterThan(0);
        expect(maxBlurred).toBeLessThanOrEqual(dist.maxDistance);

        // Contours: one per region here, 4 ints per vertex.
        const cset = toMeshwayContours(r.cset!);
        expect(cset.contours.length).toBe(r.contourCount);
        for (const ct of cset.contours) {
          expect(ct.verts.length % 4).toBe(0);
          expect(ct.verts.length).toBeGreaterThanOrEqual(12);
          expect(ct.rawVerts.length).toBeGreaterThanOrEqual(ct.verts.length);
          expect(ct.region).toBeGreaterThan(0);
        }

        // Poly mesh: widened sentinels, symmetric neighbour links.
        const pm = toMeshwayPolyMesh(r.pmesh!);
        expect(pm.polyCount).toBe(r.polyCount);
        expect(pm.vertCount).toBe(r.vertCount);
        expect(pm.verts.length).toBe(3 * r.vertCount);
        const nvp = pm.maxVertsPerPoly;
        expect(nvp).toBe(cfg.vertsPerPoly);
        let badPolys = 0;
        for (let p = 0; p < pm.polyCount; p++) {
          const base = p * 2 * nvp;
          if (pm.polys[base + 2] === MESH_NULL_INDEX) badPolys++;
          for (let j = 0; j < nvp; j++) {
            const v = pm.polys[base + j]!;
            if (v === MESH_NULL_INDEX) continue;
            if (v >= pm.vertCount) badPolys++;
            const nb = pm.polys[base + nvp + j]!;
            if (nb === MESH_NULL_INDEX) continue;
            if (nb >= pm.polyCount) {
              badPolys++;
              continue;
            }
            const nbase = nb * 2 * nvp;
            if (!pm.polys.subarray(nbase + nvp, nbase + 2 * nvp).includes(p)) badPolys++;
          }
        }
        expect(badPolys).toBe(0);

        // Detail mesh: one sub-mesh per polygon, triangle ranges tile the triangle array.
        const dm = toMeshwayDetail(r.dmesh!);
        expect(dm.meshCount).toBe(r.polyCount);
        expect(dm.triCount).toBe(r.detailTriCount);
        let tris = 0;
        let badMeshes = 0;
        for (let p = 0; p < dm.meshCount; p++) {
          if (dm.meshes[4 * p + 2] !== tris) badMeshes++;
          tris += dm.meshes[4 * p + 3]!;
        }
        expect(badMeshes).toBe(0);
        expect(tris).toBe(dm.triCount);
        expect(dm.verts.length).toBe(3 * dm.vertCount);
      } finally {
        r.free();
        r.free();
      }
    },
  );

  it("stopAfter ends the run early and leaves later stages empty", () => {
    const r = runRecastPipeline(loadSharedMesh("nav_test"), resolveConfig(), {
      stopAfter: "compact",
    });
    try {
      expect(r.compactSpans).toBeGreaterThan(0);
      expect(r.chf).not.toBeNull();
      expect(r.walkableAfterErosion).toBe(0);
      expect(r.regionCount).toBe(0);
      expect(r.cset).toBeNull();
      expect(r.pmesh).toBeNull();
      expect(r.dmesh).toBeNull();
    } finally {
      r.free();
    }
  });

  it.each(["monotone", "layers"] as const)("runs the %s partition", (partition) => {
    const r = runRecastPipeline(loadSharedMesh("nav_test"), resolveConfig({ partition }));
    try {
      console.log(`recast nav_test ${partition}:`, JSON.stringify(pipelineCounts(r)));
      expect(r.regionCount).toBeGreaterThan(0);
      expect(r.polyCount).toBeGreaterThan(0);
      const { dist } = toMeshwayCompact(r.chf!);
      expect(dist.maxDistance).toBe(0);
    } finally {
      r.free();
    }
  });
});
