/**
 * Monotone and layer partitions against Recast (WASM) on the shared meshes: both run on Recast's
 * own eroded compact heightfield, so any difference is in the partition stage alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { buildRegionsLayers } from "../../src/generate/regions-layers.js";
import { buildRegionsMonotone } from "../../src/generate/regions-monotone.js";
import { BORDER_REGION, type CompactHeightfield, type Regions } from "../../src/generate/types.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { countMismatches } from "../helpers/mismatches.js";
import {
  initRecast,
  type RecastCompactHeightfield,
  type RecastPipelineResult,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
} from "../helpers/recast.js";
import { timed } from "../helpers/timing.js";

const cfg = resolveConfig();
const RUNS = 5;

/** Distinct non-zero, non-border region ids (the regions that own spans). */
function liveRegionCount(spanRegion: Uint16Array): number {
  const seen = new Set<number>();
  for (const r of spanRegion) if (r !== 0 && (r & BORDER_REGION) === 0) seen.add(r);
  return seen.size;
}

/**
 * Recast also numbers the empty border-placeholder ids (4 when borderSize > 0) before the real
 * regions; meshway numbers only regions owning spans. Maps Recast's ids to meshway's.
 */
function fromRecastIds(spanRegion: Uint16Array, borderSize: number): Uint16Array {
  const shift = borderSize > 0 ? 4 : 0;
  return spanRegion.map((r) => (r === 0 || r & BORDER_REGION ? r : r - shift));
}

interface Case {
  mesh: (typeof SHARED_MESH_NAMES)[number];
  /** Whether a box in the middle third of the mesh was marked with area 5 (area boundaries). */
  marked: boolean;
  r: RecastPipelineResult;
  chf: CompactHeightfield;
}

const cases: Case[] = [];
const report: string[] = [];
const MARKED_AREA = 5;

beforeAll(async () => {
  await initRecast();
  for (const marked of [false, true]) {
    for (const mesh of SHARED_MESH_NAMES) {
      const r = runRecastPipeline(loadSharedMesh(mesh), cfg, { stopAfter: "erode" });
      if (marked) {
        const { bmin, bmax } = r;
        const third = (k: number) => (bmax[k]! - bmin[k]!) / 3;
        recast.markBoxArea(
          new recast.RecastBuildContext(false),
          [bmin[0] + third(0), bmin[1] - 1, bmin[2] + third(2)],
          [bmax[0] - third(0), bmax[1] + 1, bmax[2] - third(2)],
          MARKED_AREA,
          r.chf!,
        );
      }
      cases.push({ mesh, marked, r, chf: toMeshwayCompact(r.chf!).chf });
    }
  }
});

afterAll(() => {
  for (const c of cases) c.r.free();
  if (report.length > 0) console.log(report.join("\n"));
});

function compare(
  label: string,
  c: Case,
  borderSize: number,
  runRecast: (chf: RecastCompactHeightfield) => void,
  runOurs: (chf: CompactHeightfield) => Regions,
): void {
  const rcChf = c.r.chf!;
  const rc = timed(RUNS, () => runRecast(rcChf));
  const theirs = toMeshwayCompact(rcChf).regions;
  const ours = timed(RUNS, () => runOurs(c.chf));
  const expected = fromRecastIds(theirs.spanRegion, borderSize);
  const mismatches = countMismatches(ours.result.spanRegion, expected);
  const live = liveRegionCount(theirs.spanRegion);
  report.push(
    `${label} ${c.mesh}${c.marked ? "+area" : ""} border=${borderSize}: spans ${c.chf.spanCount}, regions ours ${ours.result.regionCount} ` +
      `recast ${live} (maxRegions ${theirs.regionCount}), span mismatches ${mismatches}, ` +
      `ours ${ours.ms.toFixed(2)} ms vs recast ${rc.ms.toFixed(2)} ms`,
  );
  expect(mismatches).toBe(0);
  expect(ours.result.regionCount).toBe(live);
  // Recast's maxRegions also counts the unused trailing id and the 4 border placeholders.
  expect(theirs.regionCount).toBe(live + 1 + (borderSize > 0 ? 4 : 0));
}

describe.each([
  { borderSize: 0, marked: false },
  { borderSize: 3, marked: false },
  { borderSize: 0, marked: true },
])(
  "partitions match Recast span for span (borderSize $borderSize, marked area $marked)",
  ({ borderSize, marked }) => {
    for (const mesh of SHARED_MESH_NAMES) {
      it(`monotone regions on ${mesh} equal rcBuildRegionsMonotone's`, () => {
        const c = cases.find((k) => k.mesh === mesh && k.marked === marked)!;
        const ctx = new recast.RecastBuildContext(false);
        compare(
          "monotone",
          c,
          borderSize,
          (chf) => {
            expect(
              recast.buildRegionsMonotone(
                ctx,
                chf,
                borderSize,
                cfg.minRegionAreaCells,
                cfg.mergeRegionAreaCells,
              ),
            ).toBe(true);
          },
          (chf) =>
            buildRegionsMonotone(chf, borderSize, cfg.minRegionAreaCells, cfg.mergeRegionAreaCells),
        );
      });

      it(`layer regions on ${mesh} equal rcBuildLayerRegions'`, () => {
        const c = cases.find((k) => k.mesh === mesh && k.marked === marked)!;
        const ctx = new recast.RecastBuildContext(false);
        compare(
          "layers",
          c,
          borderSize,
          (chf) => {
            expect(recast.buildLayerRegions(ctx, chf, borderSize, cfg.minRegionAreaCells)).toBe(
              true,
            );
          },
          (chf) => buildRegionsLayers(chf, borderSize, cfg.minRegionAreaCells),
        );
      });
    }
  },
);
