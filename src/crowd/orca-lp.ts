/**
 * The linear programs of ORCA (van den Berg, Guy, Lin, Manocha, "Reciprocal n-Body Collision
 * Avoidance", ISRR 2009 / STAR 70, 2011, §5.2–5.3), over half-planes in normal form: line k
 * admits v when n_k · v >= c_k, with unit n_k, stored as (nx, nz, c) at lines[3k..3k+2]; every
 * solution also keeps |v| <= vmax.
 *
 * solveLp2 is the incremental 2D LP (each violated constraint re-solved as a 1D LP on its
 * boundary against the earlier ones); solveLp3 is the fallback when the constraints leave no
 * room: it minimises the largest violation of the soft constraints (those from firstSoft on)
 * while keeping the hard ones, the paper's 3D LP done as a sequence of 2D ones.
 * Constraints are taken in the given order (no shuffling), so results are deterministic.
 */

/** Parallel-line tolerance on the sine of the angle between two unit normals. */
const PARALLEL_EPS = 1e-9;

/**
 * Optimises on the boundary of line `i` subject to lines 0..i−1 and the vmax disc. With `dir`,
 * (optX, optZ) is a unit direction to go furthest along; else the point to get closest to.
 * Writes out[0..1]; false (out untouched) when the boundary has no admissible point.
 */
function solveOnLine(
  lines: Float64Array,
  i: number,
  vmax: number,
  optX: number,
  optZ: number,
  dir: boolean,
  out: Float64Array,
): boolean {
  const nx = lines[i * 3]!;
  const nz = lines[i * 3 + 1]!;
  const c = lines[i * 3 + 2]!;
  // Boundary points: n·c + t·d with d ⟂ n; the closest one to the origin is n·c itself, so the
  // disc cuts t to ±sqrt(vmax² − c²).
  const room = vmax * vmax - c * c;
  if (room < 0) return false;
  const dx = -nz;
  const dz = nx;
  let lo = -Math.sqrt(room);
  let hi = -lo;
  for (let j = 0; j < i; j++) {
    const mx = lines[j * 3]!;
    const mz = lines[j * 3 + 1]!;
    const den = mx * dx + mz * dz;
    const num = lines[j * 3 + 2]! - c * (mx * nx + mz * nz);
    if (Math.abs(den) < PARALLEL_EPS) {
      if (num > 0) return false; // parallel and the whole boundary is outside line j
      continue;
    }
    const t = num / den;
    if (den > 0) lo = Math.max(lo, t);
    else hi = Math.min(hi, t);
    if (lo > hi) return false;
  }
  let t: number;
  if (dir) t = optX * dx + optZ * dz > 0 ? hi : lo;
  else t = Math.max(lo, Math.min(optX * dx + optZ * dz, hi));
  out[0] = nx * c + dx * t;
  out[1] = nz * c + dz * t;
  return true;
}

/**
 * Incremental 2D LP over lines 0..count−1. Returns `count` when every line holds (solution in
 * out), else the index of the first line that could not be met (out then satisfies the lines
 * before it).
 */
export function solveLp2(
  lines: Float64Array,
  count: number,
  vmax: number,
  optX: number,
  optZ: number,
  dir: boolean,
  out: Float64Array,
): number {
  if (dir) {
    out[0] = optX * vmax;
    out[1] = optZ * vmax;
  } else {
    const l2 = optX * optX + optZ * optZ;
    const s = l2 > vmax * vmax ? vmax / Math.sqrt(l2) : 1;
    out[0] = optX * s;
    out[1] = optZ * s;
  }
  for (let i = 0; i < count; i++) {
    if (lines[i * 3]! * out[0]! + lines[i * 3 + 1]! * out[1]! >= lines[i * 3 + 2]!) continue;
    if (!solveOnLine(lines, i, vmax, optX, optZ, dir, out)) return i;
  }
  return count;
}

/**
 * The fallback when solveLp2 failed at line `failed`: keeps lines 0..firstSoft−1 (walls) and
 * minimises the largest violation among the rest. `out` holds solveLp2's partial answer on
 * entry and the result on exit. `scratch` needs 3 × count numbers.
 */
export function solveLp3(
  lines: Float64Array,
  count: number,
  firstSoft: number,
  failed: number,
  vmax: number,
  scratch: Float64Array,
  out: Float64Array,
  tmp: Float64Array,
): void {
  let worst = 0; // largest violation accepted so far
  for (let i = Math.max(failed, firstSoft); i < count; i++) {
    const nx = lines[i * 3]!;
    const nz = lines[i * 3 + 1]!;
    const ci = lines[i * 3 + 2]!;
    if (ci - (nx * out[0]! + nz * out[1]!) <= worst) continue;
    // With line i tight at violation δ = c_i − n_i·v, soft line j's n_j·v >= c_j − δ becomes
    // (n_j − n_i)·v >= c_j − c_i: a half-plane in v alone. Hard lines stay as they are.
    scratch.set(lines.subarray(0, firstSoft * 3));
    let k = firstSoft;
    for (let j = firstSoft; j < i; j++) {
      const mx = lines[j * 3]! - nx;
      const mz = lines[j * 3 + 1]! - nz;
      const len = Math.sqrt(mx * mx + mz * mz);
      if (len < PARALLEL_EPS) continue; // same direction: j never binds more than i here
      scratch[k * 3] = mx / len;
      scratch[k * 3 + 1] = mz / len;
      scratch[k * 3 + 2] = (lines[j * 3 + 2]! - ci) / len;
      k++;
    }
    // Smallest δ = furthest along n_i.
    tmp[0] = out[0]!;
    tmp[1] = out[1]!;
    if (solveLp2(scratch, k, vmax, nx, nz, true, out) < k) {
      // Only rounding can get here (the previous answer was admissible); keep it.
      out[0] = tmp[0]!;
      out[1] = tmp[1]!;
    }
    worst = ci - (nx * out[0]! + nz * out[1]!);
  }
}
