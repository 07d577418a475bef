import { describe, expect, it } from "vitest";
import {
  formatLessonTables,
  type LessonLang,
  type LessonResult,
  lessonToJson,
  runLesson,
  t,
  tv,
} from "../../src/lesson/index.js";

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;
/** Latin words a Chinese value may keep: the product name, the algorithm and the L shape. */
const ZH_ALLOWED = new Set(["meshway", "A*", "L"]);

/** Every value string the page and the CLI show for a result in `lang`. */
function shownValues(r: LessonResult, lang: LessonLang): string[] {
  return [
    ...r.tables.map((tb) => t(lang, tb.title, tb.titleVars)),
    ...r.tables.flatMap((tb) => tb.rows.flatMap((row) => row.cells.map((c) => tv(lang, c)))),
    ...r.readouts.flatMap((s) => s.items.map((i) => tv(lang, i.value))),
    ...r.checks.flatMap((c) => [tv(lang, c.measured), tv(lang, c.expected)]),
    ...r.log.map((key, i) => t(lang, key, r.logVars[i])),
  ];
}

const latinWords = (s: string) => s.match(/[A-Za-z][A-Za-z*]*/g) ?? [];

const CASES = [0.25, 0.75, 1.5].flatMap((radius) =>
  (["simple", "meshway"] as const).flatMap((method) =>
    (["square", "L"] as const).map((shape) => ({ radius, method, shape })),
  ),
);

describe("lesson value words follow the language", () => {
  it.each(CASES)(
    "zh: no Latin word but meshway and A* in cells, readouts, checks, log ($radius, $method, $shape)",
    (c) => {
      const r = runLesson({ ...c, view: "straight" });
      for (const s of shownValues(r, "zh"))
        for (const w of latinWords(s)) expect(ZH_ALLOWED.has(w), `"${w}" in "${s}"`).toBe(true);
    },
  );

  it.each(CASES)("en: no CJK in cells, readouts, checks, log ($radius, $method, $shape)", (c) => {
    const r = runLesson({ ...c, view: "straight" });
    for (const s of shownValues(r, "en")) expect(CJK.test(s), s).toBe(false);
  });

  it("every value word has its own translation: statuses, booleans, method, vs", () => {
    expect(
      ["complete", "partial", "noStart", "true", "false", "simple", "vs"].map((w) => tv("zh", w)),
    ).toEqual(["完整", "不完整", "无起点", "是", "否", "简单方法", "对"]);
    expect(tv("zh", "290 vs 1000")).toBe("290 对 1000");
    expect(tv("zh", "meshway")).toBe("meshway");
    expect(tv("en", "12 vs 34; true; complete")).toBe("12 vs 34; yes; complete");
  });

  it("the CLI's text and JSON spell the cells as tv does in their language; raw cells stay neutral", () => {
    const r = runLesson({ radius: 0.75, method: "simple", shape: "L", view: "straight" });
    const zhText = formatLessonTables(r, "zh", "text");
    expect(zhText).toContain("完整");
    expect(zhText).not.toMatch(/\b(complete|true|false|simple|vs)\b/);
    const json = lessonToJson(r, "zh") as {
      lang: string;
      tables: { rows: { cells: string[]; text: string[] }[] }[];
      log: { text: string }[];
    };
    expect(json.lang).toBe("zh");
    const path = json.tables[3]!.rows;
    expect(path[0]!.cells).toEqual(["simple"]);
    expect(path[0]!.text).toEqual(["简单方法"]);
    expect(path[1]!.cells).toEqual(["complete"]);
    expect(path[1]!.text).toEqual(["完整"]);
    expect(json.log[4]!.text).toContain("找路（简单方法）：完整");
  });
});
