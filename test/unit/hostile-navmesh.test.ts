import { describe, expect, it } from "vitest";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { handTile, navMeshFor } from "../helpers/hand-tile.js";

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
