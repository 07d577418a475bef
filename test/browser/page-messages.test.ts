import { describe, expect, it } from "vitest";
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
