/**
 * A small tiled navmesh for the doors tests (run-time flags, callback filters, flood fill):
 *
 *   doorsScene()   // 24 × 24 m floor, walls with gaps, an island 2 m off the east side;
 *                  // tiles of 8 m (3 × 3), two off-mesh links across tiles (one to the island)
 *   groundRefs(nm) // every ground polygon ref, slot order
 */
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import type { PolyRef } from "../../src/navmesh/poly-ref.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { SceneBuilder } from "./scenes.js";

export const DOORS_CONFIG = { cellSize: 0.25, cellHeight: 0.125, agentRadius: 0.5, tileSize: 32 };

export async function doorsScene(): Promise<NavMesh> {
  const mesh = new SceneBuilder()
    .floor(0, 0, 24, 24)
    .floor(26, 8, 30, 14)
    .box(6, 0, 12, 1, 2, 20)
    .box(16, 0, 8, 1, 2, 14)
    .box(12, 0, 19, 6, 2, 1)
    .box(4, 0, 4, 2, 1, 2)
    .box(19, 0, 20, 3, 1.5, 2, 0.6)
    .build();
  const { navMesh } = await buildTiledNavMesh(mesh, DOORS_CONFIG);
  navMesh.addOffMeshConnection({
    start: [22, 0.25, 11],
    end: [27.5, 0.25, 11],
    radius: 0.6,
    bidirectional: true,
    area: 63,
    flags: 1,
  });
  navMesh.addOffMeshConnection({
    start: [2, 0.25, 22],
    end: [21, 0.25, 2],
    radius: 0.6,
    bidirectional: false,
    area: 63,
    flags: 1,
  });
  return navMesh;
}

export function groundRefs(nm: NavMesh): PolyRef[] {
  const out: PolyRef[] = [];
  for (let s = 1; s < nm.slots.length; s++) {
    const t = nm.tileInSlot(s);
    if (!t) continue;
    for (let p = 0; p < t.polyCount; p++) out.push(nm.polyRef(s, p));
  }
  return out;
}
