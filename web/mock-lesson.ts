// TEMPORARY stand-in for the parts of lesson-core's API that have not landed yet (i18n `t`,
// renderLessonSection, hitTestLesson, pixel → world). Removed before the final commit.
import type { LessonLang, LessonMethod } from "../src/lesson/settings.js";
import type { LessonResult } from "../src/lesson/types.js";

export function t(_lang: LessonLang, key: string, vars?: Record<string, string | number>) {
  return vars ? `${key} ${JSON.stringify(vars)}` : key;
}
export function hitTestLesson(_r: LessonResult, x: number, z: number, _m?: LessonMethod) {
  return {
    cell: [Math.floor(x / 0.5), Math.floor(z / 0.5)] as [number, number],
    walkable: true,
    polygon: 3,
  };
}
export function renderLessonSection(r: LessonResult, section: 1 | 2 | 3 | 4) {
  const data = new Uint8ClampedArray(480 * 320 * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = section * 50;
    data[i + 1] = Math.round(r.settings.radius * 100);
    data[i + 2] = 128;
    data[i + 3] = 255;
  }
  return { width: 480, height: 320, data };
}
export function lessonPixelToWorld(_section: 1 | 2 | 3 | 4, px: number, py: number) {
  return { x: px / 20, z: py / 20, panel: null as LessonMethod | null };
}
