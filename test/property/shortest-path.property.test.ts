import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pointInPoly } from "../../bench/sample-points.js";
import type { BuildConfig } from "../../src/config.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { SceneBuilder } from "../helpers/scenes.js";
import { distanceToPolyXZ, lengthXZ, VisibilityGraph } from "../helpers/visibility-graph.js";

// Flat scenes: a floor with boxes (some rotated, some touching the previous one), every box
// taller than the agent's climb and lower than its height (nothing walkable inside a box), so
// the navmesh is one level in XZ and the XZ reference applies.
const CONFIG: Partial<BuildConfig> = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };
const SIZE = 18;

const boxArb = fc.record({
  x: fc.double({ min: 2, max: 16, noNaN: true }),
  z: fc.double({ min: 2, max: 16, noNaN: true }),
  sx: fc.double({ min: 0.5, max: 5, noNaN: true }),
  sz: fc.double({ min: 0.5, max: 5, noNaN: true }),
  angle: fc.oneof(fc.constant(0), fc.double({ min: 0, max: Math.PI, noNaN: true })),
  touch: fc.boolean(),
});
const sceneArb = fc.record({
  boxes: fc.array(boxArb, { minLength: 1, maxLength: 7 }),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
});
type SceneSpec = typeof sceneArb extends fc.Arbitrary<infer T> ? T : never;

function buildScene(spec: SceneSpec): NavMesh {
  const b = new SceneBuilder().floor(0, 0, SIZE, SIZE);
  let prev: { x: number; z: number; sx: number } | null = null;
  for (const box of spec.boxes) {
    let { x, z } = box;
    // Touching: stand right beside the previous box (axis-aligned neighbours share a face).
    if (box.touch && prev) {
      x = prev.x + prev.sx / 2 + box.sx / 2;
      z = prev.z;
    }
    b.box(x, 0, z, box.sx, 1.5, box.sz, box.touch ? 0 : box.angle);
    prev = { x, z, sx: box.sx };
  }
  return buildNavMesh(b.build(), CONFIG).navMesh;
}

const nearest = createNearestPolyResult();

/** Sample pairs of points on the navmesh (seeded). */
function samplePairs(navMesh: NavMesh, seed: number, count: number): number[][][] {
  const rand = mulberry32(seed);
  const tile = navMesh.tiles[0]!;
  const out: number[][][] = [];
  for (let i = 0; i < count; i++) {
    const a = pointInPoly(tile, Math.floor(rand() * tile.polyCount), rand);
    const b = pointInPoly(tile, Math.floor(rand() * tile.polyCount), rand);
    out.push([a, b]);
  }
  return out;
}

describe("findShortestPath on generated flat scenes", () => {
  it("is as long as the visibility-graph shortest path, never longer than the funnel, and stays on its corridor", () => {
    fc.assert(
      fc.property(sceneArb, (spec) => {
        const navMesh = buildScene(spec);
        if (navMesh.tiles[0]!.polyCount === 0) return;
        const query = new NavMeshQuery(navMesh);
        const graph = new VisibilityGraph(navMesh);
        for (const [a, b] of samplePairs(navMesh, spec.seed, 8)) {
          const r = findShortestPath(query, a!, b!);
          expect(r.points.length).toBeGreaterThanOrEqual(2);
          const s = r.points[0]!;
          const t = r.points[r.points.length - 1]!;
          const funnel = query.computePath(a!, b!);
          const len = lengthXZ(r.points);
          const goal = funnel.points[funnel.points.length - 1]!;
          if (funnel.status === "complete") {
            expect(r.status).toBe("complete");
            expect(len).toBeLessThanOrEqual(lengthXZ(funnel.points) + 1e-9);
          } else {
            // Unreachable end: the path goes to the closest reachable point instead.
            expect(r.status).toBe("partial");
            query.findNearestPoly(b!, [1, 1, 1], undefined, nearest);
            const p = nearest.point;
            expect(graph.shortest(s[0], s[2], p[0]!, p[2]!)).toBe(Infinity);
          }
          void goal;
          // Shortest to where it ends, whether that is the end or the closest reachable point.
          const ref = graph.shortest(s[0], s[2], t[0], t[2]);
          expect(Math.abs(len - ref)).toBeLessThanOrEqual(1e-6 * Math.max(1, ref));
          // Every 0.1 units along the path lies on a polygon of its corridor.
          for (let i = 1; i < r.points.length; i++) {
            const p = r.points[i - 1]!;
            const q = r.points[i]!;
            const d = Math.hypot(q[0] - p[0], q[2] - p[2]);
            const steps = Math.max(1, Math.ceil(d / 0.1));
            for (let k = 0; k <= steps; k++) {
              const x = p[0] + ((q[0] - p[0]) * k) / steps;
              const z = p[2] + ((q[2] - p[2]) * k) / steps;
              let near = Infinity;
              for (const ref of r.polys)
                near = Math.min(near, distanceToPolyXZ(navMesh, ref, x, z));
              expect(near).toBeLessThanOrEqual(1e-6);
            }
          }
        }
      }),
      { numRuns: 30, seed: 7 },
    );
  });
});

describe("findShortestPath with off-mesh connections on generated flat scenes", () => {
  it("is as long as the visibility graph with the connections as extra edges", () => {
    const linkArb = fc.record({ from: fc.nat(), to: fc.nat(), bidirectional: fc.boolean() });
    fc.assert(
      fc.property(sceneArb, fc.array(linkArb, { minLength: 1, maxLength: 3 }), (spec, links) => {
        const navMesh = buildScene(spec);
        const tile = navMesh.tiles[0]!;
        if (tile.polyCount === 0) return;
        // Connection ends at polygon centres-ish points (sampled), landing exactly there.
        const rand = mulberry32(spec.seed ^ 0x5bd1e995);
        for (const l of links) {
          const a = pointInPoly(tile, l.from % tile.polyCount, rand);
          const b = pointInPoly(tile, l.to % tile.polyCount, rand);
          navMesh.addOffMeshConnection({
            start: [a[0]!, a[1]!, a[2]!],
            end: [b[0]!, b[1]!, b[2]!],
            radius: 0.05,
            bidirectional: l.bidirectional,
            area: 0,
            flags: 1,
          });
        }
        const refLinks = navMesh.offMeshConnectionRefs().flatMap((ref) => {
          const c = navMesh.offMeshConnection(ref)!;
          if (c.startPoly === 0 || c.endPoly === 0) return [];
          const [ax, , az] = c.snappedStart;
          const [bx, , bz] = c.snappedEnd;
          return [
            { ax, az, bx, bz, cost: Math.hypot(bx - ax, bz - az), bidirectional: c.bidirectional },
          ];
        });
        const query = new NavMeshQuery(navMesh);
        const graph = new VisibilityGraph(navMesh);
        for (const [a, b] of samplePairs(navMesh, spec.seed, 6)) {
          const r = findShortestPath(query, a!, b!);
          const s = r.points[0]!;
          const t = r.points[r.points.length - 1]!;
          const ref = graph.shortest(s[0], s[2], t[0], t[2], refLinks);
          const len = lengthXZ(r.points);
          expect(Math.abs(len - ref), `${r.status} ${len} vs ${ref}`).toBeLessThanOrEqual(
            1e-6 * Math.max(1, ref),
          );
          if (r.status === "partial") {
            query.findNearestPoly(b!, [1, 1, 1], undefined, nearest);
            const p = nearest.point;
            expect(graph.shortest(s[0], s[2], p[0]!, p[2]!, refLinks)).toBe(Infinity);
          } else {
            expect(r.status).toBe("complete");
          }
        }
      }),
      { numRuns: 20, seed: 11 },
    );
  });
});
