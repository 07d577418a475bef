// meshway/lesson: the explainer lesson "from cells to faces" — scene, criteria, tables, pictures.
// Its own entry point (not the root), so an app that builds or queries navmeshes never loads the
// lesson's toy methods (issue 17, start-up and size).
export {
  clearLessonCache,
  DEFAULT_LESSON_SETTINGS,
  formatLessonTables,
  hitTestLesson,
  LESSON_RADIUS,
  LESSON_SCENE,
  type LessonCheck,
  type LessonHit,
  type LessonLang,
  type LessonMethod,
  type LessonPathView,
  type LessonResult,
  type LessonSettings,
  type LessonShape,
  type LessonTable,
  lessonBuildConfig,
  lessonRadii,
  lessonToJson,
  lessonTriangleMesh,
  resolveLessonSettings,
  runLesson,
} from "./index.js";
export {
  LESSON_CANVAS,
  LESSON_SCALE,
  type LessonSection,
  lessonPixelToWorld,
  renderLessonSection,
} from "./pictures.js";
