import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { type TriangleMesh, validateTriangleMesh } from "../../src/input.js";
import { diagnoseOrientation, facingShares } from "../../src/io/orientation.js";
import { loadSharedMesh } from "../helpers/meshes.js";

// Issue 19 A3: clockwise-wound or Z-up input gave 0 polygons, silently.
const navTest = loadSharedMesh("nav_test"); // closed: floors with undersides
const undulating = loadSharedMesh("undulating"); // open: a terrain surface, faces up

/** nav_test as a Z-up exporter writes it: (x, y, z) Y-up → (x, −z, y) Z-up. */
function asZUp(m: TriangleMesh): TriangleMesh {
  const p = new Float32Array(m.positions.length);
  for (let i = 0; i < p.length; i += 3) {
    p[i] = m.positions[i]!;
    p[i + 1] = -m.positions[i + 2]!;
    p[i + 2] = m.positions[i + 1]!;
  }
  return { ...m, positions: p };
}

function flipped(m: TriangleMesh): TriangleMesh {
  const t = new Uint32Array(m.indices);
  for (let i = 0; i < t.length; i += 3) [t[i + 1], t[i + 2]] = [t[i + 2]!, t[i + 1]!];
  return { ...m, indices: t };
}

const bytes = (m: Parameters<typeof buildNavMesh>[0]) =>
  serializeNavMesh(buildNavMesh(m, {}).navMesh, resolveConfig({}));

describe("input orientation: up axis and winding", () => {
  it("up: 'z' turns (x, y, z) into (x, z, −y) and keeps winding; flipWinding swaps i1, i2", () => {
    const m = validateTriangleMesh({
      positions: [0, 0, 0, 1, 0, 0, 0, 1, 0],
      indices: [0, 1, 2],
      up: "z",
      flipWinding: true,
    });
    expect([...m.positions]).toEqual([0, 0, 0, 1, 0, 0, 0, 0, -1]);
    expect([...m.indices]).toEqual([0, 2, 1]);
    // The input arrays are not changed in place.
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const indices = new Uint32Array([0, 1, 2]);
    validateTriangleMesh({ positions, indices, up: "z", flipWinding: true });
    expect([...positions, ...indices]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 2]);
  });

  it("a Z-up export with up: 'z' builds the same bytes as the Y-up mesh (was: 0 polygons)", () => {
    expect(buildNavMesh(asZUp(undulating), {}).stats.polygons).toBe(0);
    expect(bytes({ ...asZUp(navTest), up: "z" })).toEqual(bytes(navTest));
  });

  it("a clockwise mesh with flipWinding builds the same bytes (was: 0 polygons)", () => {
    expect(buildNavMesh(flipped(undulating), {}).stats.polygons).toBe(0);
    expect(bytes({ ...flipped(navTest), flipWinding: true })).toEqual(bytes(navTest));
  });

  it("bad up / flipWinding values are MeshwayErrors naming the option", () => {
    const base = { positions: [0, 0, 0, 1, 0, 0, 0, 0, 1], indices: [0, 1, 2] };
    expect(() => validateTriangleMesh({ ...base, up: "x" as "y" }, "m.obj")).toThrow(
      /m\.obj: up must be "y" or "z", got x/,
    );
    expect(() => validateTriangleMesh({ ...base, flipWinding: 1 as unknown as boolean })).toThrow(
      /flipWinding must be true or false/,
    );
  });

  it("diagnoseOrientation names the likely mistake and its fix, and nothing for a good mesh", () => {
    expect(diagnoseOrientation(navTest)).toBeUndefined();
    expect(diagnoseOrientation(undulating)).toBeUndefined();
    expect(facingShares(undulating).up).toBeGreaterThan(0.8);
    expect(diagnoseOrientation(flipped(undulating))).toMatch(/faces down.*--flip-winding/);
    expect(diagnoseOrientation(asZUp(undulating))).toMatch(/\+Z.*Z-up; try --up z \(up: "z"\)$/);
    expect(diagnoseOrientation(flipped(asZUp(undulating)))).toMatch(/−Z.*--up z --flip-winding/);
    // A closed mesh faces ±Z alike when Z-up: the up axis is named, the winding is not guessed.
    expect(diagnoseOrientation(asZUp(navTest))).toMatch(/Z-up; try --up z \(up: "z"\)$/);
  });
});
