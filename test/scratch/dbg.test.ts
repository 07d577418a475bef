import { it } from "vitest";
import { navMeshFromPolygons } from "../../src/generate/from-polygons.js";
import { authoredLevel } from "../helpers/authored-level.js";
it("x", () => {
  const { navMesh } = navMeshFromPolygons(authoredLevel(), { weldTolerance: 0.01, tileSize: 4 });
  console.log(navMesh.params.origin);
  for (const t of navMesh.tiles.slice(0,2)) {
    console.log(t.tileX, t.tileZ, t.bmin, t.bmax);
    for (let p = 0; p < t.polyCount; p++) {
      const pts = [];
      for (let i = 0; i < t.polyVertCount[p]!; i++) { const v = t.polyVerts[p*6+i]!; pts.push(`(${t.vertices[v*3]!.toFixed(4)},${t.vertices[v*3+2]!.toFixed(4)})`); }
      console.log(p, pts.join(" "), Array.from(t.polyNeighbours.slice(p*6, p*6+t.polyVertCount[p]!)).map(x=>x>=0x80000000? 'B'+(x&3): x).join(' '));
    }
  }
});
