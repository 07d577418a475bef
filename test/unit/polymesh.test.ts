import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { BuildContext } from "../../src/generate/context.js";
import { buildPolyMesh } from "../../src/generate/polymesh.js";
import {
  BORDER_VERTEX,
  type Contour,
  type ContourSet,
  MESH_NULL_INDEX,
  PORTAL_FLAG,
  type PolyMesh,
} from "../../src/generate/types.js";

/** Contour outline as [x, y, z, flags] quads; contours wind clockwise in XZ (x right, z up). */
function contour(points: number[][], region = 1, area = 63): Contour {
  const verts = new Int32Array(points.length * 4);
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    verts.set([p[0]!, p[1]!, p[2]!, p[3] ?? 0], i * 4);
  }
  return { verts, rawVerts: verts.slice(), region, area };
}

function contourSet(contours: Contour[], width = 40, depth = 40, borderSize = 0): ContourSet {
  return {
    contours,
    bmin: [0, 0, 0],
    bmax: [width * 0.3, 10, depth * 0.3],
    cellSize: 0.3,
    cellHeight: 0.2,
    width,
    depth,
    borderSize,
    maxError: 1.3,
  };
}

/** Vertex ids of polygon p. */
function polyVerts(mesh: PolyMesh, p: number): number[] {
  const nvp = mesh.maxVertsPerPoly;
  const out: number[] = [];
  for (let j = 0; j < nvp; j++) {
    const v = mesh.polys[p * 2 * nvp + j]!;
    if (v === MESH_NULL_INDEX) break;
    out.push(v);
  }
  return out;
}

function neighbours(mesh: PolyMesh, p: number): number[] {
  const nvp = mesh.maxVertsPerPoly;
  const n = polyVerts(mesh, p).length;
  return Array.from(mesh.polys.subarray(p * 2 * nvp + nvp, p * 2 * nvp + nvp + n));
}

function xz(mesh: PolyMesh, v: number): [number, number] {
  return [mesh.verts[v * 3]!, mesh.verts[v * 3 + 2]!];
}

/** Twice the signed XZ area in Recast's sign convention (negative = convex turn). */
function turn(a: [number, number], b: [number, number], c: [number, number]): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
}

function isStrictlyConvex(mesh: PolyMesh, p: number): boolean {
  const vs = polyVerts(mesh, p).map((v) => xz(mesh, v));
  for (let i = 0; i < vs.length; i++) {
    if (turn(vs[i]!, vs[(i + 1) % vs.length]!, vs[(i + 2) % vs.length]!) >= 0) return false;
  }
  return true;
}

function polyArea(mesh: PolyMesh, p: number): number {
  const vs = polyVerts(mesh, p).map((v) => xz(mesh, v));
  let a = 0;
  for (let i = 0; i < vs.length; i++) {
    const [x0, z0] = vs[i]!;
    const [x1, z1] = vs[(i + 1) % vs.length]!;
    a += x0 * z1 - x1 * z0;
  }
  return Math.abs(a) / 2;
}

function totalArea(mesh: PolyMesh): number {
  let a = 0;
  for (let p = 0; p < mesh.polyCount; p++) a += polyArea(mesh, p);
  return a;
}

const SQUARE: [number, number, number][] = [
  [0, 5, 0],
  [0, 5, 10],
  [10, 5, 10],
  [10, 5, 0],
];

// L: 10x10 square minus its 5x5 corner at x,z in [5,10]; area 75.
const L_SHAPE: [number, number, number][] = [
  [0, 3, 0],
  [0, 3, 10],
  [5, 3, 10],
  [5, 3, 5],
  [10, 3, 5],
  [10, 3, 0],
];

describe("buildPolyMesh", () => {
  it("turns a square contour into one quad with no neighbours", () => {
    const mesh = buildPolyMesh(contourSet([contour(SQUARE, 7, 12)]), 6);
    expect(mesh.polyCount).toBe(1);
    expect(mesh.vertCount).toBe(4);
    expect(Array.from(mesh.verts)).toEqual([0, 5, 0, 0, 5, 10, 10, 5, 10, 10, 5, 0]);
    expect(polyVerts(mesh, 0)).toHaveLength(4);
    expect(isStrictlyConvex(mesh, 0)).toBe(true);
    expect(polyArea(mesh, 0)).toBe(100);
    expect(neighbours(mesh, 0)).toEqual([
      MESH_NULL_INDEX,
      MESH_NULL_INDEX,
      MESH_NULL_INDEX,
      MESH_NULL_INDEX,
    ]);
    // Unused slots (2 vertex + 2 neighbour) are padded.
    expect(mesh.polys).toHaveLength(12);
    expect(Array.from(mesh.polys.subarray(4, 6))).toEqual([MESH_NULL_INDEX, MESH_NULL_INDEX]);
    expect(mesh.regions[0]).toBe(7);
    expect(mesh.areas[0]).toBe(12);
    expect(mesh.flags[0]).toBe(0);
    expect(mesh.maxVertsPerPoly).toBe(6);
    expect(mesh.maxEdgeError).toBe(1.3);
  });

  it("splits an L-shaped contour into exactly 2 convex polygons covering its area (nvp 6)", () => {
    const mesh = buildPolyMesh(contourSet([contour(L_SHAPE)]), 6);
    expect(mesh.vertCount).toBe(6);
    expect(mesh.polyCount).toBe(2);
    for (let p = 0; p < mesh.polyCount; p++) expect(isStrictlyConvex(mesh, p)).toBe(true);
    expect(totalArea(mesh)).toBe(75);
    // The two halves are linked across their shared diagonal, symmetrically.
    expect(neighbours(mesh, 0).filter((n) => n === 1)).toHaveLength(1);
    expect(neighbours(mesh, 1).filter((n) => n === 0)).toHaveLength(1);
  });

  it("keeps only triangles when maxVertsPerPoly is 3", () => {
    const mesh = buildPolyMesh(contourSet([contour(L_SHAPE)]), 3);
    expect(mesh.polyCount).toBe(4);
    for (let p = 0; p < mesh.polyCount; p++) {
      expect(polyVerts(mesh, p)).toHaveLength(3);
      expect(isStrictlyConvex(mesh, p)).toBe(true);
    }
    expect(totalArea(mesh)).toBe(75);
    expect(mesh.polys).toHaveLength(4 * 6);
  });

  it("links two contours that share an edge symmetrically on that edge only", () => {
    const right = SQUARE.map(([x, y, z]) => [x + 10, y, z]);
    const mesh = buildPolyMesh(contourSet([contour(SQUARE, 1), contour(right, 2)]), 6);
    expect(mesh.polyCount).toBe(2);
    // The shared edge's two vertices are welded: 8 contour vertices, 6 mesh vertices.
    expect(mesh.vertCount).toBe(6);
    const n0 = neighbours(mesh, 0);
    const n1 = neighbours(mesh, 1);
    expect(n0.filter((n) => n !== MESH_NULL_INDEX)).toEqual([1]);
    expect(n1.filter((n) => n !== MESH_NULL_INDEX)).toEqual([0]);
    // The linked slots name the same vertex pair (reversed), which lies at x = 10.
    const v0 = polyVerts(mesh, 0);
    const v1 = polyVerts(mesh, 1);
    const e0 = n0.indexOf(1);
    const e1 = n1.indexOf(0);
    const a = [v0[e0]!, v0[(e0 + 1) % v0.length]!];
    const b = [v1[e1]!, v1[(e1 + 1) % v1.length]!];
    expect(a).toEqual([b[1], b[0]]);
    expect(a.map((v) => xz(mesh, v)[0])).toEqual([10, 10]);
    expect(Array.from(mesh.regions)).toEqual([1, 2]);
  });

  it("welds vertices with equal x, z and |dy| <= 2, and keeps them apart when |dy| > 2", () => {
    const near = SQUARE.map(([x, y, z]) => [x + 10, y + 2, z]);
    const welded = buildPolyMesh(contourSet([contour(SQUARE, 1), contour(near, 2)]), 6);
    expect(welded.vertCount).toBe(6);
    // The first vertex added wins: shared vertices keep y = 5.
    for (let v = 0; v < welded.vertCount; v++) {
      if (welded.verts[v * 3] === 10) expect(welded.verts[v * 3 + 1]).toBe(5);
    }
    const far = SQUARE.map(([x, y, z]) => [x + 10, y + 3, z]);
    const apart = buildPolyMesh(contourSet([contour(SQUARE, 1), contour(far, 2)]), 6);
    expect(apart.vertCount).toBe(8);
    expect(neighbours(apart, 0).every((n) => n === MESH_NULL_INDEX)).toBe(true);
    expect(neighbours(apart, 1).every((n) => n === MESH_NULL_INDEX)).toBe(true);
  });

  it("welds a vertex repeated within one contour into one mesh vertex", () => {
    // A square whose outline visits (0, 10) twice in a row (y differs by 1).
    const pts = [
      [0, 5, 0],
      [0, 5, 10],
      [0, 6, 10],
      [10, 5, 10],
      [10, 5, 0],
    ];
    const mesh = buildPolyMesh(contourSet([contour(pts)]), 6);
    expect(mesh.vertCount).toBe(4);
    expect(totalArea(mesh)).toBe(100);
  });

  it("removes a tile-border vertex and re-triangulates the hole when borderSize > 0", () => {
    // Square with an extra vertex mid-way along its x = 0 side, flagged as a border vertex.
    const pts = [[0, 5, 0], [0, 5, 5, BORDER_VERTEX], ...SQUARE.slice(1)];
    // Unflagged, the collinear vertex stays and blocks merging into a single quad.
    const unflagged = buildPolyMesh(
      contourSet([contour([[0, 5, 0], [0, 5, 5], ...SQUARE.slice(1)])], 40, 40, 2),
      6,
    );
    expect(unflagged.vertCount).toBe(5);
    expect(unflagged.polyCount).toBeGreaterThan(1);
    const mesh = buildPolyMesh(contourSet([contour(pts)], 40, 40, 2), 6);
    expect(mesh.vertCount).toBe(4);
    expect(mesh.polyCount).toBe(1);
    expect(polyVerts(mesh, 0)).toHaveLength(4);
    expect(totalArea(mesh)).toBe(100);
    expect(isStrictlyConvex(mesh, 0)).toBe(true);
    expect(mesh.regions[0]).toBe(1);
  });

  it("re-triangulates across regions when a shared border vertex is removed (region 0 = mixed)", () => {
    // Two stacked squares of different regions share (0, 10), flagged as a tile-border vertex.
    const lower = [
      [0, 5, 0],
      [0, 5, 10, BORDER_VERTEX],
      [10, 5, 10],
      [10, 5, 0],
    ];
    const upper = [
      [0, 5, 10, BORDER_VERTEX],
      [0, 5, 20],
      [10, 5, 20],
      [10, 5, 10],
    ];
    const mesh = buildPolyMesh(contourSet([contour(lower, 1), contour(upper, 2)], 40, 40, 2), 6);
    expect(mesh.vertCount).toBe(5);
    for (let v = 0; v < mesh.vertCount; v++) expect(xz(mesh, v)).not.toEqual([0, 10]);
    expect(totalArea(mesh)).toBe(200);
    for (let p = 0; p < mesh.polyCount; p++) expect(isStrictlyConvex(mesh, p)).toBe(true);
    // The hole's polygons take the region of their outline edges, or 0 when those disagree.
    expect(Array.from(mesh.regions)).toContain(0);
    // Neighbour links stay symmetric after the removal.
    for (let p = 0; p < mesh.polyCount; p++) {
      for (const n of neighbours(mesh, p)) {
        if (n !== MESH_NULL_INDEX && n < PORTAL_FLAG) expect(neighbours(mesh, n)).toContain(p);
      }
    }
  });

  it("marks unlinked edges on the grid border as portals with their direction when borderSize > 0", () => {
    const pts = [
      [0, 5, 0],
      [0, 5, 10],
      [20, 5, 10],
      [20, 5, 0],
    ];
    const mesh = buildPolyMesh(contourSet([contour(pts)], 20, 10, 3), 6);
    expect(mesh.polyCount).toBe(1);
    const vs = polyVerts(mesh, 0);
    const ns = neighbours(mesh, 0);
    for (let j = 0; j < vs.length; j++) {
      const [ax, az] = xz(mesh, vs[j]!);
      const [bx, bz] = xz(mesh, vs[(j + 1) % vs.length]!);
      let dir = -1;
      if (ax === 0 && bx === 0) dir = 0;
      else if (az === 10 && bz === 10) dir = 1;
      else if (ax === 20 && bx === 20) dir = 2;
      else if (az === 0 && bz === 0) dir = 3;
      expect(ns[j]).toBe((PORTAL_FLAG | dir) >>> 0);
    }
    // Without a border the same edges are plain walls.
    const solo = buildPolyMesh(contourSet([contour(pts)], 20, 10, 0), 6);
    expect(neighbours(solo, 0).every((n) => n === MESH_NULL_INDEX)).toBe(true);
  });

  it("warns through ctx instead of throwing when a contour cannot be triangulated", () => {
    // Wound the wrong way round: every corner is reflex, so not even the loose test finds an ear.
    const reversed = [...SQUARE].reverse();
    const ctx = new BuildContext();
    const mesh = buildPolyMesh(contourSet([contour(reversed), contour(L_SHAPE)]), 6, ctx);
    expect(ctx.warnings).toHaveLength(1);
    expect(ctx.warnings[0]).toMatch(/contour 0/);
    // The good contour is still meshed.
    expect(mesh.polyCount).toBe(2);
    expect(totalArea(mesh)).toBe(75);
  });

  it("falls back to the loose diagonal test for outlines that touch themselves", () => {
    // Two squares joined at the single point (10, 10): the outline passes through it twice.
    const pts = [
      [0, 0, 0],
      [0, 0, 10],
      [10, 0, 10],
      [10, 0, 20],
      [20, 0, 20],
      [20, 0, 10],
      [10, 0, 10],
      [10, 0, 0],
    ];
    const ctx = new BuildContext();
    const mesh = buildPolyMesh(contourSet([contour(pts)]), 6, ctx);
    expect(ctx.warnings).toHaveLength(0);
    expect(totalArea(mesh)).toBe(200);
  });

  it("skips contours with fewer than 3 vertices", () => {
    const mesh = buildPolyMesh(
      contourSet([
        contour([
          [0, 0, 0],
          [0, 0, 5],
        ]),
        contour(SQUARE),
      ]),
      6,
    );
    expect(mesh.polyCount).toBe(1);
    expect(mesh.vertCount).toBe(4);
  });

  it("produces an empty mesh from an empty contour set", () => {
    const mesh = buildPolyMesh(contourSet([]), 6);
    expect(mesh.polyCount).toBe(0);
    expect(mesh.vertCount).toBe(0);
    expect(mesh.polys).toHaveLength(0);
  });

  it("rejects maxVertsPerPoly below 3 as a programmer error", () => {
    expect(() => buildPolyMesh(contourSet([]), 2)).toThrow(MeshwayError);
  });

  it("is deterministic: the same contours give byte-identical meshes", () => {
    const right = L_SHAPE.map(([x, y, z]) => [x + 10, y, z]);
    const cset = contourSet([contour(L_SHAPE, 1), contour(right, 2)]);
    const a = buildPolyMesh(cset, 6);
    const b = buildPolyMesh(cset, 6);
    expect(Array.from(a.polys)).toEqual(Array.from(b.polys));
    expect(Array.from(a.verts)).toEqual(Array.from(b.verts));
  });
});
