/**
 * The queries the crowd rests on: findLocalNeighbourhood, getPolyWallSegments,
 * findPolysAroundShape, finalizeSlicedFindPathPartial. recast-navigation-js exposes none of
 * Detour's versions, so they are checked against hand-checked scenes and brute-force
 * references (a plain BFS over the polygon graph with an independent intersection test).
 */
import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours, getPortalPoints } from "../../src/navmesh/neighbours.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { polyAt, QUERY_CONFIG, wallScene } from "../helpers/query-scenes.js";
import { TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

const tiled = await buildTiledNavMesh(tiledScene(), TILED_CONFIG);

function allRefs(nm: NavMesh): number[] {
  const out: number[] = [];
  for (let s = 1; s < nm.slots.length; s++) {
    const t = nm.tileInSlot(s);
    if (!t) continue;
    for (let p = 0; p < t.polyCount; p++) out.push(nm.polyRef(s, p));
  }
  return out;
}

function perimeter(nm: NavMesh, ref: number): number {
  const t = nm.tileInSlot(tileOfRef(ref))!;
  const p = polyOfRef(ref);
  const n = t.polyVertCount[p]!;
  let len = 0;
  for (let i = 0; i < n; i++) {
    const a = t.polyVerts[p * t.maxVertsPerPoly + i]! * 3;
    const b = t.polyVerts[p * t.maxVertsPerPoly + ((i + 1) % n)]! * 3;
    len += Math.hypot(
      t.vertices[b]! - t.vertices[a]!,
      t.vertices[b + 1]! - t.vertices[a + 1]!,
      t.vertices[b + 2]! - t.vertices[a + 2]!,
    );
  }
  return len;
}

describe("getPolyWallSegments", () => {
  it("walls plus portals cover every polygon's perimeter exactly (tiled scene)", () => {
    const nm = tiled.navMesh;
    const q = new NavMeshQuery(nm);
    let portals = 0;
    for (const ref of allRefs(nm)) {
      const r = q.getPolyWallSegments(ref, q.defaultFilter, undefined, { includePortals: true });
      expect(r.status).toBe("complete");
      let len = 0;
      for (let i = 0; i < r.count; i++) {
        const s = r.segments.subarray(i * 6, i * 6 + 6);
        len += Math.hypot(s[3]! - s[0]!, s[4]! - s[1]!, s[5]! - s[2]!);
        if (r.refs[i] !== 0) portals++;
      }
      expect(Math.abs(len - perimeter(nm, ref))).toBeLessThan(1e-4);
      const walls = q.getPolyWallSegments(ref);
      let wallCount = 0;
      for (let i = 0; i < r.count; i++) if (r.refs[i] === 0) wallCount++;
      expect(walls.count).toBe(wallCount);
    }
    expect(portals).toBeGreaterThan(100);
  });

  it("an excluded neighbour turns its portal into a wall", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const south = polyAt(nm, 3, 3);
    const open = q.getPolyWallSegments(south, q.defaultFilter, undefined, {
      includePortals: true,
    });
    const nbs = [...open.refs.subarray(0, open.count)].filter((r) => r !== 0);
    expect(nbs.length).toBeGreaterThan(0);
    const t = nm.tileInSlot(tileOfRef(nbs[0]!))!;
    const saved = t.polyFlags[polyOfRef(nbs[0]!)]!;
    t.polyFlags[polyOfRef(nbs[0]!)] = 2;
    const f = new QueryFilter();
    f.includeFlags = 1;
    const closed = q.getPolyWallSegments(south, f);
    t.polyFlags[polyOfRef(nbs[0]!)] = saved;
    expect(closed.count).toBe(q.getPolyWallSegments(south).count + 1);
  });

  it("a stale ref answers invalidRef with no segments", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    const ref = polyAt(nm, 3, 3);
    nm.removeTile(nm.tileRefAt(0, 0));
    const r = q.getPolyWallSegments(ref);
    expect(r.status).toBe("invalidRef");
    expect(r.count).toBe(0);
  });
});

/** Brute-force reference: polygons reachable through portals that meet the convex shape. */
function shapeReference(nm: NavMesh, start: number, shape: number[]): Set<number> {
  const n = shape.length / 3;
  const inside = (x: number, z: number) => {
    let sign = 0;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const c =
        (shape[j * 3]! - shape[i * 3]!) * (z - shape[i * 3 + 2]!) -
        (shape[j * 3 + 2]! - shape[i * 3 + 2]!) * (x - shape[i * 3]!);
      if (Math.abs(c) < 1e-9) continue;
      if (sign === 0) sign = Math.sign(c);
      else if (Math.sign(c) !== sign) return false;
    }
    return true;
  };
  const cross = (ax: number, az: number, bx: number, bz: number, cx: number, cz: number) =>
    (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
  const meets = (ax: number, az: number, bx: number, bz: number) => {
    if (inside(ax, az) || inside(bx, bz)) return true;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const [px, pz, qx, qz] = [shape[i * 3]!, shape[i * 3 + 2]!, shape[j * 3]!, shape[j * 3 + 2]!];
      const d1 = cross(ax, az, bx, bz, px, pz);
      const d2 = cross(ax, az, bx, bz, qx, qz);
      const d3 = cross(px, pz, qx, qz, ax, az);
      const d4 = cross(px, pz, qx, qz, bx, bz);
      if (d1 * d2 <= 0 && d3 * d4 <= 0) return true;
    }
    return false;
  };
  const seen = new Set([start]);
  const stack = [start];
  const refs = new Float64Array(64);
  const edges = new Int32Array(64);
  const a = new Float64Array(3);
  const b = new Float64Array(3);
  while (stack.length > 0) {
    const cur = stack.pop()!;
    const k = collectNeighbours(nm, cur, refs, edges);
    for (let i = 0; i < k; i++) {
      const nb = refs[i]!;
      if (seen.has(nb) || tileOfRef(nb) === 0) continue;
      getPortalPoints(nm, cur, nb, a, b);
      if (!meets(a[0]!, a[2]!, b[0]!, b[2]!)) continue;
      seen.add(nb);
      stack.push(nb);
    }
  }
  return seen;
}

describe("findPolysAroundShape", () => {
  it("finds the same polygons as a brute-force reference, either winding (tiled scene)", () => {
    const nm = tiled.navMesh;
    const q = new NavMeshQuery(nm, { maxNodes: 8192 });
    let checked = 0;
    for (const [x, z, r] of [
      [20, 20, 6],
      [48, 48, 10],
      [30, 70, 4],
      [80, 20, 8],
      [10, 90, 3],
    ] as const) {
      const start = polyAt(nm, x, z);
      if (start === 0) continue;
      // A rotated hexagon around (x, z).
      const shape: number[] = [];
      for (let i = 0; i < 6; i++) {
        const a = (i / 6) * Math.PI * 2 + 0.3;
        shape.push(x + Math.cos(a) * r, 0, z + Math.sin(a) * r);
      }
      const want = shapeReference(nm, start, shape);
      for (const verts of [shape, reverse3(shape)]) {
        const got = q.findPolysAroundShape(start, verts);
        expect(got.status).toBe("complete");
        expect(got.refs[0]).toBe(start);
        expect(new Set(got.refs.subarray(0, got.count))).toEqual(want);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it("refuses fewer than three vertices", () => {
    const nm = wallScene();
    const q = new NavMeshQuery(nm);
    expect(() => q.findPolysAroundShape(polyAt(nm, 3, 3), [0, 0, 0, 1, 0, 1])).toThrow(
      /at least 3 points/,
    );
  });
});

function reverse3(v: number[]): number[] {
  const out: number[] = [];
  for (let i = v.length / 3 - 1; i >= 0; i--) out.push(v[i * 3]!, v[i * 3 + 1]!, v[i * 3 + 2]!);
  return out;
}

describe("findLocalNeighbourhood", () => {
  it("start first, parents earlier, portals within the radius, no duplicates", () => {
    const nm = tiled.navMesh;
    const q = new NavMeshQuery(nm);
    const a = new Float64Array(3);
    const b = new Float64Array(3);
    for (const [x, z] of [
      [20, 20],
      [48, 48],
      [30, 70],
      [60, 30],
    ] as const) {
      const start = polyAt(nm, x, z);
      if (start === 0) continue;
      const r = q.findLocalNeighbourhood(start, [x, 0.25, z], 5);
      expect(r.refs[0]).toBe(start);
      expect(r.parents[0]).toBe(0);
      const refs = [...r.refs.subarray(0, r.count)];
      expect(new Set(refs).size).toBe(refs.length);
      for (let i = 1; i < r.count; i++) {
        expect(refs.indexOf(r.parents[i]!)).toBeLessThan(i);
        expect(getPortalPoints(nm, r.parents[i]!, refs[i]!, a, b)).toBe(true);
        const t = Math.max(
          0,
          Math.min(
            1,
            ((x - a[0]!) * (b[0]! - a[0]!) + (z - a[2]!) * (b[2]! - a[2]!)) /
              ((b[0]! - a[0]!) ** 2 + (b[2]! - a[2]!) ** 2 || 1),
          ),
        );
        const d = Math.hypot(a[0]! + (b[0]! - a[0]!) * t - x, a[2]! + (b[2]! - a[2]!) * t - z);
        expect(d).toBeLessThanOrEqual(5 + 1e-9);
      }
      expect(r.count).toBeGreaterThan(1);
    }
  });

  it("leaves out the deck above when standing under it", () => {
    const nm = tiled.navMesh;
    const q = new NavMeshQuery(nm);
    // Under the raised deck (x, z 66..90 at y ~3): the ground polygons only.
    const fr = q.findNearestPoly([75, 0.25, 75], [0.5, 0.5, 0.5]);
    expect(fr).not.toBe(0);
    const r = q.findLocalNeighbourhood(fr, [75, 0.25, 75], 6);
    for (let i = 0; i < r.count; i++) {
      const t = nm.tileInSlot(tileOfRef(r.refs[i]!))!;
      const p = polyOfRef(r.refs[i]!);
      const v0 = t.polyVerts[p * t.maxVertsPerPoly]! * 3;
      expect(t.vertices[v0 + 1]!).toBeLessThan(1.5);
    }
  });
});

describe("finalizeSlicedFindPathPartial", () => {
  it("with time to finish, equals findPath; cut short, ends on the old corridor", () => {
    const mesh = tiledScene();
    const nm = buildNavMesh(mesh, { ...QUERY_CONFIG }).navMesh;
    const q = new NavMeshQuery(nm, { maxNodes: 8192 });
    const s = q.findNearestPoly([8, 0.25, 8], [1, 1, 1]);
    const e = q.findNearestPoly([60, 0.25, 40], [1, 1, 1]);
    expect(s).not.toBe(0);
    expect(e).not.toBe(0);
    const full = q.findPath(s, e, [8, 0.25, 8], [60, 0.25, 40]);
    const corridor = (full.polys as number[]).slice(0, full.polyCount);
    expect(full.status).toBe("complete");
    q.initSlicedFindPath(s, e, [8, 0.25, 8], [60, 0.25, 40]);
    q.updateSlicedFindPath(1e9);
    const done = q.finalizeSlicedFindPathPartial(corridor);
    expect(done.status).toBe("complete");
    expect((done.polys as number[]).slice(0, done.polyCount)).toEqual(corridor);
    q.initSlicedFindPath(s, e, [8, 0.25, 8], [60, 0.25, 40]);
    q.updateSlicedFindPath(8);
    const cut = q.finalizeSlicedFindPathPartial(corridor);
    expect(cut.status).toBe("partial");
    const got = (cut.polys as number[]).slice(0, cut.polyCount);
    expect(got[0]).toBe(s);
    expect(corridor).toContain(got[got.length - 1]);
    expect(corridor.indexOf(got[got.length - 1]!)).toBeGreaterThan(0);
  });
});
