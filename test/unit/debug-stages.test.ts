import type * as DebugApi from "@recast-navigation/core/dist/debug-drawer-utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import {
  type DebugPrimitive,
  drawAreaVolumes,
  drawCompactHeightfield,
  drawContours,
  drawHeightfield,
  drawNavMesh,
  drawObstacles,
  drawOffMeshConnections,
  drawPolyMesh,
  drawPolyMeshDetail,
  drawRegionConnections,
  navMeshGeometry,
} from "../../src/debug/index.js";
import { MeshwayError } from "../../src/errors.js";
import type { BuildIntermediates } from "../../src/generate/build-nav-mesh.js";
import { type BuildResult, buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { MESH_NULL_INDEX } from "../../src/generate/types.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import {
  initRecast,
  type RecastPipelineResult,
  recast,
  runRecastPipeline,
} from "../helpers/recast.js";
import { SceneBuilder } from "../helpers/scenes.js";

const core = recast as unknown as typeof recast & typeof DebugApi;
const CFG = resolveConfig();

function count(prims: DebugPrimitive[], kind: DebugPrimitive["kind"]): number {
  let n = 0;
  for (const p of prims) if (p.kind === kind) n += p.positions.length / 3;
  return n;
}

function theirs(prims: DebugApi.DebugDrawerPrimitive[], type: string): number {
  let n = 0;
  for (const p of prims) if (p.type === type) n += p.vertices.length;
  return n;
}

describe("debug primitives of every build stage (nav_test)", () => {
  let built: BuildResult;
  let im: BuildIntermediates;
  let rc: RecastPipelineResult;
  let drawer: DebugApi.DebugDrawerUtils;
  beforeAll(async () => {
    await initRecast();
    const mesh = loadSharedMesh("nav_test");
    built = buildNavMesh(mesh, {}, { keepIntermediates: true });
    im = built.intermediates!;
    rc = runRecastPipeline(mesh, CFG);
    drawer = new core.DebugDrawerUtils();
  });
  afterAll(() => {
    drawer?.dispose();
    rc?.free();
  });

  it("heightfield: one 12-triangle box per solid span", () => {
    const hf = im.heightfield;
    let spans = 0;
    for (let c = 0; c < hf.width * hf.depth; c++) {
      for (let s = hf.columnHead[c]!; s !== -1; s = hf.spans[s * 2 + 1]!) spans++;
    }
    expect(count(drawHeightfield(hf), "triangles")).toBe(spans * 36);
  });

  it("compact heightfield: one quad per open span, as many as Recast draws", () => {
    const chf = im.compactHeightfield;
    const recastQuads = theirs(drawer.drawCompactHeightfieldSolid(rc.chf!), "quads") / 4;
    expect(count(drawCompactHeightfield(chf), "triangles")).toBe(chf.spanCount * 6);
    expect(chf.spanCount).toBe(recastQuads);
    const regions = drawCompactHeightfield(chf, { mode: "regions", regions: im.regions });
    const distance = drawCompactHeightfield(chf, {
      mode: "distance",
      distanceField: im.distanceField,
    });
    expect(count(regions, "triangles")).toBe(chf.spanCount * 6);
    expect(count(distance, "triangles")).toBe(chf.spanCount * 6);
    expect(drawCompactHeightfield(chf, { mode: "regions" })).toEqual([]);
  });

  it("contours: a closed loop and a point per vertex, raw and simplified", () => {
    for (const raw of [false, true]) {
      let verts = 0;
      for (const c of im.contours.contours) {
        const n = (raw ? c.rawVerts : c.verts).length / 4;
        if (n >= 2) verts += n;
      }
      const prims = drawContours(im.contours, { raw });
      expect(count(prims, "lines")).toBe(verts * 2);
      expect(count(prims, "points")).toBe(verts);
    }
    const live = im.contours.contours.filter((c) => c.verts.length > 0).length;
    const links = drawRegionConnections(im.contours);
    expect(count(links, "points")).toBe(live);
    expect(count(links, "lines")).toBeGreaterThan(0);
  });

  it("polygon mesh and detail mesh: as many triangles as Recast draws", () => {
    const pm = im.polyMesh;
    let fan = 0;
    for (let p = 0; p < pm.polyCount; p++) {
      let nv = 0;
      while (
        nv < pm.maxVertsPerPoly &&
        pm.polys[p * 2 * pm.maxVertsPerPoly + nv] !== MESH_NULL_INDEX
      )
        nv++;
      fan += nv - 2;
    }
    const poly = drawPolyMesh(pm);
    expect(count(poly, "triangles")).toBe(fan * 3);
    expect(count(poly, "points")).toBe(pm.vertCount);
    expect(theirs(drawer.drawPolyMesh(rc.pmesh!), "tris") / 3).toBe(
      rc.polyCount > 0 ? countRecastFan(rc) : 0,
    );
    const detail = drawPolyMeshDetail(im.polyMeshDetail);
    expect(count(detail, "triangles")).toBe(im.polyMeshDetail.triCount * 3);
    expect(theirs(drawer.drawPolyMeshDetail(rc.dmesh!), "tris") / 3).toBe(rc.detailTriCount);
    expect(im.polyMeshDetail.triCount).toBe(rc.detailTriCount);
  });

  it("navMeshGeometry: detail triangles or polygon fans, wound up", () => {
    const nm = built.navMesh;
    const withDetail = navMeshGeometry(nm);
    const flat = navMeshGeometry(nm, { detail: false, colourBy: "area" });
    expect(withDetail.indices.length / 3).toBe(built.stats.detailTriangles);
    expect(flat.indices.length / 3).toBe(
      count(drawNavMesh(nm, { detail: false }), "triangles") / 3,
    );
    for (const g of [withDetail, flat]) {
      const p = g.positions;
      for (let t = 0; t < g.indices.length; t += 3) {
        const a = g.indices[t]! * 3;
        const b = g.indices[t + 1]! * 3;
        const c = g.indices[t + 2]! * 3;
        const ny =
          (p[c]! - p[a]!) * (p[b + 2]! - p[a + 2]!) - (p[b]! - p[a]!) * (p[c + 2]! - p[a + 2]!);
        expect(ny).toBeGreaterThanOrEqual(-1e-9);
      }
    }
  });

  it("bad colourBy is a MeshwayError naming the option", () => {
    expect(() => navMeshGeometry(built.navMesh, { colourBy: "rainbow" as never })).toThrow(
      MeshwayError,
    );
    expect(() => drawNavMesh(built.navMesh, { colourBy: "rainbow" as never })).toThrow(
      /colourBy must be one of polygon, area, flags, tile/,
    );
  });

  it("obstacles and area volumes: prisms with caps and edges", () => {
    const box = drawObstacles([{ kind: "box", min: [0, 0, 0], max: [1, 2, 3] }]);
    expect(count(box, "triangles")).toBe(12 * 3);
    expect(count(box, "lines")).toBe(12 * 2);
    const cyl = drawObstacles([{ kind: "cylinder", center: [0, 0, 0], radius: 1, height: 2 }]);
    expect(count(cyl, "triangles")).toBe((16 * 2 + 14 * 2) * 3);
    const vol = drawAreaVolumes([
      { kind: "convex", points: [0, 0, 0, 2, 0, 0, 1, 0, 2], minY: -1, maxY: 1, area: 3 },
    ]);
    expect(count(vol, "triangles")).toBe((3 * 2 + 2) * 3);
    const ys = box[0]!.positions.filter((_, i) => i % 3 === 1);
    expect(Math.min(...ys)).toBe(0);
    expect(Math.max(...ys)).toBe(2);
  });
});

/** Triangles Recast's duDebugDrawPolyMesh draws: a fan per polygon. */
function countRecastFan(rc: RecastPipelineResult): number {
  const pm = rc.pmesh!;
  let n = 0;
  for (let p = 0; p < pm.npolys(); p++) {
    let nv = 0;
    while (nv < pm.nvp() && pm.polys(p * 2 * pm.nvp() + nv) !== 0xffff) nv++;
    n += nv - 2;
  }
  return n;
}

describe("off-mesh connections", () => {
  it("an arc of 12 segments, a 16-segment circle at each end, the snapped ends as points", () => {
    const { navMesh } = buildNavMesh(new SceneBuilder().floor(0, 0, 10, 10).build(), {
      cellSize: 0.25,
      cellHeight: 0.125,
    });
    expect(drawOffMeshConnections(navMesh)).toEqual([]);
    navMesh.addOffMeshConnection({
      start: [2, 0, 2],
      end: [8, 0, 8],
      radius: 0.5,
      bidirectional: true,
      area: 63,
      flags: 1,
    });
    const prims = drawOffMeshConnections(navMesh);
    expect(count(prims, "lines")).toBe((12 + 16 * 2) * 2);
    expect(count(prims, "points")).toBe(2);
    // The arc rises between the ends and lands on them.
    const lines = prims.find((p) => p.kind === "lines")!.positions;
    expect(lines[1]).toBeCloseTo(
      navMesh.offMeshConnection(navMesh.offMeshConnectionRefs()[0]!)!.snappedStart[1],
      5,
    );
    expect(Math.max(...lines.filter((_, i) => i % 3 === 1).slice(0, 24))).toBeGreaterThan(1);
  });
});
