import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { getPolyArea } from "../../src/navmesh/neighbours.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.5,
  cellHeight: 0.2,
  agentRadius: 0.5,
  tileSize: 16,
};
const EXT = [1, 2, 1];

type Point = readonly number[];

/** Smallest XZ distance from c to the polyline. */
function clearance(points: Point[], c: Point): number {
  let best = Infinity;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const dx = b[0]! - a[0]!;
    const dz = b[2]! - a[2]!;
    const len2 = dx * dx + dz * dz;
    const t =
      len2 > 0 ? Math.min(1, Math.max(0, ((c[0]! - a[0]!) * dx + (c[2]! - a[2]!) * dz) / len2)) : 0;
    best = Math.min(best, Math.hypot(a[0]! + t * dx - c[0]!, a[2]! + t * dz - c[2]!));
  }
  return best;
}

/** Points every 0.1 along the polyline (XZ). */
function samples(points: Point[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0]! - a[0]!, b[2]! - a[2]!) / 0.1));
    for (let k = 0; k <= n; k++) {
      out.push([a[0]! + ((b[0]! - a[0]!) * k) / n, a[2]! + ((b[2]! - a[2]!) * k) / n]);
    }
  }
  return out;
}

/** Two 12 × 24 rooms joined by an 8 m wide, 24 m long corridor (z 8..16). */
function corridorScene() {
  return new SceneBuilder().floor(0, 0, 12, 24).floor(12, 8, 36, 16).floor(36, 0, 48, 24).build();
}

describe("TileCache: obstacles and area volumes change where paths go", () => {
  const from = [4, 0, 12];
  const to = [44, 0, 12];

  it("an obstacle in the corridor makes paths go around it; removed, the path is back", () => {
    const { navMesh, cache } = createTileCache(corridorScene(), CONFIG);
    const query = new NavMeshQuery(navMesh);
    const before = query.computePath(from, to);
    expect(before.status).toBe("complete");
    expect(before.length).toBeCloseTo(40, 1);
    const pillar = [24, 0, 12];
    expect(clearance(before.points, pillar)).toBeLessThan(0.01);

    const id = cache.addObstacle({
      kind: "cylinder",
      center: [24, -1, 12],
      radius: 1.5,
      height: 3,
    });
    cache.flush();
    expect(validateNavMesh(navMesh).ok).toBe(true);
    const around = query.computePath(from, to);
    expect(around.status).toBe("complete");
    // The agent keeps its radius (0.5) from the pillar, less a cell of voxel rounding.
    expect(clearance(around.points, pillar)).toBeGreaterThan(1.5 + 0.5 - 0.5);
    expect(around.length).toBeGreaterThan(before.length + 0.05);

    cache.removeObstacle(id);
    cache.flush();
    const back = query.computePath(from, to);
    expect(back.status).toBe("complete");
    expect(back.points).toEqual(before.points);
  });

  it("an obstacle sealing the corridor leaves only a partial path, in the start's room", () => {
    const { navMesh, cache } = createTileCache(corridorScene(), CONFIG);
    const query = new NavMeshQuery(navMesh);
    cache.addObstacle({
      kind: "orientedBox",
      center: [24, 0, 12],
      halfExtents: [0.5, 1, 6],
      yawRadians: 0.3,
    });
    cache.flush();
    const sealed = query.computePath(from, to);
    expect(sealed.status).toBe("partial");
    const last = sealed.points[sealed.points.length - 1]!;
    // The slanted barrier spans x 21.8..26.2; the path stops on its west side.
    expect(last[0]).toBeLessThan(26.2);
    expect(last[0]).toBeGreaterThan(12);
    // The far room is still walkable on its own.
    expect(query.computePath([40, 0, 4], to).status).toBe("complete");
  });

  it("an obstacle blocks only the floors in its vertical range (a deck above stays)", () => {
    // Ground 40 × 24 and a 3 m high deck over x 14..26 (thin slab, agents fit under it).
    const scene = new SceneBuilder().floor(0, 0, 40, 24).box(20, 3, 12, 12, 0.2, 24).build();
    const { navMesh, cache } = createTileCache(scene, CONFIG);
    const query = new NavMeshQuery(navMesh);
    const onDeck = [20, 3.2, 12];
    const deckBefore = query.findNearestPoly(onDeck, [0.5, 0.5, 0.5]);
    const deckArea = getPolyArea(navMesh, deckBefore);
    expect(deckBefore).not.toBe(0);
    // A ground-floor wall across the whole width under the deck: y -1..2 misses the deck at 3.2.
    expect(cache.addObstacle({ kind: "box", min: [19, -1, -1], max: [21, 2, 25] })).toBe(1);
    cache.flush();
    expect(query.computePath([4, 0, 12], [36, 0, 12]).status).toBe("partial");
    const deckAfter = query.findNearestPoly(onDeck, [0.5, 0.5, 0.5]);
    expect(deckAfter).not.toBe(0);
    expect(getPolyArea(navMesh, deckAfter)).toBe(deckArea);
    const p = new Float64Array(3);
    query.closestPointOnPoly(deckAfter, onDeck, p);
    expect(p[1]).toBeGreaterThan(3);
    // Made taller (to y 5), the same wall cuts the deck too.
    cache.updateObstacle(1, { kind: "box", min: [19, -1, -1], max: [21, 5, 25] });
    cache.flush();
    expect(query.findNearestPoly(onDeck, [0.5, 0.5, 0.5])).toBe(0);
  });

  it("a runtime area volume relabels polygons, and its cost reroutes paths", () => {
    const scene = new SceneBuilder().floor(0, 0, 40, 24).build();
    const { navMesh, cache } = createTileCache(scene, CONFIG);
    const query = new NavMeshQuery(navMesh);
    const bytes = serializeNavMesh(navMesh, null);
    const area = navMesh.area();
    const start = [2, 0, 12];
    const end = [38, 0, 12];
    const straight = query.computePath(start, end);
    expect(straight.length).toBeCloseTo(36, 1);

    const WATER = 5;
    const id = cache.addAreaVolume({
      kind: "box",
      min: [12, -1, 4],
      max: [28, 2, 20],
      area: WATER,
    });
    cache.flush();
    // Areas changed, the walkable surface did not.
    expect(navMesh.area()).toBeCloseTo(area, 6);
    expect(getPolyArea(navMesh, query.findNearestPoly([20, 0, 12], EXT))).toBe(WATER);
    expect(getPolyArea(navMesh, query.findNearestPoly([20, 0, 1], EXT))).toBe(63);
    // Equal costs: still the straight line.
    expect(query.computePath(start, end).length).toBeCloseTo(36, 1);
    // Water ten times dearer: the path goes round the band.
    const filter = new QueryFilter().setAreaCost(WATER, 10);
    const dry = query.computePath(start, end, { filter });
    expect(dry.status).toBe("complete");
    const wet = samples(dry.points).filter(([x, z]) => x > 12.6 && x < 27.4 && z > 4.6 && z < 19.4);
    expect(wet).toEqual([]);

    // Relabelled to no-go (area 0): the band is no longer walkable at all.
    cache.updateAreaVolume(id, { kind: "box", min: [12, -1, 4], max: [28, 2, 20], area: 0 });
    cache.flush();
    expect(query.findNearestPoly([20, 0, 12], [0.5, 2, 0.5])).toBe(0);
    expect(navMesh.area()).toBeLessThan(area - 15 * 15);
    const round = query.computePath(start, end);
    expect(round.status).toBe("complete");
    expect(round.length).toBeGreaterThan(38);

    cache.removeAreaVolume(id);
    cache.flush();
    expect(serializeNavMesh(navMesh, null)).toEqual(bytes);
  });

  it("area volumes given at creation are applied and can be removed at run time", () => {
    const scene = new SceneBuilder().floor(0, 0, 40, 24).build();
    const plain = createTileCache(scene, CONFIG);
    const marked = createTileCache(scene, CONFIG, {
      areaVolumes: [{ kind: "cylinder", center: [20, -1, 12], radius: 4, height: 3, area: 7 }],
    });
    const q = new NavMeshQuery(marked.navMesh);
    expect(getPolyArea(marked.navMesh, q.findNearestPoly([20, 0, 12], EXT))).toBe(7);
    expect(marked.cache.areaVolumeCount).toBe(1);
    marked.cache.removeAreaVolume(1);
    marked.cache.flush();
    expect(serializeNavMesh(marked.navMesh, null)).toEqual(serializeNavMesh(plain.navMesh, null));
  });

  it("the later of two overlapping volumes wins, whatever order they were updated in", () => {
    const scene = new SceneBuilder().floor(0, 0, 40, 24).build();
    const { navMesh, cache } = createTileCache(scene, CONFIG);
    const q = new NavMeshQuery(navMesh);
    const a = cache.addAreaVolume({ kind: "box", min: [10, -1, 4], max: [24, 2, 20], area: 3 });
    const b = cache.addAreaVolume({ kind: "box", min: [18, -1, 4], max: [30, 2, 20], area: 4 });
    cache.flush();
    expect(getPolyArea(navMesh, q.findNearestPoly([21, 0, 12], EXT))).toBe(4);
    // Updating the older volume does not move it above the newer one.
    cache.updateAreaVolume(a, { kind: "box", min: [10, -1, 4], max: [25, 2, 20], area: 3 });
    cache.flush();
    expect(getPolyArea(navMesh, q.findNearestPoly([21, 0, 12], EXT))).toBe(4);
    expect(b).toBeGreaterThan(a);
  });
});
