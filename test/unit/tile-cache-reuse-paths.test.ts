import { describe, expect, it } from "vitest";
import { EDGE_TILE_BORDER, type NavMeshTile } from "../../src/navmesh/tile.js";
import type { CachedLayer } from "../../src/tiles/cached-layer.js";
import { detailReuseCounts } from "../../src/tiles/detail-reuse.js";
import { layerSeams, layerSeamsReused } from "../../src/tiles/layer-seams.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache, type TileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { cachedTiles, expectLayersFromScratch } from "../helpers/tile-cache-scratch.js";

/*
 * Each reuse path of a rebuild (details from the layer's obstacle-free build, seams handed
 * back) against a build from scratch: obstacles where a removed one was, on the edges between
 * polygons (region borders), and on and off the seam between two storeys of one tile.
 */

/** The cached tile index and layer with the most polygons of those satisfying `ok`. */
function richestLayer(cache: TileCache, ok: (tile: NavMeshTile) => boolean) {
  let best = { t: -1, layer: null as CachedLayer | null, polys: 0 };
  cachedTiles(cache).forEach((c, t) => {
    if (!c) return;
    for (const layer of c.layers) {
      const polys = layer.tile?.polyCount ?? 0;
      if (polys > best.polys && ok(layer.tile!)) best = { t, layer, polys };
    }
  });
  expect(best.layer).not.toBeNull();
  return { t: best.t, layer: best.layer! };
}

function centroid(tile: NavMeshTile, p: number): [number, number, number] {
  const nvp = tile.maxVertsPerPoly;
  const out: [number, number, number] = [0, 0, 0];
  const n = tile.polyVertCount[p]!;
  for (let j = 0; j < n; j++) {
    const v = tile.polyVerts[p * nvp + j]! * 3;
    for (let k = 0; k < 3; k++) out[k]! += tile.vertices[v + k]! / n;
  }
  return out;
}

/** Midpoints of the tile's edges of kind `kind`: shared by two polygons, or layer seams. */
function edgeMidpoints(
  cache: TileCache,
  tile: NavMeshTile,
  kind: "inner" | "seam",
): [number, number, number][] {
  const w = cache.grid.tileWorld;
  const x0 = cache.grid.bmin[0] + tile.tileX * w;
  const z0 = cache.grid.bmin[2] + tile.tileZ * w;
  const nvp = tile.maxVertsPerPoly;
  const out: [number, number, number][] = [];
  const v = tile.vertices;
  for (let p = 0; p < tile.polyCount; p++) {
    const n = tile.polyVertCount[p]!;
    for (let e = 0; e < n; e++) {
      const nb = tile.polyNeighbours[p * nvp + e]!;
      const a = tile.polyVerts[p * nvp + e]! * 3;
      const b = tile.polyVerts[p * nvp + ((e + 1) % n)]! * 3;
      const mid: [number, number, number] = [
        (v[a]! + v[b]!) / 2,
        (v[a + 1]! + v[b + 1]!) / 2,
        (v[a + 2]! + v[b + 2]!) / 2,
      ];
      if (kind === "inner" && nb !== 0 && (nb & EDGE_TILE_BORDER) === 0) out.push(mid);
      if (kind === "seam" && (nb & EDGE_TILE_BORDER) !== 0) {
        // A seam portal lies inside the tile; a tile-border portal on its square's side.
        const onSquare =
          Math.min(Math.abs(mid[0] - x0), Math.abs(mid[0] - x0 - w)) < 0.01 ||
          Math.min(Math.abs(mid[2] - z0), Math.abs(mid[2] - z0 - w)) < 0.01;
        if (!onSquare) out.push(mid);
      }
    }
  }
  return out;
}

function post(cache: TileCache, at: [number, number, number], radius: number): ObstacleShape {
  return {
    kind: "cylinder",
    center: [at[0], cache.grid.bmin[1] - 1, at[2]],
    radius,
    height: cache.grid.bmax[1] - cache.grid.bmin[1] + 2,
  };
}

describe("TileCache reuse paths give a from-scratch build's bytes", () => {
  it("dungeon: details from the obstacle-free build once an obstacle leaves; region borders", () => {
    const { cache } = createTileCache(loadSharedMesh("dungeon"), { tileSize: 48 });
    const { t, layer } = richestLayer(cache, () => true);
    const tile = layer.tile!;
    const a = post(cache, centroid(tile, 0), 0.6);
    const b = post(cache, centroid(tile, tile.polyCount - 1), 0.6);
    // A and B, then A leaves: the floor A uncovers is the obstacle-free build's.
    const ia = cache.addObstacle(a);
    cache.flush();
    cache.addObstacle(b);
    cache.flush();
    const before = detailReuseCounts.fromBase;
    cache.removeObstacle(ia);
    cache.flush();
    expect(detailReuseCounts.fromBase).toBeGreaterThan(before);
    expect(expectLayersFromScratch(cache, t)).toBeGreaterThan(0);
    // Small obstacles on edges between polygons (region borders), added and removed.
    const mids = edgeMidpoints(cache, layer.tile!, "inner");
    expect(mids.length).toBeGreaterThan(2);
    const ids: number[] = [];
    for (const m of [mids[0]!, mids[mids.length >> 1]!, mids[mids.length - 1]!]) {
      ids.push(cache.addObstacle(post(cache, m, 0.3)));
      cache.flush();
      expectLayersFromScratch(cache, t);
    }
    cache.removeObstacle(ids[1]!);
    cache.flush();
    expectLayersFromScratch(cache, t);
    // Replaced tiles left no link behind in their neighbours (unlinking looks at portal
    // polygons only).
    const nm = cache.navMesh;
    let links = 0;
    nm.slots.forEach((slot) => {
      const tile = slot.tile;
      if (!tile) return;
      for (let p = 0; p < tile.polyCount; p++) {
        for (let l = slot.links.first[p]!; l >= 0; l = slot.links.next[l]!) {
          expect(nm.isValidPolyRef(slot.links.ref[l]!)).toBe(true);
          links++;
        }
      }
    });
    expect(links).toBeGreaterThan(0);
  });

  it("nav_test: two storeys of one tile, obstacles on their seam and away from it", () => {
    const { cache } = createTileCache(loadSharedMesh("nav_test"), { tileSize: 48 });
    const { t, layer } = richestLayer(
      cache,
      (tile) => edgeMidpoints(cache, tile, "seam").length > 0,
    );
    const seams = edgeMidpoints(cache, layer.tile!, "seam");
    expect(seams.length).toBeGreaterThan(0);
    // layerSeams hands back seams equal to those computed afresh (on a copy of the grid).
    const cfg = cache.config;
    const seamsOf = (g: typeof layer.grid, a: Uint8Array) =>
      layerSeams(g, a, cfg.edgeMaxErrorVoxels, cfg.edgeMaxLenVoxels);
    const kept = seamsOf(layer.grid, layer.areas!);
    expect(kept.pairs.size).toBeGreaterThan(0);
    expect(seamsOf(layer.grid, layer.areas!.slice())).toBe(kept);
    expect(seamsOf({ ...layer.grid }, layer.areas!)).toEqual(kept);
    expect(seamsOf(layer.grid, new Uint8Array(layer.areas!.length)).pairs.size).toBe(0);
    const onSeam = cache.addObstacle(post(cache, seams[0]!, 0.4));
    cache.flush();
    expect(expectLayersFromScratch(cache, t)).toBeGreaterThan(1);
    cache.removeObstacle(onSeam);
    cache.flush();
    expectLayersFromScratch(cache, t);
    const tile = layer.tile!;
    let far = -1;
    let farthest = 0;
    for (let p = 0; p < tile.polyCount; p++) {
      const c = centroid(tile, p);
      const d = Math.min(...seams.map((s) => Math.hypot(s[0] - c[0], s[2] - c[2])));
      if (d > farthest) {
        farthest = d;
        far = p;
      }
    }
    expect(farthest).toBeGreaterThan(3);
    // Away from every seam edge: the layer's next build gets these seams back.
    const id = cache.addObstacle(post(cache, centroid(tile, far), 0.4));
    cache.flush();
    expectLayersFromScratch(cache, t);
    const before = layerSeamsReused.count;
    cache.updateObstacle(id, post(cache, centroid(tile, far), 0.7));
    cache.flush();
    expect(layerSeamsReused.count).toBeGreaterThan(before);
    expectLayersFromScratch(cache, t);
  });
});
