#!/usr/bin/env node
// Screenshots of the explainer page for the README: builds web/ with Vite into a temporary
// folder, opens it from disk in headless Debian chromium and captures section 4's figure at its
// last step (every path drawn, the step slider, legend, readouts and table), in both languages.
//   node scripts/screenshot-lesson.mjs [--lang en|zh|both] [--out FILE]   (one language with --out)
// Defaults: both, English to docs/lesson.png, Chinese to docs/lesson-zh.png. The Chinese text
// needs a CJK font: without one the script installs fonts-noto-cjk (apt-get, as root) or stops.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { build } from "vite";

const { values } = parseArgs({
  options: {
    lang: { type: "string", default: "both" },
    out: { type: "string" },
  },
});
if (!["en", "zh", "both"].includes(values.lang))
  throw new Error(`--lang must be en, zh or both, not ${values.lang}`);
if (values.out && values.lang === "both") throw new Error("--out needs --lang en or --lang zh");
const shots =
  values.lang === "both"
    ? [
        ["en", "docs/lesson.png"],
        ["zh", "docs/lesson-zh.png"],
      ]
    : [
        [
          values.lang,
          values.out ?? (values.lang === "zh" ? "docs/lesson-zh.png" : "docs/lesson.png"),
        ],
      ];

/** True when fontconfig knows a font covering Chinese. */
function hasCjkFont() {
  try {
    return execFileSync("fc-list", [":lang=zh", "family"], { encoding: "utf8" }).trim() !== "";
  } catch {
    return false;
  }
}
if (shots.some(([lang]) => lang === "zh") && !hasCjkFont()) {
  try {
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "fonts-noto-cjk"], {
      stdio: "inherit",
    });
  } catch {
    throw new Error("no CJK font: install fonts-noto-cjk (apt-get install fonts-noto-cjk)");
  }
}

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
  for (const [lang, out] of shots) {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
    });
    await page.goto(`${pathToFileURL(join(outDir, "index.html")).href}?lang=${lang}`);
    await page.waitForSelector('body[data-ready="true"]', { state: "attached" });
    // The figure itself at the top: picture, step slider, legend, "Try it" and why point-dropping
    // stalls in one column, the readouts and table ④ beside them (the heading and lead just above).
    await page
      .locator("#s4 .figure")
      .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 16));
    await page.screenshot({ path: out });
    console.log(`wrote ${out} (1280×900 px, ${lang})`);
    await page.close();
  }
} finally {
  await browser.close();
  rmSync(outDir, { recursive: true, force: true });
}
