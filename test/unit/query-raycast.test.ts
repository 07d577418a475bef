import { describe, expect, it } from "vitest";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { polyHeight } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { collectNeighbours } from "../../src/navmesh/neighbours.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { polygonAreaXZ } from "../../src/navmesh/tile.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { RaycastHit, raycast } from "../../src/query/raycast.js";
import { boxScene, polyAt } from "../helpers/query-scenes.js";

/** Surface point at (x, z). */
function at(navMesh: NavMesh, x: number, z: number): [number, number, number] {
  const ref = polyAt(navMesh, x, z);
  const tile = navMesh.tileInSlot(tileOfRef(ref))!;
  return [x, polyHeight(tile, polyOfRef(ref), x, z), z];
}

describe("raycast", () => {
  const navMesh = boxScene();
  const query = new NavMeshQuery(navMesh);
  const filter = new QueryFilter();

  it("the build winds polygons like Recast (negative XZ area), which the ray clipper assumes", () => {
    const tile = navMesh.tiles[0]!;
    expect(tile.polyCount).toBeGreaterThan(3);
    for (let p = 0; p < tile.polyCount; p++) expect(polygonAreaXZ(tile, p)).toBeLessThan(0);
    const hit = new RaycastHit();
    // Every polygon contains its own centroid according to the clipper: a zero-length ray
    // from inside ends inside (t = Infinity).
    for (let p = 0; p < tile.polyCount; p++) {
      let cx = 0;
      let cz = 0;
      const n = tile.polyVertCount[p]!;
      for (let i = 0; i < n; i++) {
        const v = tile.polyVerts[p * tile.maxVertsPerPoly + i]! * 3;
        cx += tile.vertices[v]! / n;
        cz += tile.vertices[v + 2]! / n;
      }
      const c = [cx, 0.25, cz];
      raycast(query, navMesh.polyRef(1, p), c, c, filter, undefined, hit);
      expect(hit.t).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it("a ray across open floor does not hit: t = Infinity, corridor from start to end polygon", () => {
    const start = at(navMesh, 1.5, 1.5);
    const end = at(navMesh, 8.5, 2.5);
    const startRef = polyAt(navMesh, 1.5, 1.5);
    const hit = raycast(query, startRef, start, end, filter, undefined, new RaycastHit(1));
    expect(hit.t).toBe(Number.POSITIVE_INFINITY);
    expect(hit.hit).toBe(false);
    expect(hit.hitEdgeIndex).toBe(-1);
    expect(Array.from(hit.hitNormal)).toEqual([0, 0, 0]);
    expect(hit.path[0]).toBe(startRef);
    expect(hit.path[hit.pathCount - 1]).toBe(polyAt(navMesh, 8.5, 2.5));
    // Consecutive visited polygons are neighbours.
    const refs = new Float64Array(64);
    const edges = new Int32Array(64);
    for (let i = 1; i < hit.pathCount; i++) {
      const n = collectNeighbours(navMesh, hit.path[i - 1]!, refs, edges);
      expect(Array.from(refs.subarray(0, n))).toContain(hit.path[i]);
    }
  });

  it("a ray into the box wall hits at the eroded wall x = 3.5 with normal (-1, 0, 0)", () => {
    const start = at(navMesh, 1.5, 5);
    const end = [5, 0.25, 5];
    const hit = raycast(query, polyAt(navMesh, 1.5, 5), start, end, filter, {}, new RaycastHit());
    expect(hit.hit).toBe(true);
    expect(hit.t).toBeCloseTo((3.5 - 1.5) / (5 - 1.5), 9);
    expect(hit.hitNormal[0]).toBeCloseTo(-1, 9);
    expect(hit.hitNormal[1]).toBe(0);
    expect(hit.hitNormal[2]).toBeCloseTo(0, 9);
    // The hit edge is the x = 3.5 edge of the last visited polygon.
    const last = hit.path[hit.pathCount - 1]!;
    const tile = navMesh.tileInSlot(tileOfRef(last))!;
    const p = polyOfRef(last);
    const nvp = tile.maxVertsPerPoly;
    const n = tile.polyVertCount[p]!;
    const a = tile.polyVerts[p * nvp + hit.hitEdgeIndex]! * 3;
    const b = tile.polyVerts[p * nvp + ((hit.hitEdgeIndex + 1) % n)]! * 3;
    expect(tile.vertices[a]).toBe(3.5);
    expect(tile.vertices[b]).toBe(3.5);
  });

  it("rays into the border and the box face stop on the reported edge with its inward unit normal", () => {
    const cases: [number, number, number, number, number, number, number][] = [
      // start x, z; end x, z; hit coordinate along the ray's axis; expected normal x, z
      [7.5, 2, 12, 2, 9.25, -1, 0], // +x through the border
      [2, 5, 2, -1, 0.75, 0, 1], // -z through the border
      [2, 8.5, 2, 12, 9.25, 0, -1], // +z through the border
      [8, 3, -2, 3, 0.75, 1, 0], // -x through the border
      [1, 5.5, 4, 5.5, 3.5, -1, 0], // +x into the box's x = 3.5 face
    ];
    const hit = new RaycastHit();
    for (const [sx, sz, ex, ez, wall, nx, nz] of cases) {
      raycast(
        query,
        polyAt(navMesh, sx, sz),
        at(navMesh, sx, sz),
        [ex, 0, ez],
        filter,
        undefined,
        hit,
      );
      const along = ex !== sx ? (wall - sx) / (ex - sx) : (wall - sz) / (ez - sz);
      expect(hit.t).toBeCloseTo(along, 9);
      expect(hit.hitNormal[0]).toBeCloseTo(nx, 9);
      expect(hit.hitNormal[2]).toBeCloseTo(nz, 9);
      // The hit point lies on edge hitEdgeIndex of the last polygon visited.
      const hx = sx + (ex - sx) * hit.t;
      const hz = sz + (ez - sz) * hit.t;
      const last = hit.path[hit.pathCount - 1]!;
      const tile = navMesh.tileInSlot(tileOfRef(last))!;
      const p = polyOfRef(last);
      const nvp = tile.maxVertsPerPoly;
      const n = tile.polyVertCount[p]!;
      const a = tile.polyVerts[p * nvp + hit.hitEdgeIndex]! * 3;
      const b = tile.polyVerts[p * nvp + ((hit.hitEdgeIndex + 1) % n)]! * 3;
      const v = tile.vertices;
      const cross = (v[b]! - v[a]!) * (hz - v[a + 2]!) - (v[b + 2]! - v[a + 2]!) * (hx - v[a]!);
      expect(Math.abs(cross)).toBeLessThan(1e-9);
    }
  });

  it("a slanted wall gives the slanted wall's normal", () => {
    // The contour cuts the box corner region with a slightly slanted edge from (3.5, 3.75)
    // to (6.5, 3.5) below the box; a ray straight up +z meets it at z = 3.625.
    const hit = raycast(
      query,
      polyAt(navMesh, 5, 1.5),
      at(navMesh, 5, 1.5),
      [5, 0, 5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(1.5 + 3.5 * hit.t).toBeCloseTo(3.625, 9);
    const len = Math.hypot(0.25, 3);
    expect(hit.hitNormal[0]).toBeCloseTo(-0.25 / len, 9);
    expect(hit.hitNormal[2]).toBeCloseTo(-3 / len, 9);
  });

  it("a diagonal ray hits a wall with the wall's normal, not the ray's", () => {
    const hit = raycast(
      query,
      polyAt(navMesh, 1.5, 4),
      at(navMesh, 1.5, 4),
      [5, 0, 6],
      filter,
      undefined,
      new RaycastHit(),
    );
    // Line from (1.5, 4) with slope 2/3.5 reaches x = 3.5 at z ≈ 5.14 (on the straight face).
    expect(hit.t).toBeCloseTo(2 / 3.5, 9);
    expect(hit.hitNormal[0]).toBeCloseTo(-1, 9);
    expect(hit.hitNormal[2]).toBeCloseTo(0, 9);
  });

  it("the end point's height is ignored (2D test)", () => {
    const hit = raycast(
      query,
      polyAt(navMesh, 1.5, 1.5),
      at(navMesh, 1.5, 1.5),
      [2.5, 100, 1.5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(hit.t).toBe(Number.POSITIVE_INFINITY);
  });

  it("a start point outside the start polygon reports t = 0 with no path", () => {
    const hit = raycast(
      query,
      polyAt(navMesh, 1.5, 1.5),
      [5, 0.25, 5],
      [6, 0.25, 5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(hit.t).toBe(0);
    expect(hit.pathCount).toBe(0);
  });

  it("useCosts sums length × area cost over the walked part", () => {
    const y = 0.25; // every vertex of this flat mesh
    const start = [1.5, y, 1.5];
    const startRef = polyAt(navMesh, 1.5, 1.5);
    const free = raycast(
      query,
      startRef,
      start,
      [8.5, y, 2.5],
      filter,
      { useCosts: true },
      new RaycastHit(),
    );
    expect(free.pathCount).toBeGreaterThan(1);
    expect(free.pathCost).toBeCloseTo(Math.hypot(7, 1), 6);
    const blocked = raycast(
      query,
      polyAt(navMesh, 1.5, 5),
      [1.5, y, 5],
      [5, y, 5],
      filter,
      { useCosts: true },
      new RaycastHit(),
    );
    expect(blocked.pathCost).toBeCloseTo(2, 6); // up to the wall at x = 3.5
    const expensive = new QueryFilter();
    expensive.areaCost.fill(3);
    const tripled = raycast(
      query,
      startRef,
      start,
      [8.5, y, 2.5],
      expensive,
      { useCosts: true },
      new RaycastHit(),
    );
    expect(tripled.pathCost).toBeCloseTo(3 * Math.hypot(7, 1), 6);
    const noCosts = raycast(
      query,
      startRef,
      start,
      [8.5, y, 2.5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(noCosts.pathCost).toBe(0);
  });

  it("a polygon the filter rejects is a wall: the ray stops at its portal", () => {
    const nm = boxScene();
    const q = new NavMeshQuery(nm);
    const startRef = polyAt(nm, 1.5, 1.5);
    const free = raycast(
      q,
      startRef,
      [1.5, 0.25, 1.5],
      [8.5, 0.25, 2.5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(free.pathCount).toBeGreaterThan(1);
    // Flag the second polygon on the way as something the filter excludes.
    const blocked = free.path[1]!;
    nm.tileInSlot(tileOfRef(blocked))!.polyFlags[polyOfRef(blocked)] = 2;
    const f = new QueryFilter();
    f.excludeFlags = 2;
    const hit = raycast(
      q,
      startRef,
      [1.5, 0.25, 1.5],
      [8.5, 0.25, 2.5],
      f,
      undefined,
      new RaycastHit(),
    );
    expect(hit.hit).toBe(true);
    expect(hit.pathCount).toBe(1);
    expect(hit.t).toBeGreaterThan(0);
    expect(hit.t).toBeLessThan(1);
  });

  it("off-mesh connections are never followed", () => {
    const nm = boxScene();
    const q = new NavMeshQuery(nm);
    const con = nm.addOffMeshConnection({
      start: [1.5, 0.25, 5],
      end: [8.5, 0.25, 5],
      radius: 0.5,
      bidirectional: true,
      area: 0,
      flags: 1,
    });
    expect(nm.isValidPolyRef(con)).toBe(true);
    const hit = raycast(
      q,
      polyAt(nm, 1.5, 5),
      [1.5, 0.25, 5],
      [8.5, 0.25, 5],
      filter,
      undefined,
      new RaycastHit(),
    );
    expect(hit.t).toBeCloseTo(2 / 7, 9); // still stops at the box face x = 3.5
    expect(Array.from(hit.path.subarray(0, hit.pathCount))).not.toContain(con);
  });

  it("the path buffer grows instead of truncating", () => {
    const hit = new RaycastHit(1);
    raycast(
      query,
      polyAt(navMesh, 1.5, 1.5),
      at(navMesh, 1.5, 1.5),
      [8.5, 0, 2.5],
      filter,
      undefined,
      hit,
    );
    expect(hit.pathCount).toBeGreaterThan(1);
    expect(hit.path.length).toBeGreaterThanOrEqual(hit.pathCount);
  });

  it("programmer errors throw INVALID_ARGUMENT", () => {
    const ref = polyAt(navMesh, 1.5, 1.5);
    const hit = new RaycastHit();
    const call = (r: number, s: number[], e: number[]) => () =>
      raycast(query, r, s, e, filter, undefined, hit);
    expect(call(ref, [Number.NaN, 0, 0], [1, 0, 1])).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(call(ref, [1, 0, 1], [1, Number.POSITIVE_INFINITY, 1])).toThrow(/end/);
    expect(call(0, [1, 0, 1], [2, 0, 1])).toThrow(/startRef 0 is not a polygon reference/);
    // Another salt in a live slot: a ref into a tile replaced since, reported, not thrown.
    expect(call(ref + 2 ** 40, [1, 0, 1], [2, 0, 1])().status).toBe("invalidRef");
    expect(call(ref, [1, 0, 1], [2, 0, 1])().status).toBe("complete");
  });
});
