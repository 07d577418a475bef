import { it } from "vitest";
import { buildNavMesh } from "../../src/build/build-nav-mesh.js";
import { NavMeshQuery, createNearestPolyResult } from "../../src/query/nav-mesh-query.js";
import { SceneBuilder } from "../helpers/scenes.js";

it("dbg", () => {
  const b = new SceneBuilder().floor(0, 0, 16, 16);
  const boxes = [{"x":6,"z":6,"sx":4,"sz":4,"h":1,"rotated":false},{"x":2,"z":5,"sx":4,"sz":4,"h":0.5,"rotated":true},{"x":8,"z":3,"sx":3,"sz":2,"h":1,"rotated":false},{"x":6,"z":12,"sx":5,"sz":2,"h":3,"rotated":false}];
  for (const box of boxes) {
    const r = box.rotated ? Math.hypot(box.sx, box.sz) / 2 : Math.max(box.sx, box.sz) / 2;
    const x = Math.min(Math.max(box.x, r + 0.5), 16 - 0.5 - r);
    const z = Math.min(Math.max(box.z, r + 0.5), 16 - 0.5 - r);
    b.box(x, 0, z, box.sx, box.h, box.sz, box.rotated ? 0.5 : 0);
  }
  b.box(5, 2.75, 12, 6, 0.25, 5);
  b.ramp(8, 14, 9.5, 14.5, 3, 0);
  const { navMesh } = buildNavMesh(b.build(), { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 });
  const q = new NavMeshQuery(navMesh);
  const t = navMesh.tiles[0]!;
  const r = q.computePath([4.694942216898409, 0, 2.220231132406319], [4.220823858329089, 0, 7.663006388678195], { halfExtents: [2, 4, 2] });
  console.log(JSON.stringify(r), r.polys.map(x=>x%2**20));
  for (const pp of r.polys.map(x=>x%2**20)) { const p = pp;
    const vs = [];
    for (let i = 0; i < t.polyVertCount[p]!; i++) { const v = t.polyVerts[p * t.maxVertsPerPoly + i]! * 3; vs.push([t.vertices[v], t.vertices[v+1], t.vertices[v+2]]); }
    console.log(p, JSON.stringify(vs), Array.from(t.polyNeighbours.slice(p*t.maxVertsPerPoly, p*t.maxVertsPerPoly+t.polyVertCount[p]!)));
  }
  const o = createNearestPolyResult();
  const a = r.points[0]!, c = r.points[1]!;
  const len = Math.hypot(c[0]-a[0], c[2]-a[2]); const n = Math.ceil(len/0.05);
  let y = a[1];
  for (let i = 0; i <= n; i++) { const s = i / n; const x = a[0] + (c[0]-a[0])*s, z = a[2] + (c[2]-a[2])*s;
    const ref = q.findNearestPoly([x, y, z], [0.01, 0.9, 0.01], q.defaultFilter, o);
    const d = Math.hypot(o.point[0]!-x, o.point[2]!-z);
    if (!ref || d > 1e-3 || Math.abs(o.point[1]! - y) > 0.9) console.log("FAIL", i, x, y, z, ref % 2**20, Array.from(o.point), d);
    if (ref) y = o.point[1]!; }
});
import { closestPointOnPoly, polyHeight, pointInPolyXZ } from "../../src/navmesh/geometry.js";
it("dbg2", () => {
  const b = new SceneBuilder().floor(0, 0, 16, 16);
  const boxes = [{"x":6,"z":6,"sx":4,"sz":4,"h":1,"rotated":false},{"x":2,"z":5,"sx":4,"sz":4,"h":0.5,"rotated":true},{"x":8,"z":3,"sx":3,"sz":2,"h":1,"rotated":false},{"x":6,"z":12,"sx":5,"sz":2,"h":3,"rotated":false}];
  for (const box of boxes) {
    const r = box.rotated ? Math.hypot(box.sx, box.sz) / 2 : Math.max(box.sx, box.sz) / 2;
    const x = Math.min(Math.max(box.x, r + 0.5), 16 - 0.5 - r);
    const z = Math.min(Math.max(box.z, r + 0.5), 16 - 0.5 - r);
    b.box(x, 0, z, box.sx, box.h, box.sz, box.rotated ? 0.5 : 0);
  }
  b.box(5, 2.75, 12, 6, 0.25, 5);
  b.ramp(8, 14, 9.5, 14.5, 3, 0);
  const { navMesh } = buildNavMesh(b.build(), { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 });
  const t = navMesh.tiles[0]!;
  const out = new Float64Array(3);
  const x = 3.4833289607079605, z = 7.066684157168157;
  console.log("over5", closestPointOnPoly(t, 5, x, 0.74, z, out), Array.from(out), pointInPolyXZ(t, 5, x, z));
  const p = 5; const dm = t.detailMeshes; console.log(Array.from(dm.slice(p*4, p*4+4)));
  const vb = dm[p*4]!, vc = dm[p*4+1]!;
  console.log(JSON.stringify(Array.from(t.detailVertices.slice(vb*3, (vb+vc)*3))));
  const tb = dm[p*4+2]!, tc = dm[p*4+3]!;
  console.log(JSON.stringify(Array.from(t.detailTriangles.slice(tb*4, (tb+tc)*4))));
  console.log(Array.from(t.bvIndex), Array.from(t.bvBounds).join(","));
});
