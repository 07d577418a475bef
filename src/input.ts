import { MeshwayError } from "./errors.js";

/** Which axis of the input points up. meshway works in +Y up; "z" is converted on input. */
export type UpAxis = "y" | "z";

/** A triangle soup in world units, +Y up and counter-clockwise seen from above by default. */
export interface TriangleMeshInput {
  /** 3 numbers per vertex: x, y, z. */
  positions: Float32Array | ArrayLike<number>;
  /** 3 vertex indices per triangle. */
  indices: Uint32Array | ArrayLike<number>;
  /**
   * The input's up axis (default "y"). "z" (Blender, 3ds Max, most CAD) is rotated to +Y up
   * as (x, y, z) → (x, z, −y): a rotation, so handedness and winding are kept.
   */
  up?: UpAxis;
  /** Reverse every triangle's winding (input wound clockwise seen from above). Default false. */
  flipWinding?: boolean;
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
  const { positions, indices, up = "y", flipWinding = false } = input;
  if (up !== "y" && up !== "z") {
    throw new MeshwayError("INVALID_INPUT", `${source}: up must be "y" or "z", got ${String(up)}`);
  }
  if (typeof flipWinding !== "boolean") {
    throw new MeshwayError(
      "INVALID_INPUT",
      `${source}: flipWinding must be true or false, got ${String(flipWinding)}`,
    );
  }
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
  const pos =
    positions instanceof Float32Array && up === "y" ? positions : Float32Array.from(positions);
  // v - v is 0 exactly for finite v (NaN for NaN and ±Infinity): no call per coordinate,
  // which matters while this one-off loop runs in the interpreter on a cold first build.
  for (let i = 0, n = pos.length; i < n; i++) {
    const v = pos[i]!;
    if (v - v !== 0) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${source}: vertex ${Math.floor(i / 3)} has a non-finite coordinate ${"xyz"[i % 3]} = ${positions[i]}` +
          (Number.isFinite(Number(positions[i])) ? " (outside float32 range)" : ""),
      );
    }
  }
  let idx: Uint32Array;
  if (indices instanceof Uint32Array && !flipWinding) {
    // Used as given: its entries are integers >= 0 already, only the upper bound can fail.
    idx = indices;
    for (let i = 0, n = idx.length; i < n; i++) {
      if (idx[i]! >= vertexCount) badIndex(source, i, idx[i]!, vertexCount);
    }
  } else {
    idx = new Uint32Array(indices.length);
    for (let i = 0; i < indices.length; i++) {
      const raw = indices[i] as number;
      if (!Number.isInteger(raw) || raw < 0 || raw >= vertexCount) {
        badIndex(source, i, raw, vertexCount);
      }
      idx[i] = raw;
    }
  }
  if (up === "z") zUpToYUp(pos);
  if (flipWinding) reverseWinding(idx);
  return { positions: pos, indices: idx, vertexCount, triangleCount };
}

function badIndex(source: string, i: number, raw: unknown, vertexCount: number): never {
  throw new MeshwayError(
    "INVALID_INPUT",
    `${source}: triangle ${Math.floor(i / 3)} has vertex index ${raw}, outside [0, ${vertexCount - 1}]`,
  );
}

/** (x, y, z) Z-up → (x, z, −y) Y-up in place: −90° about X, so winding seen from up is kept. */
function zUpToYUp(positions: Float32Array): void {
  for (let i = 0; i < positions.length; i += 3) {
    const y = positions[i + 1]!;
    positions[i + 1] = positions[i + 2]!;
    positions[i + 2] = y === 0 ? 0 : -y; // no −0: keeps the bytes of a flat mesh tidy
  }
}

/** Swaps each triangle's second and third index in place. */
function reverseWinding(indices: Uint32Array): void {
  for (let i = 0; i < indices.length; i += 3) {
    const b = indices[i + 1]!;
    indices[i + 1] = indices[i + 2]!;
    indices[i + 2] = b;
  }
}
