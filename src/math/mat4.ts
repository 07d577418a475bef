/**
 * 4×4 affine matrices in column-major order (glTF's and WebGL's layout): element (row r,
 * column c) sits at offset c * 4 + r. Functions write into caller-owned Float64Arrays at an
 * offset, so a whole node hierarchy lives in one buffer.
 */

/**
 * out[o..o+16) = T · R · S from a translation, a unit quaternion [x, y, z, w] (normalised
 * here: exporters round) and a scale. `quatLength` must be > 0 (the caller checks it).
 */
export function composeTRS(
  out: Float64Array,
  o: number,
  t: ArrayLike<number>,
  q: ArrayLike<number>,
  s: ArrayLike<number>,
): void {
  const len = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  const x = q[0]! / len;
  const y = q[1]! / len;
  const z = q[2]! / len;
  const w = q[3]! / len;
  const sx = s[0]!;
  const sy = s[1]!;
  const sz = s[2]!;
  out[o] = (1 - 2 * (y * y + z * z)) * sx;
  out[o + 1] = 2 * (x * y + w * z) * sx;
  out[o + 2] = 2 * (x * z - w * y) * sx;
  out[o + 3] = 0;
  out[o + 4] = 2 * (x * y - w * z) * sy;
  out[o + 5] = (1 - 2 * (x * x + z * z)) * sy;
  out[o + 6] = 2 * (y * z + w * x) * sy;
  out[o + 7] = 0;
  out[o + 8] = 2 * (x * z + w * y) * sz;
  out[o + 9] = 2 * (y * z - w * x) * sz;
  out[o + 10] = (1 - 2 * (x * x + y * y)) * sz;
  out[o + 11] = 0;
  out[o + 12] = t[0]!;
  out[o + 13] = t[1]!;
  out[o + 14] = t[2]!;
  out[o + 15] = 1;
}

/** out[o..o+16) = a[ao..ao+16) · b. `out` may be `a` at another offset, never the same one. */
export function multiplyMat4(
  a: Float64Array,
  ao: number,
  b: Float64Array,
  out: Float64Array,
  o: number,
): void {
  for (let c = 0; c < 4; c++) {
    const b0 = b[c * 4]!;
    const b1 = b[c * 4 + 1]!;
    const b2 = b[c * 4 + 2]!;
    const b3 = b[c * 4 + 3]!;
    for (let r = 0; r < 4; r++) {
      out[o + c * 4 + r] =
        a[ao + r]! * b0 + a[ao + 4 + r]! * b1 + a[ao + 8 + r]! * b2 + a[ao + 12 + r]! * b3;
    }
  }
}

/** Determinant of the upper-left 3×3 of m[o..o+16): negative when the matrix mirrors. */
export function determinant3(m: Float64Array, o: number): number {
  const a0 = m[o]!;
  const a1 = m[o + 1]!;
  const a2 = m[o + 2]!;
  const b0 = m[o + 4]!;
  const b1 = m[o + 5]!;
  const b2 = m[o + 6]!;
  const c0 = m[o + 8]!;
  const c1 = m[o + 9]!;
  const c2 = m[o + 10]!;
  return a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0);
}
