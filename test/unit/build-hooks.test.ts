import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { polyCenter } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };
const WATER = 5;
const SWIM = 4;
const hook = (area: number) => (area === WATER ? SWIM : 1);

/** Two 6 × 6 floors side by side (x 0..6 land, x 6..12 water) and their triangle areas. */
function scene() {
  const mesh = new SceneBuilder().floor(0, 0, 6, 6).floor(6, 0, 12, 6).build();
  const areas = new Uint8Array(mesh.triangleCount).fill(63);
  areas[2] = WATER;
  areas[3] = WATER;
  return { mesh, areas };
}

/** [area, flags, centre x] of every polygon. */
function polys(nm: NavMesh): [number, number, number][] {
  const out: [number, number, number][] = [];
  const c = new Float64Array(3);
  for (const t of nm.tiles) {
    for (let p = 0; p < t.polyCount; p++) {
      polyCenter(t, p, c);
      out.push([t.polyAreas[p]!, t.polyFlags[p]!, c[0]!]);
    }
  }
  return out;
}

describe("build hooks: triangleAreas, bounds, polyFlags", () => {
  it("buildNavMesh marks polygons over water triangles and flags them through the hook", () => {
    const { mesh, areas } = scene();
    const { navMesh } = buildNavMesh(mesh, CONFIG, { triangleAreas: areas, polyFlags: hook });
    const ps = polys(navMesh);
    expect(ps.some(([a]) => a === WATER)).toBe(true);
    for (const [a, f, x] of ps) {
      expect(f).toBe(hook(a));
      expect(a).toBe(x > 6 ? WATER : 63);
    }
  });

  it("bounds clip the build to a box; a bigger box fixes the tile grid origin", async () => {
    const { mesh } = scene();
    const clipped = buildNavMesh(mesh, CONFIG, { bounds: { bmin: [0, -1, 0], bmax: [6, 1, 6] } });
    for (const [, , x] of polys(clipped.navMesh)) expect(x).toBeLessThan(6);
    const { navMesh } = await buildTiledNavMesh(
      mesh,
      { ...CONFIG, tileSize: 16 },
      {
        bounds: { bmin: [-4, -1, -4], bmax: [16, 2, 10] },
        triangleAreas: scene().areas,
        polyFlags: hook,
      },
    );
    expect(navMesh.params.origin).toEqual([-4, -1, -4]);
    const ps = polys(navMesh);
    expect(ps.some(([a]) => a === WATER)).toBe(true);
    for (const [a, f] of ps) expect(f).toBe(hook(a));
  });

  it("the tile cache applies the hook to every tile it rebuilds; run-time flag changes on a rebuilt tile are reset", () => {
    const { mesh, areas } = scene();
    const { navMesh, cache } = createTileCache(
      mesh,
      { ...CONFIG, tileSize: 16 },
      { triangleAreas: areas, polyFlags: hook },
    );
    for (const [a, f] of polys(navMesh)) expect(f).toBe(hook(a));
    // Close every polygon at run time, then drop an obstacle on the land tile at x < 4.
    const before = navMesh.tiles.map((t) => t);
    for (const t of before) {
      for (let p = 0; p < t.polyCount; p++) {
        navMesh.setPolyFlags(navMesh.polyRef(navMesh.tilesAt(t.tileX, t.tileZ)[0]!, p), 0);
      }
    }
    cache.addObstacle({ kind: "box", min: [1, -0.5, 1], max: [2, 1, 2] });
    cache.flush();
    const rebuilt = navMesh.tiles.filter((t) => !before.includes(t));
    const kept = navMesh.tiles.filter((t) => before.includes(t));
    expect(rebuilt.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    for (const t of rebuilt) {
      for (let p = 0; p < t.polyCount; p++) expect(t.polyFlags[p]).toBe(hook(t.polyAreas[p]!));
    }
    for (const t of kept) for (let p = 0; p < t.polyCount; p++) expect(t.polyFlags[p]).toBe(0);
  });

  it("refuses bad triangleAreas, bounds and hook results with MeshwayError naming them", () => {
    const { mesh } = scene();
    expect(() => buildNavMesh(mesh, CONFIG, { triangleAreas: new Uint8Array(3) })).toThrow(
      /triangleAreas has 3 entries, the input 4 triangles/,
    );
    expect(() => buildNavMesh(mesh, CONFIG, { triangleAreas: new Uint8Array(4).fill(64) })).toThrow(
      /triangleAreas\[0\] is 64/,
    );
    expect(() =>
      buildNavMesh(mesh, CONFIG, { bounds: { bmin: [0, 0, 0], bmax: [0, 1, 1] } }),
    ).toThrow(/bounds.bmin\[0\]/);
    expect(() => buildNavMesh(mesh, CONFIG, { polyFlags: () => 0x10000 })).toThrow(
      /polyFlags hook: returned 65536 for area 63/,
    );
  });
});
