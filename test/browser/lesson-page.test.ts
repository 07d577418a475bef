import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeRgbaPng } from "../helpers/png.js";
import {
  buildPage,
  CJK,
  canvasPixels,
  choose,
  cliEnglish,
  cliTables,
  domEnglish,
  domReadouts,
  domTables,
  launchBrowser,
  meshway,
  openPage,
  RAW_KEY,
  ready,
  serve,
  setRadius,
  setStep,
} from "./harness.js";

// The explainer page (web/) in headless chromium: one build, one server, one browser for the file.
let outDir: string;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  outDir = await buildPage();
  ({ server, origin } = await serve(outDir));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const url = () => `${origin}/index.html`;

describe("the explainer page in a browser", () => {
  it("loads in Chinese with no console errors, four tables, four pictures and a self-check", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    // Hover once so the probe line shows its filled-in form too.
    await page.locator("#s2 canvas").scrollIntoViewIfNeeded();
    const box = (await page.locator("#s2 canvas").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.locator("#probe-2").textContent()).toMatch(/格 \(\d+, \d+\)/);
    // biome-ignore lint/performance/useDomNodeTextContent: only rendered (visible) text counts here
    const visible = await page.locator("body").innerText();
    expect(visible).toMatch(CJK);
    expect(visible.match(RAW_KEY)).toBeNull();
    const tables = await domTables(page);
    expect(tables.map((t) => t.id)).toEqual(["convex", "surface", "partition", "path"]);
    for (const t of tables) expect(t.cells.length).toBeGreaterThan(0);
    expect(await page.locator("canvas:visible").count()).toBe(4);
    // Every picture has its legend: one swatch and name per thing the renderer draws.
    expect(await page.locator(".legend:visible").count()).toBe(4);
    // Section 4 at its last step: sequence, midpoints, point-dropping, funnel, exact, start, goal.
    expect(await page.locator("#s4-legend li").count()).toBe(7);
    expect(await page.locator("#checks-list li").count()).toBeGreaterThan(0);
    expect(await page.locator("#log").textContent()).not.toBe("");
    // Values (cells, readouts, checks' measured/required, log) carry no English word in Chinese.
    const values = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          "table[data-table] td:not(.means), .readouts dd, #checks-list .value",
        ),
        document.getElementById("log")!,
      ].map((n) => n.textContent ?? ""),
    );
    const latin = values.flatMap((v) => v.match(/[A-Za-z][A-Za-z*]*/g) ?? []);
    expect(latin.filter((w) => !["meshway", "A*", "L"].includes(w))).toEqual([]);
    expect(await page.locator("#fallback").isHidden()).toBe(true);
    // Chinese prose uses Chinese terms (门户, 漏斗, 角色); each English term appears once, in
    // parentheses at its first use. Code boxes and file names (funnel.ts) are code, not prose.
    const prose = await page.evaluate(() => {
      const copy = document.body.cloneNode(true) as HTMLElement;
      for (const n of copy.querySelectorAll("pre, script, style, noscript, figcaption")) n.remove();
      return copy.textContent ?? "";
    });
    const english = [...prose.matchAll(/(.)(portal|funnel|agent|pinch|settled)(.)/gi)].map(
      (m) => m[0],
    );
    expect(english.sort()).toEqual(["（agent）", "（funnel）", "（portal）"]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("opened straight from disk (file://) it runs the same way", async () => {
    const { page, pageErrors } = await openPage(
      browser,
      pathToFileURL(join(outDir, "index.html")).href,
    );
    expect((await domTables(page)).length).toBe(4);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("opened in English, the pre-rendered English default state reads exactly as the lesson writes it", async () => {
    // web/prerender.ts puts the English tables, readouts, legends and checks in a template the
    // page swaps in at start-up; a language round trip then rewrites all of them from runLesson.
    const { page, pageErrors } = await openPage(browser, `${url()}?lang=en`);
    const grab = () => page.evaluate(() => document.querySelector("main")!.textContent ?? "");
    const swapped = await grab();
    await page.locator("#lang-zh").click();
    await ready(page);
    await page.locator("#lang-en").click();
    await ready(page);
    expect(swapped).toBe(await grab());
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("moving the slider to 1.50 changes the tables to what `meshway lesson --radius 1.5` prints", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    const before = await domTables(page);
    await page.locator("#radius").focus();
    await page.keyboard.press("End");
    await ready(page);
    expect(JSON.parse((await page.locator("body").getAttribute("data-settings"))!).radius).toBe(
      1.5,
    );
    const after = await domTables(page);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await cliTables("--radius", "1.5"));
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("for radii 0.25, 0.75 and 1.50 the DOM tables equal the CLI's; English text, readouts and checks too", async () => {
    const cases = (["zh", "en"] as const).flatMap((lang) =>
      [0.25, 0.75, 1.5].map((r) => ({ lang, r })),
    );
    const [{ page, pageErrors }, ...expected] = await Promise.all([
      openPage(browser, url()),
      ...cases.map(({ lang, r }) => cliTables("--radius", String(r), "--lang", lang)),
    ]);
    for (const [i, { lang, r }] of cases.entries()) {
      await page.locator(`#lang-${lang}`).click();
      await ready(page);
      await setRadius(page, r);
      expect(await domTables(page), `${lang}, radius ${r}`).toEqual(expected[i]);
    }
    // In English every heading, row label, readout and check reads exactly as the CLI spells it.
    for (const r of [0.25, 1.5]) {
      await setRadius(page, r);
      expect(await domEnglish(page), `radius ${r}`).toEqual(
        await cliEnglish("--radius", String(r)),
      );
    }
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("every canvas shows exactly the pixels of `meshway lesson --png --section N`, at the default state (the pre-rendered pictures) and after changes", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    const dir = mkdtempSync(join(tmpdir(), "meshway-lesson-png-"));
    const expectCanvasesEqualCli = async (tag: string, args: string[]) => {
      const runs = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          meshway("lesson", ...args, "--png", join(dir, `${tag}${n}.png`), "--section", String(n)),
        ),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      for (const section of [1, 2, 3, 4]) {
        const expected = decodeRgbaPng(readFileSync(join(dir, `${tag}${section}.png`)));
        const shown = await canvasPixels(page, `#s${section} canvas`);
        expect([shown.width, shown.height]).toEqual([expected.width, expected.height]);
        // One comparison per picture; a mismatch reports the first differing byte.
        const want = Buffer.from(expected.pixels);
        const firstDiff = shown.pixels.findIndex((b, i) => b !== want[i]);
        expect(firstDiff, `${tag} section ${section}: first differing byte`).toBe(-1);
        expect(shown.pixels.length).toBe(want.length);
      }
    };
    try {
      // The first recompute draws the PNGs pre-rendered into the HTML: they must be the CLI's.
      await expectCanvasesEqualCli("default", []);
      await setRadius(page, 1.1);
      await choose(page, "shape", "L");
      await choose(page, "method", "meshway");
      await setStep(page, 7);
      await expectCanvasesEqualCli("changed", [
        "--radius",
        "1.1",
        "--shape",
        "L",
        "--method",
        "meshway",
        "--step",
        "7",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("the shape, step and method controls each change the readouts; reset restores them", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    const initial = await domReadouts(page);
    let before = initial;
    await choose(page, "shape", "L");
    let after = await domReadouts(page);
    expect(after[0]).not.toBe(before[0]); // section 1 measures the chosen shape

    before = after;
    await setStep(page, 0);
    after = await domReadouts(page);
    expect(after[3]).not.toBe(before[3]); // section 4 reports the path shown

    before = after;
    await choose(page, "method", "meshway");
    after = await domReadouts(page);
    expect(after[3]).not.toBe(before[3]); // the path is found on the other method's polygons

    await setRadius(page, 1.2);
    await page.locator("#reset").click();
    await ready(page);
    const settings = JSON.parse((await page.locator("body").getAttribute("data-settings"))!);
    expect(settings).toEqual({
      radius: 0.75,
      shape: "square",
      method: "simple",
      view: "straight",
      step: -1,
      start: [2.25, 2.75],
      goal: [21.25, 13.25],
      corner: [12, 8],
    });
    expect(await domReadouts(page)).toEqual(initial);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("hovering a picture reports the cell and polygon under the pointer, in section 1 the shape", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    await page.locator("#lang-en").click();
    await ready(page);
    const idle = await page.locator("#probe-3").textContent();
    const canvas = page.locator("#s3 canvas");
    await canvas.scrollIntoViewIfNeeded();
    // The centre of cell (5, 7): 10 picture pixels per cell (LESSON_CANVAS 480 × 320, 48 × 32 cells).
    const at = await canvas.evaluate(
      (c: HTMLCanvasElement, [px, py]) => {
        const box = c.getBoundingClientRect();
        const sx = c.clientWidth / c.width;
        const sy = c.clientHeight / c.height;
        return { x: box.left + c.clientLeft + px! * sx, y: box.top + c.clientTop + py! * sy };
      },
      [55, 75],
    );
    await page.mouse.move(at.x, at.y);
    const probe = await page.locator("#probe-3").textContent();
    expect(probe).not.toBe(idle);
    expect(probe).toContain("x = 2.75, z = 3.75");
    expect(probe).toContain("cell (5, 7)");
    expect(probe).toMatch(/polygon \d+|in no polygon/);
    // Section 1 draws the shape under test, not the scene: the probe names the shape.
    const s1 = page.locator("#s1 canvas");
    await s1.scrollIntoViewIfNeeded();
    const s1box = (await s1.boundingBox())!;
    await page.mouse.move(s1box.x + s1box.width / 2, s1box.y + s1box.height / 2);
    expect(await page.locator("#probe-1").textContent()).toContain("inside the square");
    expect(await page.locator("#probe-1").textContent()).not.toContain("cell");
    await page.mouse.move(s1box.x + 3, s1box.y + 3);
    expect(await page.locator("#probe-1").textContent()).toContain("outside the square");
    await page.mouse.move(1, 1);
    expect(await page.locator("#probe-3").textContent()).toBe(idle);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("without a canvas 2D context the notice appears and the text and all four tables still render", async () => {
    const noCanvas = "HTMLCanvasElement.prototype.getContext = function () { return null; };";
    const { page, pageErrors } = await openPage(browser, url(), noCanvas);
    expect(await page.locator("#fallback").isVisible()).toBe(true);
    expect(await page.locator("#fallback").textContent()).toMatch(CJK);
    expect(await page.locator("canvas:visible").count()).toBe(0);
    expect(await page.locator(".legend:visible").count()).toBe(0);
    // Nothing to point at: the probe's line is not shown either.
    expect(await page.locator(".probe-out:visible").count()).toBe(0);
    const tables = await domTables(page);
    expect(tables.map((t) => t.id)).toEqual(["convex", "surface", "partition", "path"]);
    const [atDefault, atMax] = await Promise.all([cliTables(), cliTables("--radius", "1.5")]);
    expect(tables).toEqual(atDefault);
    await setRadius(page, 1.5);
    expect(await domTables(page)).toEqual(atMax);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("the English switch leaves no Chinese character visible anywhere on the page", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    await page.locator("#lang-en").click();
    await ready(page);
    // Hover once so the probe line shows its filled-in form too.
    await page.locator("#s4 canvas").scrollIntoViewIfNeeded();
    const box = (await page.locator("#s4 canvas").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.locator("#probe-4").textContent()).toMatch(/cell \(\d+, \d+\)/);
    // biome-ignore lint/performance/useDomNodeTextContent: only rendered (visible) text counts here
    const visible = await page.locator("body").innerText();
    // The one exception: the button back to Chinese reads in Chinese (lang="zh-CN").
    const offending = [...visible.split("\n")].filter((line) => CJK.test(line) && line !== "中文");
    expect(offending).toEqual([]);
    expect(visible.match(RAW_KEY)).toBeNull();
    const attributes = await page.evaluate(() =>
      [...document.querySelectorAll("[aria-label]")].map((n) => n.getAttribute("aria-label")),
    );
    expect(attributes.filter((a) => CJK.test(a ?? ""))).toEqual([]);
    expect(await page.title()).not.toMatch(CJK);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    mkdirSync("test-results", { recursive: true });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "test-results/lesson.png", fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it("survives the slider dragged end to end 30 times and spammed toggles, ending consistent", async () => {
    const { page, pageErrors } = await openPage(browser, url());
    const slider = page.locator("#radius");
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    for (let i = 0; i < 30; i++) {
      const [from, to] = i % 2 === 0 ? [box.x, box.x + box.width] : [box.x + box.width, box.x];
      await page.mouse.move(from + (i % 2 === 0 ? 1 : -1), y);
      await page.mouse.down();
      await page.mouse.move(to, y, { steps: 2 });
      await page.mouse.up();
    }
    const toggles = [
      'input[name="shape"][value="L"]',
      "#step-prev",
      'input[name="method"][value="simple"]',
      'input[name="shape"][value="square"]',
      "#step-next",
      'input[name="method"][value="meshway"]',
      "#lang-en",
      "#lang-zh",
      "#reset",
    ];
    // force: the step buttons are disabled at either end of the timeline (a click then does nothing).
    // Three passes over every toggle, in a scrambled order (7 and 9 are coprime).
    for (let i = 0; i < 3 * toggles.length; i++)
      await page.locator(toggles[(i * 7) % toggles.length]!).click({ force: true });
    await page.locator('input[name="method"][value="simple"]').click();
    await ready(page);
    const settings = JSON.parse((await page.locator("body").getAttribute("data-settings"))!);
    const controls = await page.evaluate(() => ({
      radius: Number((document.getElementById("radius") as HTMLInputElement).value),
      shape: document.querySelector<HTMLInputElement>('input[name="shape"]:checked')!.value,
      method: document.querySelector<HTMLInputElement>('input[name="method"]:checked')!.value,
    }));
    expect(settings).toMatchObject({
      ...controls,
      radius: Math.round(controls.radius * 100) / 100,
    });
    const lang = await page.evaluate(() => document.documentElement.lang);
    expect(await domTables(page)).toEqual(
      await cliTables(
        "--radius",
        String(settings.radius),
        "--shape",
        settings.shape,
        "--method",
        settings.method,
        "--view",
        settings.view,
        "--step",
        settings.step < 0 ? "last" : String(settings.step),
        "--lang",
        lang === "en" ? "en" : "zh",
      ),
    );
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
