import { MeshwayError } from "../errors.js";
import { LESSON_SCENE } from "./scene.js";

/** Which polygon section 1 tests: a convex square or a concave L. */
export type LessonShape = "square" | "L";
/** Whose partition and path the lesson shows: the lesson's toy methods or meshway's real ones. */
export type LessonMethod = "simple" | "meshway";
/** Which path section 4 draws: through portal midpoints, or straightened. */
export type LessonPathView = "midpoint" | "straight";
export type LessonLang = "zh" | "en";

/** Everything the lesson's controls choose. */
export interface LessonSettings {
  /** Agent radius [world units, LESSON_RADIUS.min..max on the 0.05 grid]. */
  radius: number;
  shape: LessonShape;
  method: LessonMethod;
  view: LessonPathView;
  /**
   * Section 4's step slider (src/lesson/timeline.ts): 0 the midpoints, then point-dropping
   * test by test, the funnel portal by portal, and the final path; -1 (or past the end) the
   * final path. `view: "midpoint"` draws step 0 whatever this is.
   */
  step: number;
  /** Start and goal of section 4's path, XZ in world units inside the 24 × 16 scene. */
  start: readonly [number, number];
  goal: readonly [number, number];
  /**
   * Section 1: the L's inner corner, XZ in world units, inside the notch LESSON_CORNER (the
   * L's other corners stay). At (12, 8) the corner is reflex; dragged past the diagonal from
   * (12, 3) to (17, 8) it turns convex and so does the shape.
   */
  corner: readonly [number, number];
}

/** Where the L's inner corner may go: the notch's square, so the outline never crosses itself. */
export const LESSON_CORNER = Object.freeze({ minX: 12, maxX: 17, minZ: 3, maxZ: 8, step: 0.25 });
/** The L's inner corner as drawn by default. */
export const LESSON_DEFAULT_CORNER: readonly [number, number] = Object.freeze([12, 8] as const);

/** Largest step the settings accept (timelines are a few tens of steps long). */
export const LESSON_MAX_STEP = 999;

/** The radius slider: 0.25 to 1.50 in steps of 0.05 (26 values). */
export const LESSON_RADIUS = Object.freeze({ min: 0.25, max: 1.5, step: 0.05 });

export const DEFAULT_LESSON_SETTINGS: Readonly<LessonSettings> = Object.freeze({
  radius: 0.75,
  shape: "square",
  method: "simple",
  view: "straight",
  step: -1,
  start: LESSON_SCENE.start,
  goal: LESSON_SCENE.goal,
  corner: LESSON_DEFAULT_CORNER,
});

export const LESSON_SHAPES: readonly LessonShape[] = ["square", "L"];
export const LESSON_METHODS: readonly LessonMethod[] = ["simple", "meshway"];
export const LESSON_VIEWS: readonly LessonPathView[] = ["midpoint", "straight"];
export const LESSON_LANGS: readonly LessonLang[] = ["zh", "en"];

/** Number of slider positions (26). */
export const LESSON_RADIUS_STEPS =
  Math.round((LESSON_RADIUS.max - LESSON_RADIUS.min) / LESSON_RADIUS.step) + 1;

/** Slider index 0..25 of a radius already on the grid. */
export function radiusIndex(radius: number): number {
  return Math.round((radius - LESSON_RADIUS.min) / LESSON_RADIUS.step);
}

/** The radius at slider index i, rounded to two decimals (0.25, 0.3, … 1.5). */
export function radiusAt(index: number): number {
  return Math.round((LESSON_RADIUS.min + index * LESSON_RADIUS.step) * 100) / 100;
}

/** Every slider radius, smallest first. */
export function lessonRadii(): number[] {
  const out: number[] = [];
  for (let i = 0; i < LESSON_RADIUS_STEPS; i++) out.push(radiusAt(i));
  return out;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new MeshwayError(
    "INVALID_ARGUMENT",
    `lesson option "${name}" = ${JSON.stringify(value)} is not one of ${allowed.join(", ")}`,
  );
}

const LESSON_EXTENT = { width: LESSON_SCENE.width, depth: LESSON_SCENE.depth };

function point(name: string, value: unknown): [number, number] {
  const ok =
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((v) => typeof v === "number" && Number.isFinite(v));
  if (!ok) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson option "${name}" = ${JSON.stringify(value)} is not a point [x, z] of two finite numbers`,
    );
  }
  const [x, z] = value as [number, number];
  if (!(x >= 0 && x <= LESSON_EXTENT.width && z >= 0 && z <= LESSON_EXTENT.depth)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson option "${name}" = ${x},${z} is outside the scene: x must be in 0..${LESSON_EXTENT.width}, z in 0..${LESSON_EXTENT.depth}`,
    );
  }
  // Two decimals, like the page's readouts: the page and the CLI then agree on the very point.
  return [Math.round(x * 100) / 100, Math.round(z * 100) / 100];
}

/**
 * Fills missing settings from the defaults and checks each one. The radius must lie in
 * 0.25..1.50 and is snapped to the nearest 0.05 step. Throws MeshwayError INVALID_ARGUMENT
 * naming the option and value.
 */
export function resolveLessonSettings(partial: Partial<LessonSettings> = {}): LessonSettings {
  if (partial === null || typeof partial !== "object") {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson settings must be an object, got ${String(partial)}`,
    );
  }
  const d = DEFAULT_LESSON_SETTINGS;
  const r = partial.radius ?? d.radius;
  if (
    typeof r !== "number" ||
    !Number.isFinite(r) ||
    r < LESSON_RADIUS.min - 1e-9 ||
    r > LESSON_RADIUS.max + 1e-9
  ) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson option "radius" = ${String(r)} is out of range: expected a number in ${LESSON_RADIUS.min}..${LESSON_RADIUS.max}`,
    );
  }
  const step = partial.step ?? d.step;
  if (typeof step !== "number" || !Number.isInteger(step) || step < -1 || step > LESSON_MAX_STEP) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson option "step" = ${String(step)} is not an integer in -1..${LESSON_MAX_STEP}`,
    );
  }
  const start = point("start", partial.start ?? d.start);
  const goal = point("goal", partial.goal ?? d.goal);
  const corner = point("corner", partial.corner ?? d.corner);
  const C = LESSON_CORNER;
  if (!(corner[0] >= C.minX && corner[0] <= C.maxX && corner[1] >= C.minZ && corner[1] <= C.maxZ)) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `lesson option "corner" = ${corner[0]},${corner[1]} is outside the L's notch: x must be in ${C.minX}..${C.maxX}, z in ${C.minZ}..${C.maxZ}`,
    );
  }
  return {
    radius: radiusAt(radiusIndex(r)),
    shape: oneOf("shape", partial.shape ?? d.shape, LESSON_SHAPES),
    method: oneOf("method", partial.method ?? d.method, LESSON_METHODS),
    view: oneOf("view", partial.view ?? d.view, LESSON_VIEWS),
    step,
    start,
    goal,
    corner,
  };
}
