/**
 * Differential test: our compact heightfield, erosion and area marking against Recast's
 * (@recast-navigation/core, Recast compiled to WebAssembly). Both sides start from Recast's own
 * rasterized and filtered solid heightfield, so only the stages under test can differ.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import {
  markBoxArea,
  markConvexPolyArea,
  markCylinderArea,
  medianFilterWalkableArea,
} from "../../src/generate/areas.js";
import { buildCompactHeightfield } from "../../src/generate/compact.js";
import { BuildContext } from "../../src/generate/context.js";
import { erodeWalkableArea } from "../../src/generate/erode.js";
import { type CompactHeightfield, type Heightfield, NULL_AREA } from "../../src/generate/types.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { loadSharedMesh, type SharedMeshName } from "../helpers/meshes.js";
import {
  initRecast,
  type RecastCompactHeightfield,
  type RecastPipelineResult,
  recast,
  runRecastPipeline,
  toMeshwayCompact,
  toMeshwayHeightfield,
} from "../helpers/recast.js";
import { median } from "../helpers/timing.js";

const cfg = resolveConfig();
const MESHES: SharedMeshName[] = ["nav_test", "dungeon", "undulating"];
const cleanups: (() => void)[] = [];

type RecastContext = InstanceType<typeof recast.RecastBuildContext>;

function recastCompact(ctx: RecastContext, run: RecastPipelineResult): RecastCompactHeightfield {
  const chf = recast.allocCompactHeightfield();
  cleanups.push(() => recast.freeCompactHeightfield(chf));
  const ok = recast.buildCompactHeightfield(
    ctx,
    cfg.walkableHeightVoxels,
    cfg.walkableClimbVoxels,
    run.hf,
    chf,
  );
  expect(ok).toBe(true);
  return chf;
}

/** Per-field mismatch counts between our compact field and Recast's (already in our layout). */
function compareCompact(ours: CompactHeightfield, theirs: CompactHeightfield) {
  let cells = 0;
  let y = 0;
  let h = 0;
  let area = 0;
  let con = 0;
  for (let c = 0; c < ours.width * ours.depth; c++) {
    if (ours.cellCount[c] !== theirs.cellCount[c]) cells++;
    else if (ours.cellCount[c]! > 0 && ours.cellFirst[c] !== theirs.cellFirst[c]) cells++;
  }
  for (let i = 0; i < theirs.spanCount; i++) {
    if (ours.spanY[i] !== theirs.spanY[i]) y++;
    // Recast stores clearance in 8 bits (clamped to 255); ours keeps 16.
    if (Math.min(ours.spanH[i]!, 255) !== theirs.spanH[i]) h++;
    if (ours.areas[i] !== theirs.areas[i]) area++;
    // The helper already widened Recast's 0x3f "not connected" to our 0xff.
    for (let d = 0; d < 4; d++) {
      if (((ours.spanCon[i]! >>> (8 * d)) & 0xff) !== ((theirs.spanCon[i]! >>> (8 * d)) & 0xff)) {
        con++;
      }
    }
  }
  return { cells, y, h, area, con };
}

function countWalkable(areas: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < areas.length; i++) if (areas[i] !== NULL_AREA) n++;
  return n;
}

function countDiffering(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

function recastAreas(chf: RecastCompactHeightfield): Uint8Array {
  return toMeshwayCompact(chf).chf.areas;
}

beforeAll(async () => {
  await initRecast();
});

afterAll(() => {
  for (const f of cleanups.reverse()) f();
});

describe.each(MESHES)("compact heightfield, erosion and area marking on %s.obj", (name) => {
  let run: RecastPipelineResult;
  let ctx: RecastContext;
  let ours: CompactHeightfield;
  let rcChf: RecastCompactHeightfield;

  beforeAll(() => {
    run = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "filter" });
    cleanups.push(() => run.free());
    ctx = new recast.RecastBuildContext(false);
    const bctx = new BuildContext();
    const hf: Heightfield = toMeshwayHeightfield(run.hf);
    ours = buildCompactHeightfield(hf, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels, bctx);
    expect(bctx.warnings).toEqual([]);
    rcChf = recastCompact(ctx, run);
  });

  it("has Recast's span count, cells, floors, clearances, areas and links", () => {
    const theirs = toMeshwayCompact(rcChf).chf;
    expect(theirs.spanCount).toBeGreaterThan(1000);
    expect(ours.spanCount).toBe(theirs.spanCount);
    expect([ours.width, ours.depth]).toEqual([theirs.width, theirs.depth]);
    const diff = compareCompact(ours, theirs);
    console.log(`[compact ${name}] spans=${theirs.spanCount} mismatches=${JSON.stringify(diff)}`);
    expect(diff).toEqual({ cells: 0, y: 0, h: 0, area: 0, con: 0 });
  });

  it("erodes exactly Recast's spans with the agent radius", () => {
    erodeWalkableArea(ours, cfg.walkableRadiusVoxels);
    expect(recast.erodeWalkableArea(ctx, cfg.walkableRadiusVoxels, rcChf)).toBe(true);
    const theirs = recastAreas(rcChf);
    const walkable = countWalkable(ours.areas);
    const differing = countDiffering(ours.areas, theirs);
    console.log(
      `[erode ${name}] radius=${cfg.walkableRadiusVoxels} walkable ours=${walkable} recast=${countWalkable(theirs)} differing=${differing}`,
    );
    expect(walkable).toBe(countWalkable(theirs));
    expect(walkable).toBeLessThan(ours.spanCount);
    expect(differing).toBe(0);
  });

  it("marks Recast's spans with box, cylinder and polygon volumes and median-filters alike", () => {
    const b0 = run.bmin;
    const b1 = run.bmax;
    const lerp = (k: number, t: number) => b0[k]! + (b1[k]! - b0[k]!) * t;

    const boxMin: Vec3 = [lerp(0, 0.1), lerp(1, 0), lerp(2, 0.2)];
    const boxMax: Vec3 = [lerp(0, 0.45), lerp(1, 0.6), lerp(2, 0.55)];
    markBoxArea(ours, boxMin, boxMax, 3);
    recast.markBoxArea(ctx, boxMin, boxMax, 3, rcChf);

    const center: Vec3 = [lerp(0, 0.6), lerp(1, 0), lerp(2, 0.5)];
    const radius = (b1[0] - b0[0]) * 0.17;
    const height = (b1[1] - b0[1]) * 0.6;
    markCylinderArea(ours, center, radius, height, 5);
    recast.markCylinderArea(ctx, center, radius, height, 5, rcChf);

    const poly = [
      [0.3, 0.6],
      [0.9, 0.7],
      [0.8, 0.95],
      [0.35, 0.9],
    ].flatMap(([tx, tz]) => [lerp(0, tx!), 0, lerp(2, tz!)]);
    const hmin = lerp(1, 0.05);
    const hmax = lerp(1, 0.5);
    markConvexPolyArea(ours, poly, hmin, hmax, 7);
    const rcPoly = new recast.FloatArray();
    rcPoly.copy(Float32Array.from(poly));
    recast.markConvexPolyArea(ctx, rcPoly, 4, hmin, hmax, 7, rcChf);
    rcPoly.destroy();

    let theirs = recastAreas(rcChf);
    const marked = [3, 5, 7].map((a) => ours.areas.filter((v) => v === a).length);
    const differing = countDiffering(ours.areas, theirs);
    console.log(`[areas ${name}] marked box/cyl/poly=${marked.join("/")} differing=${differing}`);
    expect(marked.every((m) => m > 0)).toBe(true);
    expect(differing).toBe(0);

    medianFilterWalkableArea(ours);
    expect(recast.medianFilterWalkableArea(ctx, rcChf)).toBe(true);
    theirs = recastAreas(rcChf);
    expect(countDiffering(ours.areas, theirs)).toBe(0);
  });
});

describe("timing on dungeon.obj (informative)", () => {
  // The machine may be shared: 4 ms scheduler hiccups hit both sides alike, so the minimum
  // over the measured runs is logged next to the median of the last 5.
  it("reports compact+erode times after warm-up, meshway vs Recast WASM", () => {
    const run = runRecastPipeline(loadSharedMesh("dungeon"), cfg, { stopAfter: "filter" });
    cleanups.push(() => run.free());
    const ctx = new recast.RecastBuildContext(false);
    const hf = toMeshwayHeightfield(run.hf);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let rep = 0; rep < 30; rep++) {
      let t0 = performance.now();
      const chf = buildCompactHeightfield(hf, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
      erodeWalkableArea(chf, cfg.walkableRadiusVoxels);
      const tOurs = performance.now() - t0;
      const rc = recast.allocCompactHeightfield();
      t0 = performance.now();
      recast.buildCompactHeightfield(
        ctx,
        cfg.walkableHeightVoxels,
        cfg.walkableClimbVoxels,
        run.hf,
        rc,
      );
      recast.erodeWalkableArea(ctx, cfg.walkableRadiusVoxels, rc);
      const tTheirs = performance.now() - t0;
      recast.freeCompactHeightfield(rc);
      if (rep >= 10) {
        ours.push(tOurs);
        theirs.push(tTheirs);
      }
    }
    const stats = (xs: number[]) =>
      `median of last 5 ${median(xs.slice(-5)).toFixed(2)} ms, min of 20 ${Math.min(...xs).toFixed(2)} ms`;
    console.log(
      `[timing dungeon] compact+erode after 10 warm-ups: meshway ${stats(ours)}; recast-wasm ${stats(theirs)}`,
    );
    expect(ours).toHaveLength(20);
  });
});
