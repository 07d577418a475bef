import { detailHeightInside, pointInPolyXZ, triangleHeight } from "../navmesh/geometry.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { groundTileOf, heightByRef } from "../query/ref-geometry.js";

/** Relative inside margin of the remembered triangle (see SurfaceHeightCache). */
const HINT_MARGIN = 1e-9;

/**
 * heightByRef for one agent, remembering the detail triangle that held it last time: an agent
 * moves centimetres per update, so it nearly always still does, and the triangle's corners are
 * kept here — on a big navmesh the detail arrays are cache misses, and on rolling terrain a
 * polygon has dozens of triangles to scan.
 *
 * Same result, bit for bit: polyHeight returns the height of the *first* triangle containing
 * the point (edges included). The remembered triangle is taken only when the point is inside it
 * by a margin far above the rounding of the barycentric test (1e-9 of the products' scale,
 * against ~1e-15), so no other triangle of the (non-overlapping) triangulation can also report
 * it, and its height is computed by the same operations as triangleHeight in
 * navmesh/geometry.ts. It is remembered with its polygon's ref and tile object, so a tile
 * replaced (new salt, new object) is never read through it. Otherwise the scan runs as
 * polyHeight's and remembers the triangle it found.
 */
export class SurfaceHeightCache {
  /** The polygon the triangle belongs to (a Float64Array: a ref above 2^31 boxes in a field). */
  private readonly ref = new Float64Array(1);
  private tile: NavMeshTile | null = null;
  /** Corners a, b, c of the triangle, xyz each, as triangleHeight reads them. */
  private readonly tri = new Float64Array(9);

  /** Forgets the triangle. */
  clear(): void {
    this.tile = null;
  }

  /** Detail-surface height of `ref` at (x, z); NaN outside it or when `ref` is not live. */
  height(navMesh: NavMesh, ref: PolyRef, x: number, z: number): number {
    if (tileOfRef(ref) === OFF_MESH_SLOT) return heightByRef(navMesh, ref, x, z);
    const tile = groundTileOf(navMesh, ref);
    if (tile === null) return Number.NaN;
    const poly = polyOfRef(ref);
    if (!pointInPolyXZ(tile, poly, x, z)) return Number.NaN;
    if (tile === this.tile && ref === this.ref[0]) {
      const t = this.tri;
      const ax = t[0]!;
      const az = t[2]!;
      const v0x = t[6]! - ax;
      const v0z = t[8]! - az;
      const v1x = t[3]! - ax;
      const v1z = t[5]! - az;
      const v2x = x - ax;
      const v2z = z - az;
      let denom = v0x * v1z - v0z * v1x;
      let u = v1z * v2x - v1x * v2z;
      let w = v0x * v2z - v0z * v2x;
      if (denom < 0) {
        denom = -denom;
        u = -u;
        w = -w;
      }
      const e = Math.abs(v0x) + Math.abs(v0z) + Math.abs(v1x) + Math.abs(v1z);
      const m = HINT_MARGIN * e * (e + Math.abs(v2x) + Math.abs(v2z));
      // (Remembered triangles are never degenerate: triangleHeight found the point in them.)
      if (u > m && w > m && denom - (u + w) > m) {
        const ay = t[1]!;
        return ay + ((t[7]! - ay) * u + (t[4]! - ay) * w) / denom;
      }
    }
    this.tile = null;
    const dm = tile.detailMeshes;
    const vertBase = dm[poly * 4]!;
    const triBase = dm[poly * 4 + 2]!;
    const triCount = dm[poly * 4 + 3]!;
    if (triCount === 0) return detailHeightInside(tile, poly, x, z);
    const tris = tile.detailTriangles;
    const verts = tile.detailVertices;
    for (let i = 0; i < triCount; i++) {
      const tb = (triBase + i) * 4;
      const a = (vertBase + tris[tb]!) * 3;
      const b = (vertBase + tris[tb + 1]!) * 3;
      const c = (vertBase + tris[tb + 2]!) * 3;
      const h = triangleHeight(verts, a, b, c, x, z);
      if (!Number.isNaN(h)) {
        const t = this.tri;
        for (let k = 0; k < 3; k++) {
          t[k] = verts[a + k]!;
          t[3 + k] = verts[b + k]!;
          t[6 + k] = verts[c + k]!;
        }
        this.tile = tile;
        this.ref[0] = ref;
        return h;
      }
    }
    // On an edge lost to rounding: polyHeight's edge fallback.
    return detailHeightInside(tile, poly, x, z);
  }
}
