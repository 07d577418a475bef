/**
 * Small built navmeshes shared by the query unit tests (test/unit/query-*.test.ts), plus the
 * brute-force polygon lookup they check results against. Stable API:
 *
 *   QUERY_CONFIG   // binary-exact cells (0.25 / 0.125), agent radius 0.5: eroded walls land
 *                  // exactly on quarter units
 *   boxScene()     // 10 × 10 floor, 2 × 2 × 2 box in the middle
 *   wallScene()    // 12 × 12 floor split by a wall with a gap in the east
 *   islands()      // two 6 × 6 floors 2 apart
 *   polyAt(navMesh, x, z)   // ref of the ground polygon containing (x, z) on XZ, 0 when none
 *
 * Every floor is at y 0, so the walkable surface is at y = 0.25. Each call builds a fresh navmesh.
 */
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import { pointInPolyXZ } from "../../src/navmesh/geometry.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { SceneBuilder } from "./scenes.js";

export const QUERY_CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5 };

/**
 * 10 × 10 floor with a 2 × 2 × 2 box in the middle: walls at x, z = 3.5 and 6.5 around it (box
 * 4..6 eroded by the 0.5 radius; the box's x = 3.5 face is straight from z 3.75 to 6.5) and the
 * mesh border at 0.75 / 9.25.
 */
export function boxScene(): NavMesh {
  const mesh = new SceneBuilder().floor(0, 0, 10, 10).box(5, 0, 5, 2, 2, 2).build();
  return buildNavMesh(mesh, QUERY_CONFIG).navMesh;
}

/**
 * 12 × 12 floor split by a wall (x 0..8, z 5.5..6.5) with a gap in the east. Polygons:
 * 1 south (z <= 5), 0 the east connector, 2 and 3 north (z >= 6 / 7.25); surface y = 0.25.
 */
export function wallScene(): NavMesh {
  const mesh = new SceneBuilder().floor(0, 0, 12, 12).box(4, 0, 6, 8, 2, 1).build();
  return buildNavMesh(mesh, QUERY_CONFIG).navMesh;
}

/** Two 6 × 6 floors 2 apart: polygon 0 (0.75..5.25)², polygon 1 x 8.75..13.25. */
export function islands(): NavMesh {
  const mesh = new SceneBuilder().floor(0, 0, 6, 6).floor(8, 0, 14, 6).build();
  return buildNavMesh(mesh, QUERY_CONFIG).navMesh;
}

/** Ref of the polygon containing (x, z) on XZ (brute force over every tile), 0 when none. */
export function polyAt(navMesh: NavMesh, x: number, z: number): number {
  for (let s = 1; s < navMesh.slots.length; s++) {
    const tile = navMesh.tileInSlot(s);
    if (!tile) continue;
    for (let p = 0; p < tile.polyCount; p++) {
      if (pointInPolyXZ(tile, p, x, z)) return navMesh.polyRef(s, p);
    }
  }
  return 0;
}
