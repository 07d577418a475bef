import { MeshwayError } from "./errors.js";

/** A triangle soup in world units, +Y up. */
export interface TriangleMeshInput {
  /** 3 numbers per vertex: x, y, z. */
  positions: Float32Array | ArrayLike<number>;
  /** 3 vertex indices per triangle. */
  indices: Uint32Array | ArrayLike<number>;
}

/** Input after validation: typed, finite, in range. */
export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
  vertexCount: number;
  triangleCount: number;
}

/**
 * Checks a triangle soup once, at the API boundary, and returns it as typed arrays.
 * Errors name the vertex or triangle at fault. `source` (a file name) prefixes messages.
 */
export function validateTriangleMesh(input: TriangleMeshInput, source = "input"): TriangleMesh {
  if (input === null || typeof input !== "object") {
    throw new MeshwayError("INVALID_INPUT", `${source}: expected { positions, indices }`);
  }
  const { positions, indices } = input;
  if (!positions || typeof positions.length !== "number") {
    throw new MeshwayError("INVALID_INPUT", `${source}: positions is missing or not an array`);
  }
  if (!indices || typeof indices.length !== "number") {
    throw new MeshwayError("INVALID_INPUT", `${source}: indices is missing or not an array`);
  }
  if (positions.length % 3 !== 0) {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${source}: positions length ${positions.length} is not a multiple of 3`,
    );
  }
  if (indices.length % 3 !== 0) {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${source}: indices length ${indices.length} is not a multiple of 3`,
    );
  }
  const vertexCount = positions.length / 3;
  const triangleCount = indices.length / 3;
  if (triangleCount === 0) {
    throw new MeshwayError("NO_TRIANGLES", `${source}: the mesh has no triangles`);
  }
  const pos = positions instanceof Float32Array ? positions : Float32Array.from(positions);
  for (let i = 0; i < pos.length; i++) {
    if (!Number.isFinite(pos[i])) {
      const v = Math.floor(i / 3);
      throw new MeshwayError(
        "INVALID_INPUT",
        `${source}: vertex ${v} has a non-finite coordinate ${"xyz"[i % 3]} = ${positions[i]}` +
          (Number.isFinite(Number(positions[i])) ? " (outside float32 range)" : ""),
      );
    }
  }
  const idx = indices instanceof Uint32Array ? indices : new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const raw = indices[i] as number;
    if (!Number.isInteger(raw) || raw < 0 || raw >= vertexCount) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${source}: triangle ${Math.floor(i / 3)} has vertex index ${raw}, outside [0, ${vertexCount - 1}]`,
      );
    }
    idx[i] = raw;
  }
  return { positions: pos, indices: idx, vertexCount, triangleCount };
}
