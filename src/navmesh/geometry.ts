import type { NavMeshTile } from "./tile.js";

/**
 * Point/polygon geometry on one tile's polygons, with the semantics of Detour's
 * dtPointInPolygon, dtDistancePtSegSqr2D, dtClosestHeightPointTriangle, getPolyHeight and
 * closestPointOnPoly (Mononen), so results stay comparable with Detour. Pure and
 * allocation-free: numbers and typed arrays in, results through `out` parameters.
 *
 * Winding: polygons from the build are wound like Recast's: counter-clockwise seen from +Y
 * with x right and z down the page (triArea2XZ > 0 for consecutive corners, see
 * math/predicates2d.ts; {@link polygonAreaXZ} < 0). Nothing here depends on the winding.
 */

/** Height tolerance of Detour's barycentric test (dtClosestHeightPointTriangle). */
const HEIGHT_EPS = 1e-6;

/** Detail-triangle edge flag: the edge lies on the polygon boundary. */
export const DETAIL_EDGE_BOUNDARY = 1;

/**
 * True when (x, z) is inside polygon `poly` projected on XZ (even-odd crossing test, like
 * dtPointInPolygon: points exactly on an edge may go either way).
 */
export function pointInPolyXZ(tile: NavMeshTile, poly: number, x: number, z: number): boolean {
  const nvp = tile.maxVertsPerPoly;
  const base = poly * nvp;
  const n = tile.polyVertCount[poly]!;
  const v = tile.vertices;
  const pv = tile.polyVerts;
  let inside = false;
  let j = pv[base + n - 1]! * 3;
  for (let i = 0; i < n; i++) {
    const k = pv[base + i]! * 3;
    const iz = v[k + 2]!;
    const jz = v[j + 2]!;
    if (iz > z !== jz > z) {
      const ix = v[k]!;
      if (x < ((v[j]! - ix) * (z - iz)) / (jz - iz) + ix) inside = !inside;
    }
    j = k;
  }
  return inside;
}

/** Parameter t in [0, 1] of the point of segment a-b closest to p, on XZ. */
export function segmentParamXZ(
  px: number,
  pz: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  const dx = bx - ax;
  const dz = bz - az;
  const d = dx * dx + dz * dz;
  let t = dx * (px - ax) + dz * (pz - az);
  if (d > 0) t /= d;
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  return t;
}

/** Squared XZ distance from p to segment a-b. */
export function distancePtSegSqrXZ(
  px: number,
  pz: number,
  ax: number,
  az: number,
  bx: number,
  bz: number,
): number {
  const t = segmentParamXZ(px, pz, ax, az, bx, bz);
  const dx = ax + t * (bx - ax) - px;
  const dz = az + t * (bz - az) - pz;
  return dx * dx + dz * dz;
}

/**
 * Closest point to (x, y, z) on the polygon, ignoring the detail mesh: the point itself when
 * it is inside on XZ, else the XZ-closest point of the nearest edge (y interpolated along
 * that edge), like dtNavMeshQuery::closestPointOnPolyBoundary.
 */
export function closestPointOnPolyBoundary(
  tile: NavMeshTile,
  poly: number,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
): void {
  const nvp = tile.maxVertsPerPoly;
  const base = poly * nvp;
  const n = tile.polyVertCount[poly]!;
  const v = tile.vertices;
  const pv = tile.polyVerts;
  let inside = false;
  let best = Infinity;
  let bestA = 0;
  let bestB = 0;
  let bestT = 0;
  let j = pv[base + n - 1]! * 3;
  for (let i = 0; i < n; i++) {
    const k = pv[base + i]! * 3;
    const kx = v[k]!;
    const kz = v[k + 2]!;
    const jx = v[j]!;
    const jz = v[j + 2]!;
    if (kz > z !== jz > z && x < ((jx - kx) * (z - kz)) / (jz - kz) + kx) inside = !inside;
    const t = segmentParamXZ(x, z, jx, jz, kx, kz);
    const dx = jx + t * (kx - jx) - x;
    const dz = jz + t * (kz - jz) - z;
    const d = dx * dx + dz * dz;
    if (d < best) {
      best = d;
      bestA = j;
      bestB = k;
      bestT = t;
    }
    j = k;
  }
  if (inside) {
    out[0] = x;
    out[1] = y;
    out[2] = z;
    return;
  }
  out[0] = v[bestA]! + (v[bestB]! - v[bestA]!) * bestT;
  out[1] = v[bestA + 1]! + (v[bestB + 1]! - v[bestA + 1]!) * bestT;
  out[2] = v[bestA + 2]! + (v[bestB + 2]! - v[bestA + 2]!) * bestT;
}

/**
 * Height of the triangle (a, b, c) at (x, z), or NaN when (x, z) is outside it (edges
 * included) or the triangle is degenerate on XZ. Offsets index `verts` (3 floats per vertex).
 */
export function triangleHeight(
  verts: Float32Array,
  a: number,
  b: number,
  c: number,
  x: number,
  z: number,
): number {
  const ax = verts[a]!;
  const ay = verts[a + 1]!;
  const az = verts[a + 2]!;
  const v0x = verts[c]! - ax;
  const v0y = verts[c + 1]! - ay;
  const v0z = verts[c + 2]! - az;
  const v1x = verts[b]! - ax;
  const v1y = verts[b + 1]! - ay;
  const v1z = verts[b + 2]! - az;
  const v2x = x - ax;
  const v2z = z - az;
  let denom = v0x * v1z - v0z * v1x;
  if (Math.abs(denom) < HEIGHT_EPS) return Number.NaN;
  let u = v1z * v2x - v1x * v2z;
  let w = v0x * v2z - v0z * v2x;
  if (denom < 0) {
    denom = -denom;
    u = -u;
    w = -w;
  }
  if (u >= 0 && w >= 0 && u + w <= denom) return ay + (v0y * u + v1y * w) / denom;
  return Number.NaN;
}

/**
 * Closest point on the detail-mesh edges to (x, z) on XZ, written to out (y from the
 * detail mesh). `onlyBoundary` restricts the search to edges on the polygon boundary.
 * Polygons without detail triangles use their own edges.
 */
function closestPointOnDetailEdges(
  tile: NavMeshTile,
  poly: number,
  x: number,
  z: number,
  onlyBoundary: boolean,
  out: Float64Array,
): void {
  const dm = tile.detailMeshes;
  const vertBase = dm[poly * 4]!;
  const triBase = dm[poly * 4 + 2]!;
  const triCount = dm[poly * 4 + 3]!;
  let best = Infinity;
  let bestA = 0;
  let bestB = 0;
  let bestT = 0;
  let verts: Float32Array;
  if (triCount === 0) {
    verts = tile.vertices;
    const nvp = tile.maxVertsPerPoly;
    const n = tile.polyVertCount[poly]!;
    let j = tile.polyVerts[poly * nvp + n - 1]! * 3;
    for (let i = 0; i < n; i++) {
      const k = tile.polyVerts[poly * nvp + i]! * 3;
      const t = segmentParamXZ(x, z, verts[j]!, verts[j + 2]!, verts[k]!, verts[k + 2]!);
      const dx = verts[j]! + t * (verts[k]! - verts[j]!) - x;
      const dz = verts[j + 2]! + t * (verts[k + 2]! - verts[j + 2]!) - z;
      const d = dx * dx + dz * dz;
      if (d < best) {
        best = d;
        bestA = j;
        bestB = k;
        bestT = t;
      }
      j = k;
    }
  } else {
    verts = tile.detailVertices;
    const tris = tile.detailTriangles;
    for (let i = 0; i < triCount; i++) {
      const tb = (triBase + i) * 4;
      const flags = tris[tb + 3]!;
      if (onlyBoundary && (flags & 0x15) === 0) continue;
      for (let e = 0; e < 3; e++) {
        const ia = tris[tb + e]!;
        const ib = tris[tb + (e === 2 ? 0 : e + 1)]!;
        const boundary = ((flags >> (e * 2)) & 3 & DETAIL_EDGE_BOUNDARY) !== 0;
        // Interior edges appear in two triangles: look at each once (and never when only
        // the boundary is wanted).
        if (!boundary && (onlyBoundary || ia < ib)) continue;
        const a = (vertBase + ia) * 3;
        const b = (vertBase + ib) * 3;
        const t = segmentParamXZ(x, z, verts[a]!, verts[a + 2]!, verts[b]!, verts[b + 2]!);
        const dx = verts[a]! + t * (verts[b]! - verts[a]!) - x;
        const dz = verts[a + 2]! + t * (verts[b + 2]! - verts[a + 2]!) - z;
        const d = dx * dx + dz * dz;
        if (d < best) {
          best = d;
          bestA = a;
          bestB = b;
          bestT = t;
        }
      }
    }
  }
  out[0] = verts[bestA]! + (verts[bestB]! - verts[bestA]!) * bestT;
  out[1] = verts[bestA + 1]! + (verts[bestB + 1]! - verts[bestA + 1]!) * bestT;
  out[2] = verts[bestA + 2]! + (verts[bestB + 2]! - verts[bestA + 2]!) * bestT;
}

/** Scratch for polyHeight's rare edge fallback (module-level: no allocation per call). */
const edgeScratch = new Float64Array(3);

/**
 * Height of the detail surface of `poly` at (x, z); NaN when (x, z) is outside the polygon
 * on XZ. Like Detour's getPolyHeight: first detail triangle containing the point, else (a
 * point on a triangle edge lost to rounding) the height of the closest detail edge point.
 * Polygons without detail triangles use a fan of their own vertices.
 */
export function polyHeight(tile: NavMeshTile, poly: number, x: number, z: number): number {
  if (!pointInPolyXZ(tile, poly, x, z)) return Number.NaN;
  return detailHeightInside(tile, poly, x, z);
}

/** polyHeight for a point already known to be inside the polygon on XZ (pointInPolyXZ). */
export function detailHeightInside(tile: NavMeshTile, poly: number, x: number, z: number): number {
  const dm = tile.detailMeshes;
  const vertBase = dm[poly * 4]!;
  const triBase = dm[poly * 4 + 2]!;
  const triCount = dm[poly * 4 + 3]!;
  if (triCount === 0) {
    const nvp = tile.maxVertsPerPoly;
    const pv = tile.polyVerts;
    const n = tile.polyVertCount[poly]!;
    const a = pv[poly * nvp]! * 3;
    for (let i = 2; i < n; i++) {
      const h = triangleHeight(
        tile.vertices,
        a,
        pv[poly * nvp + i - 1]! * 3,
        pv[poly * nvp + i]! * 3,
        x,
        z,
      );
      if (!Number.isNaN(h)) return h;
    }
  } else {
    const tris = tile.detailTriangles;
    const verts = tile.detailVertices;
    for (let i = 0; i < triCount; i++) {
      const tb = (triBase + i) * 4;
      const h = triangleHeight(
        verts,
        (vertBase + tris[tb]!) * 3,
        (vertBase + tris[tb + 1]!) * 3,
        (vertBase + tris[tb + 2]!) * 3,
        x,
        z,
      );
      if (!Number.isNaN(h)) return h;
    }
  }
  closestPointOnDetailEdges(tile, poly, x, z, false, edgeScratch);
  return edgeScratch[1]!;
}

/**
 * Closest point of the polygon's detail surface to (x, y, z), written to `out`. When (x, z)
 * is over the polygon, out = (x, detail height, z) and the result is true; otherwise out is
 * the XZ-closest point on the polygon's boundary detail edges and the result is false
 * (dtNavMesh::closestPointOnPoly's posOverPoly). `y` does not affect the result; it is taken
 * for symmetry with the other point functions.
 */
export function closestPointOnPoly(
  tile: NavMeshTile,
  poly: number,
  x: number,
  _y: number,
  z: number,
  out: Float64Array,
): boolean {
  const h = polyHeight(tile, poly, x, z);
  if (!Number.isNaN(h)) {
    out[0] = x;
    out[1] = h;
    out[2] = z;
    return true;
  }
  closestPointOnDetailEdges(tile, poly, x, z, true, out);
  return false;
}

/**
 * closestPointOnPoly for a point known to be outside the polygon on XZ: the XZ-closest point
 * on the polygon's boundary detail edges, written to `out`.
 */
export function closestPointOnDetailBoundary(
  tile: NavMeshTile,
  poly: number,
  x: number,
  z: number,
  out: Float64Array,
): void {
  closestPointOnDetailEdges(tile, poly, x, z, true, out);
}

/** Average of the polygon's vertices (dtCalcPolyCenter). */
export function polyCenter(tile: NavMeshTile, poly: number, out: Float64Array): void {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[poly]!;
  const v = tile.vertices;
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < n; i++) {
    const k = tile.polyVerts[poly * nvp + i]! * 3;
    x += v[k]!;
    y += v[k + 1]!;
    z += v[k + 2]!;
  }
  out[0] = x / n;
  out[1] = y / n;
  out[2] = z / n;
}
