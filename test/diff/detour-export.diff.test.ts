/**
 * meshway → Detour bytes (exportDetourNavMesh): the bytes load back into an equal meshway
 * navmesh (importDetourNavMesh), and recast-navigation-js's `importNavMesh` (Detour in
 * WebAssembly) loads them and finds the same paths as meshway on 1000 seeded pairs per mesh.
 * Pairs are drawn as in query.diff.test.ts (random polygon, random point inside it, float32).
 */
import type * as NavMeshApi from "@recast-navigation/core/dist/nav-mesh.js";
import type * as NavMeshQueryApi from "@recast-navigation/core/dist/nav-mesh-query.js";
import type * as ImportApi from "@recast-navigation/core/dist/serdes/import.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pointInPoly } from "../../bench/sample-points.js";
import { exportDetourNavMesh } from "../../src/format/detour-export.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { navMeshFromPolygons } from "../../src/generate/from-polygons.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { createFindPathResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { StraightPath } from "../../src/query/straight-path.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { authoredLevel } from "../helpers/authored-level.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { initRecast, recast } from "../helpers/recast.js";

const core = recast as unknown as typeof recast &
  typeof NavMeshApi &
  typeof NavMeshQueryApi &
  typeof ImportApi;
const f32 = Math.fround;
const vec = (p: ArrayLike<number>) => ({ x: p[0]!, y: p[1]!, z: p[2]! });
const PAIRS = 1000;
const DT_PARTIAL = 1 << 6;

function expectSameNavMesh(a: NavMesh, b: NavMesh): void {
  const ta = a.tiles;
  const tb = b.tiles;
  expect(tb.length).toBe(ta.length);
  ta.forEach((t, i) => {
    const u = tb[i]!;
    for (const key of Object.keys(t) as (keyof typeof t)[]) {
      const x = t[key];
      const y = u[key];
      if (key === "bmin" || key === "bmax")
        expect(y, `tile ${i} ${key}`).toEqual((x as number[]).map(f32));
      else if (ArrayBuffer.isView(x))
        expect(Array.from(y as Uint8Array), `tile ${i} ${key}`).toEqual(
          Array.from(x as Uint8Array),
        );
      else expect(y, `tile ${i} ${key}`).toEqual(x);
    }
  });
  // Detour holds connection end points as float32.
  const round = (c: ReturnType<NavMesh["offMeshConnection"]>) =>
    c && {
      ...c,
      start: c.start.map(f32),
      end: c.end.map(f32),
      snappedStart: c.snappedStart.map(f32),
      snappedEnd: c.snappedEnd.map(f32),
    };
  const ca = a.offMeshConnectionRefs().map((r) => round(a.offMeshConnection(r)));
  const cb = b.offMeshConnectionRefs().map((r) => round(b.offMeshConnection(r)));
  expect(cb).toEqual(ca);
  expect(b.params.tileWidth).toBe(Math.fround(a.params.tileWidth));
  expect(b.params.cellSize).toBeCloseTo(a.params.cellSize, 6);
  expect(b.params.agentMaxClimb).toBe(Math.fround(a.params.agentMaxClimb));
}

function length3(p: ArrayLike<number>, n: number): number {
  let len = 0;
  for (let i = 1; i < n; i++) {
    len += Math.hypot(
      p[i * 3]! - p[i * 3 - 3]!,
      p[i * 3 + 1]! - p[i * 3 - 2]!,
      p[i * 3 + 2]! - p[i * 3 - 1]!,
    );
  }
  return len;
}

/** Loads the export in Detour and runs the seeded pairs on both; returns agreement counts. */
function comparePaths(nm: NavMesh, bytes: Uint8Array, seed: number) {
  const imported = core.importNavMesh(bytes);
  const dt = imported.navMesh;
  const dq = new core.NavMeshQuery(dt, { maxNodes: 8192 });
  const slots: number[] = [];
  for (let s = 0; s < nm.slots.length; s++) if (nm.tileInSlot(s)) slots.push(s);
  const base = new Map<number, number>();
  slots.forEach((s, t) => {
    base.set(s, dt.getPolyRefBase(dt.getTile(t)));
  });
  const toDt = (ref: number) => base.get(tileOfRef(ref))! + polyOfRef(ref);
  const all: [number, number][] = [];
  for (const s of slots) for (let p = 0; p < nm.tileInSlot(s)!.polyCount; p++) all.push([s, p]);
  const rand = mulberry32(seed);
  const mq = new NavMeshQuery(nm, { maxNodes: 8192 });
  const dtPolys = new core.UnsignedIntArray();
  dtPolys.resize(4096);
  let mwPolys: Float64Array | number[] = new Float64Array(4096);
  const res = createFindPathResult();
  const sp = new StraightPath(64);
  const end = new Float64Array(3);
  const stats = {
    pairs: PAIRS,
    completeness: 0,
    partial: 0,
    corridor: 0,
    length: 0,
    worst: 0,
    worstLonger: 0,
  };
  const sample = () => {
    const [s, p] = all[Math.floor(rand() * all.length)]!;
    const ref = nm.polyRef(s, p);
    const q = pointInPoly(nm.tileInSlot(s)!, p, rand).map(f32) as [number, number, number];
    const h = mq.getPolyHeight(ref, q);
    if (Number.isFinite(h)) q[1] = f32(h); // (NaN: a float32-rounded point on a sliver's edge)
    return { ref, p: q };
  };
  for (let i = 0; i < PAIRS; i++) {
    const a = sample();
    const b = sample();
    const st = dq.raw.findPath(
      toDt(a.ref),
      toDt(b.ref),
      a.p,
      b.p,
      dq.defaultFilter.raw,
      dtPolys.raw,
      4096,
    );
    const dtPartial = (st & DT_PARTIAL) !== 0;
    const dtCount = dtPolys.size;
    const dtLast = dtPolys.get(dtCount - 1);
    const dtEnd =
      dtLast === toDt(b.ref) ? vec(b.p) : dq.closestPointOnPoly(dtLast, vec(b.p)).closestPoint;
    const dsp = dq.findStraightPath(vec(a.p), dtEnd, dtPolys, { maxStraightPathPoints: 2048 });
    const dtLen = length3(dsp.straightPath.getHeapView(), dsp.straightPathCount);
    dsp.straightPath.destroy();
    dsp.straightPathFlags.destroy();
    dsp.straightPathRefs.destroy();

    const r = mq.findPath(a.ref, b.ref, a.p, b.p, undefined, mwPolys, res);
    mwPolys = r.polys;
    const count = r.polyCount;
    const last = mwPolys[count - 1]!;
    if (last === b.ref) end.set(b.p);
    else mq.closestPointOnPoly(last, b.p, end);
    mq.findStraightPath(a.p, end, mwPolys, count, sp);
    const mwLen = length3(sp.points, sp.count);
    if (dtPartial === (r.status !== "complete")) stats.completeness++;
    let same = count === dtCount;
    for (let k = 0; same && k < count; k++) same = toDt(mwPolys[k]!) === dtPolys.get(k);
    if (dtPartial) {
      // Partial paths: which polygon counts as "closest to the end" is the two searches'
      // tie-breaking, not the data; counted but not compared.
      stats.partial++;
      continue;
    }
    if (same) stats.corridor++;
    if (Math.abs(mwLen - dtLen) <= Math.max(0.001 * dtLen, 1e-4)) stats.length++;
    stats.worst = Math.max(stats.worst, Math.abs(mwLen - dtLen) / Math.max(dtLen, 1e-6));
    stats.worstLonger = Math.max(stats.worstLonger, (mwLen - dtLen) / Math.max(dtLen, 1e-6));
  }
  dtPolys.destroy();
  dq.destroy();
  dt.destroy();
  return stats;
}

describe("exportDetourNavMesh", () => {
  beforeAll(async () => {
    await initRecast();
  });

  const cases: [string, () => Promise<NavMesh>][] = [
    ["nav_test solo", async () => buildNavMesh(loadSharedMesh("nav_test")).navMesh],
    [
      "nav_test tiled 32",
      async () => (await buildTiledNavMesh(loadSharedMesh("nav_test"), { tileSize: 32 })).navMesh,
    ],
    [
      "dungeon tiled 48",
      async () => (await buildTiledNavMesh(loadSharedMesh("dungeon"), { tileSize: 48 })).navMesh,
    ],
    [
      "authored polygons tiled 1.5",
      async () =>
        navMeshFromPolygons(authoredLevel(), { weldTolerance: 0.01, tileSize: 1.5 }).navMesh,
    ],
  ];
  for (const [name, make] of cases) {
    it(`${name}: round trip gives an equal navmesh; Detour loads it and paths agree`, async () => {
      const nm = await make();
      const bytes = exportDetourNavMesh(nm);
      const back = importDetourNavMesh(bytes, name);
      expectSameNavMesh(nm, back);
      expect(validateNavMesh(back).ok).toBe(true);
      expect(exportDetourNavMesh(back)).toEqual(bytes);
      const s = comparePaths(nm, bytes, 0xde70 + name.length);
      console.log(`${name}: ${JSON.stringify(s)}`);
      expect(s.completeness).toBe(PAIRS);
      const complete = PAIRS - s.partial;
      expect(complete).toBeGreaterThan(200); // the shared meshes have many islands
      expect(s.corridor).toBeGreaterThanOrEqual(0.99 * complete);
      expect(s.length).toBeGreaterThanOrEqual(0.99 * complete);
      // Same corridor, so any difference is the two libraries' funnel/height arithmetic
      // (query.diff.test.ts measures the same spread on Detour-built meshes).
      expect(s.worst).toBeLessThan(0.02);
    });
  }

  it("off-mesh connections survive the round trip and Detour links them", async () => {
    const nm = (await buildTiledNavMesh(loadSharedMesh("nav_test"), { tileSize: 32 })).navMesh;
    const q = new NavMeshQuery(nm);
    // Two polygon centres a few metres apart in XZ that no walk connects (Detour links a
    // connection's end only in the start tile or a neighbouring one).
    const centres: { p: [number, number, number] }[] = [];
    for (const t of nm.tiles) {
      for (let k = 0; k < t.polyCount; k++) {
        const c: [number, number, number] = [0, 0, 0];
        const n = t.polyVertCount[k]!;
        for (let i = 0; i < n; i++)
          for (let j = 0; j < 3; j++)
            c[j] = c[j]! + t.vertices[t.polyVerts[k * 6 + i]! * 3 + j]! / n;
        centres.push({ p: c.map(f32) as [number, number, number] });
      }
    }
    let pick: [[number, number, number], [number, number, number]] | undefined;
    for (let i = 0; i < centres.length && !pick; i += 7) {
      for (let j = 0; j < centres.length && !pick; j += 5) {
        const a = centres[i]!.p;
        const b = centres[j]!.p;
        const dxz = Math.hypot(a[0] - b[0], a[2] - b[2]);
        if (dxz < 2 || dxz > 5 || Math.abs(a[1] - b[1]) < 3) continue;
        if (q.computePath(a, b).status === "partial") pick = [a, b];
      }
    }
    expect(pick).toBeDefined();
    const [start, end] = pick!;
    nm.addOffMeshConnection({
      start,
      end,
      radius: 0.5,
      bidirectional: true,
      area: 63,
      flags: 1,
      userId: 7,
    });
    expect(q.computePath(start, end).status).toBe("complete");
    const bytes = exportDetourNavMesh(nm);
    expectSameNavMesh(nm, importDetourNavMesh(bytes));
    const dt = core.importNavMesh(bytes).navMesh;
    let offMeshPolys = 0;
    for (let t = 0; t < dt.getMaxTiles(); t++) {
      const h = dt.getTile(t).header();
      if (h) offMeshPolys += h.offMeshConCount();
    }
    expect(offMeshPolys).toBe(1);
    const dq = new core.NavMeshQuery(dt);
    for (const [from, to] of [
      [start, end],
      [end, start],
    ] as const) {
      const path = dq.computePath(vec(from), vec(to));
      expect(path.success).toBe(true);
      const last = path.path.at(-1)!;
      expect(Math.hypot(last.x - to[0], last.y - to[1], last.z - to[2])).toBeLessThan(0.05);
    }
    dq.destroy();
    dt.destroy();
  });

  it("refuses what Detour cannot hold", () => {
    const { navMesh } = buildNavMesh(loadSharedMesh("nav_test"), { vertsPerPoly: 8 } as never);
    expect(() => exportDetourNavMesh(navMesh)).toThrow(/up to 8 corners; Detour allows 6/);
  });
});
