#!/usr/bin/env node
// Screenshot of the explainer page for the README: builds web/ with Vite into a temporary folder,
// opens it from disk in headless Debian chromium and captures the view at section 3.
//   node scripts/screenshot-lesson.mjs [--lang en|zh] [--out docs/lesson.png]
// English by default: the Chinese text needs CJK fonts, which minimal Linux images lack.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { build } from "vite";

const { values } = parseArgs({
  options: {
    lang: { type: "string", default: "en" },
    out: { type: "string", default: "docs/lesson.png" },
  },
});
if (values.lang !== "en" && values.lang !== "zh")
  throw new Error(`--lang must be en or zh, not ${values.lang}`);

const outDir = mkdtempSync(join(tmpdir(), "meshway-web-shot-"));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  await build({
    configFile: "web/vite.config.ts",
    logLevel: "warn",
    build: { outDir, emptyOutDir: true },
  });
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  await page.goto(pathToFileURL(join(outDir, "index.html")).href);
  await page.waitForSelector('body[data-ready="true"]', { state: "attached" });
  await page.click(`#lang-${values.lang}`);
  await page.waitForSelector('body[data-ready="true"]', { state: "attached" });
  // What a reader sees at section 3: the sticky controls on top, the text, the picture with its
  // readouts, the pointer probing a polygon.
  await page.locator("#s3").evaluate((el) => el.scrollIntoView({ block: "start" }));
  const box = await page.locator("#s3 canvas").boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.55);
  await page.screenshot({ path: values.out });
  console.log(`wrote ${values.out} (1280×900 px, ${values.lang})`);
} finally {
  await browser.close();
  rmSync(outDir, { recursive: true, force: true });
}
