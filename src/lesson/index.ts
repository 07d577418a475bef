// The explainer lesson "from cells to faces": scene, criteria, tables — pure, browser-safe.
export type { Adjacency } from "./adjacency.js";
export {
  CONVEX_DRAWN,
  CONVEX_PAIRS,
  CONVEX_SAMPLES,
  LESSON_SHAPES_XZ,
  PARTITION_PAIRS_PER_POLYGON,
  type PartitionConvexity,
  type ShapeConvexity,
} from "./convex.js";
export { computeExactPath, type ExactPath } from "./exact-path.js";
export { fmt4, fmtBool, fmtInt, fmtOf, fmtPercent, fmtRadius, NA } from "./format.js";
export { ConvexSurface, crossProductSigns, pointInPolygon, type Ring } from "./geometry.js";
export { hitTestLesson, type LessonHit } from "./hit-test.js";
export { MESSAGES, t, tv } from "./i18n.js";
export type { MeshwayLessonBuild } from "./meshway-build.js";
export { formatLessonTables, lessonToJson } from "./output.js";
export type { LessonPartition } from "./partition.js";
export { type LessonPath, type LessonPolyline, PATH_SAMPLE_STEP } from "./path.js";
export type { CellRectangles } from "./rectangles.js";
export { clearLessonCache, prepareLesson, runLesson } from "./run.js";
export {
  LESSON_BOX_HEIGHT,
  LESSON_BOX_INSET,
  LESSON_SCENE,
  type LessonObstacle,
  lessonBuildConfig,
  lessonTriangleMesh,
} from "./scene.js";
export {
  DEFAULT_LESSON_SETTINGS,
  LESSON_CORNER,
  LESSON_DEFAULT_CORNER,
  LESSON_LANGS,
  LESSON_METHODS,
  LESSON_RADIUS,
  LESSON_RADIUS_STEPS,
  LESSON_SHAPES,
  LESSON_VIEWS,
  type LessonLang,
  type LessonMethod,
  type LessonPathView,
  type LessonSettings,
  type LessonShape,
  lessonRadii,
  resolveLessonSettings,
} from "./settings.js";
export { cellNavMesh } from "./simple-navmesh.js";
export {
  CELL_BLOCKED,
  CELL_REMOVED,
  CELL_WALKABLE,
  type LessonSurface,
  type SurfaceMethod,
} from "./surface.js";
export type {
  LessonCell,
  LessonCheck,
  LessonConvexSection,
  LessonPartitionSection,
  LessonReadout,
  LessonResult,
  LessonSectionReadouts,
  LessonTable,
  LessonTableRow,
  MessageKey,
} from "./types.js";
