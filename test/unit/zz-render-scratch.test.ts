import { writeFileSync } from "node:fs";
import { it } from "vitest";
import { buildNavMesh } from "../../src/build/build-nav-mesh.js";
import { encodePng } from "../../src/node/png.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { renderTopDown } from "../../src/render/top-down.js";
import { loadSharedMesh } from "../helpers/meshes.js";

it("scratch", () => {
  const mesh = loadSharedMesh((process.env.MESH as "nav_test") ?? "nav_test");
  const { navMesh } = buildNavMesh(mesh);
  const q = new NavMeshQuery(navMesh);
  const from = JSON.parse(process.env.FROM ?? "[-20,-2,20]");
  const to = JSON.parse(process.env.TO ?? "[50,-2,-10]");
  const r = q.computePath(from, to, { halfExtents: [2, 10, 2] });
  console.log(r.status, r.points.length, navMesh.bmin, navMesh.bmax);
  const t0 = performance.now();
  const img = renderTopDown({
    geometry: mesh,
    navMesh: process.env.NONAV ? undefined : navMesh,
    path: r.points,
    size: Number(process.env.SIZE ?? 800),
    colourBy: (process.env.BY as "area") ?? "polygon",
  });
  const t1 = performance.now();
  const png = encodePng(img);
  console.log(
    "render ms",
    t1 - t0,
    "png ms",
    performance.now() - t1,
    img.width,
    img.height,
    png.length,
  );
  writeFileSync(process.env.OUT ?? "/tmp/render-check.png", png);
  if (process.env.CROP) {
    const [x0, y0, w, h] = JSON.parse(process.env.CROP) as number[];
    const data = new Uint8ClampedArray(w! * h! * 4);
    for (let y = 0; y < h!; y++)
      data.set(
        img.data.subarray(
          ((y0! + y) * img.width + x0!) * 4,
          ((y0! + y) * img.width + x0! + w!) * 4,
        ),
        y * w! * 4,
      );
    writeFileSync("/tmp/rscratch/crop.png", encodePng({ width: w!, height: h!, data }));
  }
});

import { renderTopDownSvg } from "../../src/render/svg.js";

it("scratch svg", () => {
  const mesh = loadSharedMesh("nav_test");
  const { navMesh } = buildNavMesh(mesh);
  const q = new NavMeshQuery(navMesh);
  const r = q.computePath([-20, -2, 20], [16.8, -2, -22.4], { halfExtents: [2, 10, 2] });
  const svg = renderTopDownSvg({ geometry: mesh, navMesh, path: r.points });
  console.log("svg bytes", svg.length);
  writeFileSync("/tmp/rscratch/check.svg", svg);
});
