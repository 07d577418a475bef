/**
 * buildContours against Recast's rcBuildContours (WASM) on the same compact heightfield and
 * regions: Recast's own upstream output is converted to meshway's layout, so only this stage
 * is compared.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { buildContours, CONTOUR_TESS_WALL_EDGES } from "../../src/generate/contours.js";
import type { ContourSet } from "../../src/generate/types.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import {
  initRecast,
  RC_CONTOUR_TESS_WALL_EDGES,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
  toMeshwayContours,
} from "../helpers/recast.js";
import { median } from "../helpers/timing.js";

const {
  allocContourSet,
  buildContours: rcBuildContours,
  freeContourSet,
  RecastBuildContext,
} = recast;

beforeAll(async () => {
  await initRecast();
});

/** First difference between two contour sets, or null when identical. */
function firstDifference(ours: ContourSet, theirs: ContourSet): string | null {
  if (ours.contours.length !== theirs.contours.length) {
    return `contour count ${ours.contours.length} vs ${theirs.contours.length}`;
  }
  for (let i = 0; i < ours.contours.length; i++) {
    const a = ours.contours[i]!;
    const b = theirs.contours[i]!;
    if (a.region !== b.region || a.area !== b.area) {
      return `contour ${i}: region/area ${a.region}/${a.area} vs ${b.region}/${b.area}`;
    }
    for (const key of ["rawVerts", "verts"] as const) {
      const x = a[key];
      const y = b[key];
      if (x.length !== y.length || x.some((v, k) => v !== y[k])) {
        return `contour ${i} (region ${a.region}) ${key}: ${x.length / 4} verts [${Array.from(x).join(",")}] vs ${y.length / 4} verts [${Array.from(y).join(",")}]`;
      }
    }
  }
  return null;
}

describe("buildContours vs Recast rcBuildContours", () => {
  for (const name of SHARED_MESH_NAMES) {
    it(`${name}: same contours, raw and simplified vertices as Recast`, () => {
      const cfg = resolveConfig();
      const r = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "contours" });
      try {
        const { chf, regions } = toMeshwayCompact(r.chf!);
        const theirs = toMeshwayContours(r.cset!);
        const ours = buildContours(
          chf,
          regions,
          cfg.edgeMaxErrorVoxels,
          cfg.edgeMaxLenVoxels,
          CONTOUR_TESS_WALL_EDGES,
        );
        expect(firstDifference(ours, theirs)).toBeNull();
        expect(ours.width).toBe(theirs.width);
        expect(ours.depth).toBe(theirs.depth);
        expect(ours.borderSize).toBe(theirs.borderSize);
        // Holes merged into outlines leave empty contours (Recast's layout).
        expect(ours.contours.filter((c) => c.verts.length === 0).length).toBe(
          theirs.contours.filter((c) => c.verts.length === 0).length,
        );

        // Rough timing of the stage alone: Recast WASM vs meshway, same input, medians.
        const rcCtx = new RecastBuildContext(false);
        const runs = 7;
        const tRc: number[] = [];
        const tUs: number[] = [];
        for (let k = 0; k < runs; k++) {
          const cset = allocContourSet();
          let t0 = performance.now();
          rcBuildContours(
            rcCtx,
            r.chf!,
            cfg.edgeMaxErrorVoxels,
            cfg.edgeMaxLenVoxels,
            cset,
            RC_CONTOUR_TESS_WALL_EDGES,
          );
          tRc.push(performance.now() - t0);
          freeContourSet(cset);
          t0 = performance.now();
          buildContours(chf, regions, cfg.edgeMaxErrorVoxels, cfg.edgeMaxLenVoxels);
          tUs.push(performance.now() - t0);
        }
        const holes = theirs.contours.filter((c) => c.verts.length === 0).length;
        const verts = ours.contours.reduce((n, c) => n + c.verts.length / 4, 0);
        const rawVerts = ours.contours.reduce((n, c) => n + c.rawVerts.length / 4, 0);
        console.log(
          `[contours] ${name}: ${chf.width}x${chf.depth}, ${chf.spanCount} spans, ` +
            `${regions.regionCount} regions → ${ours.contours.length} contours ` +
            `(${holes} merged holes), ${verts} verts, ${rawVerts} raw verts; ` +
            `median ms meshway ${median(tUs).toFixed(3)} vs Recast WASM ${median(tRc).toFixed(3)}`,
        );
      } finally {
        r.free();
      }
    });
  }

  // Layer and monotone partitions on the same meshes; layers leave many regions with holes
  // (e.g. 14 on nav_test, 38 on undulating), which exercises hole merging.
  for (const partition of ["layers", "monotone"] as const) {
    for (const name of SHARED_MESH_NAMES) {
      it(`${name}, ${partition} regions: same contours and merged holes as Recast`, () => {
        const cfg = resolveConfig({ partition });
        const r = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "contours" });
        try {
          const { chf, regions } = toMeshwayCompact(r.chf!);
          const theirs = toMeshwayContours(r.cset!);
          const ours = buildContours(
            chf,
            regions,
            cfg.edgeMaxErrorVoxels,
            cfg.edgeMaxLenVoxels,
            CONTOUR_TESS_WALL_EDGES,
          );
          expect(firstDifference(ours, theirs)).toBeNull();
          const holes = ours.contours.filter((c) => c.verts.length === 0).length;
          if (partition === "layers") expect(holes).toBeGreaterThan(0);
        } finally {
          r.free();
        }
      });
    }
  }
});
