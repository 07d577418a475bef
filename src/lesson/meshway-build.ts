import { buildNavMesh } from "../generate/build-nav-mesh.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import type { Ring } from "./geometry.js";
import { LESSON_SCENE, lessonBuildConfig, lessonTriangleMesh } from "./scene.js";

/** What the lesson reads from meshway's real pipeline at one radius. */
export interface MeshwayLessonBuild {
  navMesh: NavMesh;
  /** Per lesson cell (col + row * cols): 1 when some span there is walkable before erosion. */
  voxelWalkable: Uint8Array;
  /** Per lesson cell: 1 when some span there is walkable after erodeWalkableArea. */
  erodedWalkable: Uint8Array;
  /** The polygons (tile order = polygon index in refs), XZ rings in world units. */
  polygons: Ring[];
  /** Per polygon, per edge: the neighbouring polygon across that edge, or -1. */
  neighbours: Int32Array[];
  /** The navmesh's region count and build time [ms] (informational). */
  regions: number;
  buildMs: number;
}

/**
 * Runs meshway's solo pipeline on the lesson scene at agent radius `radius` (rasterize →
 * filter → compact → erodeWalkableArea → regions → contours → polygons → detail) and reads
 * back per-cell walkability and the polygons. The scene's grid starts at (0, 0) with the same
 * cell size, so heightfield columns are the lesson's cells one to one.
 */
export function buildLessonNavMesh(radius: number): MeshwayLessonBuild {
  const t0 = performance.now();
  const built = buildNavMesh(lessonTriangleMesh(), lessonBuildConfig(radius), {
    keepIntermediates: true,
    source: "lesson scene",
  });
  const buildMs = performance.now() - t0;
  const im = built.intermediates!;
  const chf = im.compactHeightfield;
  const { cols, rows } = LESSON_SCENE;
  const voxelWalkable = new Uint8Array(cols * rows);
  const erodedWalkable = new Uint8Array(cols * rows);
  const w = Math.min(chf.width, cols);
  const d = Math.min(chf.depth, rows);
  for (let z = 0; z < d; z++) {
    for (let x = 0; x < w; x++) {
      const c = x + z * chf.width;
      const first = chf.cellFirst[c]!;
      const end = first + chf.cellCount[c]!;
      for (let s = first; s < end; s++) {
        if (im.areasBeforeErosion[s] !== 0) voxelWalkable[x + z * cols] = 1;
        if (chf.areas[s] !== 0) erodedWalkable[x + z * cols] = 1;
      }
    }
  }
  const tile = built.navMesh.tiles[0]!;
  const nvp = tile.maxVertsPerPoly;
  const polygons: Ring[] = [];
  const neighbours: Int32Array[] = [];
  for (let p = 0; p < tile.polyCount; p++) {
    const n = tile.polyVertCount[p]!;
    const ring = new Float64Array(n * 2);
    const nb = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const v = tile.polyVerts[p * nvp + k]!;
      ring[k * 2] = tile.vertices[v * 3]!;
      ring[k * 2 + 1] = tile.vertices[v * 3 + 2]!;
      const e = tile.polyNeighbours[p * nvp + k]!;
      // Same-tile neighbours are stored as index + 1; walls and tile borders have the high bits.
      nb[k] = e >= 1 && e <= tile.polyCount ? e - 1 : -1;
    }
    polygons.push(ring);
    neighbours.push(nb);
  }
  return {
    navMesh: built.navMesh,
    voxelWalkable,
    erodedWalkable,
    polygons,
    neighbours,
    regions: built.stats.regions,
    buildMs,
  };
}
