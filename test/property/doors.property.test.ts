import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { MoveAlongSurfaceResult } from "../../src/query/move-along-surface.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { PolysAroundCircleResult } from "../../src/query/polys-around-circle.js";
import { mulberry32, RandomPointResult } from "../../src/query/random-point.js";
import { RaycastHit } from "../../src/query/raycast.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { doorsScene, groundRefs } from "../helpers/doors-scene.js";

const CLOSED = 2;
let nm: NavMesh;
let q: NavMeshQuery;
let ground: PolyRef[];
let links: PolyRef[];

beforeAll(async () => {
  nm = await doorsScene();
  // One query object for every run: the point is that it never sees stale flags.
  q = new NavMeshQuery(nm);
  ground = groundRefs(nm);
  links = nm.offMeshConnectionRefs();
});

const point = fc.tuple(
  fc.double({ min: 0.8, max: 23.2, noNaN: true }),
  fc.double({ min: 0.8, max: 23.2, noNaN: true }),
);
const flagChoice = fc.constantFrom(1, 1, 1, 1 | CLOSED, 0);

/** Applies flags[i % length] to every ground polygon and link through the API. */
function applyFlags(flags: number[]): void {
  ground.forEach((r, i) => {
    nm.setPolyFlags(r, flags[i % flags.length]!);
  });
  links.forEach((r, i) => {
    nm.setPolyFlags(r, flags[(i * 7 + 3) % flags.length]!);
  });
}

function ok(filter: QueryFilter, ref: PolyRef): boolean {
  return filter.passes(nm.getPolyFlags(ref));
}

const tableFilter = () => {
  const f = new QueryFilter();
  f.excludeFlags = CLOSED;
  return f;
};

describe("doors property: run-time flags and a long-lived query", () => {
  it("no result of any query enters a polygon the filter excludes after random flag changes", () => {
    fc.assert(
      fc.property(
        fc.array(flagChoice, { minLength: 5, maxLength: 40 }),
        fc.array(fc.tuple(point, point), { minLength: 1, maxLength: 4 }),
        (flags, pairs) => {
          applyFlags(flags);
          const f = tableFilter();
          const all = (refs: ArrayLike<number>, n = refs.length) => {
            for (let i = 0; i < n; i++) if (!ok(f, refs[i]!)) return false;
            return true;
          };
          for (const [[ax, az], [bx, bz]] of pairs) {
            const a = [ax, 0.25, az];
            const b = [bx, 0.25, bz];
            const cp = q.computePath(a, b, { filter: f, halfExtents: [2, 2, 2] });
            expect(all(cp.polys)).toBe(true);
            const sp = findShortestPath(q, a, b, { filter: f, halfExtents: [2, 2, 2] });
            expect(all(sp.polys)).toBe(true);
            if (cp.polys.length === 0) continue;
            const start = cp.polys[0]!;
            const from = cp.points[0]!;
            const fp = q.findPath(start, cp.polys.at(-1)!, from, cp.points.at(-1)!, f);
            expect(all(fp.polys, fp.polyCount)).toBe(true);
            const hit = q.raycast(start, from, b, f, undefined, new RaycastHit());
            expect(all(hit.path, hit.pathCount)).toBe(true);
            const mv = q.moveAlongSurface(start, from, b, f, new MoveAlongSurfaceResult());
            expect(all(mv.visited, mv.visitedCount)).toBe(true);
            const circle = q.findPolysAroundCircle(
              start,
              from,
              6,
              f,
              new PolysAroundCircleResult(),
            );
            expect(all(circle.refs, circle.count)).toBe(true);
            const [cx, , cz] = from;
            const square = [
              cx! - 4,
              0,
              cz! - 4,
              cx! + 4,
              0,
              cz! - 4,
              cx! + 4,
              0,
              cz! + 4,
              cx! - 4,
              0,
              cz! + 4,
            ];
            const shape = q.findPolysAroundShape(start, square, f);
            expect(all(shape.refs, shape.count)).toBe(true);
            const near = q.findLocalNeighbourhood(start, from, 4, f);
            expect(all(near.refs, near.count)).toBe(true);
            const walls = q.getPolyWallSegments(start, f);
            const across = Array.from(walls.refs.subarray(0, walls.count)).filter((r) => r !== 0);
            expect(all(across)).toBe(true);
            const rp = q.findRandomPoint(f, mulberry32(Math.floor(ax * 1000)));
            if (rp.ref !== 0) expect(ok(f, rp.ref)).toBe(true);
            const rc = q.findRandomPointAroundCircle(start, from, 5, f, mulberry32(7));
            if (rc.ref !== 0) expect(ok(f, rc.ref)).toBe(true);
          }
        },
      ),
      { numRuns: 30, seed: 1414 },
    );
  });

  it("callback filters equal to a flag/cost table give identical results", () => {
    fc.assert(
      fc.property(
        fc.array(flagChoice, { minLength: 5, maxLength: 40 }),
        fc.array(fc.constantFrom(63, 1, 2), { minLength: 3, maxLength: 30 }),
        fc.array(fc.tuple(point, point), { minLength: 1, maxLength: 3 }),
        (flags, areas, pairs) => {
          applyFlags(flags);
          ground.forEach((r, i) => {
            nm.setPolyArea(r, areas[i % areas.length]!);
          });
          const table = tableFilter().setAreaCost(1, 3).setAreaCost(2, 0.5);
          const cb = new QueryFilter();
          cb.passFilter = (ref, tile, poly) =>
            ((tile ? tile.polyFlags[poly]! : nm.getPolyFlags(ref)) & CLOSED) === 0;
          cb.getCost = (a, b, _prev, cur) => {
            if (tileOfRef(cur) === OFF_MESH_SLOT) {
              const con = nm.offMeshConnection(cur)!;
              if (con.cost !== undefined) return con.cost;
            }
            const dx = b[0]! - a[0]!;
            const dy = b[1]! - a[1]!;
            const dz = b[2]! - a[2]!;
            const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            return d * table.areaCost[nm.getPolyArea(cur)]!;
          };
          for (const [[ax, az], [bx, bz]] of pairs) {
            const a = [ax, 0.25, az];
            const b = [bx, 0.25, bz];
            const opts = { halfExtents: [2, 2, 2] };
            const t1 = q.computePath(a, b, { ...opts, filter: table });
            const c1 = q.computePath(a, b, { ...opts, filter: cb });
            expect(c1).toEqual(t1);
            expect(findShortestPath(q, a, b, { ...opts, filter: cb })).toEqual(
              findShortestPath(q, a, b, { ...opts, filter: table }),
            );
            if (t1.polys.length === 0) continue;
            const s = t1.polys[0]!;
            const from = t1.points[0]!;
            const e = t1.polys.at(-1)!;
            const fpT = q.findPath(s, e, from, b, table);
            const fpTPolys = Array.from(fpT.polys).slice(0, fpT.polyCount);
            const fpC = q.findPath(s, e, from, b, cb);
            expect([fpC.status, Array.from(fpC.polys).slice(0, fpC.polyCount)]).toEqual([
              fpT.status,
              fpTPolys,
            ]);
            // Sliced, one node at a time.
            q.initSlicedFindPath(s, e, from, b, cb);
            while (q.updateSlicedFindPath(1) === "inProgress");
            const sl = q.finalizeSlicedFindPath();
            expect(Array.from(sl.polys).slice(0, sl.polyCount)).toEqual(fpTPolys);
            const rT = q.raycast(s, from, b, table, { useCosts: true }, new RaycastHit());
            const rC = q.raycast(s, from, b, cb, { useCosts: true }, new RaycastHit());
            expect([rC.t, rC.pathCount, rC.pathCost, rC.hitEdgeIndex]).toEqual([
              rT.t,
              rT.pathCount,
              rT.pathCost,
              rT.hitEdgeIndex,
            ]);
            const mT = q.moveAlongSurface(s, from, b, table, new MoveAlongSurfaceResult());
            const mC = q.moveAlongSurface(s, from, b, cb, new MoveAlongSurfaceResult());
            expect(Array.from(mC.resultPos)).toEqual(Array.from(mT.resultPos));
            expect(mC.visitedCount).toBe(mT.visitedCount);
            const pT = q.findPolysAroundCircle(s, from, 6, table, new PolysAroundCircleResult());
            const pC = q.findPolysAroundCircle(s, from, 6, cb, new PolysAroundCircleResult());
            expect(Array.from(pC.refs.subarray(0, pC.count))).toEqual(
              Array.from(pT.refs.subarray(0, pT.count)),
            );
            expect(Array.from(pC.costs.subarray(0, pC.count))).toEqual(
              Array.from(pT.costs.subarray(0, pT.count)),
            );
            const [cx, , cz] = from;
            const square = [
              cx! - 4,
              0,
              cz! - 4,
              cx! + 4,
              0,
              cz! - 4,
              cx! + 4,
              0,
              cz! + 4,
              cx! - 4,
              0,
              cz! + 4,
            ];
            const hT = q.findPolysAroundShape(s, square, table);
            const hC = q.findPolysAroundShape(s, square, cb);
            expect([hC.status, Array.from(hC.refs.subarray(0, hC.count))]).toEqual([
              hT.status,
              Array.from(hT.refs.subarray(0, hT.count)),
            ]);
            expect(Array.from(hC.costs.subarray(0, hC.count))).toEqual(
              Array.from(hT.costs.subarray(0, hT.count)),
            );
            const nT = q.findLocalNeighbourhood(s, from, 4, table);
            const nC = q.findLocalNeighbourhood(s, from, 4, cb);
            expect(Array.from(nC.refs.subarray(0, nC.count))).toEqual(
              Array.from(nT.refs.subarray(0, nT.count)),
            );
            const wT = q.getPolyWallSegments(s, table);
            const wC = q.getPolyWallSegments(s, cb);
            expect(Array.from(wC.segments.subarray(0, wC.count * 6))).toEqual(
              Array.from(wT.segments.subarray(0, wT.count * 6)),
            );
            const seed = polyOfRef(s) + 17;
            const xT = q.findRandomPoint(table, mulberry32(seed), new RandomPointResult());
            const xC = q.findRandomPoint(cb, mulberry32(seed), new RandomPointResult());
            expect([xC.ref, Array.from(xC.point)]).toEqual([xT.ref, Array.from(xT.point)]);
            const yT = q.findRandomPointAroundCircle(
              s,
              from,
              5,
              table,
              mulberry32(seed),
              new RandomPointResult(),
            );
            const yC = q.findRandomPointAroundCircle(
              s,
              from,
              5,
              cb,
              mulberry32(seed),
              new RandomPointResult(),
            );
            expect([yC.ref, Array.from(yC.point)]).toEqual([yT.ref, Array.from(yT.point)]);
          }
        },
      ),
      { numRuns: 25, seed: 2727 },
    );
  });
});
