// The golden debug drawings: every meshway/debug primitive set of one fixed scene, hashed.
// Shared by test/golden/debug-hashes.test.ts (src/) and scripts/refresh-debug-hashes.mjs
// (dist/), so both compute the same thing. Plain JS so the script can import it.
import { createHash } from "node:crypto";

/** SHA-256 over every primitive set of a drawing: kind, size, positions bytes, colours bytes. */
export function hashDrawing(prims) {
  const h = createHash("sha256");
  for (const p of prims) {
    h.update(`${p.kind}:${p.size}:${p.positions.length}:`);
    h.update(new Uint8Array(p.positions.buffer, p.positions.byteOffset, p.positions.byteLength));
    h.update(new Uint8Array(p.colours.buffer, p.colours.byteOffset, p.colours.byteLength));
  }
  return h.digest("hex");
}

function hashArrays(...arrays) {
  const h = createHash("sha256");
  for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return h.digest("hex");
}

/**
 * `api`: buildNavMesh, NavMeshQuery and the meshway/debug functions; `mesh`: nav_test.
 * Returns { drawing name: { sha256, vertices } } in a fixed order.
 */
export function debugDrawings(api, mesh) {
  const { navMesh, intermediates: im } = api.buildNavMesh(mesh, {}, { keepIntermediates: true });
  const q = new api.NavMeshQuery(navMesh);
  const path = q.computePath([21, -2.1, 15.6], [-24.4, -2.1, -12]);
  const drawings = {
    heightfieldSolid: api.drawHeightfield(im.heightfield, "solid"),
    heightfieldWalkable: api.drawHeightfield(im.heightfield, "walkable"),
    compactAreas: api.drawCompactHeightfield(im.compactHeightfield),
    compactRegions: api.drawCompactHeightfield(im.compactHeightfield, {
      mode: "regions",
      regions: im.regions,
    }),
    compactDistance: api.drawCompactHeightfield(im.compactHeightfield, {
      mode: "distance",
      distanceField: im.distanceField,
    }),
    rawContours: api.drawContours(im.contours, { raw: true }),
    contours: api.drawContours(im.contours),
    regionConnections: api.drawRegionConnections(im.contours),
    polyMesh: api.drawPolyMesh(im.polyMesh),
    polyMeshDetail: api.drawPolyMeshDetail(im.polyMeshDetail),
    navMeshByPolygon: api.drawNavMesh(navMesh),
    navMeshByArea: api.drawNavMesh(navMesh, { colourBy: "area" }),
    navMeshByFlags: api.drawNavMesh(navMesh, { colourBy: "flags", detail: false }),
    bvTree: api.drawNavMeshBVTree(navMesh, { internal: true }),
    portals: api.drawNavMeshPortals(navMesh),
    tileBorders: api.drawTileBorders(navMesh),
    // The node pool and closed list are left out: they record search internals (node order,
    // states) that query changes may legitimately alter; their counts are unit-tested instead.
    corridor: api.drawCorridor(navMesh, path.polys),
    path: api.drawPath(path.points),
    obstacles: api.drawObstacles([
      { kind: "cylinder", center: [12, -0.5, 8], radius: 1, height: 2.5 },
      { kind: "box", min: [0, -1, 0], max: [2, 1, 3] },
      { kind: "orientedBox", center: [14, 0, 8], halfExtents: [2, 1, 0.5], yawRadians: 0.4 },
      { kind: "prism", points: [0, 0, 2, 0, 1, 2], minY: -1, maxY: 1 },
    ]),
    areaVolumes: api.drawAreaVolumes([
      { kind: "box", min: [0, -1, 20], max: [30, 1, 28], area: 5 },
      { kind: "convex", points: [0, 0, 0, 2, 0, 0, 1, 0, 2], minY: -1, maxY: 1, area: 0 },
    ]),
  };
  const out = {};
  for (const [name, prims] of Object.entries(drawings)) {
    let vertices = 0;
    for (const p of prims) vertices += p.positions.length / 3;
    out[name] = { sha256: hashDrawing(prims), vertices };
  }
  const g = api.navMeshGeometry(navMesh);
  out.navMeshGeometry = {
    sha256: hashArrays(g.positions, g.indices, g.colours, g.triangleRefs),
    vertices: g.positions.length / 3,
  };
  return out;
}
