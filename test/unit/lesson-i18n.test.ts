import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MESSAGES, runLesson, t } from "../../src/lesson/index.js";

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;

describe("lesson i18n", () => {
  it("zh and en have exactly the same keys", () => {
    expect(Object.keys(MESSAGES.en).sort()).toEqual(Object.keys(MESSAGES.zh).sort());
  });

  it("no lesson key collides with the page's own page.* keys", () => {
    for (const k of Object.keys(MESSAGES.zh)) expect(k.startsWith("page.")).toBe(false);
  });

  it("every key has non-empty text in both languages, English free of CJK", () => {
    for (const lang of ["zh", "en"] as const) {
      for (const [k, v] of Object.entries(MESSAGES[lang]))
        expect(v.trim().length, `${lang} ${k}`).toBeGreaterThan(0);
    }
    for (const [k, v] of Object.entries(MESSAGES.en)) expect(CJK.test(v), k).toBe(false);
  });

  it("both languages use the same placeholders for each key", () => {
    const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const k of Object.keys(MESSAGES.zh))
      expect(vars(MESSAGES.en[k]!), k).toEqual(vars(MESSAGES.zh[k]!));
  });

  it("every key a result uses (titles, columns, rows, checks, readouts, log) exists", () => {
    for (const method of ["simple", "meshway"] as const) {
      const r = runLesson({ radius: 0.75, method, shape: "L", view: "midpoint" });
      const keys = [
        ...r.tables.flatMap((tb) => [
          tb.title,
          ...tb.columns,
          ...tb.rows.flatMap((row) => [row.label, row.means]),
        ]),
        ...r.checks.map((c) => c.label),
        ...r.readouts.flatMap((s) => s.items.map((i) => i.label)),
        ...r.log,
      ];
      for (const k of keys) expect(k in MESSAGES.zh, k).toBe(true);
      for (const [i, k] of r.log.entries()) expect(t("en", k, r.logVars[i])).not.toMatch(/\{\w+\}/);
      for (const tb of r.tables) expect(t("zh", tb.title, tb.titleVars)).not.toMatch(/\{\w+\}/);
    }
  });

  it("t fills placeholders and falls back to the key for unknown keys", () => {
    expect(t("en", "check.summary", { passed: 3, total: 4 })).toBe("Self-check: 3 / 4 pass");
    expect(t("zh", "check.summary", { passed: 3, total: 4 })).toBe("自检：3 / 4 项通过");
    expect(t("en", "no.such.key")).toBe("no.such.key");
  });

  it("the page's own messages (web/) also have the same keys in both languages", async () => {
    const file = "web/page-messages.ts";
    if (!existsSync(file)) return;
    const mod = (await import("../../web/page-messages.js")) as {
      PAGE_MESSAGES: { zh: Record<string, string>; en: Record<string, string> };
    };
    expect(Object.keys(mod.PAGE_MESSAGES.en).sort()).toEqual(
      Object.keys(mod.PAGE_MESSAGES.zh).sort(),
    );
  });
});
