import { describe, expect, it } from "vitest";
import { StepWall, stepStaysOnMesh } from "../../src/crowd/straight-step.js";
import { QueryFilter } from "../../src/navmesh/filter.js";
import { tileOfRef } from "../../src/navmesh/poly-ref.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";

// An L of three 2 × 2 squares: A (x 0..2, z 0..2), B east of it, C north of it; the quadrant
// x 2..4, z 2..4 is off the mesh, so B and C touch only at A's corner (2, 2).
const nm = navMeshFor(4, 4);
const slot = tileOfRef(
  nm.addTile(
    handTile({
      verts: [0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0, 4, 0, 2, 4, 0, 0, 0, 0, 4, 2, 0, 4],
      polys: [
        [0, 1, 2, 3],
        [3, 2, 4, 5],
        [1, 6, 7, 2],
      ],
      bmin: [-1, -1, -1],
      bmax: [5, 1, 5],
    }),
  ),
);
const A = nm.polyRef(slot, 0);
const B = nm.polyRef(slot, 1);
const filter = new QueryFilter();
const hit = new StepWall();

describe("stepStaysOnMesh", () => {
  it("a step inside a polygon or through a portal stays on the mesh", () => {
    expect(stepStaysOnMesh(nm, filter, A, 0.5, 0.5, 1.5, 1.5, hit)).toBe(true);
    expect(stepStaysOnMesh(nm, filter, B, 3, 1, 1, 1, hit)).toBe(true);
    expect(stepStaysOnMesh(nm, filter, B, 2.1, 1.9, 1.9, 2.1, hit)).toBe(true); // through the corner
    expect(stepStaysOnMesh(nm, filter, B, 2.2, 1.9, 1.9, 2.05, hit)).toBe(true); // via A
  });

  it("a step from B to C cutting A's corner meets the wall there", () => {
    expect(stepStaysOnMesh(nm, filter, B, 2.1, 1.95, 1.95, 2.1, hit)).toBe(false);
    // The wall met is one ending at the corner (2, 2).
    const w = hit.wall;
    const atCorner = (x: number, z: number) => Math.abs(x - 2) < 1e-9 && Math.abs(z - 2) < 1e-9;
    expect(atCorner(w[0]!, w[2]!) || atCorner(w[3]!, w[5]!)).toBe(true);
    expect(hit.t).toBeGreaterThanOrEqual(0);
    expect(hit.t).toBeLessThan(1);
  });

  it("sliding along a wall into the next polygon (collinear walls) stays on the mesh", () => {
    expect(stepStaysOnMesh(nm, filter, B, 2.5, 0, 1.5, 0, hit)).toBe(true);
    expect(stepStaysOnMesh(nm, filter, A, 0, 1.5, 0, 2.5, hit)).toBe(true);
  });

  it("a step off the mesh meets a wall; one ending within the tolerance of it does not", () => {
    expect(stepStaysOnMesh(nm, filter, B, 3, 1.9, 3, 2.1, hit)).toBe(false);
    expect(hit.wall[2]).toBe(2);
    expect(hit.wall[5]).toBe(2);
    expect(stepStaysOnMesh(nm, filter, B, 3, 1.9, 3, 2 + 1e-6, hit)).toBe(true);
  });

  it("a polygon the filter excludes is a wall", () => {
    const excl = new QueryFilter();
    excl.excludeFlags = 2;
    nm.setPolyFlags(A, 2);
    try {
      expect(stepStaysOnMesh(nm, excl, B, 3, 1, 1, 1, hit)).toBe(false);
      expect(hit.wall[0]).toBe(2);
      expect(hit.wall[3]).toBe(2);
    } finally {
      nm.setPolyFlags(A, 1);
    }
  });
});
