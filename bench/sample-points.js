// Seeded sample points on a navmesh, for the query bench and the query differential test
// (test/diff/query.diff.test.ts) to draw start/end points the same way. Plain JS with no imports,
// so both the bench (on dist) and the tests (on src) can load it. Types: sample-points.d.ts.

/**
 * A uniform point inside polygon `poly` of `tile`: an area-weighted triangle of the polygon's fan,
 * then barycentric weights kept in [0.02, 0.96] so the point stays clear of the polygon's edges.
 * Draws three numbers from `rand`. Returns [x, y, z] (y on the fan triangle, not the detail mesh).
 */
export function pointInPoly(tile, poly, rand) {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[poly];
  const v = tile.vertices;
  const vi = (i) => tile.polyVerts[poly * nvp + i] * 3;
  const a = vi(0);
  const areas = [];
  let total = 0;
  for (let i = 1; i + 1 < n; i++) {
    const b = vi(i);
    const c = vi(i + 1);
    const area = Math.abs(
      (v[b] - v[a]) * (v[c + 2] - v[a + 2]) - (v[c] - v[a]) * (v[b + 2] - v[a + 2]),
    );
    areas.push(area);
    total += area;
  }
  let r = rand() * total;
  let tri = 0;
  while (tri < areas.length - 1 && r > areas[tri]) r -= areas[tri++];
  const b = vi(tri + 1);
  const c = vi(tri + 2);
  let u = rand();
  let w = rand();
  if (u + w > 1) {
    u = 1 - u;
    w = 1 - w;
  }
  u = 0.02 + 0.96 * u;
  w = 0.02 + 0.96 * w;
  const s = 1 - u - w;
  return [0, 1, 2].map((k) => s * v[a + k] + u * v[b + k] + w * v[c + k]);
}

/**
 * The benches' start/end sampler on `navMesh`: a polygon uniformly over every tile's polygons,
 * a point inside it (pointInPoly), rounded to float32, its y moved onto the polygon's surface
 * (`query.getPolyHeight`) where that is defined. Each call returns { p, slot, poly }.
 */
export function polygonPointSampler(navMesh, query, rand) {
  const slots = [];
  const polys = [];
  for (let s = 0; s < navMesh.slots.length; s++) {
    const t = navMesh.tileInSlot(s);
    if (!t) continue;
    for (let p = 0; p < t.polyCount; p++) {
      slots.push(s);
      polys.push(p);
    }
  }
  return () => {
    const k = Math.floor(rand() * slots.length);
    const slot = slots[k];
    const poly = polys[k];
    const p = pointInPoly(navMesh.tileInSlot(slot), poly, rand).map(Math.fround);
    const h = query.getPolyHeight(navMesh.polyRef(slot, poly), p);
    if (!Number.isNaN(h)) p[1] = Math.fround(h);
    return { p, slot, poly };
  };
}

/** The benches' node limit for a mesh of `polyCount` polygons: enough for any search on it. */
export function searchNodeLimit(polyCount) {
  let maxNodes = 2048;
  while (maxNodes < polyCount && maxNodes < 65536) maxNodes *= 2;
  return maxNodes;
}
