import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { MeshwayError } from "../../src/errors.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../src/navmesh/tile.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import {
  buildDetourNavMesh,
  type DetourBuild,
  type DetourTileData,
  polyMeshAreaXZ,
  readDetourTiles,
} from "../helpers/detour.js";
import { loadSharedMesh, SHARED_MESH_NAMES, type SharedMeshName } from "../helpers/meshes.js";
import { initRecast } from "../helpers/recast.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CFG = resolveConfig();
const NVP = 6;
const DT_EXT_LINK = 0x8000;

const builds: DetourBuild[] = [];
function track(b: DetourBuild): DetourBuild {
  builds.push(b);
  return b;
}

beforeAll(async () => {
  await initRecast();
});
afterAll(() => {
  for (const b of builds) b.free();
});

/** Detour side (0 = +x, 2 = +z, 4 = -x, 6 = -z) → meshway side (Recast dir: 0 = -x, 1 = +z, 2 = +x, 3 = -z). */
const SIDE: Record<number, number> = { 0: 2, 2: 1, 4: 0, 6: 3 };

/** Asserts that a meshway tile holds exactly the ground polygons of a Detour tile. */
function expectSameTile(mine: NavMeshTile, dt: DetourTileData): void {
  const ground: number[] = [];
  for (let p = 0; p < dt.polyCount; p++) if (dt.polyType[p] === 0) ground.push(p);
  expect(mine.polyCount).toBe(dt.polyCount - dt.offMeshConCount);
  expect(mine.polyCount).toBe(ground.length);
  expect([mine.tileX, mine.tileZ]).toEqual([dt.x, dt.y]);
  expect(mine.bmin).toEqual(dt.bmin);
  expect(mine.bmax).toEqual(dt.bmax);
  // Off-mesh end points are the last two vertices per connection; the rest are kept as is.
  const groundVerts = dt.verts.length / 3 - 2 * dt.offMeshConCount;
  expect(mine.vertexCount).toBe(groundVerts);
  expect(mine.vertices).toEqual(dt.verts.subarray(0, groundVerts * 3));
  const newIndex = new Map(ground.map((p, i) => [p, i]));
  ground.forEach((p, q) => {
    const nv = dt.polyVertCount[p]!;
    expect(mine.polyVertCount[q]).toBe(nv);
    expect(mine.polyAreas[q]).toBe(dt.polyArea[p]);
    expect(mine.polyFlags[q]).toBe(dt.polyFlags[p]);
    for (let j = 0; j < nv; j++) {
      expect(mine.polyVerts[q * NVP + j]).toBe(dt.polyVerts[p * NVP + j]);
      const nei = dt.polyNeis[p * NVP + j]!;
      const got = mine.polyNeighbours[q * NVP + j]!;
      if (nei === 0) expect(got).toBe(EDGE_WALL);
      else if (nei & DT_EXT_LINK) expect(got).toBe((EDGE_TILE_BORDER | SIDE[nei & 0xff]!) >>> 0);
      else expect(got).toBe(newIndex.get(nei - 1)! + 1);
    }
    // Detail sub-mesh: the polygon's vertices, then Detour's extra vertices, same triangles.
    const [vb, tb, extra, tc] = dt.detailMeshes.subarray(p * 4, p * 4 + 4);
    const mvb = mine.detailMeshes[q * 4]!;
    expect(mine.detailMeshes[q * 4 + 1]).toBe(nv + extra!);
    expect(mine.detailMeshes[q * 4 + 3]).toBe(tc);
    for (let j = 0; j < nv; j++) {
      const v = mine.polyVerts[q * NVP + j]! * 3;
      expect(mine.detailVertices.subarray((mvb + j) * 3, (mvb + j) * 3 + 3)).toEqual(
        mine.vertices.subarray(v, v + 3),
      );
    }
    expect(mine.detailVertices.subarray((mvb + nv) * 3, (mvb + nv + extra!) * 3)).toEqual(
      dt.detailVerts.subarray(vb! * 3, (vb! + extra!) * 3),
    );
    const mtb = mine.detailMeshes[q * 4 + 2]!;
    expect(mine.detailTriangles.subarray(mtb * 4, (mtb + tc!) * 4)).toEqual(
      dt.detailTris.subarray(tb! * 4, (tb! + tc!) * 4),
    );
  });
}

/** Every internal neighbour link is answered by a link back over the same two vertices. */
function expectSymmetricLinks(navMesh: NavMesh): void {
  for (const tile of navMesh.tiles) {
    for (let p = 0; p < tile.polyCount; p++) {
      const n = tile.polyVertCount[p]!;
      for (let i = 0; i < n; i++) {
        const nb = tile.polyNeighbours[p * NVP + i]!;
        if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) !== 0) continue;
        const q = nb - 1;
        const a = tile.polyVerts[p * NVP + i]!;
        const b = tile.polyVerts[p * NVP + ((i + 1) % n)]!;
        const m = tile.polyVertCount[q]!;
        let back = 0;
        for (let j = 0; j < m; j++) {
          if (tile.polyNeighbours[q * NVP + j] !== p + 1) continue;
          const c = tile.polyVerts[q * NVP + j]!;
          const d = tile.polyVerts[q * NVP + ((j + 1) % m)]!;
          if (c === b && d === a) back++;
        }
        expect(back, `polygon ${p} edge ${i} → ${q}`).toBe(1);
      }
    }
  }
}

function expectInvalid(bytes: Uint8Array, pattern: RegExp): MeshwayError {
  let caught: unknown;
  try {
    importDetourNavMesh(bytes, "test.bin");
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(MeshwayError);
  const err = caught as MeshwayError;
  expect(err.code).toBe("INVALID_INPUT");
  expect(err.message).toMatch(/^test\.bin: byte \d+: /);
  expect(err.message).toMatch(pattern);
  return err;
}

const le = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

describe.each(SHARED_MESH_NAMES)("importDetourNavMesh on a solo Detour build of %s", (name) => {
  let build: DetourBuild;
  let dt: DetourTileData;
  let navMesh: NavMesh;
  beforeAll(() => {
    build = track(buildDetourNavMesh(loadSharedMesh(name as SharedMeshName), CFG));
    [dt] = readDetourTiles(build.navMesh) as [DetourTileData];
    navMesh = importDetourNavMesh(build.bytes, `${name}.bin`);
  });

  it("keeps Detour's polygons, vertices, neighbours, areas, flags and detail meshes exactly", () => {
    expect(readDetourTiles(build.navMesh)).toHaveLength(1);
    expect(navMesh.tiles).toHaveLength(1);
    expect(dt.offMeshConCount).toBe(0);
    expect(navMesh.tiles[0]!.polyCount).toBeGreaterThan(50);
    expectSameTile(navMesh.tiles[0]!, dt);
  });

  it("has symmetric neighbour links and passes validateNavMesh", () => {
    expectSymmetricLinks(navMesh);
    const v = validateNavMesh(navMesh);
    expect(v.problems).toEqual([]);
  });

  it("covers the same area as Recast's poly mesh (1e-4 relative)", () => {
    expect(build.polyMeshes).toHaveLength(1);
    const expected = polyMeshAreaXZ(build.polyMeshes[0]!);
    expect(Math.abs(navMesh.area() - expected) / expected).toBeLessThan(1e-4);
  });

  it("recovers the build parameters Detour stores (and the cell height it does not)", () => {
    const f = Math.fround;
    expect(navMesh.cellSize).toBe(f(CFG.cellSize));
    expect(navMesh.cellHeight).toBe(f(CFG.cellHeight));
    expect(navMesh.maxVertsPerPoly).toBe(6);
    expect(navMesh.agentHeight).toBe(dt.walkableHeight);
    expect(navMesh.agentRadius).toBe(dt.walkableRadius);
    expect(navMesh.agentMaxClimb).toBe(dt.walkableClimb);
    expect(navMesh.agentHeight).toBeCloseTo(CFG.walkableHeightVoxels * CFG.cellHeight, 5);
    expect(navMesh.params.origin).toEqual(dt.bmin);
    expect(navMesh.params.tileWidth).toBe(Math.fround(dt.bmax[0] - dt.bmin[0]));
    expect(navMesh.tiles[0]!.bvIndex.length).toBeGreaterThan(0);
  });
});

describe("importDetourNavMesh on a tiled Detour build", () => {
  let build: DetourBuild;
  let tiles: DetourTileData[];
  let navMesh: NavMesh;
  beforeAll(() => {
    build = track(buildDetourNavMesh(loadSharedMesh("nav_test"), CFG, { tileSize: 32 }));
    tiles = readDetourTiles(build.navMesh);
    navMesh = importDetourNavMesh(build.bytes);
  });

  it("imports every tile, in export order, with its polygons intact", () => {
    expect(tiles.length).toBeGreaterThan(8);
    expect(navMesh.tiles).toHaveLength(tiles.length);
    tiles.forEach((t, i) => {
      expectSameTile(navMesh.tiles[i]!, t);
    });
    const tileSize = Math.fround(32 * CFG.cellSize);
    expect(navMesh.params.tileWidth).toBeCloseTo(tileSize, 5);
    expect(navMesh.params.tileDepth).toBeCloseTo(tileSize, 5);
  });

  it("marks tile-border portals with the side whose tile face the edge lies on", () => {
    let portals = 0;
    for (const tile of navMesh.tiles) {
      for (let p = 0; p < tile.polyCount; p++) {
        const n = tile.polyVertCount[p]!;
        for (let i = 0; i < n; i++) {
          const nb = tile.polyNeighbours[p * NVP + i]!;
          if ((nb & EDGE_TILE_BORDER) === 0) continue;
          portals++;
          const side = nb & 0x3;
          // Recast directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z.
          const axis = side === 0 || side === 2 ? 0 : 2;
          const face = side === 0 || side === 3 ? tile.bmin[axis]! : tile.bmax[axis]!;
          for (const k of [i, (i + 1) % n]) {
            const v = tile.polyVerts[p * NVP + k]! * 3;
            expect(Math.abs(tile.vertices[v + axis]! - face)).toBeLessThan(1e-3);
          }
        }
      }
    }
    expect(portals).toBeGreaterThan(20);
  });

  it("passes validateNavMesh and covers the tiles' poly mesh area", () => {
    expectSymmetricLinks(navMesh);
    expect(validateNavMesh(navMesh).problems).toEqual([]);
    const expected = build.polyMeshes.reduce((s, pm) => s + polyMeshAreaXZ(pm), 0);
    expect(Math.abs(navMesh.area() - expected) / expected).toBeLessThan(1e-4);
  });
});

describe("importDetourNavMesh with off-mesh connections", () => {
  // Two floors 4 m apart, joined by a two-way jump and a one-way drop.
  const mesh = new SceneBuilder().floor(0, 0, 10, 10).floor(14, 0, 24, 10, 0).build();
  const connections = [
    {
      startPosition: { x: 8, y: 0, z: 5 },
      endPosition: { x: 16, y: 0, z: 5 },
      radius: 0.5,
      bidirectional: true,
      area: 5,
      flags: 3,
      userId: 77,
    },
    {
      startPosition: { x: 8, y: 0, z: 2 },
      endPosition: { x: 16, y: 0, z: 2 },
      radius: 0.4,
      bidirectional: false,
      area: 2,
      flags: 0x8001,
      userId: 12345,
    },
  ];

  for (const tileSize of [undefined, 16]) {
    it(`turns Detour's off-mesh polygons into connections (${tileSize ? "tiled" : "solo"})`, () => {
      const build = track(
        buildDetourNavMesh(mesh, CFG, {
          offMeshConnections: connections,
          ...(tileSize ? { tileSize } : {}),
        }),
      );
      const tiles = readDetourTiles(build.navMesh);
      const navMesh = importDetourNavMesh(build.bytes);
      expect(tiles.reduce((s, t) => s + t.offMeshConCount, 0)).toBe(2);
      expect(navMesh.tiles).toHaveLength(tiles.length);
      tiles.forEach((t, i) => {
        expectSameTile(navMesh.tiles[i]!, t);
      });
      expect(validateNavMesh(navMesh).problems).toEqual([]);
      const refs = navMesh.offMeshConnectionRefs();
      expect(refs).toHaveLength(2);
      const got = refs.map((r) => navMesh.offMeshConnection(r)!);
      got.sort((a, b) => (a.userId ?? 0) - (b.userId ?? 0));
      const [jump, drop] = got as [(typeof got)[0], (typeof got)[0]];
      const f = Math.fround;
      expect(jump.start[0]).toBe(8);
      expect(jump.end[0]).toBe(16);
      expect(jump.start[2]).toBe(5);
      expect(jump.radius).toBe(f(0.5));
      expect(jump.bidirectional).toBe(true);
      expect(jump.area).toBe(5);
      expect(jump.flags).toBe(3);
      expect(jump.userId).toBe(77);
      expect(drop.start[2]).toBe(2);
      expect(drop.radius).toBe(f(0.4));
      expect(drop.bidirectional).toBe(false);
      expect(drop.area).toBe(2);
      expect(drop.flags).toBe(0x8001);
      expect(drop.userId).toBe(12345);
      // Both ends land on ground polygons of the imported mesh.
      for (const c of got) {
        expect(c.startPoly).not.toBe(0);
        expect(c.endPoly).not.toBe(0);
      }
    });
  }
});

describe("importDetourNavMesh input validation", () => {
  let good: Uint8Array;
  let dt: DetourTileData;
  beforeAll(() => {
    const build = track(
      buildDetourNavMesh(new SceneBuilder().floor(0, 0, 6, 6).box(3, 0, 3, 1, 2, 1).build(), CFG),
    );
    good = build.bytes;
    [dt] = readDetourTiles(build.navMesh) as [DetourTileData];
    expect(importDetourNavMesh(good).tiles[0]!.polyCount).toBe(dt.polyCount);
  });
  const corrupt = (f: (v: DataView, b: Uint8Array) => void): Uint8Array => {
    const b = good.slice();
    f(le(b), b);
    return b;
  };
  // Offsets: set header 40 bytes, tile record 8, then the tile's dtMeshHeader.
  const TILE = 48;
  const VERTS = TILE + 100;
  const POLYS = () => VERTS + (12 * dt.verts.length) / 3;

  it("rejects tile coordinates beyond ±(2^25 − 1), where grid keys alias (detour-tile-coords)", () => {
    expectInvalid(
      corrupt((v) => v.setInt32(TILE + 12, 2 ** 26, true)),
      /byte 56: tile 0: tile coordinates \(0, 67108864\) outside ±33554431/,
    );
  });

  it("rejects a tile width or depth of 0, where every position query misses (validate-ok-unusable)", () => {
    expectInvalid(
      corrupt((v) => v.setFloat32(24, 0, true)),
      /byte 24: tile size 0 x \S+ is not positive/,
    );
    expectInvalid(
      corrupt((v) => v.setFloat32(28, -1, true)),
      /tile size \S+ x -1 is not positive/,
    );
  });

  it("rejects negative agent sizes and inverted tile bounds", () => {
    expectInvalid(
      corrupt((v) => v.setFloat32(TILE + 64, -1, true)),
      /tile 0: negative agent size -1/,
    );
    expectInvalid(
      corrupt((v) => v.setFloat32(TILE + 72, 1e30, true)),
      /tile 0: bounds .* are inverted/,
    );
  });

  it("rejects a wrong set magic, naming what it expected", () => {
    expectInvalid(
      corrupt((v) => v.setUint32(0, 0x12345678, true)),
      /byte 0: bad magic .*'MSET'/,
    );
  });

  it("rejects a tile cache export with a pointer to exportNavMesh", () => {
    expectInvalid(
      corrupt((v) => v.setUint32(0, 0x54534554, true)),
      /tile cache .*exportNavMesh/,
    );
  });

  it("rejects an unknown set version", () => {
    expectInvalid(
      corrupt((v) => v.setInt32(4, 2, true)),
      /byte 4: unsupported navmesh set version 2/,
    );
  });

  it("rejects a wrong tile magic and a big-endian tile", () => {
    expectInvalid(
      corrupt((v) => v.setUint32(TILE, 0x41414141, true)),
      /byte 48: tile 0: bad tile magic 'AAAA'/,
    );
    expectInvalid(
      corrupt((v) => v.setUint32(TILE, 0x56414e44, true)),
      /byte 48: .*big-endian/,
    );
  });

  it("rejects a Detour version other than 7", () => {
    expectInvalid(
      corrupt((v) => v.setInt32(TILE + 4, 6, true)),
      /byte 52: .*Detour version 6, expected 7/,
    );
  });

  it("rejects every truncation with INVALID_INPUT, never another error", () => {
    for (let n = 0; n < good.length; n += n < 200 ? 1 : 7) {
      expectInvalid(good.subarray(0, n), /truncated|bytes/);
    }
    expectInvalid(good.subarray(0, good.length - 1), /byte 48: truncated: tile 0 data/);
  });

  it("rejects counts larger than the data before allocating", () => {
    expectInvalid(
      corrupt((v) => v.setInt32(8, 0x7fffffff, true)),
      /byte 8: tile count 2147483647 needs/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(8, -1, true)),
      /negative tile count/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(44, 0x7fffffff, true)),
      /byte 48: truncated: tile 0 data/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(44, 0, true)),
      /byte 44: tile 0 has data size 0/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(TILE + 24, 0x7fff0000, true)),
      /byte 72: tile 0: header counts need \d+ bytes of tile data, the tile has/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(TILE + 40, 1e9, true)),
      /header counts need/,
    );
    expectInvalid(
      corrupt((v) => v.setInt32(TILE + 28, -3, true)),
      /negative vertCount -3/,
    );
  });

  it("rejects out-of-range indices and non-finite numbers, naming the polygon", () => {
    const p0 = POLYS();
    expectInvalid(
      corrupt((v) => v.setUint16(p0 + 4, 0xfff0, true)),
      /polygon 0 vertex 0 is 65520/,
    );
    expectInvalid(
      corrupt((v) => v.setUint16(p0 + 16, 0x7000, true)),
      /polygon 0 edge 0: neighbour 28671/,
    );
    expectInvalid(
      corrupt((v) => v.setUint16(p0 + 16, 0x8003, true)),
      /invalid tile-border side 3/,
    );
    expectInvalid(
      corrupt((v) => v.setUint8(p0 + 30, 9)),
      /polygon 0 has 9 vertices/,
    );
    expectInvalid(
      corrupt((v) => v.setUint8(p0 + 31, 0x80)),
      /unknown polygon type 2/,
    );
    expectInvalid(
      corrupt((v) => v.setFloat32(VERTS + 4, Number.NaN, true)),
      /byte 152: .*vertex 0 y is NaN/,
    );
    expectInvalid(
      corrupt((v) => v.setFloat32(TILE + 96, 0, true)),
      /bvQuantFactor 0/,
    );
  });

  it("rejects trailing bytes", () => {
    const longer = new Uint8Array(good.length + 4);
    longer.set(good);
    expectInvalid(
      longer,
      new RegExp(`byte ${good.length}: 4 unexpected bytes after the last of 1 tiles`),
    );
  });

  it("throws only MeshwayError on randomly corrupted bytes", () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    let rejected = 0;
    for (let k = 0; k < 400; k++) {
      const b = good.slice();
      const flips = 1 + Math.floor(rand() * 4);
      for (let f = 0; f < flips; f++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      try {
        importDetourNavMesh(b);
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(0);
  });

  it("imports an export with no tiles as an empty navmesh", () => {
    const empty = good.slice(0, 40);
    le(empty).setInt32(8, 0, true);
    expect(importDetourNavMesh(empty).tiles).toEqual([]);
  });

  it("reads 64-bit tile refs (Detour built with DT_POLYREF64)", () => {
    // Rewrite the export the way a DT_POLYREF64 build lays it out: 16-byte tile records and
    // 16-byte dtLinks (8-byte ref, next, edge/side/bmin/bmax).
    const v = le(good);
    const dataSize = v.getInt32(44, true);
    const links = v.getInt32(TILE + 32, true);
    const linksAt = POLYS() + 32 * dt.polyCount - TILE;
    const tile = good.subarray(TILE, TILE + dataSize);
    const wide = new Uint8Array(40 + 16 + dataSize + 4 * links);
    wide.set(good.subarray(0, 40));
    const w = le(wide);
    w.setUint32(40, v.getUint32(40, true), true);
    w.setInt32(48, dataSize + 4 * links, true);
    wide.set(tile.subarray(0, linksAt), 56);
    wide.set(tile.subarray(linksAt + 12 * links), 56 + linksAt + 16 * links);
    const a = importDetourNavMesh(good).tiles[0]!;
    const b = importDetourNavMesh(wide).tiles[0]!;
    expect(b).toEqual(a);
  });

  it("rejects a non-Uint8Array argument as a programmer error", () => {
    expect(() => importDetourNavMesh([1, 2, 3] as unknown as Uint8Array)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
