import { beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { serializeNavMesh, serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import { type AreaVolume, applyAreaVolumes } from "../../src/generate/areas.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { erodeWalkableArea } from "../../src/generate/erode.js";
import { markWalkableTriangles } from "../../src/generate/rasterize.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { tileOfRef } from "../../src/navmesh/poly-ref.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NodeTilePool } from "../../src/node/tile-pool.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findRandomPoint, mulberry32, RandomPointResult } from "../../src/query/random-point.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import {
  binTriangles,
  buildTileCompact,
  buildTileFromCompact,
} from "../../src/tiles/build-tile.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { createTileGrid, tileBounds } from "../../src/tiles/tile-grid.js";
import { pathOnSurface } from "../helpers/path-surface.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";
import { lengthXZ } from "../helpers/visibility-graph.js";

const { tileSize: _tileSize, ...SOLO_CONFIG } = TILED_CONFIG;
const PAIRS = 600;

let mesh: ReturnType<typeof tiledScene>;
let solo: NavMesh;
let tiled: NavMesh;
let tiledStats: Awaited<ReturnType<typeof buildTiledNavMesh>>["stats"];

beforeAll(async () => {
  mesh = tiledScene();
  solo = buildNavMesh(mesh, SOLO_CONFIG).navMesh;
  const r = await buildTiledNavMesh(mesh, TILED_CONFIG);
  tiled = r.navMesh;
  tiledStats = r.stats;
});

describe("tiled build of a generated scene", () => {
  it("cuts it into many tiles, skips the empty ones and passes validateNavMesh", () => {
    expect(tiledStats.grid.tilesX * tiledStats.grid.tilesZ).toBe(144);
    expect(tiledStats.tiles).toBe(tiled.tiles.length);
    expect(tiledStats.tiles + tiledStats.emptyTiles).toBe(144);
    expect(tiledStats.tiles).toBeGreaterThan(100);
    expect(validateNavMesh(tiled)).toEqual({ ok: true, problems: [] });
  });

  it("covers the same area as the solo build within 1%", () => {
    const a = tiled.area();
    const b = solo.area();
    console.log(
      `area: tiled ${a.toFixed(2)}, solo ${b.toFixed(2)}, ${(((a - b) / b) * 100).toFixed(3)}%`,
    );
    expect(Math.abs(a - b) / b).toBeLessThan(0.01);
  });

  // The issue asks for ≥ 95% of path lengths within 1% of the solo mesh's. Measured here:
  // ~74% with one direction, ~80% taking each mesh's better direction, and tiled paths are
  // *shorter* by > 1% about as often as longer: both meshes' computePath is A* over polygon
  // portal midpoints, which picks a different corridor around obstacles on a differently cut
  // mesh (up to ±20% on single pairs, both ways). Recast/Detour's own tiled and solo meshes of
  // this scene agree on exactly the same 73.9% (test/diff/tiles.diff.test.ts). So the
  // assertions below bound that noise as measured and check what the build owns: same
  // reachability, every path on the surface, no bias (median difference ~0). The issue's
  // ≥ 95% is asserted on exact shortest paths (findShortestPath) in the next test: 100%.
  it(`${PAIRS} seeded paths across tiles stay on the surface, reach what solo reaches, and are not longer than solo's`, () => {
    const qs = new NavMeshQuery(solo, { maxNodes: 8192 });
    const qt = new NavMeshQuery(tiled, { maxNodes: 8192 });
    const rng = mulberry32(1234);
    const pa = new RandomPointResult();
    const pb = new RandomPointResult();
    const ratios: number[] = [];
    let offSurface = 0;
    let sameStatus = 0;
    let tilesCrossed = 0;
    const startTiles = new Set<number>();
    for (let i = 0; i < PAIRS; i++) {
      findRandomPoint(qs, qs.defaultFilter, rng, pa);
      findRandomPoint(qs, qs.defaultFilter, rng, pb);
      const ps = qs.computePath(pa.point, pb.point);
      const pt = qt.computePath(pa.point, pb.point);
      if (ps.status === pt.status) sameStatus++;
      if (!pathOnSurface(qt, pt.points)) offSurface++;
      tilesCrossed += new Set(pt.polys.map((r) => tileOfRef(r))).size;
      startTiles.add(tileOfRef(pt.polys[0]!));
      if (ps.status !== "complete" || pt.status !== "complete") continue;
      // Each mesh's better direction (A*'s corridor choice depends on the direction).
      const ls = Math.min(ps.length, qs.computePath(pb.point, pa.point).length);
      const lt = Math.min(pt.length, qt.computePath(pb.point, pa.point).length);
      ratios.push(lt / ls - 1);
    }
    ratios.sort((a, b) => a - b);
    const within = ratios.filter((r) => Math.abs(r) <= 0.01).length / ratios.length;
    const notLonger = ratios.filter((r) => r <= 0.01).length / ratios.length;
    const median = ratios[ratios.length >> 1]!;
    console.log(
      `paths: ${ratios.length} complete pairs; within 1% of solo ${(within * 100).toFixed(1)}%, at most 1% longer ${(notLonger * 100).toFixed(1)}%, median ${(median * 100).toFixed(3)}%, range ${(ratios[0]! * 100).toFixed(1)}%..${(ratios[ratios.length - 1]! * 100).toFixed(1)}%; ${offSurface} off the surface; ${(tilesCrossed / PAIRS).toFixed(1)} tiles per path, starts in ${startTiles.size} tiles`,
    );
    expect(offSurface).toBe(0);
    expect(sameStatus).toBe(PAIRS);
    expect(ratios.length).toBeGreaterThan(0.75 * PAIRS);
    expect(Math.abs(median)).toBeLessThan(0.001);
    expect(within).toBeGreaterThanOrEqual(0.75);
    expect(notLonger).toBeGreaterThanOrEqual(0.9);
    expect(tilesCrossed / PAIRS).toBeGreaterThan(5);
    expect(startTiles.size).toBeGreaterThan(80);
  });

  // With exact shortest paths the comparison is meaningful: both meshes' optimum is the same
  // curve up to the erosion/simplification differences at tile cuts.
  it(`findShortestPath: ${PAIRS} seeded pairs, tiled lengths within 1% of solo's on at least 95%, same statuses, on the surface, never longer than computePath`, () => {
    const qs = new NavMeshQuery(solo, { maxNodes: 8192 });
    const qt = new NavMeshQuery(tiled, { maxNodes: 8192 });
    const rng = mulberry32(1234);
    const pa = new RandomPointResult();
    const pb = new RandomPointResult();
    const ratios: number[] = [];
    let offSurface = 0;
    let sameStatus = 0;
    let longerThanFunnel = 0;
    const bad: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      findRandomPoint(qs, qs.defaultFilter, rng, pa);
      findRandomPoint(qs, qs.defaultFilter, rng, pb);
      const ss = findShortestPath(qs, pa.point, pb.point);
      const st = findShortestPath(qt, pa.point, pb.point);
      const ft = qt.computePath(pa.point, pb.point);
      if (ss.status === st.status) sameStatus++;
      if (!pathOnSurface(qt, st.points)) offSurface++;
      if ((st.status === "complete") !== (ft.status === "complete")) bad.push(`status ${i}`);
      if (st.status === "complete" && lengthXZ(st.points) > lengthXZ(ft.points) * (1 + 1e-9) + 1e-9)
        longerThanFunnel++;
      if (ss.status !== "complete" || st.status !== "complete") continue;
      const r = lengthXZ(st.points) / lengthXZ(ss.points) - 1;
      ratios.push(r);
      if (Math.abs(r) > 0.01)
        bad.push(
          `pair ${i} ${(r * 100).toFixed(2)}% ${Array.from(pa.point, (v) => v.toFixed(2))} -> ${Array.from(pb.point, (v) => v.toFixed(2))}`,
        );
    }
    ratios.sort((a, b) => a - b);
    const within = ratios.filter((r) => Math.abs(r) <= 0.01).length / ratios.length;
    console.log(
      `shortest: ${ratios.length} complete pairs; within 1% of solo ${(within * 100).toFixed(1)}%, range ${(ratios[0]! * 100).toFixed(2)}%..${(ratios[ratios.length - 1]! * 100).toFixed(2)}%; ${offSurface} off the surface; ${longerThanFunnel} longer than computePath\n${bad.join("\n")}`,
    );
    expect(offSurface).toBe(0);
    expect(sameStatus).toBe(PAIRS);
    expect(longerThanFunnel).toBe(0);
    expect(ratios.length).toBeGreaterThan(0.75 * PAIRS);
    expect(within).toBeGreaterThanOrEqual(0.95);
  });

  it("gives byte-identical navmeshes on 1, 2 and 4 threads", async () => {
    const cfg = resolveConfig(TILED_CONFIG);
    const one = serializeNavMesh(tiled, cfg);
    for (const threads of [2, 4]) {
      const pool = new NodeTilePool(threads);
      try {
        const r = await buildTiledNavMesh(mesh, TILED_CONFIG, { pool });
        expect(r.stats.threads).toBe(threads);
        expect(Buffer.from(serializeNavMesh(r.navMesh, cfg)).equals(Buffer.from(one))).toBe(true);
      } finally {
        await pool.close();
      }
    }
  });

  it("buildTileCompact + buildTileFromCompact give the tile the full build made, and leave the compact heightfield untouched", () => {
    const cfg = resolveConfig(TILED_CONFIG);
    const grid = tiledStats.grid;
    const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize);
    const { areas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
    for (const [tx, tz] of [
      [0, 0],
      [5, 7],
      [10, 10],
    ] as const) {
      const chf = buildTileCompact(mesh, areas, bins, grid, cfg, tx, tz)!;
      expect(chf.borderSize).toBe(5);
      const before = chf.areas.slice();
      const tile = buildTileFromCompact(chf, grid, cfg, tx, tz)!;
      expect(chf.areas).toEqual(before);
      const built = tiled.tileInSlot(tiled.tilesAt(tx, tz)[0]!)!;
      expect(
        Buffer.from(serializeNavMeshTile(tile)).equals(Buffer.from(serializeNavMeshTile(built))),
      ).toBe(true);
      // An obstacle over the whole tile leaves nothing walkable.
      const blocked = buildTileFromCompact(chf, grid, cfg, tx, tz, {
        obstacles: [{ kind: "box", min: [-1e3, -1e3, -1e3], max: [1e3, 1e3, 1e3], area: 0 }],
      });
      expect(blocked).toBeNull();
    }
  });

  it("buildTileFromCompact with options.areas (final span areas) gives the tile obstacles + erosion + volumes give, and leaves them unchanged", () => {
    const cfg = resolveConfig(TILED_CONFIG);
    const grid = tiledStats.grid;
    const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize);
    const { areas: triAreas } = markWalkableTriangles(mesh, cfg.walkableSlopeDegrees);
    const chf = buildTileCompact(mesh, triAreas, bins, grid, cfg, 5, 7)!;
    const b = tileBounds(grid, cfg, 5, 7);
    const cx = (b.bmin[0] + b.bmax[0]) / 2;
    const cz = (b.bmin[2] + b.bmax[2]) / 2;
    const obstacles: AreaVolume[] = [
      { kind: "box", min: [cx - 1, -1, cz - 1], max: [cx + 1, 5, cz + 2], area: 0 },
    ];
    const areaVolumes: AreaVolume[] = [
      { kind: "box", min: [cx + 2, -1, cz - 3], max: [cx + 4, 5, cz + 3], area: 7 },
    ];
    const expected = buildTileFromCompact(chf, grid, cfg, 5, 7, { obstacles, areaVolumes })!;
    const work = { ...chf, areas: chf.areas.slice() };
    applyAreaVolumes(work, obstacles);
    erodeWalkableArea(work, cfg.walkableRadiusVoxels);
    applyAreaVolumes(work, areaVolumes);
    const final = work.areas.slice();
    // Obstacles and volumes passed beside `areas` are ignored.
    const tile = buildTileFromCompact(chf, grid, cfg, 5, 7, { areas: work.areas, obstacles })!;
    expect(work.areas).toEqual(final);
    expect(final).not.toEqual(chf.areas);
    expect(
      Buffer.from(serializeNavMeshTile(tile)).equals(Buffer.from(serializeNavMeshTile(expected))),
    ).toBe(true);
    expect(() =>
      buildTileFromCompact(chf, grid, cfg, 5, 7, { areas: new Uint8Array(chf.spanCount - 1) }),
    ).toThrow(/options.areas has \d+ entries, tile \(5, 7\) has \d+ spans/);
  });

  it("refuses tile coordinates outside the grid", () => {
    const cfg = resolveConfig(TILED_CONFIG);
    const grid = createTileGrid([0, 0, 0], [10, 1, 10], cfg);
    const bins = binTriangles(mesh, grid);
    expect(() => buildTileCompact(mesh, new Uint8Array(0), bins, grid, cfg, 5, 0)).toThrow(
      /outside the 2 × 2 tile grid/,
    );
  });

  it("refuses a solo config (tileSize 0)", async () => {
    await expect(buildTiledNavMesh(mesh, SOLO_CONFIG)).rejects.toThrow(MeshwayError);
  });
});

describe("tiles at run time", () => {
  it("removing a tile invalidates its refs, sliced searches end with invalidRef, and re-adding restores the bytes", async () => {
    const { navMesh } = await buildTiledNavMesh(mesh, TILED_CONFIG);
    const cfg = resolveConfig(TILED_CONFIG);
    const bytes = serializeNavMesh(navMesh, cfg);
    const q = new NavMeshQuery(navMesh, { maxNodes: 8192 });
    const a = createNearestPolyResult();
    const b = createNearestPolyResult();
    q.findNearestPoly([2, 0.25, 2], [2, 4, 2], q.defaultFilter, a);
    q.findNearestPoly([40, 0.25, 2], [2, 4, 2], q.defaultFilter, b);
    const before = q.computePath(a.point, b.point);
    expect(before.status).toBe("complete");
    // Remove the tile the route starts in.
    const mid = before.polys[0]!;
    const slot = tileOfRef(mid);
    const tile = navMesh.tileInSlot(slot)!;
    const tileRef = navMesh.tileRefAt(tile.tileX, tile.tileZ);
    expect(tileOfRef(tileRef)).toBe(slot);
    q.initSlicedFindPath(a.ref, b.ref, a.point, b.point);
    const removed = navMesh.removeTile(tileRef);
    expect(navMesh.isValidPolyRef(mid)).toBe(false);
    expect(q.updateSlicedFindPath(1e6)).toBe("invalidRef");
    expect(q.finalizeSlicedFindPath().status).toBe("invalidRef");
    expect(q.findPath(mid, b.ref, a.point, b.point).status).toBe("invalidRef");
    const moved = q.computePath(a.point, b.point);
    expect(moved.polys.some((r) => tileOfRef(r) === slot)).toBe(false);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    // Back in: same slot, new salt; the old ref stays dead, the path and the bytes come back.
    const again = navMesh.addTile(removed);
    expect(tileOfRef(again)).toBe(slot);
    expect(navMesh.isValidPolyRef(mid)).toBe(false);
    const after = q.computePath(a.point, b.point);
    expect(after.status).toBe("complete");
    expect(after.length).toBeCloseTo(before.length, 9);
    expect(Buffer.from(serializeNavMesh(navMesh, cfg)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("replaceTile swaps a tile in place: old refs invalid, portals relinked, queries consistent", async () => {
    const { navMesh } = await buildTiledNavMesh(mesh, TILED_CONFIG);
    const q = new NavMeshQuery(navMesh, { maxNodes: 8192 });
    const ref = navMesh.tileRefAt(3, 3);
    const old = navMesh.tileInSlot(tileOfRef(ref))!;
    const pathBefore = q.computePath([20, 0.25, 27], [31, 0.25, 27]);
    const fresh = navMesh.replaceTile(ref, old);
    expect(fresh).not.toBe(ref);
    expect(navMesh.isValidPolyRef(ref)).toBe(false);
    expect(navMesh.isValidPolyRef(fresh)).toBe(true);
    expect(validateNavMesh(navMesh).ok).toBe(true);
    const pathAfter = q.computePath([20, 0.25, 27], [31, 0.25, 27]);
    expect(pathAfter.status).toBe(pathBefore.status);
    expect(pathAfter.length).toBeCloseTo(pathBefore.length, 9);
    expect(() => navMesh.replaceTile(ref, old)).toThrow(/not a live tile/);
  });

  it("an off-mesh link spanning three tiles is used by findPath", async () => {
    // Two floors 10 m apart: tiles are 8 m, so x 0..6 is tile 0, x 17..24 tiles 2 and 3; the
    // jump from x 5 to x 18 spans tiles 0, 1 and 2.
    const twoFloors = new SceneBuilder().floor(0, 0, 6, 6).floor(17, 0, 24, 6).build();
    const { navMesh } = await buildTiledNavMesh(twoFloors, TILED_CONFIG);
    const q = new NavMeshQuery(navMesh);
    expect(q.computePath([2, 0.25, 3], [22, 0.25, 3]).status).toBe("partial");
    const link = navMesh.addOffMeshConnection({
      start: [5, 0.25, 3],
      end: [18, 0.25, 3],
      radius: 0.5,
      bidirectional: false,
      area: 63,
      flags: 1,
    });
    const info = navMesh.offMeshConnection(link)!;
    const startTile = navMesh.tileInSlot(tileOfRef(info.startPoly))!;
    const endTile = navMesh.tileInSlot(tileOfRef(info.endPoly))!;
    expect(endTile.tileX - startTile.tileX).toBe(2);
    const path = q.computePath([2, 0.25, 3], [22, 0.25, 3]);
    expect(path.status).toBe("complete");
    expect(path.polys).toContain(link);
    // One-way: the way back has no link.
    expect(q.computePath([22, 0.25, 3], [2, 0.25, 3]).status).toBe("partial");
  });
});
