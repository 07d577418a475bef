// TEMPORARY stand-in for src/lesson + src/render/lesson.ts until lesson-core's API lands.
// Remove before the final commit (lesson-api.ts then re-exports the real modules).
export type LessonShape = "square" | "L";
export type LessonMethod = "simple" | "meshway";
export type LessonPathView = "midpoint" | "straight";
export type LessonLang = "zh" | "en";
export interface LessonSettings {
  radius: number;
  shape: LessonShape;
  method: LessonMethod;
  view: LessonPathView;
}
export const DEFAULT_LESSON_SETTINGS: LessonSettings = {
  radius: 0.75,
  shape: "square",
  method: "meshway",
  view: "straight",
};
export const LESSON_RADIUS = { min: 0.25, max: 1.5, step: 0.05 };
export type MessageKey = string;
export interface LessonTable {
  id: "convex" | "surface" | "partition" | "path";
  title: MessageKey;
  columns: MessageKey[];
  rows: { label: MessageKey; cells: string[] }[];
}
export interface LessonCheck {
  id: string;
  label: MessageKey;
  pass: boolean;
  measured: string;
  expected: string;
}
export interface LessonReadout {
  id: string;
  label: MessageKey;
  value: string;
}
export interface LessonResult {
  settings: LessonSettings;
  tables: LessonTable[];
  checks: LessonCheck[];
  readouts: { section: 1 | 2 | 3 | 4; items: LessonReadout[] }[];
  log: MessageKey[];
  logVars: Record<string, string>[];
}
export const MESSAGES = {
  zh: {
    "m.table": "表 {n}",
    "m.col": "列",
    "m.row": "行",
    "m.check": "检查",
    "m.log": "用时 {ms} 毫秒",
    "m.r": "读数",
  },
  en: {
    "m.table": "Table {n}",
    "m.col": "Column",
    "m.row": "Row",
    "m.check": "Check",
    "m.log": "took {ms} ms",
    "m.r": "Readout",
  },
} as Record<LessonLang, Record<string, string>>;
export function t(lang: LessonLang, key: MessageKey, vars?: Record<string, string | number>) {
  const s = MESSAGES[lang][key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (w, n: string) => String(vars[n] ?? w)) : s;
}
export function resolveLessonSettings(p: Partial<LessonSettings>): LessonSettings {
  const s = { ...DEFAULT_LESSON_SETTINGS, ...p };
  return { ...s, radius: Math.round(s.radius * 20) / 20 };
}
export function runLesson(s: LessonSettings): LessonResult {
  const ids = ["convex", "surface", "partition", "path"] as const;
  const v = `${s.radius.toFixed(2)}/${s.shape}/${s.method}/${s.view}`;
  return {
    settings: { ...s },
    tables: ids.map((id, i) => ({
      id,
      title: "m.table",
      columns: ["m.col", "m.col", "m.col"],
      rows: [0, 1, 2].map((r) => ({ label: "m.row", cells: [`${i}.${r}`, v] })),
    })),
    checks: [0, 1, 2].map((i) => ({
      id: `c${i}`,
      label: "m.check",
      pass: i !== 2 || s.radius < 1.4,
      measured: v,
      expected: "x",
    })),
    readouts: ([1, 2, 3, 4] as const).map((section) => ({
      section,
      items: [{ id: "r", label: "m.r", value: v }],
    })),
    log: ["m.log"],
    logVars: [{ ms: "3" }],
  };
}
export function hitTestLesson(_r: LessonResult, x: number, z: number, _m?: LessonMethod) {
  return {
    cell: [Math.floor(x / 0.5), Math.floor(z / 0.5)] as [number, number],
    walkable: true,
    polygon: 3,
  };
}
export const LESSON_CANVAS = { width: 480, height: 320 };
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
