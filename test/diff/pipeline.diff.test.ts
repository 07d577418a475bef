// End-to-end differential test: meshway's buildNavMesh against Recast compiled to WebAssembly
// (@recast-navigation/core) on the shared demo meshes with RecastDemo's default config.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { type BuildResult, buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { createNavMeshTile } from "../../src/generate/nav-mesh-tile.js";
import { countConnectedComponents } from "../../src/navmesh/components.js";
import { NavMesh, navMeshArea } from "../../src/navmesh/nav-mesh.js";
import { validateNavMesh } from "../../src/navmesh/validate.js";
import { loadSharedMesh, SHARED_MESH_NAMES } from "../helpers/meshes.js";
import {
  initRecast,
  type RecastPipelineResult,
  runRecastPipeline,
  toMeshwayDetail,
  toMeshwayPolyMesh,
} from "../helpers/recast.js";

const cfg = resolveConfig();

describe.each(SHARED_MESH_NAMES)("%s: meshway vs Recast-WASM, default config", (name) => {
  let ours: BuildResult;
  let theirs: RecastPipelineResult;
  let theirNavMesh: NavMesh;

  beforeAll(async () => {
    await initRecast();
    const mesh = loadSharedMesh(name);
    ours = buildNavMesh(mesh, {});
    theirs = runRecastPipeline(mesh, cfg);
    const tile = createNavMeshTile(
      toMeshwayPolyMesh(theirs.pmesh!),
      toMeshwayDetail(theirs.dmesh!),
    );
    theirNavMesh = new NavMesh(ours.navMesh.params);
    theirNavMesh.addTile(tile);
  });
  afterAll(() => theirs?.free());

  it("rasterizes, compacts and erodes to the same span counts", () => {
    expect(ours.stats.gridWidth).toBe(theirs.width);
    expect(ours.stats.gridDepth).toBe(theirs.depth);
    expect(ours.stats.rasterizedSpans).toBe(theirs.rasterizedSpans);
    expect(ours.stats.compactSpans).toBe(theirs.compactSpans);
    expect(ours.stats.walkableSpans).toBe(theirs.walkableAfterErosion);
  });

  it("has a polygon count within ±5% of Recast's", () => {
    const ratio = ours.stats.polygons / theirs.polyCount;
    console.log(`${name}: polygons meshway ${ours.stats.polygons}, recast ${theirs.polyCount}`);
    expect(ratio).toBeGreaterThanOrEqual(0.95);
    expect(ratio).toBeLessThanOrEqual(1.05);
  });

  it("covers the same XZ area within ±1%", () => {
    const a = navMeshArea(ours.navMesh);
    const b = navMeshArea(theirNavMesh);
    console.log(`${name}: area meshway ${a.toFixed(3)}, recast ${b.toFixed(3)}`);
    expect(Math.abs(a / b - 1)).toBeLessThanOrEqual(0.01);
  });

  it("has the same number of connected components", () => {
    expect(countConnectedComponents(ours.navMesh)).toBe(countConnectedComponents(theirNavMesh));
  });

  it("passes validateNavMesh", () => {
    expect(validateNavMesh(ours.navMesh).problems).toEqual([]);
  });
});
