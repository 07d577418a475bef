/**
 * Plane geometry of the any-angle search, on the XZ projection. A search node sees the goal
 * through an interval [a, b] of an edge from its root r; r lies on the positive side of the
 * directed line a → b (cross(b − a, r − a) > 0), so turning from the ray r→a to the ray r→b
 * is a positive rotation and a point q is inside the cone of the interval when
 * cross(a − r, q − r) >= 0 and cross(b − r, q − r) <= 0.
 */

/**
 * Length of the shortest plane path from r through the interval [a, b] to t, ignoring
 * everything else (Polyanya's heuristic, Cui, Harabor & Grastien 2017): a goal on r's side
 * of the interval's line is first mirrored across it; then the straight line when it passes
 * through the interval, else the bend at the nearer end. An admissible lower bound of the
 * remaining path of any path the node stands for.
 */
export function distanceThroughInterval(
  rx: number,
  rz: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
  tx: number,
  tz: number,
): number {
  const ex = bx - ax;
  const ez = bz - az;
  const len2 = ex * ex + ez * ez;
  const sr = ex * (rz - az) - ez * (rx - ax);
  if (!(len2 > 0) || sr <= 0) {
    // Root on the interval's line: only the straight distance is a safe bound.
    const dx = tx - rx;
    const dz = tz - rz;
    return Math.sqrt(dx * dx + dz * dz);
  }
  const st = ex * (tz - az) - ez * (tx - ax);
  if (st > 0) {
    // Same side as the root: mirror (the path must cross the line and come back).
    const k = (2 * st) / len2;
    tx += k * ez;
    tz -= k * ex;
  }
  const qx = tx - rx;
  const qz = tz - rz;
  const oa = (ax - rx) * qz - (az - rz) * qx;
  if (oa < 0) {
    const d1x = ax - rx;
    const d1z = az - rz;
    const d2x = tx - ax;
    const d2z = tz - az;
    return Math.sqrt(d1x * d1x + d1z * d1z) + Math.sqrt(d2x * d2x + d2z * d2z);
  }
  const ob = (bx - rx) * qz - (bz - rz) * qx;
  if (ob > 0) {
    const d1x = bx - rx;
    const d1z = bz - rz;
    const d2x = tx - bx;
    const d2z = tz - bz;
    return Math.sqrt(d1x * d1x + d1z * d1z) + Math.sqrt(d2x * d2x + d2z * d2z);
  }
  return Math.sqrt(qx * qx + qz * qz);
}

/** XZ distance between two points. */
export function distXZ(ax: number, az: number, bx: number, bz: number): number {
  const dx = bx - ax;
  const dz = bz - az;
  return Math.sqrt(dx * dx + dz * dz);
}
