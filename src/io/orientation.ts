import type { TriangleMesh } from "../input.js";

/** Where a mesh's triangle area faces, as fractions of its total area (area-weighted normals). */
export interface FacingShares {
  /** Normal within the slope limit of +Y: floor candidates. */
  up: number;
  /** Normal within the slope limit of −Y: floors wound clockwise, or ceilings. */
  down: number;
  /** Normal within the slope limit of +Z: what a Z-up floor looks like when read as Y-up. */
  plusZ: number;
  /** Normal within the slope limit of −Z: a Z-up floor wound clockwise. */
  minusZ: number;
}

/** Shares of triangle area by facing; `maxSlopeDegrees` as in the build (default 45). */
export function facingShares(mesh: TriangleMesh, maxSlopeDegrees = 45): FacingShares {
  const { positions: p, indices: t } = mesh;
  const cosSlope = Math.cos((Math.min(Math.max(maxSlopeDegrees, 0), 89.9) * Math.PI) / 180);
  let total = 0;
  let up = 0;
  let down = 0;
  let plusZ = 0;
  let minusZ = 0;
  for (let i = 0; i < t.length; i += 3) {
    const a = t[i]! * 3;
    const b = t[i + 1]! * 3;
    const c = t[i + 2]! * 3;
    const ux = p[b]! - p[a]!;
    const uy = p[b + 1]! - p[a + 1]!;
    const uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!;
    const vy = p[c + 1]! - p[a + 1]!;
    const vz = p[c + 2]! - p[a + 2]!;
    // cross(v1 − v0, v2 − v0): +Y for a counter-clockwise floor seen from above (README).
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz);
    if (!(len > 0)) continue;
    total += len;
    if (ny >= cosSlope * len) up += len;
    else if (-ny >= cosSlope * len) down += len;
    else if (nz >= cosSlope * len) plusZ += len;
    else if (-nz >= cosSlope * len) minusZ += len;
  }
  if (total === 0) return { up: 0, down: 0, plusZ: 0, minusZ: 0 };
  return { up: up / total, down: down / total, plusZ: plusZ / total, minusZ: minusZ / total };
}

/**
 * The likely orientation mistake behind a mesh with (almost) nothing walkable, in words with
 * the fix, or undefined when the mesh looks Y-up and counter-clockwise. Most area facing down
 * means clockwise winding; most area facing ±Z with little facing up means a Z-up export
 * (mostly −Z: Z-up and clockwise). A closed mesh wound clockwise faces
 * up and down alike and is not detected here: the empty build is the sign then.
 */
export function diagnoseOrientation(mesh: TriangleMesh, maxSlopeDegrees = 45): string | undefined {
  const s = facingShares(mesh, maxSlopeDegrees);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  // A closed mesh (floors with undersides) faces up and down alike whatever its winding, so
  // only a clear majority says anything.
  if (s.down >= 2 * s.up && s.down >= 0.25) {
    return (
      `${pct(s.down)} of the triangle area faces down and ${pct(s.up)} up: the triangles are ` +
      "probably wound clockwise seen from above; try --flip-winding (flipWinding: true)"
    );
  }
  const z = s.plusZ + s.minusZ;
  if (z >= 0.5 && s.up < 0.1) {
    const flip = s.minusZ >= 2 * s.plusZ;
    return (
      `${pct(z)} of the triangle area faces along ${flip ? "−Z" : "+Z"} and ${pct(s.up)} up: ` +
      "the input is probably Z-up" +
      (flip
        ? ' and wound clockwise; try --up z --flip-winding (up: "z", flipWinding: true)'
        : '; try --up z (up: "z")')
    );
  }
  return undefined;
}
