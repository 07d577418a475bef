import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache, TileCache } from "../../src/tiles/tile-cache.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.5,
  cellHeight: 0.2,
  agentRadius: 0.5,
  tileSize: 16,
};

function scene() {
  return new SceneBuilder().floor(0, 0, 40, 40).box(10, -0.5, 10, 3, 3, 2).build();
}

const crate: ObstacleShape = { kind: "cylinder", center: [20, -1, 20], radius: 1.2, height: 4 };
const wall: ObstacleShape = {
  kind: "orientedBox",
  center: [30, 0, 8],
  halfExtents: [3, 2, 0.4],
  yawRadians: 0.5,
};
const prism: ObstacleShape = {
  kind: "prism",
  points: new Float64Array([4, 30, 8, 30, 6, 34]),
  minY: -1,
  maxY: 2,
};

/** A cache with history: obstacles (one removed), a volume, an off-mesh link, a pending tile. */
function busyCache() {
  const { navMesh, cache } = createTileCache(scene(), CONFIG, {
    areaVolumes: [{ kind: "box", min: [2, -1, 2], max: [6, 2, 6], area: 9 }],
  });
  const a = cache.addObstacle(crate);
  cache.addObstacle(wall);
  cache.addObstacle(prism);
  cache.flush();
  cache.removeObstacle(a);
  cache.addAreaVolume({ kind: "cylinder", center: [25, -1, 25], radius: 3, height: 3, area: 5 });
  cache.flush();
  navMesh.addOffMeshConnection({
    start: [1, 0, 1],
    end: [38, 0, 38],
    radius: 0.5,
    bidirectional: true,
    area: 63,
    flags: 1,
    userId: 3,
  });
  cache.addObstacle({ kind: "box", min: [33, -1, 33], max: [35, 2, 35] }); // left pending
  return { navMesh, cache };
}

describe("TileCache.serialize / deserialize", () => {
  it("round trip: identical navmesh bytes, ids, shapes and pending work; nothing rebuilt", () => {
    const { navMesh, cache } = busyCache();
    const bytes = cache.serialize();
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x4d, 0x57, 0x54, 0x43]);
    const loaded = TileCache.deserialize(bytes);
    expect(serializeNavMesh(loaded.navMesh, null)).toEqual(serializeNavMesh(navMesh, null));
    expect(loaded.navMesh.offMeshConnectionRefs().length).toBe(1);
    expect(loaded.obstacleIds()).toEqual(cache.obstacleIds());
    expect(loaded.areaVolumeCount).toBe(cache.areaVolumeCount);
    expect(loaded.pending).toBe(cache.pending);
    expect(loaded.stats.tilesRebuilt).toBe(0);
    expect(loaded.serialize()).toEqual(bytes);
  });

  it("the same later requests give the same bytes as the never-saved cache", () => {
    const a = busyCache();
    const b = TileCache.deserialize(busyCache().cache.serialize());
    for (const c of [a.cache, b]) {
      c.flush();
      const id = c.addObstacle({ kind: "cylinder", center: [12, -1, 30], radius: 1, height: 3 });
      c.updateObstacle(c.obstacleIds()[0]!, { kind: "box", min: [18, -1, 18], max: [21, 2, 22] });
      c.addAreaVolume({ kind: "box", min: [30, -1, 30], max: [36, 2, 36], area: 4 });
      c.flush();
      c.removeObstacle(id);
      for (const o of c.obstacleIds()) c.removeObstacle(o);
      c.flush();
    }
    expect(serializeNavMesh(b.navMesh, null)).toEqual(serializeNavMesh(a.navMesh, null));
    expect(b.serialize()).toEqual(a.cache.serialize());
    // New ids continue where the saved cache left off.
    expect(b.addObstacle(crate)).toBe(a.cache.addObstacle(crate));
  });

  it("refuses damaged files at a byte", () => {
    const bytes = busyCache().cache.serialize();
    const err = (b: Uint8Array) => {
      try {
        TileCache.deserialize(b, "level.tilecache");
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        expect((e as MeshwayError).code).toBe("INVALID_INPUT");
        return (e as Error).message;
      }
      return "loaded";
    };
    const flipped = bytes.slice();
    flipped[bytes.length >> 1]! ^= 0x10;
    expect(err(flipped)).toMatch(
      /^level\.tilecache: corrupted: payload checksum mismatch at byte 16$/,
    );
    expect(err(bytes.subarray(0, 20))).toMatch(/truncated.* at byte 20$/);
    expect(err(bytes.subarray(0, bytes.length - 8))).toMatch(/payload length .* at byte 8$/);
    const newer = bytes.slice();
    newer[4] = 4;
    expect(err(newer)).toMatch(/format version 4, this reader knows 3 at byte 4$/);
    // Version 1 (one tile per column) and 2 (LZ heightfields) files are refused by name.
    const older = bytes.slice();
    older[4] = 1;
    expect(err(older)).toMatch(
      /format version 1 \(one tile per column.*version 3: build the cache again.* at byte 4$/,
    );
    older[4] = 2;
    expect(err(older)).toMatch(
      /format version 2 \(LZ-compressed heightfields.*version 3: build the cache again.* at byte 4$/,
    );
    expect(err(serializeNavMesh(busyCache().navMesh, null))).toMatch(
      /not a meshway tile cache file/,
    );
  });
});

describe("TileCache file on a multi-storey level (heightfields decoded when first needed)", () => {
  it("dungeon: load then save gives the same bytes; upper-floor obstacles and a volume give the never-saved cache's navmesh", () => {
    const a = createTileCache(loadSharedMesh("dungeon"), { tileSize: 32 });
    const bytes = a.cache.serialize();
    // Saving a loaded cache decodes every tile it never needed: the very same bytes.
    expect(TileCache.deserialize(bytes).serialize()).toEqual(bytes);
    const b = TileCache.deserialize(bytes);
    expect(serializeNavMesh(b.navMesh, null)).toEqual(serializeNavMesh(a.navMesh, null));
    // Crates on the top storey's first polygon of every tile with several storeys.
    const crates: ObstacleShape[] = [];
    const seen = new Set<string>();
    for (const tile of a.navMesh.tiles) {
      const key = `${tile.tileX},${tile.tileZ}`;
      const stack = a.navMesh.tilesAt(tile.tileX, tile.tileZ).map((s) => a.navMesh.tileInSlot(s)!);
      if (seen.has(key) || stack.length < 2) continue;
      seen.add(key);
      const top = stack.filter((t) => t.polyCount > 0).sort((x, y) => y.bmax[1] - x.bmax[1])[0];
      if (!top) continue;
      const v = top.polyVerts[0]! * 3;
      const c: [number, number, number] = [
        top.vertices[v]!,
        top.vertices[v + 1]!,
        top.vertices[v + 2]!,
      ];
      crates.push({ kind: "cylinder", center: [c[0], c[1] - 0.5, c[2]], radius: 1, height: 1.5 });
    }
    expect(crates.length).toBeGreaterThan(1);
    for (const c of [a.cache, b]) {
      for (const crate of crates.slice(0, 3)) c.addObstacle(crate);
      c.addAreaVolume({ kind: "box", min: [0, -5, -80], max: [20, 30, -60], area: 5 });
      c.flush();
      c.removeObstacle(c.obstacleIds()[0]!);
      c.flush();
    }
    expect(b.stats.layersRebuilt).toBeGreaterThan(0);
    expect(serializeNavMesh(b.navMesh, null)).toEqual(serializeNavMesh(a.navMesh, null));
    expect(b.serialize()).toEqual(a.cache.serialize());
  });
});

describe("saveTileCacheFile / loadTileCacheFile", () => {
  it("save then load gives the same cache; a missing file is a located error", async () => {
    const { mkdtempSync, rmSync, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { loadTileCacheFile, saveTileCacheFile } = await import(
      "../../src/node/tile-cache-files.js"
    );
    const dir = mkdtempSync(join(tmpdir(), "meshway-tc-"));
    try {
      const { cache } = busyCache();
      const file = join(dir, "level.tilecache");
      saveTileCacheFile(file, cache);
      expect(existsSync(file)).toBe(true);
      expect(loadTileCacheFile(file).serialize()).toEqual(cache.serialize());
      expect(() => loadTileCacheFile(join(dir, "none.tilecache"))).toThrow(/none\.tilecache: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
