// The typed arrays of a navmesh tile that define a build's output, in a fixed order: what the
// golden build hashes (scripts/refresh-golden.mjs, test/golden/build-hashes.test.ts) and the
// byte-identity checks (navmesh-bytes.ts) cover. Plain JS with no imports, so the golden script
// can load it next to dist; types in tile-arrays.d.ts.

/** Names of the hashed tile arrays, in hashing order. */
export const TILE_ARRAY_NAMES = [
  "vertices",
  "polyVerts",
  "polyNeighbours",
  "polyVertCount",
  "polyAreas",
  "polyFlags",
  "detailMeshes",
  "detailVertices",
  "detailTriangles",
];

/** Byte views (no copies) of every TILE_ARRAY_NAMES array of every tile, tile by tile. */
export function tileArrayBytes(navMesh) {
  const parts = [];
  for (const t of navMesh.tiles) {
    for (const name of TILE_ARRAY_NAMES) {
      const a = t[name];
      parts.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    }
  }
  return parts;
}
