import type * as DebugApi from "@recast-navigation/core/dist/debug-drawer-utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import {
  type DebugPrimitive,
  drawClosedList,
  drawCorridor,
  drawNavMesh,
  drawNavMeshBVTree,
  drawNavMeshPortals,
  drawNodePool,
  drawPath,
  drawTileBorders,
  navMeshGeometry,
} from "../../src/debug/index.js";
import { importDetourNavMesh } from "../../src/format/detour-import.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { NODE_CLOSED, NODE_OPEN } from "../../src/query/node-pool.js";
import { buildDetourNavMesh, type DetourBuild } from "../helpers/detour.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { initRecast, recast } from "../helpers/recast.js";

// meshway/debug against recast-navigation-js's DebugDrawerUtils (Detour's DetourDebugDraw) on
// the same Detour navmesh, imported into meshway: what both draw the same way must have the
// same number of primitives.
const core = recast as unknown as typeof recast & typeof DebugApi;
type Primitives = DebugApi.DebugDrawerPrimitive[];

function vertexCount(prims: Primitives, type: DebugApi.DebugDrawerPrimitiveType): number {
  let n = 0;
  for (const p of prims) if (p.type === type) n += p.vertices.length;
  return n;
}

function ours(prims: DebugPrimitive[], kind: DebugPrimitive["kind"]): number {
  let n = 0;
  for (const p of prims) {
    if (p.kind !== kind) continue;
    expect(p.colours.length).toBe((p.positions.length / 3) * 4);
    n += p.positions.length / 3;
  }
  return n;
}

interface Case {
  name: string;
  tileSize?: number;
}
const CASES: Case[] = [{ name: "solo" }, { name: "tiled", tileSize: 32 }];
const CFG = resolveConfig();

describe.each(CASES)("debug primitives vs DebugDrawerUtils: nav_test $name", ({ tileSize }) => {
  let build: DetourBuild;
  let nm: NavMesh;
  let drawer: DebugApi.DebugDrawerUtils;
  beforeAll(async () => {
    await initRecast();
    build = buildDetourNavMesh(
      loadSharedMesh("nav_test"),
      CFG,
      tileSize === undefined ? {} : { tileSize },
    );
    nm = importDetourNavMesh(build.bytes, "nav_test");
    drawer = new core.DebugDrawerUtils();
  });
  afterAll(() => {
    drawer?.dispose();
    build?.free();
  });

  it("navmesh: one triangle per detail triangle, one point per tile vertex", () => {
    const theirs = drawer.drawNavMesh(build.navMesh);
    const mine = drawNavMesh(nm);
    expect(ours(mine, "triangles")).toBe(vertexCount(theirs, "tris"));
    expect(ours(mine, "points")).toBe(vertexCount(theirs, "points"));
    expect(ours(mine, "triangles")).toBeGreaterThan(0);
  });

  it("navMeshGeometry has the same triangles as the drawn navmesh", () => {
    const g = navMeshGeometry(nm);
    const drawn = vertexCount(drawer.drawNavMesh(build.navMesh), "tris") / 3;
    expect(g.indices.length / 3).toBe(drawn);
    expect(g.triangleRefs.length).toBe(drawn);
    for (const ref of g.triangleRefs) expect(nm.isValidPolyRef(ref)).toBe(true);
    let maxIndex = 0;
    for (const i of g.indices) maxIndex = Math.max(maxIndex, i);
    expect(maxIndex).toBe(g.positions.length / 3 - 1);
  });

  it("BV tree: 12 segments per leaf box", () => {
    const theirs = drawer.drawNavMeshBVTree(build.navMesh);
    const mine = drawNavMeshBVTree(nm);
    let polys = 0;
    let tilesWithPolys = 0;
    for (const t of nm.tiles) {
      polys += t.polyCount;
      if (t.polyCount > 0) tilesWithPolys++;
    }
    expect(ours(mine, "lines")).toBe(polys * 24);
    // Detour stores 2 * polyCount nodes but fills 2 * polyCount - 1; the spare zeroed node
    // reads as a leaf, so its debug draw adds one empty box per tile.
    expect(vertexCount(theirs, "lines")).toBe((polys + tilesWithPolys) * 24);
  });

  it("portals: 4 segments per tile-border edge", () => {
    const theirs = drawer.drawNavMeshPortals(build.navMesh);
    const mine = drawNavMeshPortals(nm);
    expect(ours(mine, "lines")).toBe(vertexCount(theirs, "lines"));
    if (tileSize !== undefined) expect(ours(mine, "lines")).toBeGreaterThan(0);
  });

  it("tile borders: one wire box per tile", () => {
    expect(ours(drawTileBorders(nm), "lines")).toBe(nm.tiles.length * 24);
  });

  it("search overlays: a point per open or closed node, a segment per parent link", () => {
    const q = new NavMeshQuery(nm);
    const path = q.computePath([21, -2.1, 15.6], [-24.4, -2.1, -12]);
    expect(path.status).toBe("complete");
    const pool = q.nodePool;
    let visited = 0;
    let parents = 0;
    let closed = 0;
    for (let i = 0; i < pool.count; i++) {
      if ((pool.flags[i]! & (NODE_OPEN | NODE_CLOSED)) === 0) continue;
      visited++;
      if (pool.parent[i]! >= 0) parents++;
      if ((pool.flags[i]! & NODE_CLOSED) !== 0) closed++;
    }
    const nodes = drawNodePool(pool);
    expect(ours(nodes, "points")).toBe(visited);
    expect(ours(nodes, "lines")).toBe(parents * 2);
    expect(closed).toBeGreaterThan(0);
    expect(ours(drawClosedList(nm, pool), "triangles")).toBeGreaterThan(0);
    expect(ours(drawCorridor(nm, path.polys), "triangles")).toBeGreaterThanOrEqual(
      path.polys.length * 3,
    );
    const line = drawPath(path.points);
    expect(ours(line, "points")).toBe(path.points.length);
    expect(ours(line, "lines")).toBe((path.points.length - 1) * 2);
  });
});
