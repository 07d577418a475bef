import { describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { buildTileBVTree } from "../../src/navmesh/bvtree.js";
import { queryPolygonsInTile } from "../../src/navmesh/spatial.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

/** Polygon boxes as the tree sees them: polygon vertices and detail vertices. */
function polyBoxes(t: NavMeshTile): Float64Array {
  const boxes = new Float64Array(t.polyCount * 6);
  const nvp = t.maxVertsPerPoly;
  for (let p = 0; p < t.polyCount; p++) {
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    const add = (arr: Float32Array, i: number) => {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, arr[i * 3 + k]!);
        hi[k] = Math.max(hi[k]!, arr[i * 3 + k]!);
      }
    };
    for (let i = 0; i < t.polyVertCount[p]!; i++) add(t.vertices, t.polyVerts[p * nvp + i]!);
    for (let i = 0; i < t.detailMeshes[p * 4 + 1]!; i++)
      add(t.detailVertices, t.detailMeshes[p * 4]! + i);
    boxes.set([...lo, ...hi], p * 6);
  }
  return boxes;
}

function bruteForce(t: NavMeshTile, bmin: number[], bmax: number[]): number[] {
  const boxes = polyBoxes(t);
  const out: number[] = [];
  for (let p = 0; p < t.polyCount; p++) {
    let hit = true;
    for (let k = 0; k < 3; k++) {
      if (bmin[k]! > boxes[p * 6 + 3 + k]! || bmax[k]! < boxes[p * 6 + k]!) hit = false;
    }
    if (hit) out.push(p);
  }
  return out;
}

const sceneTile = () =>
  buildNavMesh(
    new SceneBuilder()
      .floor(0, 0, 20, 20)
      .box(5, 0, 5, 3, 2, 3)
      .box(14, 0, 6, 2, 1, 6, 0.5)
      .box(10, 0, 15, 4, 3, 2)
      .ramp(20, 26, 0, 8, 0, 2)
      .build(),
    { cellSize: 0.25, cellHeight: 0.1, agentRadius: 0.3 },
  ).navMesh.tiles[0]!;

describe("tile BV tree", () => {
  it("createNavMeshTile builds it: 2n − 1 nodes, each polygon in exactly one leaf", () => {
    const t = sceneTile();
    expect(t.polyCount).toBeGreaterThan(10);
    expect(t.bvIndex.length).toBe(2 * t.polyCount - 1);
    expect(t.bvBounds.length).toBe(6 * t.bvIndex.length);
    const leaves = [...t.bvIndex].filter((i) => i >= 0).sort((a, b) => a - b);
    expect(leaves).toEqual([...Array(t.polyCount).keys()]);
  });

  it("escape offsets span whole subtrees and every node's box contains its children's", () => {
    const t = sceneTile();
    const idx = t.bvIndex;
    const b = t.bvBounds;
    // Returns the end of the subtree rooted at `node`, checking containment on the way.
    const walk = (node: number): number => {
      if (idx[node]! >= 0) return node + 1;
      const leftEnd = walk(node + 1);
      const end = walk(leftEnd);
      expect(end - node).toBe(-idx[node]!);
      for (const child of [node + 1, leftEnd]) {
        for (let k = 0; k < 3; k++) {
          expect(b[child * 6 + k]!).toBeGreaterThanOrEqual(b[node * 6 + k]!);
          expect(b[child * 6 + 3 + k]!).toBeLessThanOrEqual(b[node * 6 + 3 + k]!);
        }
      }
      return end;
    };
    expect(walk(0)).toBe(idx.length);
    // The root box is the union of the polygon boxes.
    const boxes = polyBoxes(t);
    for (let k = 0; k < 6; k++) {
      let v = k < 3 ? Infinity : -Infinity;
      for (let p = 0; p < t.polyCount; p++)
        v = k < 3 ? Math.min(v, boxes[p * 6 + k]!) : Math.max(v, boxes[p * 6 + k]!);
      expect(b[k]).toBe(v);
    }
  });

  it("is deterministic: rebuilding gives identical arrays", () => {
    const t = sceneTile();
    const again = buildTileBVTree(t);
    expect(again.bvBounds).toEqual(t.bvBounds);
    expect(again.bvIndex).toEqual(t.bvIndex);
  });

  it("queryPolygonsInTile returns exactly the polygons whose boxes overlap the query box", () => {
    const r = mulberry32(12345);
    const out = new Int32Array(1024);
    for (const t of [sceneTile(), buildNavMesh(loadSharedMesh("nav_test")).navMesh.tiles[0]!]) {
      const lo = [t.bmin[0], t.bmin[1] - 1, t.bmin[2]];
      const size = [t.bmax[0] - t.bmin[0], t.bmax[1] - t.bmin[1] + 2, t.bmax[2] - t.bmin[2]];
      for (let q = 0; q < 300; q++) {
        const bmin = [0, 1, 2].map((k) => lo[k]! + r() * size[k]!);
        const ext = q % 3 === 0 ? 0 : 0.25 * r();
        const bmax = bmin.map((v, k) => v + ext * size[k]!);
        const n = queryPolygonsInTile(t, bmin, bmax, out, out.length);
        expect([...out.slice(0, n)].sort((a, b) => a - b)).toEqual(bruteForce(t, bmin, bmax));
      }
      // Touching boxes count; the whole tile finds every polygon.
      const all = queryPolygonsInTile(
        t,
        lo,
        [lo[0]! + size[0]!, lo[1]! + size[1]!, lo[2]! + size[2]!],
        out,
        out.length,
      );
      expect(all).toBe(t.polyCount);
    }
  });

  it("queryPolygonsInTile honours maxOut and handles empty and tree-less tiles", () => {
    const t = sceneTile();
    const out = new Int32Array(64);
    expect(queryPolygonsInTile(t, [-100, -100, -100], [100, 100, 100], out, 3)).toBe(3);
    const empty = { ...t, polyCount: 0, bvBounds: new Float32Array(0), bvIndex: new Int32Array(0) };
    expect(buildTileBVTree(empty).bvIndex.length).toBe(0);
    expect(queryPolygonsInTile(empty, [-100, -100, -100], [100, 100, 100], out, 64)).toBe(0);
    // Without a tree: the brute-force fallback on polygon vertices gives the same answer here.
    const bare = { ...t, bvBounds: new Float32Array(0), bvIndex: new Int32Array(0) };
    const big = new Int32Array(1024);
    const bmin = [2, -1, 2];
    const bmax = [8, 3, 9];
    const n = queryPolygonsInTile(bare, bmin, bmax, big, big.length);
    const m = queryPolygonsInTile(t, bmin, bmax, out, out.length);
    expect([...big.slice(0, n)].sort((a, b) => a - b)).toEqual(
      [...out.slice(0, m)].sort((a, b) => a - b),
    );
  });
});
