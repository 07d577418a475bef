/**
 * buildPolyMesh against Recast's rcBuildPolyMesh (WASM) on the very same contour set: Recast's
 * own contours are converted to meshway's layout, both meshers run, and the resulting vertex
 * and polygon arrays must be identical.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Partition, resolveConfig } from "../../src/config.js";
import { buildPolyMesh } from "../../src/generate/polymesh.js";
import type { ContourSet, PolyMesh } from "../../src/generate/types.js";
import { BORDER_VERTEX } from "../../src/generate/types.js";
import { loadSharedMesh, SHARED_MESH_NAMES, type SharedMeshName } from "../helpers/meshes.js";
import {
  initRecast,
  RC_CONTOUR_TESS_WALL_EDGES,
  type RecastContourSet,
  recast,
  runRecastPipeline,
  toMeshwayContours,
  toMeshwayPolyMesh,
} from "../helpers/recast.js";

const {
  allocContourSet,
  allocPolyMesh,
  buildContours,
  buildDistanceField,
  buildPolyMesh: rcBuildPolyMesh,
  buildRegions,
  freeContourSet,
  freePolyMesh,
  RecastBuildContext,
} = recast;

const NVP = 6;
const report: string[] = [];

beforeAll(async () => {
  await initRecast();
});

afterAll(() => {
  if (report.length) console.log(`polymesh vs Recast WASM:\n${report.join("\n")}`);
});

function expectSameMesh(mine: PolyMesh, theirs: PolyMesh): void {
  expect(mine.polyCount).toBe(theirs.polyCount);
  expect(mine.vertCount).toBe(theirs.vertCount);
  expect(mine.maxVertsPerPoly).toBe(theirs.maxVertsPerPoly);
  expect(mine.borderSize).toBe(theirs.borderSize);
  // Whole arrays: element-wise equality without building huge diff strings on success.
  expect(firstDifference(mine.verts, theirs.verts)).toBe(-1);
  expect(firstDifference(mine.polys, theirs.polys)).toBe(-1);
  expect(firstDifference(mine.regions, theirs.regions)).toBe(-1);
  expect(firstDifference(mine.areas, theirs.areas)).toBe(-1);
  expect(firstDifference(mine.flags, theirs.flags)).toBe(-1);
}

function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Best wall time in ms over `runs` runs after a warm-up (one run only when a run is slow). */
function bestTime(runs: number, fn: () => void): number {
  const t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  if (first > 50) return first;
  for (let i = 0; i < runs; i++) fn();
  let best = first;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

function timeRecast(rcCset: RecastContourSet, runs: number): number {
  const ctx = new RecastBuildContext(false);
  return bestTime(runs, () => {
    const pm = allocPolyMesh();
    rcBuildPolyMesh(ctx, rcCset, NVP, pm);
    freePolyMesh(pm);
  });
}

function describeSizes(cset: ContourSet): string {
  let maxVerts = 0;
  let total = 0;
  for (const c of cset.contours) {
    maxVerts = Math.max(maxVerts, c.verts.length / 4);
    total += c.verts.length / 4;
  }
  return `${cset.contours.length} contours, ${total} verts (max ${maxVerts})`;
}

describe("buildPolyMesh matches Recast's rcBuildPolyMesh on Recast's contours", () => {
  const cases: { name: SharedMeshName; partition: Partition }[] = [
    ...SHARED_MESH_NAMES.map((name) => ({ name, partition: "watershed" as const })),
    // Layer regions give long contours (up to ~1000 vertices): stresses ear clipping and merging.
    { name: "nav_test", partition: "layers" },
  ];
  for (const { name, partition } of cases) {
    it(`${name} (${partition}): identical vertices, polygons, neighbours, regions and areas (nvp 6)`, () => {
      const cfg = resolveConfig({ vertsPerPoly: NVP, partition });
      const r = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "polymesh" });
      try {
        const cset = toMeshwayContours(r.cset!);
        const theirs = toMeshwayPolyMesh(r.pmesh!);
        const mine = buildPolyMesh(cset, NVP);
        expectSameMesh(mine, theirs);
        expect(mine.maxEdgeError).toBe(theirs.maxEdgeError);
        expect(mine.cellSize).toBe(theirs.cellSize);

        const runs = 50;
        const ours = bestTime(runs, () => buildPolyMesh(cset, NVP));
        const wasm = timeRecast(r.cset!, runs);
        report.push(
          `  ${name} ${partition}: ${describeSizes(cset)} -> ${mine.polyCount} polys, ${mine.vertCount} verts ` +
            `(Recast ${theirs.polyCount}/${theirs.vertCount}); ours ${ours.toFixed(2)} ms, ` +
            `WASM ${wasm.toFixed(2)} ms (best of ${runs} warm)`,
        );
      } finally {
        r.free();
      }
    });
  }

  // Regions built with a tile border: contours carry BORDER_VERTEX flags, so border-vertex
  // removal (hole re-triangulation) and portal marking both run.
  for (const name of SHARED_MESH_NAMES) {
    it(`${name}: identical meshes with borderSize > 0 (border-vertex removal and portals)`, () => {
      const cfg = resolveConfig({ vertsPerPoly: NVP });
      const borderSize = 20;
      const r = runRecastPipeline(loadSharedMesh(name), cfg, { stopAfter: "erode" });
      const ctx = new RecastBuildContext(false);
      const rcCset = allocContourSet();
      const rcPmesh = allocPolyMesh();
      try {
        const chf = r.chf!;
        expect(buildDistanceField(ctx, chf)).toBe(true);
        expect(
          buildRegions(ctx, chf, borderSize, cfg.minRegionAreaCells, cfg.mergeRegionAreaCells),
        ).toBe(true);
        expect(
          buildContours(
            ctx,
            chf,
            cfg.edgeMaxErrorVoxels,
            cfg.edgeMaxLenVoxels,
            rcCset,
            RC_CONTOUR_TESS_WALL_EDGES,
          ),
        ).toBe(true);
        expect(rcBuildPolyMesh(ctx, rcCset, NVP, rcPmesh)).toBe(true);
        const cset = toMeshwayContours(rcCset);
        expect(cset.borderSize).toBe(borderSize);
        let flagged = 0;
        for (const c of cset.contours) {
          for (let i = 3; i < c.verts.length; i += 4) if (c.verts[i]! & BORDER_VERTEX) flagged++;
        }
        expect(flagged).toBeGreaterThan(0);

        const theirs = toMeshwayPolyMesh(rcPmesh);
        const mine = buildPolyMesh(cset, NVP);
        expectSameMesh(mine, theirs);
        let portals = 0;
        for (let p = 0; p < mine.polyCount; p++) {
          for (let j = 0; j < NVP; j++) {
            const n = mine.polys[p * 2 * NVP + NVP + j]!;
            if (n !== 0xffffffff && n >= 0x80000000) portals++;
          }
        }
        expect(portals).toBeGreaterThan(0);

        const runs = 50;
        const ours = bestTime(runs, () => buildPolyMesh(cset, NVP));
        const wasm = timeRecast(rcCset, runs);
        report.push(
          `  ${name} (borderSize ${borderSize}, ${flagged} border verts, ${portals} portal edges): ` +
            `${describeSizes(cset)} -> ${mine.polyCount} polys, ${mine.vertCount} verts; ` +
            `ours ${ours.toFixed(2)} ms, WASM ${wasm.toFixed(2)} ms (best of ${runs} warm)`,
        );
      } finally {
        freePolyMesh(rcPmesh);
        freeContourSet(rcCset);
        r.free();
      }
    });
  }
});
