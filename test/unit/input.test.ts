import { describe, expect, it } from "vitest";
import { validateTriangleMesh } from "../../src/input.js";
import { thrownMeshwayError } from "../helpers/thrown.js";

const tri = [0, 0, 0, 0, 0, 1, 1, 0, 0];

describe("validateTriangleMesh", () => {
  it("accepts number arrays and returns typed arrays", () => {
    const m = validateTriangleMesh({ positions: tri, indices: [0, 1, 2] });
    expect(m.positions).toBeInstanceOf(Float32Array);
    expect(m.indices).toBeInstanceOf(Uint32Array);
    expect(m.triangleCount).toBe(1);
    expect(m.vertexCount).toBe(3);
  });

  it("keeps typed arrays without copying", () => {
    const positions = Float32Array.from(tri);
    const indices = Uint32Array.from([0, 1, 2]);
    const m = validateTriangleMesh({ positions, indices });
    expect(m.positions).toBe(positions);
    expect(m.indices).toBe(indices);
  });

  it("names the triangle whose index is out of range", () => {
    const e = thrownMeshwayError(() =>
      validateTriangleMesh({ positions: tri, indices: [0, 1, 2, 0, 1, 3] }, "lvl.obj"),
    );
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.message).toBe("lvl.obj: triangle 1 has vertex index 3, outside [0, 2]");
  });

  it("rejects negative and fractional indices", () => {
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: tri, indices: [0, -1, 2] }))
        .message,
    ).toMatch(/triangle 0 has vertex index -1/);
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: tri, indices: [0, 1.5, 2] }))
        .message,
    ).toMatch(/vertex index 1.5/);
  });

  it("names the vertex with a NaN or infinite coordinate", () => {
    const bad = [...tri];
    bad[4] = Number.NaN;
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: bad, indices: [0, 1, 2] }))
        .message,
    ).toMatch(/vertex 1 has a non-finite coordinate y = NaN/);
    bad[4] = 1e39; // finite in float64, Infinity in float32
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: bad, indices: [0, 1, 2] }))
        .message,
    ).toMatch(/vertex 1 .*outside float32 range/);
  });

  it("rejects lengths that are not multiples of 3 and meshes without triangles", () => {
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: tri, indices: [0, 1] })).message,
    ).toMatch(/indices length 2 is not a multiple of 3/);
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: [0, 0], indices: [] })).message,
    ).toMatch(/positions length 2/);
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ positions: tri, indices: [] })).code,
    ).toBe("NO_TRIANGLES");
  });

  it("rejects a missing positions or indices array", () => {
    expect(
      thrownMeshwayError(() => validateTriangleMesh({ indices: [0, 1, 2] } as never)).message,
    ).toMatch(/positions is missing/);
    expect(thrownMeshwayError(() => validateTriangleMesh(null as never)).code).toBe(
      "INVALID_INPUT",
    );
  });
});
