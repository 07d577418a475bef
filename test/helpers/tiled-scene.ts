/**
 * A generated scene large enough to cut into many tiles (for the tiled-build tests):
 *
 *   tiledScene()        // 96 × 96 m floor, seeded boxes, a raised deck with a ramp, stairs
 *   TILED_CONFIG        // binary-exact cells (0.25 / 0.125), agent radius 0.5, tileSize 32
 *   meshToObj(mesh)     // the mesh as OBJ text (for CLI tests)
 */
import type { TriangleMesh } from "../../src/input.js";
import { mulberry32 } from "../../src/query/random-point.js";
import { SceneBuilder } from "./scenes.js";

export const TILED_SCENE_SIZE = 96;
export const TILED_CONFIG = {
  cellSize: 0.25,
  cellHeight: 0.125,
  agentRadius: 0.5,
  tileSize: 32,
} as const;

export function tiledScene(seed = 7): TriangleMesh {
  const rand = mulberry32(seed);
  const S = TILED_SCENE_SIZE;
  const b = new SceneBuilder().floor(0, 0, S, S);
  for (let i = 0; i < 60; i++) {
    const sx = 1 + rand() * 5;
    const sz = 1 + rand() * 5;
    const x = 6 + rand() * (S - 12);
    const z = 6 + rand() * (S - 12);
    // Keep the deck's corner clear.
    if (x > 60 && z > 60) continue;
    b.box(x, 0, z, sx, 1 + rand() * 2, sz, rand() < 0.3 ? rand() * Math.PI : 0);
  }
  // A 3 m high deck (second storey) over x 66..90, z 66..90, reached by a ramp from the west.
  b.box(78, 2.75, 78, 24, 0.25, 24);
  b.ramp(50, 66, 70, 74, 0, 3);
  // Pillars under the deck.
  for (const [px, pz] of [
    [70, 70],
    [86, 70],
    [70, 86],
    [86, 86],
  ]) {
    b.box(px!, 0, pz!, 1, 2.75, 1);
  }
  // Stairs along +x at z 20..23.
  b.stairs(30, 20, 23, 6, 0.5, 0.25);
  return b.build();
}

/** OBJ text of a mesh (1-based indices). */
export function meshToObj(mesh: TriangleMesh): string {
  const lines: string[] = [];
  const p = mesh.positions;
  for (let i = 0; i < p.length; i += 3) lines.push(`v ${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  const x = mesh.indices;
  for (let i = 0; i < x.length; i += 3)
    lines.push(`f ${x[i]! + 1} ${x[i + 1]! + 1} ${x[i + 2]! + 1}`);
  return `${lines.join("\n")}\n`;
}
