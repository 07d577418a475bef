import { it } from "vitest";
import { buildNavMesh } from "../../src/build/build-nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { getPixel } from "../../src/render/raster.js";
import { layoutTopDown, polyRing, renderTopDown } from "../../src/render/top-down.js";
import { loadSharedMesh } from "../helpers/meshes.js";

it("dbg", () => {
  const mesh = loadSharedMesh("nav_test");
  const navMesh = buildNavMesh(mesh).navMesh;
  const r = new NavMeshQuery(navMesh).computePath([-20, -2, 20], [16.8, -2, -22.4], {
    halfExtents: [2, 10, 2],
  });
  const img = renderTopDown({ geometry: mesh, navMesh, path: r.points });
  const L = layoutTopDown({ geometry: mesh, navMesh, path: r.points });
  console.log(
    getPixel(img, 276, 336),
    Array.from(L.polyFill.subarray(29 * 4, 29 * 4 + 4)),
    Array.from(polyRing(L, 29))
      .map((v) => v.toFixed(1))
      .join(" "),
  );
  for (let b = 0; b < L.bandCount; b++) console.log(b, L.bandPolyStart[b], L.bandOccluderStart[b]);
  const geo = renderTopDown({ geometry: mesh, size: 800 });
  console.log("geo", getPixel(geo, 276, 336));
});
