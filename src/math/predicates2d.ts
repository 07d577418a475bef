/**
 * Orientation predicates on the XZ plane: the one sign convention of the project.
 *
 *   triArea2XZ(a, b, c) = (cx − ax)(bz − az) − (bx − ax)(cz − az) = ((b − a) × (c − a)).y
 *
 * twice the signed area of triangle a, b, c projected on XZ: the Y component of the 3D cross
 * product. Positive when a → b → c turns counter-clockwise seen from above (from +Y, with x to
 * the right and z down the page): c lies left of the directed line a → b, e.g.
 * triArea2XZ(0, 0, 1, 0, 0, -1) = 1. Negative for a clockwise turn, 0 when collinear.
 *
 * This is Detour's dtTriArea2D. Recast's rcArea2/area2 (RecastContour.cpp, RecastMesh.cpp) has
 * the OPPOSITE sign: Recast's area2(a, b, c) === triArea2XZ(a, c, b), bit for bit, so callers
 * porting Recast swap b and c, and Recast's left(a, b, c) (area2 < 0) is triArea2XZ(a, b, c) > 0.
 * The navmesh's polygons (Recast's and ours) list their vertices with triArea2XZ > 0 for
 * consecutive corners: counter-clockwise seen from +Y (Recast's texts, drawing z up the page,
 * call the same order clockwise).
 *
 * Exact for integer coordinates below 2^26 (the builder's cells); with floats, rounding
 * decides near-collinear cases.
 */
export function triArea2XZ(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
): number {
  return (cx - ax) * (bz - az) - (bx - ax) * (cz - az);
}

/**
 * True when c's projection lies within segment a–b's extent along its dominant axis (X
 * unless the segment is vertical in X, then Z), ends included. Does NOT test collinearity:
 * only meaningful when a, b, c are already known to be collinear (triArea2XZ === 0).
 */
export function betweenOnLineXZ(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
): boolean {
  if (ax !== bx) return (ax <= cx && cx <= bx) || (ax >= cx && cx >= bx);
  return (az <= cz && cz <= bz) || (az >= cz && cz >= bz);
}

/**
 * True when c lies on the closed segment a–b in XZ: exactly collinear (triArea2XZ === 0) and
 * between the ends. Exact for integer coordinates; for floats only exact hits count.
 */
export function onSegmentXZ(
  ax: number,
  az: number,
  bx: number,
  bz: number,
  cx: number,
  cz: number,
): boolean {
  return triArea2XZ(ax, az, bx, bz, cx, cz) === 0 && betweenOnLineXZ(ax, az, bx, bz, cx, cz);
}
