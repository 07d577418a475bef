/**
 * Distance field and watershed partition against Recast (WASM) on the shared meshes. Both run
 * on Recast's own eroded compact heightfield, so any difference is in these stages alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { BuildContext } from "../../src/generate/context.js";
import { buildDistanceField } from "../../src/generate/distance-field.js";
import { buildRegionsWatershed } from "../../src/generate/regions-watershed.js";
import { BORDER_REGION, type CompactHeightfield } from "../../src/generate/types.js";
import { loadSharedMesh, SHARED_MESH_NAMES, type SharedMeshName } from "../helpers/meshes.js";
import { countMismatches } from "../helpers/mismatches.js";
import {
  initRecast,
  type RecastPipelineResult,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
} from "../helpers/recast.js";
import { timed } from "../helpers/timing.js";

const {
  buildDistanceField: rcBuildDistanceField,
  buildRegions: rcBuildRegions,
  RecastBuildContext,
} = recast;
const cfg = resolveConfig();
const RUNS = 5;

/** Distinct non-zero, non-border region ids (the regions that own spans). */
function liveRegionCount(spanRegion: Uint16Array): number {
  const seen = new Set<number>();
  for (const r of spanRegion) if (r !== 0 && (r & BORDER_REGION) === 0) seen.add(r);
  return seen.size;
}

interface Case {
  mesh: SharedMeshName;
  r: RecastPipelineResult;
  chf: CompactHeightfield;
}

const cases: Case[] = [];
const report: string[] = [];

beforeAll(async () => {
  await initRecast();
  for (const mesh of SHARED_MESH_NAMES) {
    const r = runRecastPipeline(loadSharedMesh(mesh), cfg, { stopAfter: "erode" });
    cases.push({ mesh, r, chf: toMeshwayCompact(r.chf!).chf });
  }
});

afterAll(() => {
  for (const c of cases) c.r.free();
  if (report.length > 0) console.log(report.join("\n"));
});

describe.each([0, 3])("watershed matches Recast span for span (borderSize %i)", (borderSize) => {
  for (const mesh of SHARED_MESH_NAMES) {
    it(`distance field and watershed regions on ${mesh} equal rcBuildDistanceField + rcBuildRegions'`, () => {
      const c = cases.find((k) => k.mesh === mesh)!;
      const rcChf = c.r.chf!;
      const rcCtx = new RecastBuildContext(false);
      const rc = timed(RUNS, () => {
        expect(rcBuildDistanceField(rcCtx, rcChf)).toBe(true);
        expect(
          rcBuildRegions(
            rcCtx,
            rcChf,
            borderSize,
            cfg.minRegionAreaCells,
            cfg.mergeRegionAreaCells,
          ),
        ).toBe(true);
      });
      const recast = toMeshwayCompact(rcChf);

      const ctx = new BuildContext();
      const ours = timed(RUNS, () => {
        const dist = buildDistanceField(c.chf);
        const regions = buildRegionsWatershed(
          c.chf,
          dist,
          borderSize,
          cfg.minRegionAreaCells,
          cfg.mergeRegionAreaCells,
          ctx,
        );
        return { dist, regions };
      });
      const { dist, regions } = ours.result;

      const distMismatches = countMismatches(dist.dist, recast.dist.dist);
      // Recast numbers the 4 empty border-placeholder ids first; meshway only regions with spans.
      const shift = borderSize > 0 ? 4 : 0;
      const expected = recast.regions.spanRegion.map((r) =>
        r === 0 || r & BORDER_REGION ? r : r - shift,
      );
      const regionMismatches = countMismatches(regions.spanRegion, expected);
      const live = liveRegionCount(recast.regions.spanRegion);
      report.push(
        `watershed ${mesh} border=${borderSize}: spans ${c.chf.spanCount}, maxDistance ours ` +
          `${dist.maxDistance} recast ${recast.dist.maxDistance}, dist mismatches ${distMismatches}, ` +
          `regions ours ${regions.regionCount} recast ${live} (maxRegions ${recast.regions.regionCount}), ` +
          `span region mismatches ${regionMismatches}; dist+regions median of ${RUNS}: ours ` +
          `${ours.ms.toFixed(2)} ms vs recast ${rc.ms.toFixed(2)} ms`,
      );
      expect(distMismatches).toBe(0);
      expect(dist.maxDistance).toBe(recast.dist.maxDistance);
      expect(regions.regionCount).toBe(live);
      expect(regionMismatches).toBe(0);
      // Recast's maxRegions also counts one unused trailing id and the 4 border placeholders.
      expect(recast.regions.regionCount).toBe(live + 1 + shift);
    });
  }
});
