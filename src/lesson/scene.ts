import type { BuildConfig } from "../config.js";
import type { TriangleMesh } from "../input.js";

/** An axis-aligned obstacle rectangle on XZ, [x0, x1] × [z0, z1] in world units. */
export interface LessonObstacle {
  x0: number;
  z0: number;
  x1: number;
  z1: number;
}

/**
 * The lesson's world: 24 × 16 units on XZ, cells of 0.5 (48 × 32). Every obstacle edge lies
 * on the 0.5 grid, so "is this cell centre inside an obstacle" never sits on a boundary.
 *
 * Layout (z grows downwards in pictures):
 * - a frame of walls 0.5 thick: the world's edges are obstacles like any other, so the toy
 *   filter and meshway's erosion (which erodes from the heightfield's edge) agree there;
 * - a lower wall (z 5..6) from the left frame to x = 17 and an upper wall (z 10..11) from
 *   x = 7 to the right frame cut the floor into three corridors joined in an S;
 * - the upper wall has a narrow passage 2.5 wide (x 13.5..16): its centre cells are 1.25
 *   from both sides, so it stays open up to r = 1.25 with the toy filter (r = 1.0 with
 *   meshway's voxel erosion) and the path must detour through the far left end by r = 1.5;
 * - a pillar in the right room narrows the climb from the lower corridor without closing it
 *   (a lane at least 3.5 wide stays beside it, so the detour is open at r = 1.5).
 * The start sits in the lower corridor, the goal in the upper one: every path needs at least
 * three turns (round the lower wall, through the upper wall, towards the goal).
 */
export const LESSON_SCENE = Object.freeze({
  width: 24 as const,
  depth: 16 as const,
  cellSize: 0.5 as const,
  cols: 48 as const,
  rows: 32 as const,
  obstacles: Object.freeze([
    // Frame.
    { x0: 0, z0: 0, x1: 24, z1: 0.5 },
    { x0: 0, z0: 15.5, x1: 24, z1: 16 },
    { x0: 0, z0: 0.5, x1: 0.5, z1: 15.5 },
    { x0: 23.5, z0: 0.5, x1: 24, z1: 15.5 },
    // Lower wall.
    { x0: 0.5, z0: 5, x1: 17, z1: 6 },
    // Upper wall, either side of the narrow passage.
    { x0: 7, z0: 10, x1: 13.5, z1: 11 },
    { x0: 16, z0: 10, x1: 23.5, z1: 11 },
    // A pillar in the right room.
    { x0: 20.5, z0: 2.5, x1: 21, z1: 4 },
  ] as readonly LessonObstacle[]),
  start: Object.freeze([2.25, 2.75]) as readonly [number, number],
  goal: Object.freeze([21.25, 13.25]) as readonly [number, number],
});

/**
 * Boxes are built this much inside their obstacle rectangle: a wall lying exactly on a cell
 * boundary would be rasterized into the free column beside it too (column clipping is closed
 * on both sides), blocking a cell the lesson's obstacle does not cover. [world units]
 */
export const LESSON_BOX_INSET = 0.01;

/** Height of the obstacle boxes: above the agent's climb, below its height (see docs/lesson.md). */
export const LESSON_BOX_HEIGHT = 1.5;

/**
 * meshway's build settings for the lesson at agent radius r: the scene's cell size, a 0.1
 * cell height, an agent 2 high that climbs 0.5 (so the 1.5-high boxes block it and the floor
 * under a box, 1.5 below its lid, is too low to stand on), and otherwise RecastDemo's
 * defaults (watershed regions, min region 8, merge 20, edge length 12, edge error 1.3, six
 * vertices per polygon).
 */
export function lessonBuildConfig(radius: number): Partial<BuildConfig> {
  return {
    cellSize: LESSON_SCENE.cellSize,
    cellHeight: 0.1,
    agentHeight: 2,
    agentRadius: radius,
    agentMaxClimb: 0.5,
    agentMaxSlope: 45,
    regionMinSize: 8,
    regionMergeSize: 20,
    edgeMaxLen: 12,
    edgeMaxError: 1.3,
    vertsPerPoly: 6,
    detailSampleDist: 6,
    detailSampleMaxError: 1,
    partition: "watershed",
  };
}

let meshCache: TriangleMesh | null = null;

/**
 * The scene as triangles, +Y up: one floor quad over the whole world at y = 0 and a closed
 * box (four walls and a lid) 1.5 high over every obstacle, inset by LESSON_BOX_INSET. Winding makes the floor and lids
 * face up. The same object is returned on every call; do not modify it.
 */
export function lessonTriangleMesh(): TriangleMesh {
  if (meshCache) return meshCache;
  const obstacles = LESSON_SCENE.obstacles;
  const quads = 1 + obstacles.length * 5;
  const positions = new Float32Array(quads * 4 * 3);
  const indices = new Uint32Array(quads * 6);
  let v = 0;
  let t = 0;
  // A quad through corners a, b, c, d in order; triangles (a, b, c) and (a, c, d).
  const quad = (pts: readonly number[]): void => {
    for (let k = 0; k < 12; k++) positions[v * 3 + k] = pts[k]!;
    indices.set([v, v + 1, v + 2, v, v + 2, v + 3], t);
    v += 4;
    t += 6;
  };
  const W = LESSON_SCENE.width;
  const D = LESSON_SCENE.depth;
  // Up-facing: (x0,z0) → (x0,z1) → (x1,z1) → (x1,z0) gives a +Y normal.
  quad([0, 0, 0, 0, 0, D, W, 0, D, W, 0, 0]);
  const h = LESSON_BOX_HEIGHT;
  const e = LESSON_BOX_INSET;
  for (const b of obstacles) {
    const o = { x0: b.x0 + e, z0: b.z0 + e, x1: b.x1 - e, z1: b.z1 - e };
    quad([o.x0, h, o.z0, o.x0, h, o.z1, o.x1, h, o.z1, o.x1, h, o.z0]); // lid
    quad([o.x0, 0, o.z0, o.x1, 0, o.z0, o.x1, h, o.z0, o.x0, h, o.z0]); // -z side
    quad([o.x1, 0, o.z1, o.x0, 0, o.z1, o.x0, h, o.z1, o.x1, h, o.z1]); // +z side
    quad([o.x0, 0, o.z1, o.x0, 0, o.z0, o.x0, h, o.z0, o.x0, h, o.z1]); // -x side
    quad([o.x1, 0, o.z0, o.x1, 0, o.z1, o.x1, h, o.z1, o.x1, h, o.z0]); // +x side
  }
  meshCache = { positions, indices, vertexCount: quads * 4, triangleCount: quads * 2 };
  return meshCache;
}

/** Distance from (x, z) to the nearest obstacle rectangle (0 inside one). */
export function distanceToObstacles(x: number, z: number): number {
  let best = Infinity;
  // #region distance (shown on the explainer page, verbatim)
  for (const o of LESSON_SCENE.obstacles) {
    const dx = x < o.x0 ? o.x0 - x : x > o.x1 ? x - o.x1 : 0;
    const dz = z < o.z0 ? o.z0 - z : z > o.z1 ? z - o.z1 : 0;
    const d = Math.sqrt(dx * dx + dz * dz);
    if (d < best) best = d;
  }
  // #endregion
  return best;
}

/** True when (x, z) lies strictly inside an obstacle. */
export function insideObstacle(x: number, z: number): boolean {
  for (const o of LESSON_SCENE.obstacles) {
    if (x > o.x0 && x < o.x1 && z > o.z0 && z < o.z1) return true;
  }
  return false;
}
