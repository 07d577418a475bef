// TEMPORARY: the page's one import point for the lesson API. Real modules where they exist,
// the mock (mock-lesson.ts) for what lesson-core has not landed yet.
export { runLesson } from "../src/lesson/run.js";
export {
  DEFAULT_LESSON_SETTINGS,
  LESSON_RADIUS,
  type LessonLang,
  type LessonMethod,
  type LessonSettings,
  resolveLessonSettings,
} from "../src/lesson/settings.js";
export type { LessonResult } from "../src/lesson/types.js";
export { isPageMessageKey, pageText } from "../src/lesson/web-support/page-messages.js";
export { type LessonReadout, lessonReadouts } from "../src/lesson/web-support/readouts.js";
export { hitTestLesson, lessonPixelToWorld, renderLessonSection, t } from "./mock-lesson.js";
