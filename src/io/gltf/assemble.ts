// Assembly: every instanced primitive's triangles, in world space, into one TriangleMesh.
import { MeshwayError } from "../../errors.js";
import { validateTriangleMesh } from "../../input.js";
import type { Decoded } from "./accessors.js";
import type { GltfParseResult } from "./index.js";
import { fail, RAISE } from "./json.js";
import {
  type MeshInstance,
  MODE_NAMES,
  MODE_TRIANGLE_STRIP,
  MODE_TRIANGLES,
  type PrimitivePlan,
} from "./scene.js";

export function assemble(
  instances: MeshInstance[],
  world: Float64Array,
  plans: Map<number, PrimitivePlan[]>,
  decoded: Map<number, Decoded>,
  source: string,
  sceneLabel: string,
  warnings: string[],
  maxTriangles: number,
): GltfParseResult {
  const positionsOf = new Map<number, ArrayLike<number>>();
  for (const [a, d] of decoded) if (d.positions) positionsOf.set(a, d.positions);

  // Sizes first, so the output arrays are allocated once.
  let vertexTotal = 0;
  let indexBound = 0;
  for (const inst of instances) {
    const seen = new Set<number>();
    for (const p of plans.get(inst.mesh)!) {
      const pos = positionsOf.get(p.position)!;
      if (!seen.has(p.position)) {
        seen.add(p.position);
        vertexTotal += pos.length / 3;
      }
      const n = p.indices >= 0 ? decoded.get(p.indices)!.array.length : pos.length / 3;
      indexBound += p.mode === MODE_TRIANGLES ? n - (n % 3) : Math.max(0, n - 2) * 3;
    }
  }
  // Instancing multiplies geometry: bound the expanded sizes before allocating them.
  if (indexBound / 3 > maxTriangles || vertexTotal > 3 * maxTriangles) {
    const what =
      indexBound / 3 > maxTriangles
        ? `${indexBound / 3} triangles, more than maxTriangles (${maxTriangles})`
        : `${vertexTotal} vertices, more than 3 × maxTriangles (${3 * maxTriangles})`;
    fail(
      source,
      `${sceneLabel} expands to ${what} from ${instances.length} mesh instances; ${RAISE}`,
    );
  }
  for (const plan of plans.values()) {
    for (const p of plan) {
      const vertexCount = positionsOf.get(p.position)!.length / 3;
      const ix = p.indices >= 0 ? decoded.get(p.indices)!.array : null;
      const n = ix ? ix.length : vertexCount;
      if (ix) {
        for (let k = 0; k < n; k++) {
          if (ix[k]! >= vertexCount) {
            fail(
              source,
              `${p.label}: index ${ix[k]} at position ${k} of accessors[${p.indices}] is out of range (its POSITION accessor has ${vertexCount} vertices)`,
            );
          }
        }
      }
      if (p.mode === MODE_TRIANGLES && n % 3 !== 0) {
        warnings.push(
          `${source}: ${p.label} has ${n} ${p.indices >= 0 ? "indices" : "vertices"}, not a multiple of 3; the last ${n % 3} ignored`,
        );
      } else if (p.mode !== MODE_TRIANGLES && n < 3) {
        warnings.push(
          `${source}: ${p.label} is a ${MODE_NAMES[p.mode]} of ${n} vertices; no triangles`,
        );
      }
    }
  }

  const positions = new Float32Array(vertexTotal * 3);
  const indices = new Uint32Array(indexBound);
  let vOut = 0;
  let iOut = 0;
  const bases = new Map<number, number>();
  for (const inst of instances) {
    bases.clear();
    const mo = inst.matrix;
    const m0 = world[mo]!;
    const m1 = world[mo + 1]!;
    const m2 = world[mo + 2]!;
    const m4 = world[mo + 4]!;
    const m5 = world[mo + 5]!;
    const m6 = world[mo + 6]!;
    const m8 = world[mo + 8]!;
    const m9 = world[mo + 9]!;
    const m10 = world[mo + 10]!;
    const m12 = world[mo + 12]!;
    const m13 = world[mo + 13]!;
    const m14 = world[mo + 14]!;
    for (const p of plans.get(inst.mesh)!) {
      const pos = positionsOf.get(p.position)!;
      const vertexCount = pos.length / 3;
      let base = bases.get(p.position);
      if (base === undefined) {
        base = vOut;
        bases.set(p.position, base);
        for (let v = 0; v < vertexCount; v++) {
          const x = pos[v * 3]!;
          const y = pos[v * 3 + 1]!;
          const z = pos[v * 3 + 2]!;
          const o = (base + v) * 3;
          positions[o] = m0 * x + m4 * y + m8 * z + m12;
          positions[o + 1] = m1 * x + m5 * y + m9 * z + m13;
          positions[o + 2] = m2 * x + m6 * y + m10 * z + m14;
        }
        vOut += vertexCount;
      }
      const ix = p.indices >= 0 ? decoded.get(p.indices)!.array : null;
      iOut = emitTriangles(
        p.mode,
        ix,
        ix ? ix.length : vertexCount,
        base,
        inst.flip,
        indices,
        iOut,
      );
    }
  }

  if (iOut === 0) {
    const skipped = warnings.length > 0 ? "; see the warnings for what was skipped" : "";
    const what = instances.length === 0 ? "no node with a mesh" : "no triangle primitives";
    throw new MeshwayError("NO_TRIANGLES", `${source}: ${sceneLabel} has ${what}${skipped}`);
  }
  const mesh = validateTriangleMesh(
    { positions, indices: iOut === indices.length ? indices : indices.slice(0, iOut) },
    source,
  );
  return { mesh, warnings };
}

/**
 * Appends a primitive's triangles (offset by `base`) to `out`. Strips alternate their winding so
 * every triangle faces like the first (glTF: p_i = v_i, v_{i+1+i%2}, v_{i+2-i%2}); a strip's
 * stitching triangles (a repeated vertex) are dropped. `flip` swaps the last two corners.
 */
export function emitTriangles(
  mode: number,
  ix: ArrayLike<number> | null,
  n: number,
  base: number,
  flip: boolean,
  out: Uint32Array,
  at: number,
): number {
  let k = at;
  // Corner order: (a, b, c) or, flipped, (a, c, b).
  const second = flip ? 2 : 1;
  const third = flip ? 1 : 2;
  if (mode === MODE_TRIANGLES) {
    const end = n - (n % 3);
    for (let i = 0; i < end; i += 3, k += 3) {
      out[k] = base + (ix ? ix[i]! : i);
      out[k + second] = base + (ix ? ix[i + 1]! : i + 1);
      out[k + third] = base + (ix ? ix[i + 2]! : i + 2);
    }
  } else if (mode === MODE_TRIANGLE_STRIP) {
    for (let i = 0; i + 2 < n; i++) {
      const odd = i & 1;
      const a = ix ? ix[i]! : i;
      const b = ix ? ix[i + 1 + odd]! : i + 1 + odd;
      const c = ix ? ix[i + 2 - odd]! : i + 2 - odd;
      if (a === b || b === c || a === c) continue;
      out[k] = base + a;
      out[k + second] = base + b;
      out[k + third] = base + c;
      k += 3;
    }
  } else {
    // Fan: (v_{i+1}, v_{i+2}, v_0) in the spec; written from v_0, the same triangle and winding.
    const v0 = base + (ix ? ix[0]! : 0);
    for (let i = 1; i + 1 < n; i++, k += 3) {
      out[k] = v0;
      out[k + second] = base + (ix ? ix[i]! : i);
      out[k + third] = base + (ix ? ix[i + 1]! : i + 1);
    }
  }
  return k;
}
