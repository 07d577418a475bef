/**
 * Rasterization and span filters compared with Recast compiled to WebAssembly
 * (@recast-navigation/core): triangle areas, the exact span list (min, max, area) of every
 * column after rasterizing, and again after the three filters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import {
  filterLedgeSpans,
  filterLowHangingWalkableObstacles,
  filterWalkableLowHeightSpans,
} from "../../src/generate/filter.js";
import { countSpans, createHeightfield } from "../../src/generate/heightfield.js";
import {
  markWalkableTriangles,
  rasterizeTriangles,
  SKIP_TRIANGLE,
} from "../../src/generate/rasterize.js";
import { type Heightfield, WALKABLE_AREA } from "../../src/generate/types.js";
import type { TriangleMesh } from "../../src/input.js";
import type { Vec3 } from "../../src/math/vec3.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { initRecast, recast, toMeshwayHeightfield } from "../helpers/recast.js";

const {
  allocHeightfield,
  createHeightfield: rcCreateHeightfield,
  filterLedgeSpans: rcFilterLedgeSpans,
  filterLowHangingWalkableObstacles: rcFilterLowHanging,
  filterWalkableLowHeightSpans: rcFilterLowHeight,
  FloatArray,
  freeHeightfield,
  IntArray,
  markWalkableTriangles: rcMarkWalkableTriangles,
  RecastBuildContext,
  rasterizeTriangles: rcRasterizeTriangles,
  UnsignedCharArray,
} = recast;

/** Span lists per column: [min, max, area, min, max, area, ...]. */
type Columns = number[][];

function ourColumns(hf: Heightfield): Columns {
  const out: Columns = [];
  for (let c = 0; c < hf.width * hf.depth; c++) {
    const col: number[] = [];
    for (let s = hf.columnHead[c]!; s !== -1; s = hf.spans[s * 2 + 1]!) {
      col.push(hf.spans[s * 2]! & 0xffff, hf.spans[s * 2]! >>> 16, hf.spanArea[s]!);
    }
    out.push(col);
  }
  return out;
}

function countOf(cols: Columns, walkableOnly: boolean): number {
  let n = 0;
  for (const col of cols) {
    for (let i = 0; i < col.length; i += 3) if (!walkableOnly || col[i + 2] !== 0) n++;
  }
  return n;
}

/** Columns whose span lists differ, with both lists, for the failure message. */
function diffColumns(ours: Columns, theirs: Columns, width: number): string[] {
  const diffs: string[] = [];
  for (let c = 0; c < ours.length; c++) {
    const a = ours[c]!.join(",");
    const b = theirs[c]!.join(",");
    if (a !== b) diffs.push(`(${c % width},${Math.floor(c / width)}) ours [${a}] recast [${b}]`);
  }
  return diffs;
}

/** Grid over the mesh bounds, sized like rcCalcGridSize (float32 arithmetic). */
function gridFor(
  mesh: TriangleMesh,
  cellSize: number,
): {
  bmin: Vec3;
  bmax: Vec3;
  width: number;
  depth: number;
} {
  const p = mesh.positions;
  const bmin: Vec3 = [p[0]!, p[1]!, p[2]!];
  const bmax: Vec3 = [p[0]!, p[1]!, p[2]!];
  for (let i = 3; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      bmin[k] = Math.min(bmin[k]!, p[i + k]!);
      bmax[k] = Math.max(bmax[k]!, p[i + k]!);
    }
  }
  const f = Math.fround;
  const cs = f(cellSize);
  const width = Math.trunc(f(f(f(bmax[0] - bmin[0]) / cs) + 0.5));
  const depth = Math.trunc(f(f(f(bmax[2] - bmin[2]) / cs) + 0.5));
  return { bmin, bmax, width, depth };
}

interface RecastRun {
  areas: Uint8Array;
  raster: Columns;
  filtered: Columns;
}

type Grid = ReturnType<typeof gridFor>;

/** Recast's mark → rasterize → filters; `givenAreas` replaces the marking step when present. */
function runRecast(
  mesh: TriangleMesh,
  grid: Grid,
  cfg: ReturnType<typeof resolveConfig>,
  givenAreas?: Uint8Array,
): RecastRun {
  const ctx = new RecastBuildContext();
  const verts = new FloatArray();
  verts.copy(mesh.positions);
  const tris = new IntArray();
  tris.copy(new Int32Array(mesh.indices));
  const areas = new UnsignedCharArray();
  areas.resize(mesh.triangleCount);
  areas.copy(givenAreas ?? new Uint8Array(mesh.triangleCount));
  if (!givenAreas) {
    rcMarkWalkableTriangles(
      ctx,
      cfg.walkableSlopeDegrees,
      verts,
      mesh.vertexCount,
      tris,
      mesh.triangleCount,
      areas,
    );
  }
  const hf = allocHeightfield();
  rcCreateHeightfield(
    ctx,
    hf,
    grid.width,
    grid.depth,
    grid.bmin,
    grid.bmax,
    cfg.cellSize,
    cfg.cellHeight,
  );
  rcRasterizeTriangles(
    ctx,
    verts,
    mesh.vertexCount,
    tris,
    areas,
    mesh.triangleCount,
    hf,
    cfg.walkableClimbVoxels,
  );
  const raster = ourColumns(toMeshwayHeightfield(hf));
  rcFilterLowHanging(ctx, cfg.walkableClimbVoxels, hf);
  rcFilterLedgeSpans(ctx, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels, hf);
  rcFilterLowHeight(ctx, cfg.walkableHeightVoxels, hf);
  const filtered = ourColumns(toMeshwayHeightfield(hf));
  const result = { areas: areas.toTypedArray().slice(), raster, filtered };
  freeHeightfield(hf);
  verts.destroy();
  tris.destroy();
  areas.destroy();
  return result;
}

beforeAll(async () => {
  await initRecast();
});

describe.each(SHARED_MESH_NAMES)("%s.obj with default config", (name) => {
  const cfg = resolveConfig();

  it("gives every triangle the same walkable/non-walkable area as rcMarkWalkableTriangles", () => {
    const mesh = loadSharedMesh(name);
    const grid = gridFor(mesh, cfg.cellSize);
    const rc = runRecast(mesh, grid, cfg);
    const { areas, degenerateCount } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
    // Recast leaves zero-area triangles at area 0; we mark them SKIP_TRIANGLE.
    const mapped = areas.map((a) => (a === SKIP_TRIANGLE ? 0 : a));
    expect(Array.from(mapped)).toEqual(Array.from(rc.areas));
    expect(degenerateCount).toBe(areas.filter((a) => a === SKIP_TRIANGLE).length);
  });

  it("rasterizes the exact same spans as rcRasterizeTriangles and filters them identically", () => {
    const mesh = loadSharedMesh(name);
    const grid = gridFor(mesh, cfg.cellSize);
    // The brief's double-precision grid size formula agrees with Recast's float32 one here.
    expect(grid.width).toBe(Math.floor((grid.bmax[0] - grid.bmin[0]) / cfg.cellSize + 0.5));
    expect(grid.depth).toBe(Math.floor((grid.bmax[2] - grid.bmin[2]) / cfg.cellSize + 0.5));
    const rc = runRecast(mesh, grid, cfg);

    const { areas, degenerateCount } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
    const hf = createHeightfield(
      grid.width,
      grid.depth,
      grid.bmin,
      grid.bmax,
      cfg.cellSize,
      cfg.cellHeight,
    );
    rasterizeTriangles(hf, mesh.positions, mesh.indices, areas, cfg.walkableClimbVoxels);
    const raster = ourColumns(hf);
    const rasterCount = countSpans(hf);
    filterLowHangingWalkableObstacles(hf, cfg.walkableClimbVoxels);
    filterLedgeSpans(hf, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
    filterWalkableLowHeightSpans(hf, cfg.walkableHeightVoxels);
    const filtered = ourColumns(hf);

    const summary = {
      mesh: name,
      grid: `${grid.width}x${grid.depth}`,
      degenerateTriangles: degenerateCount,
      spans: { ours: rasterCount, recast: countOf(rc.raster, false) },
      walkableAfterFilters: { ours: countOf(filtered, true), recast: countOf(rc.filtered, true) },
    };
    console.log(JSON.stringify(summary));

    expect(rasterCount).toBe(countOf(raster, false));
    expect(diffColumns(raster, rc.raster, grid.width).slice(0, 10)).toEqual([]);
    expect(diffColumns(filtered, rc.filtered, grid.width).slice(0, 10)).toEqual([]);
  });
});

/** Ours: rasterize with the given areas, snapshot, filter, snapshot. */
function runOurs(
  mesh: TriangleMesh,
  grid: Grid,
  cfg: ReturnType<typeof resolveConfig>,
  areas: Uint8Array,
): { raster: Columns; filtered: Columns } {
  const hf = createHeightfield(
    grid.width,
    grid.depth,
    grid.bmin,
    grid.bmax,
    cfg.cellSize,
    cfg.cellHeight,
  );
  rasterizeTriangles(hf, mesh.positions, mesh.indices, areas, cfg.walkableClimbVoxels);
  const raster = ourColumns(hf);
  filterLowHangingWalkableObstacles(hf, cfg.walkableClimbVoxels);
  filterLedgeSpans(hf, cfg.walkableHeightVoxels, cfg.walkableClimbVoxels);
  filterWalkableLowHeightSpans(hf, cfg.walkableHeightVoxels);
  return { raster, filtered: ourColumns(hf) };
}

describe("grid smaller than the mesh, unaligned, with mixed area ids", () => {
  // Exercises clipping at all six faces of the grid box (including Recast's truncation of
  // grid coordinates just before the low x/z edge), the y clamp, and the area max-merge rule.
  it.each(SHARED_MESH_NAMES)("%s.obj: identical span lists before and after filtering", (name) => {
    const mesh = loadSharedMesh(name);
    const full = gridFor(mesh, 0.3);
    const ext = [0, 1, 2].map((k) => full.bmax[k]! - full.bmin[k]!);
    const bmin: Vec3 = [
      full.bmin[0] + ext[0]! * 0.137,
      full.bmin[1] + ext[1]! * 0.21,
      full.bmin[2] + ext[2]! * 0.093,
    ];
    const bmax: Vec3 = [
      full.bmax[0] - ext[0]! * 0.171,
      full.bmax[1] - ext[1]! * 0.23,
      full.bmax[2] - ext[2]! * 0.118,
    ];
    for (const cfg of [
      resolveConfig({ cellSize: 0.3, cellHeight: 0.2 }),
      resolveConfig({ cellSize: 0.17, cellHeight: 0.05, agentMaxClimb: 0.3, agentHeight: 1 }),
    ]) {
      const grid = {
        bmin,
        bmax,
        width: Math.floor((bmax[0] - bmin[0]) / cfg.cellSize + 0.5),
        depth: Math.floor((bmax[2] - bmin[2]) / cfg.cellSize + 0.5),
      };
      const areas = new Uint8Array(mesh.triangleCount);
      for (let t = 0; t < areas.length; t++) areas[t] = (t * 37) % 64;
      const rc = runRecast(mesh, grid, cfg, areas);
      const ours = runOurs(mesh, grid, cfg, areas);
      expect(countOf(ours.raster, false)).toBe(countOf(rc.raster, false));
      expect(diffColumns(ours.raster, rc.raster, grid.width).slice(0, 10)).toEqual([]);
      expect(diffColumns(ours.filtered, rc.filtered, grid.width).slice(0, 10)).toEqual([]);
    }
  });
});

describe("hand-built triangles on a 10×10×10 unit grid", () => {
  // The unit tests' triangles plus boundary cases, each rasterized alone by both.
  const triangles: number[][] = [
    [1, 2.5, 1, 1, 2.5, 4, 4, 2.5, 1], // flat
    [0.2, 3, 0.2, 0.2, 3, 0.8, 0.8, 3, 0.2], // flat at an integer height
    [0, 1, 0, 0, 1, 4, 4, 3, 0], // sloped
    [4.5, 1, 2.5, 4.5, 6, 2.5, 4.5, 1, 4.5], // vertical
    [-2, 1.5, -2, -2, 1.5, 4, 4, 1.5, -2], // past the low edges
    [8, 1.5, 8, 8, 1.5, 14, 14, 1.5, 8], // past the high edges
    [-0.5, 3, 0.1, -0.5, 3, 0.9, 0.5, 1, 0.5], // less than a cell before x = 0
    [0.3, 3, -0.5, 0.9, 3, -0.5, 0.5, 1, 0.5], // less than a cell before z = 0
    [3.2, -5, 2.5, 3.2, 15, 2.5, 3.8, 5, 2.5], // taller than the grid
    [10, 1, 1, 10, 1, 2, 12, 1, 1], // touching the x = 10 face from outside
    [2, 1, 2, 2, 1, 5, 5, 1, 2], // vertices and edges on cell boundaries
    [1, 1, 1, 2, 2, 2, 3, 3, 3], // zero area (Recast rasterizes it; we skip it after marking)
  ];

  it.each(triangles.map((t, i) => [i, t] as const))(
    "triangle %i: same spans as Recast",
    (_, tri) => {
      const mesh: TriangleMesh = {
        positions: new Float32Array(tri),
        indices: new Uint32Array([0, 1, 2]),
        vertexCount: 3,
        triangleCount: 1,
      };
      const cfg = resolveConfig({ cellSize: 1, cellHeight: 1, agentMaxClimb: 1, agentHeight: 2 });
      const grid = { bmin: [0, 0, 0] as Vec3, bmax: [10, 10, 10] as Vec3, width: 10, depth: 10 };
      const areas = new Uint8Array([WALKABLE_AREA]);
      const rc = runRecast(mesh, grid, cfg, areas);
      const ours = runOurs(mesh, grid, cfg, areas);
      expect(diffColumns(ours.raster, rc.raster, 10)).toEqual([]);
    },
  );

  it("marks walkability like rcMarkWalkableTriangles at and around the slope limits, both windings", () => {
    const r3 = Math.sqrt(3);
    const tris = [
      [0, 0, 0, 0, 0, 1, 1, 0, 0], // flat, counter-clockwise from above
      [0, 0, 0, 1, 0, 0, 0, 0, 1], // flat, clockwise
      [0, 0, 0, 0, 1, 1, 1, 0, 0], // 45°
      [0, 0, 0, 1, 0, 0, 0, 1, 1], // 45°, reversed
      [0, 0, 0, 0, r3, 1, 1, 0, 0], // 60°
      [0, 0, 0, 0, 1, r3, 1, 0, 0], // 30°
      [0, 0, 0, 0, 1, 0, 1, 0, 0], // wall
    ];
    const mesh: TriangleMesh = {
      positions: new Float32Array(tris.flat()),
      indices: Uint32Array.from({ length: tris.length * 3 }, (_, i) => i),
      vertexCount: tris.length * 3,
      triangleCount: tris.length,
    };
    for (const slope of [0, 1, 29.999, 30, 30.001, 44.999, 45, 45.001, 60, 89.9, 90]) {
      const ctx = new RecastBuildContext();
      const verts = new FloatArray();
      verts.copy(mesh.positions);
      const idx = new IntArray();
      idx.copy(new Int32Array(mesh.indices));
      const rcAreas = new UnsignedCharArray();
      rcAreas.copy(new Uint8Array(tris.length));
      rcMarkWalkableTriangles(ctx, slope, verts, mesh.vertexCount, idx, tris.length, rcAreas);
      const expected = Array.from(rcAreas.toTypedArray());
      expect([slope, ...markWalkableTriangles(mesh, slope).areas]).toEqual([slope, ...expected]);
      verts.destroy();
      idx.destroy();
      rcAreas.destroy();
    }
  });
});
