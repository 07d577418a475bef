import { describe, expect, it } from "vitest";
import { serializeNavMesh, serializeNavMeshTile } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, type NavMeshTile } from "../../src/navmesh/tile.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { createTileCache, TileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";

const CONFIG = { tileSize: 32 };

/** The lowest and highest polygon vertex of a tile. */
function yRange(tile: NavMeshTile): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let v = 0; v < tile.vertexCount; v++) {
    lo = Math.min(lo, tile.vertices[v * 3 + 1]!);
    hi = Math.max(hi, tile.vertices[v * 3 + 1]!);
  }
  return [lo, hi];
}

/** Polygons of the tiled build (buildTiledNavMesh) at `tileSize`. */
async function tiledPolygonCount(name: "nav_test" | "dungeon", tileSize: number): Promise<number> {
  let n = 0;
  const { navMesh } = await buildTiledNavMesh(loadSharedMesh(name), { tileSize });
  for (const t of navMesh.tiles) n += t.polyCount;
  return n;
}

function tileBytes(navMesh: NavMesh): Map<NavMeshTile, Uint8Array> {
  return new Map(navMesh.tiles.map((t) => [t, serializeNavMeshTile(t)]));
}

describe("TileCache: heightfield layers, one navmesh tile per storey", () => {
  const mesh = loadSharedMesh("dungeon");
  let built: { navMesh: NavMesh; cache: TileCache } | undefined;
  const cache = () => {
    built ??= createTileCache(mesh, CONFIG);
    return built;
  };

  it("dungeon.obj's storeys become several layers at one tile coordinate, all valid", () => {
    const { navMesh } = cache();
    expect(validateNavMesh(navMesh).ok).toBe(true);
    let stacked = 0;
    for (const t of navMesh.tiles) if (navMesh.tilesAt(t.tileX, t.tileZ).length > 1) stacked++;
    expect(stacked).toBeGreaterThan(20);
  });

  it("an obstacle on an upper floor leaves every lower-floor polygon byte-identical", () => {
    const { navMesh, cache: c } = cache();
    // The tile coordinate with the largest height gap between its layers.
    let best: { top: NavMeshTile; below: NavMeshTile[]; gap: number } | null = null;
    for (const t of navMesh.tiles) {
      if (t.polyCount === 0) continue;
      const here = navMesh
        .tilesAt(t.tileX, t.tileZ)
        .map((s) => navMesh.tileInSlot(s)!)
        .filter((x) => x.polyCount > 0);
      if (here.length < 2) continue;
      const below = here.filter((x) => yRange(x)[1] < yRange(t)[0] - 2);
      if (below.length === 0) continue;
      const gap = yRange(t)[0] - Math.max(...below.map((x) => yRange(x)[1]));
      if (!best || gap > best.gap) best = { top: t, below, gap };
    }
    expect(best).not.toBeNull();
    const { top, below } = best!;
    // A crate standing on the upper layer's first polygon, no taller than the storey gap.
    const q = new NavMeshQuery(navMesh);
    const p = top.polyVerts[0]! * 3;
    const at: [number, number, number] = [
      top.vertices[p]!,
      top.vertices[p + 1]!,
      top.vertices[p + 2]!,
    ];
    const centre = [0, 0, 0];
    const n = top.polyVertCount[0]!;
    for (let k = 0; k < n; k++) {
      const v = top.polyVerts[k]! * 3;
      for (let a = 0; a < 3; a++) centre[a]! += top.vertices[v + a]! / n;
    }
    at[0] = centre[0]!;
    at[1] = centre[1]!;
    at[2] = centre[2]!;
    const before = tileBytes(navMesh);
    const id = c.addObstacle({
      kind: "cylinder",
      center: [at[0], at[1] - 0.5, at[2]],
      radius: 1,
      height: 1.5,
    });
    c.flush();
    expect(c.stats.layersRebuilt).toBeGreaterThan(0);
    // The upper layer changed; every layer below at that coordinate is the very same tile.
    expect(navMesh.tilesAt(top.tileX, top.tileZ).map((s) => navMesh.tileInSlot(s))).not.toContain(
      top,
    );
    for (const b of below) {
      expect(navMesh.tiles).toContain(b);
      expect(serializeNavMeshTile(b)).toEqual(before.get(b));
    }
    // Every tile lower than the obstacle anywhere stays as it was.
    for (const t of navMesh.tiles) {
      if (t.polyCount > 0 && yRange(t)[1] < at[1] - 2) expect(before.has(t)).toBe(true);
    }
    expect(validateNavMesh(navMesh).ok).toBe(true);
    expect(q.findNearestPoly(at, [0.5, 1, 0.5])).toBeDefined();
    c.removeObstacle(id);
    c.flush();
    expect(navMesh.tiles.every((t) => before.has(t))).toBe(true);
  });

  it("paths run between storeys (up the stairs, across layer portals) as on the tiled build", () => {
    const { navMesh } = cache();
    const tiled = buildNavMesh(mesh, CONFIG).navMesh;
    const a = new NavMeshQuery(navMesh);
    const b = new NavMeshQuery(tiled);
    // Seeded pairs of polygon centres of the tiled build, lowest storey to highest.
    const centres: [number, number, number][] = [];
    for (const t of tiled.tiles) {
      for (let p = 0; p < t.polyCount; p += 3) {
        const n = t.polyVertCount[p]!;
        const c: [number, number, number] = [0, 0, 0];
        for (let k = 0; k < n; k++) {
          const v = t.polyVerts[p * t.maxVertsPerPoly + k]! * 3;
          for (let i = 0; i < 3; i++) c[i]! += t.vertices[v + i]! / n;
        }
        centres.push(c);
      }
    }
    centres.sort((x, y) => x[1] - y[1] || x[0] - y[0] || x[2] - y[2]);
    let agree = 0;
    let climbs = 0;
    const ext: [number, number, number] = [0.5, 1, 0.5];
    for (let i = 0; i < 40; i++) {
      const from = centres[(i * 7) % centres.length]!;
      const to = centres[centres.length - 1 - ((i * 11) % centres.length)]!;
      const pb = b.computePath(from, to, { halfExtents: ext });
      const pa = a.computePath(from, to, { halfExtents: ext });
      if (pb.status !== "complete") continue;
      if (pa.status === "complete") agree++;
      if (pa.status === "complete" && Math.abs(to[1] - from[1]) > 3) climbs++;
    }
    expect(climbs).toBeGreaterThan(5);
    expect(agree).toBeGreaterThan(30);
  });

  it("layer seams inside a tile link both ways, edge for edge (nav_test, no staircase)", async () => {
    const { navMesh, cache: seamCache } = createTileCache(loadSharedMesh("nav_test"), {
      tileSize: 48,
    });
    const { origin, tileWidth, tileDepth } = navMesh.params;
    let seams = 0;
    let polys = 0;
    navMesh.slots.forEach((slot, s) => {
      const t = slot.tile;
      if (!t) return;
      polys += t.polyCount;
      const nvp = t.maxVertsPerPoly;
      const x0 = origin[0] + t.tileX * tileWidth;
      const z0 = origin[2] + t.tileZ * tileDepth;
      const onSquare = (x: number, z: number) =>
        Math.min(Math.abs(x - x0), Math.abs(x - x0 - tileWidth)) < 0.01 ||
        Math.min(Math.abs(z - z0), Math.abs(z - z0 - tileDepth)) < 0.01;
      for (let p = 0; p < t.polyCount; p++) {
        const n = t.polyVertCount[p]!;
        for (let e = 0; e < n; e++) {
          if ((t.polyNeighbours[p * nvp + e]! & EDGE_TILE_BORDER) === 0) continue;
          const a = t.polyVerts[p * nvp + e]! * 3;
          const b = t.polyVerts[p * nvp + ((e + 1) % n)]! * 3;
          const v = t.vertices;
          const mx = (v[a]! + v[b]!) / 2;
          const mz = (v[a + 2]! + v[b + 2]!) / 2;
          if (onSquare(mx, mz)) continue; // a tile-border edge
          seams++;
          // Linked to a polygon of another layer at this tile coordinate, which links back.
          let back = 0;
          for (let l = slot.links.first[p]!; l >= 0; l = slot.links.next[l]!) {
            if (slot.links.edge[l] !== e) continue;
            const ref = slot.links.ref[l]!;
            const other = tileOfRef(ref);
            expect(other).not.toBe(s);
            expect(navMesh.tilesAt(t.tileX, t.tileZ)).toContain(other);
            const o = navMesh.slots[other]!;
            const q = polyOfRef(ref);
            for (let m = o.links.first[q]!; m >= 0; m = o.links.next[m]!) {
              if (tileOfRef(o.links.ref[m]!) === s && polyOfRef(o.links.ref[m]!) === p) back++;
            }
          }
          expect(back, `seam edge ${e} of polygon ${p} in slot ${s}`).toBe(1);
        }
      }
    });
    expect(seams).toBeGreaterThan(0);
    // The tiled build has no seams; simplified seams cost next to nothing (staircases: +38%).
    expect(polys).toBeLessThanOrEqual(Math.ceil((await tiledPolygonCount("nav_test", 48)) * 1.1));
    // Regression (saving a cache whose layers meet at a seam wrote ghost entries the loader
    // refused as areas > 63): it loads, and gives the same navmesh.
    const loaded = TileCache.deserialize(seamCache.serialize(), "seams.tilecache");
    expect(serializeNavMesh(loaded.navMesh, null)).toEqual(serializeNavMesh(navMesh, null));
  });
});
