import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runLesson, tv } from "../../src/lesson/index.js";
import { codeRegion } from "../../web/code-region.js";
import { pageReadoutIds } from "../../web/page-readouts.js";
import { escapeHtml, fillPageText, prerenderPage } from "../../web/prerender.js";

// web/index.html carries the Chinese text of every data-msg element (no empty heading, link or
// label, for a reader without JavaScript and for Biome's a11y rules). To refresh it after
// changing page-messages.ts: MESHWAY_WRITE_PAGE=1 npx vitest run test/unit/page-prerender.test.ts
const SOURCE = "web/index.html";

describe("the pre-rendered page", () => {
  it("web/index.html already holds the page text (fillPageText changes nothing)", () => {
    const html = readFileSync(SOURCE, "utf8");
    const filled = fillPageText(html);
    if (process.env.MESHWAY_WRITE_PAGE === "1" && filled !== html) writeFileSync(SOURCE, filled);
    expect(filled).toBe(html);
    expect(html).not.toMatch(/<h[1-3][^>]*><\/h[1-3]>/);
    expect(html).not.toMatch(/<a [^>]*><\/a>/);
  });

  it("the build writes the default tables, readouts and self-check into the HTML", () => {
    const html = prerenderPage(readFileSync(SOURCE, "utf8"));
    const r = runLesson({});
    for (const table of r.tables) {
      expect(html).toContain(`data-table="${table.id}"`);
      for (const row of table.rows)
        for (const cell of row.cells)
          expect(html).toContain(`<td>${escapeHtml(tv("zh", cell))}</td>`);
    }
    for (const s of r.readouts)
      for (const i of s.items.filter((i) => pageReadoutIds(s.section).includes(i.id)))
        expect(html).toContain(`data-readout="${i.id}">${escapeHtml(tv("zh", i.value))}<`);
    expect(html).toMatch(/id="checks-list"><li/);
    expect(html).toMatch(/id="summary"[^>]*>[^<]+28\.9660/);
  });

  it("the build writes the code boxes too: the quoted source is there without JavaScript", () => {
    const funnel = codeRegion(readFileSync("src/lesson/funnel.ts", "utf8"), "funnel");
    const html = prerenderPage(readFileSync(SOURCE, "utf8"), { "funnel:funnel": funnel });
    expect(funnel.length).toBeGreaterThan(10);
    expect(html).toContain(`<pre id="code-4">${escapeHtml(funnel.join("\n"))}</pre>`);
    // Regions not given stay empty (the page's CSS hides an empty box).
    expect(html).toContain('<pre id="code-1"></pre>');
  });
});
