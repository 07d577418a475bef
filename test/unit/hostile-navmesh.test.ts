import { describe, expect, it } from "vitest";
import { crc32 } from "../../src/format/crc32.js";
import { deserializeNavMesh, serializeNavMesh } from "../../src/format/navmesh-file.js";
import { MAX_TILE_COORD, MAX_TILES_PER_CELL, NavMesh } from "../../src/navmesh/nav-mesh.js";
import { tileOfRef } from "../../src/navmesh/poly-ref.js";
import { type NavMeshTile, polygonAreaXZ } from "../../src/navmesh/tile.js";
import { MAX_PORTALS_PER_EDGE } from "../../src/navmesh/tile-links.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { handTile, navMeshFor, twoSquaresTile } from "../helpers/hand-tile.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

// Crafted navmeshes that got past the format checks (issue 19 part B): each test is named after
// what broke and checks the bounded answer a fixed build gives.

/** n squares of side `size`, all at (x0, z0): a pile of identical polygons. */
function pile(n: number, x0: number, z0: number, size = 10) {
  const verts: number[] = [];
  const polys: number[][] = [];
  for (let i = 0; i < n; i++) {
    const b = verts.length / 3;
    verts.push(x0, 0, z0, x0 + size, 0, z0, x0 + size, 0, z0 + size, x0, 0, z0 + size);
    polys.push([b, b + 1, b + 2, b + 3]);
  }
  return { verts, polys };
}

describe("validateNavMesh on polygons far from the origin (validate-1e17)", () => {
  it("returns at x ≈ 1e17, where bucket indices above 2^53 never advanced", () => {
    const nm = navMeshFor(1e18, 1e18);
    const h = pile(2, 1e17, 1e17, 1);
    h.polys[1] = h.polys[1]!.map((i) => i - 4);
    nm.addTile(handTile(h));
    const v = validateNavMesh(nm);
    expect(v.ok).toBe(false);
    expect(v.problems.length).toBeGreaterThan(0);
  });

  it("returns at ±3e38 and on a polygon spanning the whole float range", () => {
    const nm = navMeshFor(1, 1);
    nm.addTile(
      handTile({
        verts: [-3e38, 0, -3e38, 3e38, 0, -3e38, 3e38, 0, 3e38, -3e38, 0, 3e38],
        polys: [
          [0, 1, 2, 3],
          [0, 1, 2, 3],
        ],
      }),
    );
    expect(validateNavMesh(nm).ok).toBe(false);
  });

  it("caps the overlap check's work on a pile of identical polygons, and says so", () => {
    const nm = navMeshFor(100, 100);
    nm.addTile(handTile(pile(1000, 0, 0)));
    const v = validateNavMesh(nm, { maxProblems: 1e9 });
    expect(v.ok).toBe(false);
    expect(v.problems.at(-1)).toMatch(
      /more than 164000 pairs of polygons with overlapping bounds \(of 1000 polygons\)/,
    );
  });
});

/** P triangles in tile (tx, 0) of a 10 × 10 grid, each with its whole edge on the x = 10 border. */
function borderFan(P: number, tx: 0 | 1, y = 0): NavMeshTile {
  const verts: number[] = [];
  const polys: number[][] = [];
  const apex = tx === 0 ? 0 : 20;
  for (let i = 0; i < P; i++) {
    const b = verts.length / 3;
    verts.push(10, y, 0, 10, y, 10, apex, y, 5);
    polys.push([b, b + 1, b + 2]);
  }
  const probe = handTile({ verts: verts.slice(0, 9), polys: [[0, 1, 2]] });
  const wound = polygonAreaXZ(probe, 0) < 0 ? polys : polys.map((p) => [...p].reverse());
  return handTile({
    verts,
    polys: wound,
    tileX: tx,
    bmin: [tx * 10, y, 0],
    bmax: [tx * 10 + 10, y, 10],
  });
}

function linksOf(nm: NavMesh, slot: number, poly: number): number {
  const links = nm.slots[slot]!.links;
  let n = 0;
  for (let l = links.first[poly]!; l >= 0; l = links.next[l]!) n++;
  return n;
}

describe("tile-border portals (portals-quadratic)", () => {
  it(`link each border edge to at most MAX_PORTALS_PER_EDGE (${MAX_PORTALS_PER_EDGE}) polygons, not P × P`, () => {
    const nm = navMeshFor(10, 10);
    nm.addTile(borderFan(500, 0));
    nm.addTile(borderFan(500, 1));
    const a = tileOfRef(nm.tileRefAt(0, 0));
    const b = tileOfRef(nm.tileRefAt(1, 0));
    expect(linksOf(nm, a, 0)).toBe(MAX_PORTALS_PER_EDGE);
    expect(linksOf(nm, b, 499)).toBe(MAX_PORTALS_PER_EDGE);
    const q = new NavMeshQuery(nm);
    expect(q.computePath([8, 0, 5], [12, 0, 5]).status).toBe("complete");
  });

  it(`refuse a tile coordinate holding more than MAX_TILES_PER_CELL (${MAX_TILES_PER_CELL}) stacked tiles`, () => {
    const nm = navMeshFor(10, 10);
    for (let i = 0; i < MAX_TILES_PER_CELL; i++) nm.addTile(borderFan(1, 0, i * 10));
    const e = thrownMeshwayError(() => nm.addTile(borderFan(1, 0, 1000)));
    expect(e.message).toMatch(/at most 32 tiles share one tile coordinate/);
  });

  it("refuse tile coordinates beyond ±(2^25 − 1), where grid keys alias", () => {
    const nm = navMeshFor(10, 10);
    const t = borderFan(1, 0);
    t.tileZ = 2 ** 25;
    expect(thrownMeshwayError(() => nm.addTile(t)).message).toMatch(/within ±33554431/);
  });
});

describe("position queries over far-apart tiles (far-tiles-hang)", () => {
  it("queryPolygons and findNearestPoly with half extents 1e30 walk the tiles, not 2^52 grid cells", () => {
    const nm = navMeshFor(10, 10);
    for (const tx of [-MAX_TILE_COORD, MAX_TILE_COORD]) {
      const x = tx * 10;
      nm.addTile(
        handTile({
          verts: [x, 0, 0, x, 0, 10, x + 10, 0, 10, x + 10, 0, 0],
          polys: [[0, 1, 2, 3]],
          tileX: tx,
          tileZ: tx,
          bmin: [x, 0, tx * 10],
          bmax: [x + 10, 0, tx * 10 + 10],
        }),
      );
    }
    const out = new Float64Array(8);
    expect(nm.queryPolygons([-1e30, -1e30, -1e30], [1e30, 1e30, 1e30], null, out)).toBe(2);
    const q = new NavMeshQuery(nm);
    expect(q.findNearestPoly([0, 0, 0], [1e30, 1e30, 1e30])).not.toBe(0);
    // The same walk, in the same z-major order, when the box only covers the tiles' cells.
    const big = navMeshFor(10, 10);
    for (const [tx, tz] of [
      [5, 0],
      [0, 0],
      [0, 5],
      [5, 5],
    ] as const) {
      big.addTile(
        handTile({
          verts: [
            tx * 10,
            0,
            tz * 10,
            tx * 10,
            0,
            tz * 10 + 10,
            tx * 10 + 10,
            0,
            tz * 10 + 10,
            tx * 10 + 10,
            0,
            tz * 10,
          ],
          polys: [[0, 1, 2, 3]],
          tileX: tx,
          tileZ: tz,
        }),
      );
    }
    const wide = new Float64Array(8);
    const n = big.queryPolygons([-1e30, -1, -1e30], [1e30, 1, 1e30], null, wide);
    const near = new Float64Array(8);
    const m = big.queryPolygons([0, -1, 0], [60, 1, 60], null, near);
    expect(n).toBe(4);
    expect(Array.from(wide.subarray(0, n))).toEqual(Array.from(near.subarray(0, m)));
  });
});

/** Recomputes both CRC-32s of an edited `.navmesh` image (header 128 bytes). */
function reseal(bytes: Uint8Array): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  dv.setUint32(120, crc32(bytes, 128, bytes.length), true);
  dv.setUint32(124, crc32(bytes, 0, 124), true);
  return bytes;
}

function squaresMesh(): NavMesh {
  const nm = navMeshFor(4, 2);
  nm.addTile(twoSquaresTile());
  return nm;
}

describe("navmeshes every position query misses (validate-ok-unusable)", () => {
  const PARAM_AT = (k: number) => 32 + k * 8;
  it.each([
    [3, 0, /tileWidth 0 is not positive/],
    [3, -4, /tileWidth -4 is not positive/],
    [4, 0, /tileDepth 0 is not positive/],
    [5, 0, /cellSize 0 is not positive/],
    [6, -0.2, /cellHeight -0.2 is not positive/],
    [7, -2, /agentHeight -2 is negative/],
    [8, -1, /agentRadius -1 is negative/],
    [9, -0.5, /agentMaxClimb -0.5 is negative/],
  ])("the loader refuses parameter %i = %d", (k, value, message) => {
    const bytes = serializeNavMesh(squaresMesh(), null);
    new DataView(bytes.buffer).setFloat64(PARAM_AT(k), value, true);
    const e = thrownMeshwayError(() => deserializeNavMesh(reseal(bytes), "bad.navmesh"));
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(new RegExp(`at byte ${PARAM_AT(k)}$`));
  });

  it("the loader refuses an inverted BV box; validateNavMesh reports one", () => {
    const nm = squaresMesh();
    const tile = nm.tiles[0]!;
    tile.bvBounds[0] = -777.25; // the root's min x: still valid, and easy to find in the bytes
    const bytes = serializeNavMesh(nm, null);
    const needle = new Uint8Array(Float32Array.of(-777.25).buffer);
    let at = -1;
    for (let i = 0; i + 4 <= bytes.length && at < 0; i++) {
      if (needle.every((b, k) => bytes[i + k] === b)) at = i;
    }
    new DataView(bytes.buffer).setFloat32(at, 1e30, true);
    const e = thrownMeshwayError(() => deserializeNavMesh(reseal(bytes), "bad.navmesh"));
    expect(e.message).toMatch(new RegExp(`BV node 0 has an inverted box .* at byte ${at}$`));
    tile.bvBounds[0] = 1e30;
    expect(validateNavMesh(nm).problems).toContain("tile 0: BV node 0 has an inverted box");
    tile.bvBounds[0] = 0;
    const leaf = tile.bvIndex.indexOf(0);
    tile.bvBounds[leaf * 6] = 1; // not inverted, but misses polygon 0 (x 0..2)
    expect(validateNavMesh(nm).problems).toContain(
      `tile 0: BV leaf ${leaf}'s box does not hold polygon 0's vertex 0`,
    );
  });

  it("validateNavMesh reports a tile outside its grid cell (tile width 1e-300, tiles at one coordinate)", () => {
    const tiny = new NavMesh({ ...squaresMesh().params, tileWidth: 1e-300 });
    tiny.addTile(twoSquaresTile());
    const v = validateNavMesh(tiny);
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(
      /tile 0: its bounds' centre \(2, 1\) lies outside its grid cell \(0, 0\)/,
    );
    const one = navMeshFor(4, 2);
    const far = twoSquaresTile();
    for (let i = 0; i < far.vertices.length; i += 3) far.vertices[i]! += 40;
    far.bmin[0] += 40;
    far.bmax[0] += 40;
    far.bvBounds = handTile({
      verts: Array.from(far.vertices),
      polys: [
        [0, 1, 2, 3],
        [3, 2, 4, 5],
      ],
    }).bvBounds;
    one.addTile(far);
    expect(validateNavMesh(one).problems.join("\n")).toMatch(/outside its grid cell \(0, 0\)/);
    expect(validateNavMesh(squaresMesh()).problems).toEqual([]);
  });
});

describe("off-mesh connections on load (offmesh-load-quadratic)", () => {
  it("land by the tiles filed near their ends, not by scanning every tile", () => {
    const nm = navMeshFor(10, 10);
    for (let tz = 0; tz < 30; tz++) {
      for (let tx = 0; tx < 30; tx++) {
        const x = tx * 10;
        const z = tz * 10;
        nm.addTile(
          handTile({
            verts: [x, 0, z, x, 0, z + 10, x + 10, 0, z + 10, x + 10, 0, z],
            polys: [[0, 1, 2, 3]],
            tileX: tx,
            tileZ: tz,
          }),
        );
      }
    }
    const near = nm.tileSlotsNear(154, 154, 156, 156, []);
    expect(near).toHaveLength(9);
    expect(near.map((s) => [nm.tileInSlot(s)!.tileX, nm.tileInSlot(s)!.tileZ])).toContainEqual([
      15, 15,
    ]);
    // A box wider than the grid walks the occupied cells: every tile, once, in slot order.
    const all = nm.tileSlotsNear(-1e30, -1e30, 1e30, 1e30, []);
    expect(all).toEqual(Array.from({ length: 900 }, (_, i) => i + 1));
    const ref = nm.addOffMeshConnection({
      start: [5, 0, 5],
      end: [295, 0, 295],
      radius: 1,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    const info = nm.offMeshConnection(ref)!;
    expect(nm.tileInSlot(tileOfRef(info.startPoly))!.tileX).toBe(0);
    expect(nm.tileInSlot(tileOfRef(info.endPoly))!.tileX).toBe(29);
  });
});

describe("memory of empty loaded tiles (empty-tiles-memory)", () => {
  it("empty tiles share their zero-length arrays and link pool instead of allocating their own", () => {
    const nm = navMeshFor(1, 1);
    for (let i = 0; i < 3; i++) {
      const t = handTile({ verts: [], polys: [], tileX: i, bmin: [i, 0, 0], bmax: [i + 1, 0, 1] });
      nm.addTile(t);
    }
    const loaded = deserializeNavMesh(serializeNavMesh(nm, null), "empty.navmesh").navMesh;
    const [a, b] = loaded.tiles as [NavMeshTile, NavMeshTile];
    expect(a.polyCount).toBe(0);
    expect(a.vertices).toBe(b.vertices);
    expect(a.polyAreas).toBe(b.polyAreas);
    expect(a.bvBounds).toBe(b.bvBounds);
    expect(loaded.slots[1]!.links).toBe(loaded.slots[2]!.links);
    expect(loaded.slots[1]!.links.next.length).toBe(0);
    // A tile with polygons still gets links of its own, grown on the first add.
    const two = navMeshFor(4, 2);
    two.addTile(twoSquaresTile());
    expect(two.slots[1]!.links).not.toBe(loaded.slots[1]!.links);
  });
});

describe("polygon areas above 63 (area-over-63)", () => {
  it("the loader refuses them at the area's byte, serializeNavMesh and addTile too", () => {
    const nm = squaresMesh();
    nm.tiles[0]!.polyAreas[1] = 17; // a marker to find in the bytes
    const bytes = serializeNavMesh(nm, null);
    const at = bytes.lastIndexOf(17);
    bytes[at] = 64;
    const e = thrownMeshwayError(() => deserializeNavMesh(reseal(bytes), "a.navmesh"));
    expect(e.message).toBe(
      `a.navmesh: tile 0: polygon 1 has area 64, areas are 0..63 at byte ${at}`,
    );
    nm.tiles[0]!.polyAreas[1] = 200;
    expect(thrownMeshwayError(() => serializeNavMesh(nm, null)).message).toMatch(/area 200/);
    const fresh = navMeshFor(4, 2);
    expect(
      thrownMeshwayError(() => fresh.addTile(twoSquaresTile({ areas: [63, 255] }))).message,
    ).toMatch(/polygon 1 has area 255, areas are 0\.\.63/);
  });

  it("A* treats an area the filter does not price (NaN) as blocked, like an Infinity cost", () => {
    // 3 × 3 squares of side 2; the path from the left middle to the right middle either crosses
    // the centre or goes round it.
    const verts: number[] = [];
    for (let i = 0; i <= 3; i++) for (let j = 0; j <= 3; j++) verts.push(2 * i, 0, 2 * j);
    const v = (i: number, j: number) => i * 4 + j;
    const polys: number[][] = [];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) polys.push([v(i, j), v(i, j + 1), v(i + 1, j + 1), v(i + 1, j)]);
    }
    const answer = (area: number, filterCost: number) => {
      const nm = navMeshFor(6, 6);
      nm.addTile(handTile({ verts, polys }));
      nm.tiles[0]!.polyAreas[4] = area; // the centre, changed after addTile as a caller could
      const q = new NavMeshQuery(nm);
      q.defaultFilter.setAreaCost(5, filterCost);
      const a = q.findNearestPoly([1, 0, 3], [0.5, 1, 0.5]);
      const b = q.findNearestPoly([5, 0, 3], [0.5, 1, 0.5]);
      const path = q.findPath(a, b, [1, 0, 3], [5, 0, 3]);
      return { status: path.status, polys: Array.from(path.polys).slice(0, path.polyCount) };
    };
    const round = answer(5, Infinity);
    expect(round.polys).toHaveLength(5);
    expect(answer(200, 1)).toEqual(round);
  });
});

describe("per-call maxNodes (maxnodes-validation)", () => {
  it.each([Number.NaN, 1.5, 0, -1, 2 ** 31, 2 ** 40, 1e9])(
    "computePath, findPath and findShortestPath refuse maxNodes %d with INVALID_ARGUMENT",
    (maxNodes) => {
      const q = new NavMeshQuery(squaresMesh());
      const a = q.findNearestPoly([1, 0, 1], [1, 1, 1]);
      for (const call of [
        () => q.computePath([1, 0, 1], [3, 0, 1], { maxNodes }),
        () => q.findPath(a, a, [1, 0, 1], [1, 0, 1], q.defaultFilter, [], undefined, maxNodes),
        () => findShortestPath(q, [1, 0, 1], [3, 0, 1], { maxNodes }),
      ]) {
        const e = thrownMeshwayError(call);
        expect(e.code).toBe("INVALID_ARGUMENT");
        expect(e.message).toMatch(/maxNodes .* must be an integer in \[1, 2\^2[46]\]/);
      }
      expect(q.computePath([1, 0, 1], [3, 0, 1], { maxNodes: 1 }).status).toBeDefined();
    },
  );
});
