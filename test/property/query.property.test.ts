import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { SceneBuilder } from "../helpers/scenes.js";

// Binary-exact cell sizes keep the build exact; default agent (climb 0.9, height 2).
const CONFIG: Partial<BuildConfig> = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };
const SIZE = 16;

const boxArb = fc.record({
  x: fc.integer({ min: 2, max: 14 }),
  z: fc.integer({ min: 2, max: 14 }),
  sx: fc.integer({ min: 1, max: 5 }),
  sz: fc.integer({ min: 1, max: 5 }),
  h: fc.constantFrom(0.5, 1, 3),
  rotated: fc.boolean(),
});

const sceneArb = fc.record({
  boxes: fc.array(boxArb, { minLength: 0, maxLength: 6 }),
  platform: fc.boolean(),
  ramp: fc.boolean(),
});

type SceneSpec = typeof sceneArb extends fc.Arbitrary<infer T> ? T : never;

/** A 16 × 16 floor with boxes, optionally a platform reached by a ramp. */
function buildScene(spec: SceneSpec): NavMesh {
  const b = new SceneBuilder().floor(0, 0, SIZE, SIZE);
  for (const box of spec.boxes) {
    const r = box.rotated ? Math.hypot(box.sx, box.sz) / 2 : Math.max(box.sx, box.sz) / 2;
    const x = Math.min(Math.max(box.x, r + 0.5), SIZE - 0.5 - r);
    const z = Math.min(Math.max(box.z, r + 0.5), SIZE - 0.5 - r);
    b.box(x, 0, z, box.sx, box.h, box.sz, box.rotated ? 0.5 : 0);
  }
  if (spec.platform) {
    b.box(5, 2.75, 12, 6, 0.25, 5);
    if (spec.ramp) b.ramp(8, 14, 9.5, 14.5, 3, 0);
  }
  return buildNavMesh(b.build(), CONFIG).navMesh;
}

const pointArb = fc.tuple(
  fc.double({ min: 0.5, max: SIZE - 0.5, noNaN: true }),
  fc.double({ min: 0.5, max: SIZE - 0.5, noNaN: true }),
  fc.constantFrom(0, 3),
);
const pairsArb = fc.array(fc.tuple(pointArb, pointArb), { minLength: 1, maxLength: 6 });

const EXT = [2, 4, 2];
const refs = new Float64Array(256);
const closest = new Float64Array(3);
/** Surface height found by the last successful onMesh. */
let surfaceY = 0;

/**
 * True when (x, y, z) is on the mesh — or, given `within`, on one of those polygons: some
 * polygon has a point within 1e-3 of it on XZ whose surface height is within a climb of y.
 * Sets surfaceY to the height of the closest such one.
 */
function onMesh(
  q: NavMeshQuery,
  x: number,
  y: number,
  z: number,
  within?: readonly number[],
): boolean {
  const climb = q.navMesh.agentMaxClimb;
  const cand: ArrayLike<number> = within ?? refs;
  const n = within
    ? within.length
    : q.queryPolygons([x, y, z], [1e-3, climb, 1e-3], q.defaultFilter, refs);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    q.closestPointOnPoly(cand[i]!, [x, y, z], closest);
    const dxz = Math.hypot(closest[0]! - x, closest[2]! - z);
    const dy = Math.abs(closest[1]! - y);
    if (dxz <= 1e-3 && dy <= climb && dy < best) {
      best = dy;
      surfaceY = closest[1]!;
    }
  }
  return best < Infinity;
}

/**
 * True when a-b can be walked on the mesh (or on the `within` polygons): samples (spacing <= step, plus the `extra`
 * parameters) each have a polygon within 1e-3 on XZ whose surface is within a climb of the
 * previous sample's surface (so a shortcut off a ledge or under a floor fails), ending
 * within a climb of b. Heights follow the surface, not the straight 3D line, because corners
 * are only placed where the path turns on XZ.
 */
function segmentOnMesh(
  q: NavMeshQuery,
  a: readonly number[],
  b: readonly number[],
  step: number,
  extra: readonly number[] = [],
  within?: readonly number[],
): boolean {
  const climb = q.navMesh.agentMaxClimb;
  const len = Math.hypot(b[0]! - a[0]!, b[2]! - a[2]!);
  const n = Math.max(1, Math.ceil(len / step));
  const ts: number[] = [...extra];
  for (let i = 0; i <= n; i++) ts.push(i / n);
  ts.sort((u, v) => u - v);
  let y = a[1]!;
  for (const t of ts) {
    const x = a[0]! + (b[0]! - a[0]!) * t;
    const z = a[2]! + (b[2]! - a[2]!) * t;
    if (!onMesh(q, x, y, z, within)) return false;
    y = surfaceY;
  }
  return Math.abs(y - b[1]!) <= climb;
}

/** Parameter along a-b (XZ) of the point closest to p. */
function project(a: readonly number[], b: readonly number[], p: readonly number[]): number {
  const dx = b[0]! - a[0]!;
  const dz = b[2]! - a[2]!;
  const d = dx * dx + dz * dz;
  if (d === 0) return 0;
  return Math.min(1, Math.max(0, ((p[0]! - a[0]!) * dx + (p[2]! - a[2]!) * dz) / d));
}

const dist = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!);

describe("NavMeshQuery properties on generated scenes", () => {
  it("computePath: points and segments on the mesh, snapped ends, length >= distance, taut in its corridor", () => {
    fc.assert(
      fc.property(sceneArb, pairsArb, (spec, pairs) => {
        const navMesh = buildScene(spec);
        const q = new NavMeshQuery(navMesh);
        const s = createNearestPolyResult();
        const e = createNearestPolyResult();
        for (const [[sx, sz, sy], [ex, ez, ey]] of pairs) {
          const start = [sx, sy, sz];
          const end = [ex, ey, ez];
          const r = q.computePath(start, end, { halfExtents: EXT });
          q.findNearestPoly(start, EXT, q.defaultFilter, s);
          q.findNearestPoly(end, EXT, q.defaultFilter, e);
          if (s.ref === 0) {
            expect(r.status).toBe("noStart");
            continue;
          }
          if (e.ref === 0) {
            expect(r.status).toBe("noEnd");
            continue;
          }
          expect(["complete", "partial"]).toContain(r.status);
          const pts = r.points;
          expect(pts.length).toBeGreaterThanOrEqual(1);
          // Starts at the snapped start; a complete path ends at the snapped end.
          expect(dist(pts[0]!, s.point)).toBeLessThan(1e-6);
          if (r.status === "complete") {
            expect(r.polys[r.polys.length - 1]).toBe(e.ref);
            expect(dist(pts[pts.length - 1]!, e.point)).toBeLessThan(1e-6);
            expect(r.length).toBeGreaterThanOrEqual(dist(s.point, e.point) - 1e-9);
          }
          expect(r.polys[0]).toBe(s.ref);
          // Every point and every sample along the segments lies on the mesh.
          for (const p of pts) expect(onMesh(q, p[0], p[1], p[2])).toBe(true);
          for (let i = 1; i < pts.length; i++) {
            expect(segmentOnMesh(q, pts[i - 1]!, pts[i]!, 0.05)).toBe(true);
          }
          // No interior corner can be dropped: its shortcut leaves the corridor. (Not "the
          // mesh": like Detour's, the A* corridor may wind around a vertex or an obstacle the
          // straight line would pass on the other side; the funnel is taut within the
          // corridor.) Corners nearer than twice onMesh's 1e-3 tolerance to their shortcut are
          // below this test's resolution (the path itself drops corners within 1e-6).
          for (let i = 1; i + 1 < pts.length; i++) {
            const a = pts[i - 1]!;
            const b = pts[i + 1]!;
            const t = project(a, b, pts[i]!);
            const px = a[0] + (b[0] - a[0]) * t - pts[i]![0];
            const pz = a[2] + (b[2] - a[2]) * t - pts[i]![2];
            if (Math.hypot(px, pz) < 2e-3) continue;
            expect(segmentOnMesh(q, a, b, 0.02, [t], r.polys)).toBe(false);
          }
        }
      }),
      { numRuns: 120, seed: 1234 },
    );
  });

  it("sliced findPath yields the same corridor and status as findPath", () => {
    fc.assert(
      fc.property(sceneArb, pairsArb, fc.integer({ min: 1, max: 16 }), (spec, pairs, slice) => {
        const navMesh = buildScene(spec);
        const q = new NavMeshQuery(navMesh);
        const s = createNearestPolyResult();
        const e = createNearestPolyResult();
        for (const [[sx, sz, sy], [ex, ez, ey]] of pairs) {
          if (q.findNearestPoly([sx, sy, sz], EXT, q.defaultFilter, s) === 0) continue;
          if (q.findNearestPoly([ex, ey, ez], EXT, q.defaultFilter, e) === 0) continue;
          const whole = q.findPath(s.ref, e.ref, s.point, e.point);
          let status = q.initSlicedFindPath(s.ref, e.ref, s.point, e.point);
          let guard = 0;
          while (status === "inProgress" && guard++ < 100000) {
            status = q.updateSlicedFindPath(slice);
            expect(q.slicedIterations).toBeLessThanOrEqual(slice);
          }
          const sliced = q.finalizeSlicedFindPath();
          expect(sliced.status).toBe(whole.status);
          expect([...sliced.polys].slice(0, sliced.polyCount)).toEqual(
            [...whole.polys].slice(0, whole.polyCount),
          );
        }
      }),
      { numRuns: 80, seed: 4321 },
    );
  });
});
