import * as zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { type BuildConfig, DEFAULT_CONFIG, resolveConfig } from "../../src/config.js";
import { crc32 } from "../../src/format/crc32.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import {
  deserializeNavMesh,
  deserializeNavMeshTile,
  NAVMESH_FORMAT_VERSION,
  navMeshFileInternals,
  serializeNavMesh,
  serializeNavMeshTile,
} from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import * as index from "../../src/index.js";
import { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { buildDetourNavMesh } from "../helpers/detour.js";
import { detourBuildsForSuite } from "../helpers/detour-suite.js";
import { handTile, navMeshFor, twoSquaresTile } from "../helpers/hand-tile.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

const { serializeWith, deserializeWith, HEADER_SIZE, TILE_HEADER_SIZE, OFFMESH_SIZE } =
  navMeshFileInternals;

/** Loading `bytes` fails with INVALID_INPUT naming the source and a byte offset. */
function rejected(bytes: Uint8Array): string {
  const e = thrownMeshwayError(() => deserializeNavMesh(bytes, "small.navmesh"));
  expect(e.code).toBe("INVALID_INPUT");
  expect(e.message).toMatch(/^small\.navmesh: .* at byte \d+$/s);
  return e.message;
}

/** Recomputes both checksums, so a deliberately inconsistent file passes the integrity checks. */
function reseal(bytes: Uint8Array): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  dv.setUint32(120, crc32(bytes, HEADER_SIZE, bytes.length), true);
  dv.setUint32(124, crc32(bytes, 0, 124), true);
  return bytes;
}

/** Two squares side by side in one tile, an off-mesh connection, a config: a small complete file. */
function smallNavMesh(): NavMesh {
  const nm = navMeshFor(4, 2);
  nm.addTile(twoSquaresTile({ areas: [63, 5], flags: [1, 3] }));
  nm.addOffMeshConnection({
    start: [0.5, 0, 0.5],
    end: [3.5, 0, 1.5],
    radius: 0.25,
    bidirectional: false,
    area: 7,
    flags: 2,
    cost: 4.5,
    userId: 99,
  });
  return nm;
}
const SMALL_CONFIG: BuildConfig = { ...DEFAULT_CONFIG, cellSize: 0.25, partition: "monotone" };

/** Tiles, params and off-mesh connections of two navmeshes are identical. */
function expectSameData(a: NavMesh, b: NavMesh): void {
  expect(b.params).toEqual(a.params);
  expect(b.tiles).toEqual(a.tiles);
  expect(b.bmin).toEqual(a.bmin);
  expect(b.bmax).toEqual(a.bmax);
  const refs = a.offMeshConnectionRefs();
  expect(b.offMeshConnectionRefs()).toEqual(refs);
  for (const r of refs) expect(b.offMeshConnection(r)).toEqual(a.offMeshConnection(r));
}

/**
 * findNearestPoly and computePath give identical answers on both navmeshes for `pairs` seeded
 * pairs: half between random points on the mesh, half between random points of the bounding
 * box (some off the mesh). Returns how many paths ended with each status.
 */
function expectSameAnswers(
  a: NavMesh,
  b: NavMesh,
  pairs: number,
  seed: number,
): Record<string, number> {
  const qa = new NavMeshQuery(a);
  const qb = new NavMeshQuery(b);
  const rng = mulberry32(seed);
  const ext = [1.5, Math.max(2, a.bmax[1] - a.bmin[1]), 1.5];
  const boxPoint = () => [0, 1, 2].map((k) => a.bmin[k]! + rng() * (a.bmax[k]! - a.bmin[k]!));
  const meshPoint = () => Array.from(qa.findRandomPoint(qa.defaultFilter, rng).point);
  const statuses: Record<string, number> = {};
  for (let i = 0; i < pairs; i++) {
    const onMesh = i % 2 === 0;
    const s = onMesh ? meshPoint() : boxPoint();
    const e = onMesh ? meshPoint() : boxPoint();
    for (const p of [s, e]) {
      const ra = index.createNearestPolyResult();
      const rb = index.createNearestPolyResult();
      qa.findNearestPoly(p, ext, qa.defaultFilter, ra);
      qb.findNearestPoly(p, ext, qb.defaultFilter, rb);
      expect(rb).toEqual(ra);
    }
    const pa = qa.computePath(s, e, { halfExtents: ext });
    expect(qb.computePath(s, e, { halfExtents: ext })).toEqual(pa);
    statuses[pa.status] = (statuses[pa.status] ?? 0) + 1;
  }
  return statuses;
}

describe("crc32", () => {
  const ascii = (s: string) => new TextEncoder().encode(s);

  it("gives the standard check values (IEEE CRC-32 as in zlib and PNG)", () => {
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(ascii("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
  });

  it("matches node:zlib's crc32 on random data of every length up to 80 and at odd offsets", () => {
    const rng = mulberry32(3);
    const data = Uint8Array.from({ length: 4099 }, () => Math.floor(rng() * 256));
    for (let n = 0; n <= 80; n++) {
      for (const start of [0, 1, 3, 7]) {
        const slice = data.subarray(start, start + n);
        expect(crc32(data, start, start + n)).toBe(zlib.crc32(slice));
      }
    }
    expect(crc32(data)).toBe(zlib.crc32(data));
  });

  it("continues a checksum across ranges", () => {
    const data = ascii("meshway navmesh file, checksummed in pieces");
    for (const cut of [0, 1, 8, 13, data.length]) {
      expect(crc32(data, cut, data.length, crc32(data, 0, cut))).toBe(crc32(data));
    }
  });
});

describe("serializeNavMesh / deserializeNavMesh on the nav_test build", () => {
  const cfg = resolveConfig({});
  const { navMesh } = buildNavMesh(loadSharedMesh("nav_test"), {});
  const bytes = serializeNavMesh(navMesh, cfg);
  const loaded = deserializeNavMesh(bytes, "nav_test.navmesh");

  it("round-trips every tile array, the params and the effective build config", () => {
    expect(loaded.version).toBe(NAVMESH_FORMAT_VERSION);
    expectSameData(navMesh, loaded.navMesh);
    expect(loaded.config).toEqual({ ...DEFAULT_CONFIG });
    // Only the library's option names are stored, not the derived voxel values.
    expect(Object.keys(loaded.config!)).toEqual(Object.keys(DEFAULT_CONFIG));
  });

  it("gives identical findNearestPoly and computePath answers for 200 seeded pairs", () => {
    const statuses = expectSameAnswers(navMesh, loaded.navMesh, 200, 20240601);
    // nav_test has many separate pieces: partial paths exercise A* as much as complete ones.
    expect(statuses.complete).toBeGreaterThanOrEqual(30);
    expect(statuses.partial).toBeGreaterThanOrEqual(30);
    expect(statuses.noStart).toBeGreaterThan(0);
  });

  it("is deterministic: the same bytes twice, and re-saving a loaded mesh gives the same bytes", () => {
    expect(serializeNavMesh(navMesh, cfg)).toEqual(bytes);
    expect(serializeNavMesh(loaded.navMesh, loaded.config)).toEqual(bytes);
  });

  it("views the tile arrays in place when the input is 4-byte aligned (no copy)", () => {
    const tile = loaded.navMesh.tiles[0]!;
    for (const a of [tile.vertices, tile.polyVerts, tile.polyNeighbours, tile.detailTriangles]) {
      expect(a.buffer).toBe(bytes.buffer);
      expect(a.byteOffset % 8).toBe(0);
    }
  });

  it("copies the arrays when the input sits at an odd byte offset, with the same result", () => {
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    const r = deserializeNavMesh(shifted);
    expectSameData(navMesh, r.navMesh);
    expect(r.navMesh.tiles[0]!.vertices.buffer).not.toBe(shifted.buffer);
    expect(r.navMesh.tiles[0]!.polyAreas.buffer).toBe(shifted.buffer); // bytes need no alignment
  });

  it("writes and reads the same bytes through the big-endian (DataView) fallback", () => {
    expect(serializeWith(navMesh, cfg, false)).toEqual(bytes);
    const r = deserializeWith(bytes, "be", false);
    expectSameData(navMesh, r.navMesh);
    expect(r.navMesh.tiles[0]!.vertices.buffer).not.toBe(bytes.buffer);
  });

  it("lays out the header and the tile block as documented", () => {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("MWNM");
    expect(dv.getUint16(4, true)).toBe(1);
    expect(dv.getUint16(6, true)).toBe(1); // config stored
    const configLength = dv.getUint32(8, true);
    expect(JSON.parse(new TextDecoder().decode(bytes.subarray(128, 128 + configLength)))).toEqual(
      DEFAULT_CONFIG,
    );
    expect(dv.getUint32(12, true)).toBe(1); // tiles
    expect(dv.getUint32(16, true)).toBe(0); // off-mesh connections
    expect(dv.getUint32(20, true)).toBe(6); // maxVertsPerPoly
    expect(dv.getUint32(24, true) + dv.getUint32(28, true) * 2 ** 32).toBe(bytes.length - 128);
    expect(dv.getFloat64(72, true)).toBe(0.3); // cellSize
    expect(dv.getUint32(120, true)).toBe(crc32(bytes, 128));
    expect(dv.getUint32(124, true)).toBe(crc32(bytes, 0, 124));
    const tileAt = 128 + Math.ceil(configLength / 8) * 8;
    const tile = navMesh.tiles[0]!;
    expect(dv.getUint32(tileAt, true)).toBe(bytes.length - tileAt); // block length
    expect(dv.getUint32(tileAt + 16, true)).toBe(tile.vertexCount);
    expect(dv.getUint32(tileAt + 20, true)).toBe(tile.polyCount);
    expect(dv.getFloat64(tileAt + 40, true)).toBe(tile.bmin[0]);
    // The vertices follow the 88-byte tile header directly.
    expect(dv.getFloat32(tileAt + TILE_HEADER_SIZE, true)).toBe(tile.vertices[0]);
  });
  it("cuts a tile block that transfers to another thread and loads on its own", () => {
    const tile = navMesh.tiles[0]!;
    const block = serializeNavMeshTile(tile);
    const configLength = new DataView(bytes.buffer).getUint32(8, true);
    const tileAt = 128 + Math.ceil(configLength / 8) * 8;
    expect(block).toEqual(bytes.subarray(tileAt, tileAt + block.length));
    // What a worker does: post the block's buffer (moved, not copied), then load it.
    const moved = structuredClone(block.buffer, { transfer: [block.buffer] });
    expect(block.buffer.byteLength).toBe(0); // detached on the sending side
    const received = deserializeNavMeshTile(new Uint8Array(moved));
    expect(received).toEqual(tile);
    expect(received.vertices.buffer).toBe(moved);
    const rebuilt = new NavMesh(navMesh.params);
    rebuilt.addTile(received);
    expectSameAnswers(navMesh, rebuilt, 20, 5);
    const again = serializeNavMeshTile(tile);
    const e = thrownMeshwayError(() =>
      deserializeNavMeshTile(again.subarray(0, again.length - 8), "blk"),
    );
    expect(e.message).toMatch(/^blk: tile 0: block of \d+ bytes runs past .* at byte 0$/);
  });
});

describe("round trip of a tiled Detour import with off-mesh connections", () => {
  const builds = detourBuildsForSuite();

  it("keeps tile borders, several tiles and connections; identical query answers", () => {
    const mesh = new SceneBuilder().floor(0, 0, 10, 10).floor(14, 0, 24, 10, 0).build();
    const build = buildDetourNavMesh(mesh, resolveConfig(), {
      tileSize: 16,
      offMeshConnections: [
        {
          startPosition: { x: 8, y: 0, z: 5 },
          endPosition: { x: 16, y: 0, z: 5 },
          radius: 0.5,
          bidirectional: true,
          area: 5,
          flags: 3,
          userId: 77,
        },
      ],
    });
    builds.push(build);
    const navMesh = importDetourNavMesh(build.bytes);
    expect(navMesh.tiles.length).toBeGreaterThan(4);
    expect(navMesh.offMeshConnectionRefs()).toHaveLength(1);
    const bytes = serializeNavMesh(navMesh, null);
    const loaded = deserializeNavMesh(bytes);
    expect(loaded.config).toBeNull();
    expect(new DataView(bytes.buffer).getUint16(6, true)).toBe(0); // no config flag
    expectSameData(navMesh, loaded.navMesh);
    const statuses = expectSameAnswers(navMesh, loaded.navMesh, 100, 7);
    expect(statuses.complete).toBeGreaterThan(20);
    expect(serializeNavMesh(loaded.navMesh, null)).toEqual(bytes);
  });
});

describe("a small .navmesh file", () => {
  const nm = smallNavMesh();
  const bytes = serializeNavMesh(nm, SMALL_CONFIG);

  it("round-trips, including an off-mesh connection with cost and userId", () => {
    const r = deserializeNavMesh(bytes);
    expectSameData(nm, r.navMesh);
    expect(r.config).toEqual(SMALL_CONFIG);
    const con = r.navMesh.offMeshConnection(r.navMesh.offMeshConnectionRefs()[0]!)!;
    expect(con).toMatchObject({ cost: 4.5, userId: 99, bidirectional: false, area: 7, flags: 2 });
    expect(con.startPoly).not.toBe(0);
    expect(bytes.length).toBeLessThan(1200);
    expect(bytes.length % 8).toBe(0);
  });

  it("rejects every single flipped byte (all bits, and the lowest bit) with a clear message", () => {
    for (const mask of [0xff, 0x01]) {
      for (let i = 0; i < bytes.length; i++) {
        const bad = bytes.slice();
        bad[i]! ^= mask;
        const msg = rejected(bad);
        if (i < 4) expect(msg).toContain("bad magic");
        else if (i === 4 || i === 5) expect(msg).toMatch(/format version|unsupported/);
        else if (i < 124) expect(msg).toContain("corrupted: header checksum");
        else if (i < 128) expect(msg).toContain("corrupted: header checksum");
        else expect(msg).toMatch(/corrupted: payload checksum 0x[0-9a-f]{8}, expected 0x/);
      }
    }
  });

  it("rejects the file truncated at every length", () => {
    expect(rejected(bytes.subarray(0, 0))).toContain("empty");
    for (let n = 1; n < bytes.length; n++) {
      expect(rejected(bytes.slice(0, n))).toContain(`truncated`);
    }
  });

  it("rejects trailing bytes as a payload length mismatch", () => {
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(rejected(longer)).toContain(`payload length mismatch: the header says`);
  });

  it("rejects a newer format version, naming both versions", () => {
    const newer = bytes.slice();
    new DataView(newer.buffer).setUint16(4, 2, true);
    reseal(newer);
    expect(rejected(newer)).toBe(
      "small.navmesh: format version 2 is newer than this meshway reads (version 1); upgrade meshway at byte 4",
    );
    const zero = bytes.slice();
    new DataView(zero.buffer).setUint16(4, 0, true);
    expect(rejected(reseal(zero))).toContain("unsupported format version 0");
  });

  it("rejects a wrong magic, e.g. a Detour export or random bytes", () => {
    expect(rejected(Uint8Array.from([0x54, 0x45, 0x53, 0x4d, 1, 0, 0, 0]))).toBe(
      "small.navmesh: bad magic 'TESM', expected 'MWNM' (not a meshway .navmesh file) at byte 0",
    );
    expect(rejected(Uint8Array.from([1, 2, 250]))).toContain("bad magic '\\x01\\x02\\xfa'");
  });

  describe("with valid checksums but inconsistent contents (written wrong, not damaged)", () => {
    const dvOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.length);
    const configLength = dvOf(bytes).getUint32(8, true);
    const tileAt = 128 + Math.ceil(configLength / 8) * 8;
    const edit = (f: (dv: DataView, b: Uint8Array) => void): Uint8Array => {
      const b = bytes.slice();
      f(dvOf(b), b);
      return reseal(b);
    };

    it("rejects tile counts that do not match the block length, before allocating", () => {
      // A huge polygon count would need gigabytes: refused from the header alone.
      const huge = edit((dv) => dv.setUint32(tileAt + 20, 0xffffffff, true));
      expect(rejected(huge)).toMatch(
        new RegExp(`tile 0: block length \\d+ does not match its counts .* at byte ${tileAt}$`),
      );
      const oneMore = edit((dv) => dv.setUint32(tileAt + 16, 7, true));
      expect(rejected(oneMore)).toContain("does not match its counts");
    });

    it("rejects a block length that runs past the tile section", () => {
      const b = edit((dv) => {
        dv.setUint32(tileAt, dv.getUint32(tileAt, true) + 8, true);
      });
      expect(rejected(b)).toMatch(/does not match its counts|runs past/);
    });

    it("rejects a payload too small for the counts in the header", () => {
      expect(rejected(edit((dv) => dv.setUint32(12, 1000, true)))).toContain("cannot hold");
      expect(rejected(edit((dv) => dv.setUint32(16, 2, true)))).toMatch(/runs past|cannot hold/);
      expect(rejected(edit((dv) => dv.setUint32(16, 0, true)))).toContain(
        "payload length mismatch: 80 bytes between the last tile and the off-mesh connections",
      );
    });

    it("rejects out-of-range indices and non-finite numbers, naming the byte", () => {
      const verts = tileAt + TILE_HEADER_SIZE;
      const polyVertsAt = verts + 6 * 3 * 4; // 6 vertices, 8-aligned already
      expect(rejected(edit((dv) => dv.setUint32(polyVertsAt + 4, 6, true)))).toBe(
        `small.navmesh: tile 0: polygon 0 uses vertex 6, the tile has 6 at byte ${polyVertsAt + 4}`,
      );
      expect(rejected(edit((dv) => dv.setFloat32(verts + 4, Number.NaN, true)))).toContain(
        `tile 0: vertices[1] is NaN at byte ${verts + 4}`,
      );
      const neighboursAt = polyVertsAt + 2 * 6 * 4;
      expect(rejected(edit((dv) => dv.setUint32(neighboursAt, 3, true)))).toContain(
        "polygon 0 has neighbour entry 0x00000003",
      );
      expect(rejected(edit((dv) => dv.setUint32(neighboursAt, 0x80000004, true)))).toContain(
        "neighbour entry 0x80000004",
      );
    });

    it("rejects unknown flags, reserved bytes, a contradicting config flag and bad config JSON", () => {
      expect(rejected(edit((dv) => dv.setUint16(6, 3, true)))).toContain("unknown flags");
      expect(rejected(edit((dv) => dv.setUint16(6, 0, true)))).toContain("contradicts");
      expect(rejected(edit((dv) => dv.setUint32(112, 1, true)))).toContain("reserved");
      expect(rejected(edit((dv) => dv.setUint32(tileAt + 36, 1, true)))).toContain("reserved");
      expect(rejected(edit((_dv, b) => (b[128] = 0x41)))).toContain("not UTF-8 JSON");
      const badValue = edit((_dv, b) => {
        const text = new TextDecoder().decode(b.subarray(128, 128 + configLength));
        const changed = text.replace('"vertsPerPoly":6', '"vertsPerPoly":0');
        expect(changed).not.toBe(text);
        b.set(new TextEncoder().encode(changed), 128);
      });
      expect(rejected(badValue)).toMatch(
        /build config: config option "vertsPerPoly" = 0 .* at byte 128$/,
      );
    });

    it("rejects a bad off-mesh connection record", () => {
      const conAt = bytes.length - OFFMESH_SIZE;
      expect(rejected(edit((dv) => dv.setUint8(conAt + 74, 64)))).toContain(
        `off-mesh connection 0: area 64 is not 0..63 at byte ${conAt + 74}`,
      );
      expect(rejected(edit((dv) => dv.setFloat64(conAt + 48, -1, true)))).toContain("radius -1");
      expect(rejected(edit((dv) => dv.setUint8(conAt + 75, 0x80)))).toContain("unknown bits");
    });

    it("ignores build options it does not know (written by a newer meshway)", () => {
      const withExtra = serializeNavMesh(nm, SMALL_CONFIG);
      const text = new TextDecoder().decode(withExtra.subarray(128, 128 + configLength));
      const extended = `${text.slice(0, -1)},"futureOption":1}`;
      const enc = new TextEncoder().encode(extended);
      // Rebuild the file with the longer config section.
      const tail = withExtra.subarray(tileAt);
      const cfgPadded = Math.ceil(enc.length / 8) * 8;
      const out = new Uint8Array(128 + cfgPadded + tail.length);
      out.set(withExtra.subarray(0, 128));
      out.set(enc, 128);
      out.set(tail, 128 + cfgPadded);
      const dv = dvOf(out);
      dv.setUint32(8, enc.length, true);
      dv.setUint32(24, out.length - 128, true);
      const r = deserializeNavMesh(reseal(out));
      expect(r.config).toEqual(SMALL_CONFIG);
      expectSameData(nm, r.navMesh);
    });
  });
});

describe("serializeNavMesh arguments", () => {
  const nm = smallNavMesh();

  it("stores a ResolvedConfig or a partial one as the full effective BuildConfig", () => {
    const a = deserializeNavMesh(serializeNavMesh(nm, resolveConfig({ cellSize: 0.25 }))).config;
    const b = deserializeNavMesh(
      serializeNavMesh(nm, { cellSize: 0.25 } as unknown as BuildConfig),
    ).config;
    expect(a).toEqual({ ...DEFAULT_CONFIG, cellSize: 0.25 });
    expect(b).toEqual(a);
  });

  it("refuses an invalid config and a tile whose arrays disagree with its counts", () => {
    expect(
      thrownMeshwayError(() => serializeNavMesh(nm, { ...DEFAULT_CONFIG, cellSize: -1 })).code,
    ).toBe("INVALID_CONFIG");
    const broken = navMeshFor(4, 2);
    const tile = handTile({ verts: [0, 0, 0, 0, 0, 2, 2, 0, 2], polys: [[0, 1, 2]] });
    tile.vertexCount = 4;
    broken.addTile(tile);
    const e = thrownMeshwayError(() => serializeNavMesh(broken, null));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toBe(
      "serializeNavMesh: tile 0: vertices has 9 elements, its counts imply 12",
    );
    expect(thrownMeshwayError(() => serializeNavMesh({} as NavMesh, null)).code).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("round-trips an empty navmesh (no tiles, no connections, no config) in 128 bytes", () => {
    const empty = navMeshFor(4, 2, [1, 2, 3]);
    const bytes = serializeNavMesh(empty, null);
    expect(bytes.length).toBe(128);
    const r = deserializeNavMesh(bytes);
    expect(r.navMesh.params).toEqual(empty.params);
    expect(r.navMesh.tiles).toEqual([]);
    expect(r.config).toBeNull();
  });

  it("refuses a non-Uint8Array input to deserializeNavMesh", () => {
    expect(thrownMeshwayError(() => deserializeNavMesh([1, 2] as unknown as Uint8Array)).code).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("is exported from the package entry point", () => {
    expect(index.serializeNavMesh).toBe(serializeNavMesh);
    expect(index.deserializeNavMesh).toBe(deserializeNavMesh);
  });
});
