import type { NavMesh } from "../../src/navmesh/nav-mesh.js";

/** Concatenates every typed array of every tile, for byte-identity checks. */
export function navMeshBytes(navMesh: NavMesh): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const t of navMesh.tiles) {
    for (const a of [
      t.vertices,
      t.polyVerts,
      t.polyNeighbours,
      t.polyVertCount,
      t.polyAreas,
      t.polyFlags,
      t.detailMeshes,
      t.detailVertices,
      t.detailTriangles,
    ]) {
      parts.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    }
  }
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
