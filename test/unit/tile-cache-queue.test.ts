import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { mulberry32 } from "../../src/query/random-point.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { SceneBuilder } from "../helpers/scenes.js";

/** 64 × 64 floor with a few boxes, 8 × 8 tiles of 16 cells (0.5). */
const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.5,
  cellHeight: 0.2,
  agentRadius: 0.5,
  tileSize: 16,
};
const SIZE = 64;

function scene() {
  const b = new SceneBuilder().floor(0, 0, SIZE, SIZE);
  const rand = mulberry32(3);
  for (let i = 0; i < 12; i++) {
    b.box(
      4 + rand() * (SIZE - 8),
      -0.5,
      4 + rand() * (SIZE - 8),
      1 + rand() * 3,
      2,
      1 + rand() * 3,
    );
  }
  return b.build();
}
const MESH = scene();

/** `n` seeded obstacles of every kind, scattered over the floor. */
function obstacles(n: number, seed: number): ObstacleShape[] {
  const rand = mulberry32(seed);
  const out: ObstacleShape[] = [];
  for (let i = 0; i < n; i++) {
    const x = 1 + rand() * (SIZE - 2);
    const z = 1 + rand() * (SIZE - 2);
    const s = 0.2 + rand() * 0.8;
    switch (i % 4) {
      case 0:
        out.push({ kind: "cylinder", center: [x, -1, z], radius: s, height: 3 });
        break;
      case 1:
        out.push({ kind: "box", min: [x - s, -1, z - s], max: [x + s, 2, z + s / 2] });
        break;
      case 2:
        out.push({
          kind: "orientedBox",
          center: [x, 0, z],
          halfExtents: [s, 1, s / 2],
          yawRadians: rand() * Math.PI,
        });
        break;
      default:
        out.push({ kind: "prism", points: [x, z, x + s, z + s, x - s, z + s], minY: -1, maxY: 2 });
    }
  }
  return out;
}

/** A cache with the given obstacles added in order and flushed. */
function flushed(shapes: ObstacleShape[]): Uint8Array {
  const { navMesh, cache } = createTileCache(MESH, CONFIG);
  for (const s of shapes) cache.addObstacle(s);
  cache.flush();
  return serializeNavMesh(navMesh, null);
}

describe("TileCache: the request queue", () => {
  it("update(0) rebuilds one tile per call until a batch of 1000 is done; nothing is dropped", () => {
    const batch = obstacles(1000, 11);
    const extra = obstacles(30, 12);
    const { navMesh, cache } = createTileCache(MESH, CONFIG);
    const ids = batch.map((s) => cache.addObstacle(s));
    expect(cache.obstacleCount).toBe(1000);
    const tiles = cache.grid.tilesX * cache.grid.tilesZ;
    // 1000 obstacles over 64 tiles: every tile is dirty, and each is rebuilt once.
    expect(cache.pending).toBe(tiles);
    expect(cache.stats.tilesTouched).toBeGreaterThan(1000);
    let pending = cache.pending;
    let calls = 0;
    for (; calls < 10 * tiles && pending > 0; calls++) {
      const r = cache.update(0);
      expect(r.rebuilt).toBe(1);
      expect(r.pending).toBe(pending - 1);
      expect(r.done).toBe(r.pending === 0);
      pending = r.pending;
      if (calls === tiles / 2) {
        // More requests while the batch is half done: new, moved and removed obstacles.
        for (const s of extra) cache.addObstacle(s);
        for (let k = 0; k < 10; k++) cache.removeObstacle(ids[k * 7]!);
        for (let k = 0; k < 10; k++) cache.updateObstacle(ids[500 + k]!, extra[k]!);
        expect(cache.pending).toBeGreaterThanOrEqual(pending);
        pending = cache.pending;
      }
    }
    expect(pending).toBe(0);
    expect(cache.update(0)).toEqual({ rebuilt: 0, pending: 0, done: true });
    expect(validateNavMesh(navMesh)).toEqual({ ok: true, problems: [] });

    // The same final set, flushed at once, gives the same bytes.
    const removed = new Set(Array.from({ length: 10 }, (_, k) => k * 7));
    const finalSet: ObstacleShape[] = [];
    batch.forEach((s, i) => {
      if (removed.has(i)) return;
      finalSet.push(i >= 500 && i < 510 ? extra[i - 500]! : s);
    });
    finalSet.push(...extra);
    expect(serializeNavMesh(navMesh, null)).toEqual(flushed(finalSet));
  });

  // Regression: the flushed batch used to leave tile (5, 0) with two triangles whose vertices
  // all lie on its edge z = 8 — a one-cell sliver of region along the tile border whose
  // contour simplified onto the border line (buildContours now drops such contours).
  it("1000 obstacles flushed at once leave a valid navmesh: no polygon of zero area", () => {
    const { navMesh, cache } = createTileCache(MESH, CONFIG);
    for (const s of obstacles(1000, 11)) cache.addObstacle(s);
    cache.flush();
    expect(validateNavMesh(navMesh)).toEqual({ ok: true, problems: [] });
    for (const t of navMesh.tiles) {
      const nvp = t.maxVertsPerPoly;
      for (let p = 0; p < t.polyCount; p++) {
        let a2 = 0;
        const n = t.polyVertCount[p]!;
        for (let i = 0, j = n - 1; i < n; j = i++) {
          const vi = t.polyVerts[p * nvp + i]! * 3;
          const vj = t.polyVerts[p * nvp + j]! * 3;
          a2 += t.vertices[vj]! * t.vertices[vi + 2]! - t.vertices[vi]! * t.vertices[vj + 2]!;
        }
        expect(Math.abs(a2), `tile (${t.tileX}, ${t.tileZ}) polygon ${p}`).toBeGreaterThan(1e-6);
      }
    }
  });

  it("a budget larger than the work finishes the batch in one call", () => {
    const { cache } = createTileCache(MESH, CONFIG);
    for (const s of obstacles(50, 5)) cache.addObstacle(s);
    const pending = cache.pending;
    expect(cache.update(1e9)).toEqual({ rebuilt: pending, pending: 0, done: true });
    expect(cache.stats.tilesRebuilt).toBe(pending);
  });

  it("the same final set of obstacles gives the same bytes whatever the order of requests", () => {
    const shapes = obstacles(24, 21);
    const expected = flushed(shapes);
    const decoys = obstacles(24, 22);
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...shapes.keys()], { minLength: shapes.length }),
        fc.array(fc.integer({ min: 0, max: 23 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3 }),
        (order, moved, frames) => {
          const { navMesh, cache } = createTileCache(MESH, CONFIG);
          const ids = new Map<number, number>();
          for (const i of order) {
            // Obstacles in `moved` start as a decoy shape and are moved into place later.
            const start = moved.includes(i) ? decoys[i]! : shapes[i]!;
            ids.set(i, cache.addObstacle(start));
          }
          const stray = cache.addObstacle(decoys[0]!);
          for (let f = 0; f < frames; f++) cache.update(0);
          for (const i of moved) cache.updateObstacle(ids.get(i)!, shapes[i]!);
          cache.removeObstacle(stray);
          cache.flush();
          expect(serializeNavMesh(navMesh, null)).toEqual(expected);
        },
      ),
      { numRuns: 4, seed: 42 },
    );
  });
});
