// Tiled build against recast-navigation's generateTiledNavMesh (Recast compiled to WebAssembly)
// on the shared demo meshes, RecastDemo's default config, the same tile sizes: tile grid, polygon
// counts per tile and total area. Measured (printed): the same polygon count in every tile of
// all six builds, total area within 0.002% (undulating), 0 on nav_test and dungeon.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { buildDetourNavMesh, type DetourBuild, readDetourTiles } from "../helpers/detour.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import { initRecast } from "../helpers/recast.js";

/** Per tile "x,z" → polygon count and XZ area, of a Detour navmesh. */
function detourTiles(build: DetourBuild): Map<string, { polys: number; area: number }> {
  const out = new Map<string, { polys: number; area: number }>();
  for (const t of readDetourTiles(build.navMesh)) {
    let area = 0;
    let polys = 0;
    for (let p = 0; p < t.polyCount; p++) {
      if (t.polyType[p] !== 0) continue;
      polys++;
      const n = t.polyVertCount[p]!;
      let twice = 0;
      for (let i = 0; i < n; i++) {
        const a = t.polyVerts[p * 6 + i]! * 3;
        const b = t.polyVerts[p * 6 + ((i + 1) % n)]! * 3;
        twice += t.verts[a]! * t.verts[b + 2]! - t.verts[b]! * t.verts[a + 2]!;
      }
      area += Math.abs(twice) / 2;
    }
    if (polys > 0) out.set(`${t.x},${t.y}`, { polys, area });
  }
  return out;
}

function meshwayTiles(navMesh: NavMesh): Map<string, { polys: number; area: number }> {
  const out = new Map<string, { polys: number; area: number }>();
  for (const t of navMesh.tiles) {
    let area = 0;
    for (let p = 0; p < t.polyCount; p++) {
      const n = t.polyVertCount[p]!;
      let twice = 0;
      for (let i = 0; i < n; i++) {
        const a = t.polyVerts[p * t.maxVertsPerPoly + i]! * 3;
        const b = t.polyVerts[p * t.maxVertsPerPoly + ((i + 1) % n)]! * 3;
        twice += t.vertices[a]! * t.vertices[b + 2]! - t.vertices[b]! * t.vertices[a + 2]!;
      }
      area += Math.abs(twice) / 2;
    }
    out.set(`${t.tileX},${t.tileZ}`, { polys: t.polyCount, area });
  }
  return out;
}

const CASES = SHARED_MESH_NAMES.flatMap((name) =>
  [32, 64].map((tileSize) => [name, tileSize] as const),
);

describe.each(CASES)("%s, tile size %i: meshway vs generateTiledNavMesh", (name, tileSize) => {
  let detour: DetourBuild;
  let ours: Map<string, { polys: number; area: number }>;
  let theirs: Map<string, { polys: number; area: number }>;

  beforeAll(async () => {
    await initRecast();
    const mesh = loadSharedMesh(name);
    const cfg = resolveConfig({ tileSize });
    detour = buildDetourNavMesh(mesh, cfg, { tileSize });
    theirs = detourTiles(detour);
    ours = meshwayTiles((await buildTiledNavMesh(mesh, { tileSize })).navMesh);
  });
  afterAll(() => detour?.free());

  it("makes polygons in the same tiles, the same count per tile, the same area", () => {
    let sameCount = 0;
    let ourPolys = 0;
    let theirPolys = 0;
    let ourArea = 0;
    let theirArea = 0;
    let worstTileArea = 0;
    for (const [key, t] of theirs) {
      const o = ours.get(key);
      theirPolys += t.polys;
      theirArea += t.area;
      if (o?.polys === t.polys) sameCount++;
      if (o) worstTileArea = Math.max(worstTileArea, Math.abs(o.area - t.area) / t.area);
    }
    for (const o of ours.values()) {
      ourPolys += o.polys;
      ourArea += o.area;
    }
    console.log(
      `${name} @${tileSize}: tiles ${ours.size} vs ${theirs.size}; same polygon count in ${sameCount}/${theirs.size} tiles; polygons ${ourPolys} vs ${theirPolys}; area ${ourArea.toFixed(2)} vs ${theirArea.toFixed(2)} (${(((ourArea - theirArea) / theirArea) * 100).toFixed(3)}%), worst tile area ${(worstTileArea * 100).toFixed(2)}%`,
    );
    expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
    // Measured: the same polygon count in every tile, total area within 0.002%.
    expect(sameCount).toBe(theirs.size);
    expect(ourPolys).toBe(theirPolys);
    expect(Math.abs(ourArea - theirArea) / theirArea).toBeLessThan(1e-4);
    expect(worstTileArea).toBeLessThan(1e-3);
  });
});
