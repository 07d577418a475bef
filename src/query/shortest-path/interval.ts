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
  // The bend point c (a or b) when the straight line misses the interval; one return for
  // both keeps the function small enough for V8 to inline it into the search loop.
  let cx: number;
  let cz: number;
  if ((ax - rx) * qz - (az - rz) * qx < 0) {
    cx = ax;
    cz = az;
  } else if ((bx - rx) * qz - (bz - rz) * qx > 0) {
    cx = bx;
    cz = bz;
  } else {
    return Math.sqrt(qx * qx + qz * qz);
  }
  const d1x = cx - rx;
  const d1z = cz - rz;
  const d2x = tx - cx;
  const d2z = tz - cz;
  return Math.sqrt(d1x * d1x + d1z * d1z) + Math.sqrt(d2x * d2x + d2z * d2z);
}

/** XZ distance between two points. */
export function distXZ(ax: number, az: number, bx: number, bz: number): number {
  const dx = bx - ax;
  const dz = bz - az;
  return Math.sqrt(dx * dx + dz * dz);
}
