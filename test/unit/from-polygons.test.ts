import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { navMeshFromPolygons } from "../../src/generate/from-polygons.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { authoredLevel } from "../helpers/authored-level.js";

describe("navMeshFromPolygons", () => {
  it("welds, repairs the T-junction, splits concave and oversized faces, flips clockwise ones", () => {
    const { navMesh, report } = navMeshFromPolygons(authoredLevel(), { weldTolerance: 0.01 });
    expect(report).toMatchObject({
      inputVertices: 30,
      weldedVertices: 24,
      tJunctions: 1,
      flippedFaces: 1,
      splitFaces: [0, 5],
      droppedFaces: [],
      tiles: 1,
    });
    expect(navMesh.tiles[0]!.polyCount).toBe(report.polygons);
    expect(validateNavMesh(navMesh)).toEqual({ ok: true, problems: [] });
  });

  for (const tileSize of [undefined, 1.5, 4]) {
    it(`queries work on it (tileSize ${tileSize})`, () => {
      const { navMesh } = navMeshFromPolygons(authoredLevel(), { weldTolerance: 0.01, tileSize });
      expect(validateNavMesh(navMesh).problems).toEqual([]);
      const q = new NavMeshQuery(navMesh);
      // Across the T-junction: the path bends only at the L's inner corner (and the
      // junction vertex, nudged 1 mm by the authoring tool).
      expect(q.computePath([0.5, 0, 3.5], [5.5, 0, 0.5]).status).toBe("complete");
      const p = findShortestPath(q, [0.5, 0, 3.5], [5.5, 0, 0.5]);
      expect(p.status).toBe("complete");
      expect(p.length).toBeCloseTo(
        Math.hypot(1.5, 1.5) + Math.hypot(2, 1) + Math.hypot(1.5, 0.5),
        1,
      );
      // Islands are not connected.
      expect(q.computePath([0.5, 0, 3.5], [13.5, 0.75, 0.5]).status).toBe("partial");
      // Up the ramp (area 5), and across the octagon.
      const ramp = q.computePath([10.5, 0, 1.5], [13.5, 0.75, 0.5]);
      expect(ramp.status).toBe("complete");
      expect(ramp.points.at(-1)![1]).toBeCloseTo(0.75, 2);
      expect(q.computePath([18.8, 0.5, 1], [21.2, 0.5, 1.2]).status).toBe("complete");
      const from = q.findNearestPoly([0.5, 0, 0.5], [0.5, 1, 0.5]);
      const ray = q.raycast(from, [0.5, 0, 0.5], [5.5, 0, 0.5]);
      expect(ray.t).toBe(Infinity); // reached the end unobstructed
    });
  }

  it("tiles link across borders and every tile stays inside its rectangle", () => {
    const { navMesh, report } = navMeshFromPolygons(authoredLevel(), {
      weldTolerance: 0.01,
      tileSize: 1.5,
    });
    expect(report.tiles).toBeGreaterThan(10);
    const origin = navMesh.params.origin;
    for (const t of navMesh.tiles) {
      expect(t.bmin[0]).toBeCloseTo(origin[0] + t.tileX * 1.5, 5);
      expect(t.bmin[2]).toBeCloseTo(origin[2] + t.tileZ * 1.5, 5);
    }
  });

  it("merges coplanar triangles back into convex polygons when asked", () => {
    // A 2 × 1 grid of quads, each given as two triangles (as glTF delivers it).
    const vertices = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 1, 2, 0, 1];
    const polygons = [
      [0, 3, 4],
      [0, 4, 1],
      [1, 4, 5],
      [1, 5, 2],
    ];
    const plain = navMeshFromPolygons({ vertices, polygons }, { weldTolerance: 0 });
    expect(plain.report.polygons).toBe(4);
    const merged = navMeshFromPolygons(
      { vertices, polygons },
      { weldTolerance: 0, mergeFaces: true },
    );
    // Two quads: the whole 2 × 1 rectangle would have straight-angle corners at x = 1.
    expect(merged.report.polygons).toBe(2);
    expect(validateNavMesh(merged.navMesh).ok).toBe(true);
    // A fold (not coplanar) stays two polygons.
    const folded = vertices.slice();
    folded[16] = 0.5; // vertex 5 lifted: the right quad is not flat
    const bent = navMeshFromPolygons(
      { vertices: folded, polygons },
      { weldTolerance: 0, mergeFaces: true },
    );
    expect(bent.report.polygons).toBe(3);
    expect(validateNavMesh(bent.navMesh).ok).toBe(true);
  });

  it("reports concave faces, located, when asked not to split them", () => {
    let err: unknown;
    try {
      navMeshFromPolygons(authoredLevel(), { weldTolerance: 0.01, splitConcave: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MeshwayError);
    expect((err as MeshwayError).code).toBe("INVALID_INPUT");
    expect((err as MeshwayError).message).toMatch(
      /1 concave face\(s\).*polygon 0 is concave at vertex 3 \(2, 0, 2\)/,
    );
  });

  it("drops vertical and collapsed faces and says which", () => {
    const vertices = [0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0.001, 0, 0];
    const polygons = [
      [0, 1, 2],
      [0, 1, 4, 3],
      [0, 5, 1],
    ];
    const { report } = navMeshFromPolygons({ vertices, polygons }, { weldTolerance: 0.01 });
    expect(report.droppedFaces).toEqual([
      { face: 2, reason: "fewer than 3 distinct vertices after welding" },
      { face: 1, reason: "no area seen from above (vertical or degenerate)" },
    ]);
    expect(report.polygons).toBe(1);
  });

  it("samples detail heights from a triangle surface", () => {
    const surface = {
      positions: new Float32Array([0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0, 1, 0.3, 1]),
      indices: new Uint32Array([0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4]),
      vertexCount: 5,
      triangleCount: 4,
    };
    const { navMesh } = navMeshFromPolygons(
      { vertices: [0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0], polygons: [[0, 1, 2, 3]] },
      { weldTolerance: 0, detail: surface },
    );
    expect(validateNavMesh(navMesh).ok).toBe(true);
    const q = new NavMeshQuery(navMesh);
    const ref = q.findNearestPoly([1, 0, 1], [0.5, 1, 0.5]);
    expect(q.getPolyHeight(ref, [1, 0, 1])).toBeCloseTo(0.3, 5);
  });

  it("rejects bad input with the place at fault", () => {
    const ok = { vertices: [0, 0, 0, 0, 0, 1, 1, 0, 1], polygons: [[0, 1, 2]] };
    const msg = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(MeshwayError);
        return (e as Error).message;
      }
      return "no error";
    };
    expect(msg(() => navMeshFromPolygons(ok, { weldTolerance: -1 }))).toMatch(
      /weldTolerance must be >= 0/,
    );
    expect(
      msg(() => navMeshFromPolygons({ ...ok, polygons: [[0, 1, 7]] }, { weldTolerance: 0 })),
    ).toMatch(/polygon 0 vertex 2 is 7/);
    expect(
      msg(() =>
        navMeshFromPolygons(
          { ...ok, vertices: [0, 0, 0, 0, Number.NaN, 1, 1, 0, 1] },
          { weldTolerance: 0 },
        ),
      ),
    ).toMatch(/vertex 1 y is NaN/);
    expect(msg(() => navMeshFromPolygons({ ...ok, areas: [64] }, { weldTolerance: 0 }))).toMatch(
      /areas\[0\] is 64/,
    );
    expect(msg(() => navMeshFromPolygons(ok, { weldTolerance: 0, tileSize: 0 }))).toMatch(
      /tileSize must be > 0/,
    );
    // A bow tie has no ear.
    const bow = { vertices: [0, 0, 0, 3, 0, 2, 3, 0, 0, 0, 0, 1], polygons: [[0, 1, 2, 3]] };
    expect(msg(() => navMeshFromPolygons(bow, { weldTolerance: 0 }))).toMatch(
      /polygon 0 is self-intersecting/,
    );
  });
});
