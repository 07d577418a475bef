import { detailHeightInside, pointInPolyXZ } from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import { groundTileOf, heightByRef } from "../query/ref-geometry.js";

/**
 * heightByRef with a per-agent hint: the detail triangle that held the agent last time is
 * tested first (an agent moves centimetres per update, so it nearly always still does), instead
 * of scanning the polygon's detail triangles in order — on rolling terrain a polygon has dozens.
 *
 * Same result, bit for bit: polyHeight returns the height of the *first* triangle containing
 * the point (edges included). The hinted triangle is taken only when the point is inside it by a
 * margin far above the rounding of the barycentric test (1e-9 of the products' scale, against
 * ~1e-15), so no other triangle of the (non-overlapping) triangulation can also report it, and
 * its height is computed by the same operations as triangleHeight in navmesh/geometry.ts.
 * Otherwise the scan runs as polyHeight's and records the triangle it found.
 */

/** Triangle index (into the tile's detailTriangles / 4) found by the last call; -1 none. */
let foundTri = -1;

/** Detour's degenerate-triangle threshold on XZ (geometry.ts HEIGHT_EPS). */
const HEIGHT_EPS = 1e-6;
/** Relative inside margin of the hinted triangle (see above). */
const HINT_MARGIN = 1e-9;

/**
 * Height of the detail surface of `ref` at (x, z) (NaN outside it or when not live), trying
 * triangle `hint` first; the triangle used is left in {@link lastHeightTriangle}.
 */
export function hintedHeight(
  navMesh: NavMesh,
  ref: PolyRef,
  x: number,
  z: number,
  hint: number,
): number {
  foundTri = -1;
  if (tileOfRef(ref) === OFF_MESH_SLOT) return heightByRef(navMesh, ref, x, z);
  const tile = groundTileOf(navMesh, ref);
  if (tile === null) return Number.NaN;
  const poly = polyOfRef(ref);
  if (!pointInPolyXZ(tile, poly, x, z)) return Number.NaN;
  const dm = tile.detailMeshes;
  const vertBase = dm[poly * 4]!;
  const triBase = dm[poly * 4 + 2]!;
  const triCount = dm[poly * 4 + 3]!;
  if (triCount === 0) return detailHeightInside(tile, poly, x, z);
  const tris = tile.detailTriangles;
  const verts = tile.detailVertices;
  if (hint >= triBase && hint < triBase + triCount) {
    const tb = hint * 4;
    const a = (vertBase + tris[tb]!) * 3;
    const b = (vertBase + tris[tb + 1]!) * 3;
    const c = (vertBase + tris[tb + 2]!) * 3;
    const ax = verts[a]!;
    const az = verts[a + 2]!;
    const v0x = verts[c]! - ax;
    const v0z = verts[c + 2]! - az;
    const v1x = verts[b]! - ax;
    const v1z = verts[b + 2]! - az;
    const v2x = x - ax;
    const v2z = z - az;
    let denom = v0x * v1z - v0z * v1x;
    if (Math.abs(denom) >= HEIGHT_EPS) {
      let u = v1z * v2x - v1x * v2z;
      let w = v0x * v2z - v0z * v2x;
      if (denom < 0) {
        denom = -denom;
        u = -u;
        w = -w;
      }
      const e = Math.abs(v0x) + Math.abs(v0z) + Math.abs(v1x) + Math.abs(v1z);
      const m = HINT_MARGIN * e * (e + Math.abs(v2x) + Math.abs(v2z));
      if (u > m && w > m && denom - (u + w) > m) {
        foundTri = hint;
        const ay = verts[a + 1]!;
        return ay + ((verts[c + 1]! - ay) * u + (verts[b + 1]! - ay) * w) / denom;
      }
    }
  }
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
    if (!Number.isNaN(h)) {
      foundTri = triBase + i;
      return h;
    }
  }
  // On an edge lost to rounding: polyHeight's edge fallback.
  return detailHeightInside(tile, poly, x, z);
}

/** The detail triangle the last hintedHeight call took the height from; -1 none. */
export function lastHeightTriangle(): number {
  return foundTri;
}

/** navmesh/geometry.ts's triangleHeight, operation for operation (its results must match). */
function triangleHeight(
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
