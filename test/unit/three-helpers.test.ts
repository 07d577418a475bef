import {
  type BufferGeometry,
  type LineSegments,
  Matrix4,
  type Mesh,
  type Points,
  Vector3,
} from "three";
import { describe, expect, it } from "vitest";
import type { BuildConfig } from "../../src/config.js";
import { Crowd } from "../../src/crowd/crowd.js";
import { drawContours, drawCrowd, drawNavMesh, navMeshGeometry } from "../../src/debug/index.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { CrowdHelper, DebugDrawer, NavMeshHelper, TileCacheHelper } from "../../src/three/index.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { SceneBuilder } from "../helpers/scenes.js";

const CONFIG: Partial<BuildConfig> = {
  cellSize: 0.25,
  cellHeight: 0.125,
  agentRadius: 0.5,
  tileSize: 32,
};

function floorScene() {
  return new SceneBuilder().floor(0, 0, 24, 24).build();
}

/** Index count the helper's surface draws. */
function drawnIndices(helper: NavMeshHelper): number {
  return helper.mesh.geometry.drawRange.count;
}

describe("NavMeshHelper", () => {
  it("draws every navmesh triangle and rebuilds in place when the tile cache replaces tiles", () => {
    const { navMesh, cache } = createTileCache(floorScene(), CONFIG);
    const helper = new NavMeshHelper(navMesh);
    const geometry = helper.mesh.geometry;
    expect(drawnIndices(helper)).toBe(navMeshGeometry(navMesh).indices.length);
    expect(helper.version).toBe(1);
    expect(helper.mesh.geometry.getAttribute("color").itemSize).toBe(4);
    // Nothing changed: a frame does not rebuild.
    helper.updateMatrixWorld();
    expect(helper.version).toBe(1);

    const before = drawnIndices(helper);
    cache.addObstacle({ kind: "cylinder", center: [12, -0.5, 12], radius: 2, height: 2 });
    cache.flush();
    helper.updateMatrixWorld();
    expect(helper.version).toBe(2);
    expect(helper.mesh.geometry).toBe(geometry);
    expect(drawnIndices(helper)).toBe(navMeshGeometry(navMesh).indices.length);
    expect(drawnIndices(helper)).not.toBe(before);
    helper.updateMatrixWorld();
    expect(helper.version).toBe(2);

    const id = cache.obstacleIds()[0]!;
    cache.removeObstacle(id);
    cache.flush();
    helper.updateMatrixWorld();
    expect(helper.version).toBe(3);
    expect(drawnIndices(helper)).toBe(before);
    helper.dispose();
  });

  it("notices replaceTile and off-mesh connections; autoUpdate off waits for refresh()", () => {
    const { navMesh } = buildNavMesh(floorScene(), { cellSize: 0.25, cellHeight: 0.125 });
    const helper = new NavMeshHelper(navMesh, { autoUpdate: false, edges: false });
    expect(helper.edges.drawnCount).toBe(0);
    const ref = navMesh.tileRefAt(0, 0);
    navMesh.replaceTile(ref, navMesh.tiles[0]!);
    helper.updateMatrixWorld();
    expect(helper.version).toBe(1);
    expect(helper.refresh()).toBe(true);
    expect(helper.version).toBe(2);
    navMesh.addOffMeshConnection({
      start: [2, 0, 2],
      end: [20, 0, 20],
      radius: 0.5,
      bidirectional: true,
      area: 63,
      flags: 1,
    });
    expect(helper.changed()).toBe(true);
    expect(helper.refresh()).toBe(true);
    expect(helper.refresh()).toBe(false);
  });
});

describe("DebugDrawer", () => {
  it("draws each primitive set as Mesh, LineSegments or Points and reuses them", () => {
    const { navMesh, intermediates } = buildNavMesh(
      floorScene(),
      { cellSize: 0.25, cellHeight: 0.125 },
      { keepIntermediates: true },
    );
    const prims = drawNavMesh(navMesh);
    const drawer = new DebugDrawer(prims);
    expect(drawer.drawnCount).toBe(prims.length);
    const kinds = drawer.children.map((c) =>
      (c as Points).isPoints
        ? "points"
        : (c as LineSegments).isLineSegments
          ? "lines"
          : "triangles",
    );
    expect(kinds).toEqual(prims.map((p) => p.kind));
    const first = drawer.children[0] as Mesh<BufferGeometry>;
    expect(first.geometry.drawRange.count).toBe(prims[0]!.positions.length / 3);
    expect(first.geometry.getAttribute("color").itemSize).toBe(4);
    // A smaller drawing: the same objects, the rest hidden.
    const contours = drawContours(intermediates!.contours);
    drawer.set(contours);
    expect(drawer.drawnCount).toBe(contours.length);
    expect(drawer.children.filter((c) => c.visible).length).toBe(contours.length);
    drawer.clear();
    expect(drawer.children.some((c) => c.visible)).toBe(false);
    drawer.dispose();
    expect(drawer.children.length).toBe(0);
  });
});

describe("TileCacheHelper", () => {
  it("redraws when obstacles are added, moved and removed", () => {
    const { cache } = createTileCache(floorScene(), CONFIG);
    const helper = new TileCacheHelper(cache);
    expect(helper.drawer.drawnCount).toBe(0);
    const id = cache.addObstacle({ kind: "box", min: [2, -0.5, 2], max: [4, 1, 4] });
    helper.updateMatrixWorld();
    expect(helper.version).toBe(2);
    expect(helper.drawer.drawnCount).toBe(2); // solid + edges
    helper.updateMatrixWorld();
    expect(helper.version).toBe(2);
    cache.updateObstacle(id, { kind: "box", min: [6, -0.5, 6], max: [8, 1, 8] });
    helper.updateMatrixWorld();
    expect(helper.version).toBe(3);
    const solid = helper.drawer.children[0] as Mesh<BufferGeometry>;
    expect(solid.geometry.boundingBox!.min.x).toBe(6);
    cache.removeObstacle(id);
    helper.updateMatrixWorld();
    expect(helper.drawer.drawnCount).toBe(0);
  });
});

describe("CrowdHelper", () => {
  it("moves one instance per agent slot from crowd.positions, hides inactive slots", () => {
    const crowd = {
      positions: Float32Array.of(1, 0, 2, 5, 1, 5, 9, 0, 3),
      velocities: Float32Array.of(1, 0, 0, 0, 0, 0, 0, 0, 1),
      active: Uint8Array.of(1, 1, 0),
    };
    const helper = new CrowdHelper(crowd, { radius: 0.5, height: 2 });
    const m = new Matrix4();
    const at = (i: number) => {
      helper.agents.getMatrixAt(i, m);
      return new Vector3().setFromMatrixPosition(m).toArray();
    };
    expect(helper.agents.count).toBe(3);
    expect(at(1)).toEqual([5, 1, 5]);
    helper.agents.getMatrixAt(2, m);
    expect(m.determinant()).toBe(0); // inactive: scaled away
    expect(helper.velocityLines.geometry.drawRange.count).toBe(4);
    crowd.positions[3] = 7;
    helper.updateMatrixWorld();
    expect(at(1)).toEqual([7, 1, 5]);
    // More slots than the instanced mesh holds: it is recreated larger.
    const bigger = { positions: new Float32Array(3 * 10), agentCount: 10 };
    const h2 = new CrowdHelper({ positions: new Float32Array(3) });
    (h2 as unknown as { crowd: unknown }).crowd = bigger;
    h2.update();
    expect(h2.agents.count).toBe(10);
    helper.dispose();
    h2.dispose();
  });

  it("draws a meshway Crowd's drawCrowd sets in its debugDrawer when asked", () => {
    const nm = buildNavMesh(floorScene(), CONFIG).navMesh;
    const crowd = new Crowd(nm, { maxAgents: 2, maxAgentRadius: 0.5 });
    const id = crowd.addAgent([2, 0, 2], { radius: 0.5 });
    crowd.requestMoveTarget(id, [20, 0, 20]);
    for (let s = 0; s < 5; s++) crowd.update(1 / 30);
    expect(new CrowdHelper(crowd).debugDrawer).toBe(null);
    const helper = new CrowdHelper(crowd, { debug: { corners: true } });
    // Desired velocities, corner lines, corners (agents and velocities are the helper's own).
    const expected = drawCrowd(crowd, { agents: false, velocities: false });
    expect(expected.map((p) => p.kind)).toEqual(["lines", "lines", "points"]);
    expect(helper.debugDrawer!.drawnCount).toBe(expected.length);
    helper.dispose();
  });
});
