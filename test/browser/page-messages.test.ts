import { describe, expect, it } from "vitest";
import { lessonRadii, runLesson } from "../../src/lesson/index.js";
import { isPageMessageKey, PAGE_MESSAGES, pageText } from "../../web/page-messages.js";
import { CJK } from "./harness.js";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the explainer page's prose", () => {
  it("has the same keys in Chinese and English, all prefixed page.", () => {
    const zh = Object.keys(PAGE_MESSAGES.zh).sort();
    expect(Object.keys(PAGE_MESSAGES.en).sort()).toEqual(zh);
    expect(zh.filter((k) => !k.startsWith("page."))).toEqual([]);
  });

  it("uses the same placeholders in both languages for every key", () => {
    for (const key of Object.keys(PAGE_MESSAGES.zh) as (keyof typeof PAGE_MESSAGES.zh)[]) {
      expect(placeholders(PAGE_MESSAGES.en[key]), key).toEqual(placeholders(PAGE_MESSAGES.zh[key]));
    }
  });

  it("has no Chinese character in English and no empty message", () => {
    for (const [key, text] of Object.entries(PAGE_MESSAGES.en)) {
      expect(CJK.test(text), key).toBe(false);
      expect(text.trim(), key).not.toBe("");
    }
    for (const [key, text] of Object.entries(PAGE_MESSAGES.zh))
      expect(text.trim(), key).not.toBe("");
  });

  it("fills placeholders and keeps unknown ones", () => {
    expect(pageText("en", "page.checks.summary", { pass: 3, total: 4 })).toBe("3 / 4 passed");
    expect(pageText("zh", "page.checks.summary", { pass: 3 })).toBe("3 / {total} 项通过");
    expect(isPageMessageKey("page.title")).toBe(true);
    expect(isPageMessageKey("table.convex.title")).toBe(false);
    expect(isPageMessageKey("toString")).toBe(false);
  });
});

// The prose quotes measurements; these keep the two from drifting apart (issue 16 review).
describe("the prose's measured claims", () => {
  const radii = lessonRadii();
  const runs = radii.map((radius) => runLesson({ radius }));
  const inRanges = (r: number, ranges: [number, number][]) =>
    ranges.some(([a, b]) => r >= a - 1e-9 && r <= b + 1e-9);

  it("page.honest.3: meshway has fewer polygons than the rectangles only at 0.30–0.35, 0.80–1.05, 1.30–1.45", () => {
    const fewer: [number, number][] = [
      [0.3, 0.35],
      [0.8, 1.05],
      [1.3, 1.45],
    ];
    runs.forEach((run, k) => {
      const simple = run.partition.simple.polygons.length;
      const meshway = run.partition.meshway.polygons.length;
      const r = radii[k]!;
      expect(meshway < simple, `r ${r}: ${meshway} vs ${simple}`).toBe(inRanges(r, fewer));
      if (inRanges(r, fewer)) expect(simple >= 19 && simple <= 22, `r ${r}`).toBe(true);
      if (r === 0.75) expect([meshway, simple]).toEqual([14, 9]);
    });
    for (const lang of ["zh", "en"] as const) {
      const text = PAGE_MESSAGES[lang]["page.honest.3"];
      for (const s of ["14", "9", "12", "0.30–0.35", "0.80–1.05", "1.30–1.45", "19–22"])
        expect(text, `${lang} ${s}`).toContain(s);
    }
  });

  it("page.s2.observe: meshway's walkable surface changes only at 0.55 and 1.05", () => {
    const changes = radii.filter(
      (_, k) =>
        k > 0 && runs[k]!.surface.meshway.walkable !== runs[k - 1]!.surface.meshway.walkable,
    );
    expect(changes).toEqual([0.55, 1.05]);
    for (const lang of ["zh", "en"] as const)
      for (const s of ["0.55", "1.05"])
        expect(PAGE_MESSAGES[lang]["page.s2.observe"], lang).toContain(s);
  });
});
