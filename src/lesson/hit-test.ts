import { pointInPolygon } from "./geometry.js";
import { LESSON_SCENE } from "./scene.js";
import type { LessonMethod } from "./settings.js";
import { CELL_WALKABLE } from "./surface.js";
import type { LessonResult } from "./types.js";

/** What lies under a world XZ point. */
export interface LessonHit {
  /** [col, row] of the cell, null outside the scene. */
  cell: [number, number] | null;
  /** Walkable after filtering, by `method`'s surface. */
  walkable: boolean;
  /** The polygon of `method`'s partition containing the point, or null. */
  polygon: number | null;
  /** Inside (or on the boundary of) section 1's shape, the square or the L being tested. */
  inShape: boolean;
}

/**
 * World XZ → the cell and the polygon under it, for hovering. `method` picks whose surface
 * and partition answer (default: the settings' method).
 */
export function hitTestLesson(
  result: LessonResult,
  x: number,
  z: number,
  method: LessonMethod = result.settings.method,
): LessonHit {
  const { cols, rows, cellSize } = LESSON_SCENE;
  const inShape = pointInPolygon(result.convex.shown.ring, x, z);
  if (!(x >= 0 && z >= 0 && x < LESSON_SCENE.width && z < LESSON_SCENE.depth)) {
    return { cell: null, walkable: false, polygon: null, inShape };
  }
  const i = Math.min(cols - 1, Math.floor(x / cellSize));
  const j = Math.min(rows - 1, Math.floor(z / cellSize));
  const state = method === "simple" ? result.surface.simple.state : result.surface.meshway.state;
  const p = result.partition[method].surface.find(x, z);
  return {
    cell: [i, j],
    walkable: state[i + j * cols] === CELL_WALKABLE,
    polygon: p >= 0 ? p : null,
    inShape,
  };
}
