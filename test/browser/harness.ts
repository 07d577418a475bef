import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { pageReadoutIds } from "../../web/page-readouts.js";
import { CHROMIUM, requireChromium } from "../helpers/chromium.js";

/**
 * The explainer page under a real browser: Vite builds web/ into a temporary folder, a tiny
 * static server serves it on an ephemeral port, and one headless Debian chromium (driven by
 * playwright-core) opens pages on it.
 */
export { CHROMIUM } from "../helpers/chromium.js";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];

/** Builds the page (the same config as `npm run build:web`) into a fresh folder; returns it. */
export async function buildPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "meshway-web-"));
  await build({
    configFile: "web/vite.config.ts",
    logLevel: "warn",
    mode: "production",
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
};

/** Serves `dir` read-only on 127.0.0.1 at an ephemeral port. */
export async function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

export function launchBrowser(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A page plus everything that went wrong in it: console errors, uncaught errors, outside requests. */
export interface WatchedPage {
  page: Page;
  pageErrors: string[];
}

/** Opens `url` in a fresh context; `initScript` runs before the page's own script. */
export async function openPage(
  browser: Browser,
  url: string,
  initScript?: string,
  options: { width?: number; height?: number; javaScript?: boolean; touch?: boolean } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    javaScriptEnabled: options.javaScript ?? true,
    // A phone: touch events, and touch gestures that scroll the page.
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => pageErrors.push(`page error: ${e.message}`));
  const origin = new URL(url).origin;
  page.on("request", (r) => {
    const u = r.url();
    // Only the page itself (its origin, or the file it was opened from) and inline data.
    if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("file:")) {
      pageErrors.push(`outside request: ${u}`);
    }
  });
  if (initScript) await page.addInitScript(initScript);
  await page.goto(url);
  if (options.javaScript !== false) await ready(page);
  return { page, pageErrors };
}

/** Waits until the page has finished the recompute the last action asked for. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector('body[data-ready="true"]', { state: "attached" });
}

/** The four tables as the DOM shows them: per table, per row, the data cells' text. */
export function domTables(page: Page): Promise<{ id: string; cells: string[][] }[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLTableElement>("table[data-table]")].map((table) => ({
      id: table.dataset.table!,
      cells: [...table.tBodies[0]!.rows].map((row) =>
        [...row.cells]
          .filter((c) => c.tagName === "TD" && !c.classList.contains("means"))
          .map((c) => c.textContent ?? ""),
      ),
    })),
  );
}

/** Every readout text per section (1..4), for "did this control change the readouts". */
export function domReadouts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [1, 2, 3, 4].map(
      (s) => document.querySelector(`#s${s} .readouts dl`)?.textContent ?? "<missing>",
    ),
  );
}

/** Runs the built CLI (dist/, from `pretest`) like a user would; several may run at once. */
export function meshway(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/meshway.js", ...args],
      { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The CLI's tables for these options: per table, per row, the cell strings. */
export async function cliTables(...args: string[]): Promise<{ id: string; cells: string[][] }[]> {
  const r = await meshway("lesson", ...args, "--json");
  if (r.code !== 0) throw new Error(`meshway lesson ${args.join(" ")} failed: ${r.stderr}`);
  const json = JSON.parse(r.stdout) as {
    tables: { id: string; rows: { text: string[] }[] }[];
  };
  // `text`: the cells as spelled in --lang (value words translated), what the page shows.
  return json.tables.map((t) => ({ id: t.id, cells: t.rows.map((row) => row.text) }));
}

/** A canvas's pixels as the page reads them back (getImageData), base64 for a fast transfer. */
export async function canvasPixels(
  page: Page,
  selector: string,
): Promise<{ width: number; height: number; pixels: Buffer }> {
  const shown = await page.evaluate((sel) => {
    const canvas = document.querySelector<HTMLCanvasElement>(sel)!;
    const image = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let binary = "";
    for (let i = 0; i < image.data.length; i += 0x8000) {
      binary += String.fromCharCode(...image.data.subarray(i, i + 0x8000));
    }
    return { width: image.width, height: image.height, base64: btoa(binary) };
  }, selector);
  return { width: shown.width, height: shown.height, pixels: Buffer.from(shown.base64, "base64") };
}

/** What the page shows in English, as `meshway lesson --json` spells it (its *En fields). */
export interface EnglishView {
  tables: { title: string; columns: string[]; labels: string[] }[];
  readouts: { labels: string[]; values: string[] }[];
  checks: { label: string; pass: boolean; measured: string; expected: string }[];
}

interface LessonJson {
  tables: { titleEn: string; columnsEn: string[]; rows: { labelEn: string }[] }[];
  readouts: { items: { id: string; labelEn: string; text: string }[] }[];
  checks: { labelEn: string; pass: boolean; measured: string; expected: string }[];
}

/** The CLI's English text for these options: table headings, readouts and checks. */
export async function cliEnglish(...args: string[]): Promise<EnglishView> {
  const r = await meshway("lesson", ...args, "--lang", "en", "--json");
  if (r.code !== 0) throw new Error(`meshway lesson ${args.join(" ")} failed: ${r.stderr}`);
  const json = JSON.parse(r.stdout) as LessonJson;
  return {
    tables: json.tables.map((t) => ({
      title: t.titleEn,
      columns: t.columnsEn,
      labels: t.rows.map((row) => row.labelEn),
    })),
    // The page lists beside each picture only the readouts its table does not repeat.
    readouts: json.readouts.map((g, k) => {
      const items = g.items.filter((i) => pageReadoutIds(k + 1).includes(i.id));
      return { labels: items.map((i) => i.labelEn), values: items.map((i) => i.text) };
    }),
    checks: json.checks.map((c) => ({
      label: c.labelEn,
      pass: c.pass,
      measured: c.measured,
      expected: c.expected,
    })),
  };
}

/** The same from the page's DOM (read in English). */
export function domEnglish(page: Page): Promise<EnglishView> {
  return page.evaluate(() => {
    const text = (n: Element | null | undefined) => n?.textContent ?? "";
    return {
      tables: [...document.querySelectorAll<HTMLTableElement>("table[data-table]")].map((t) => ({
        title: text(t.caption),
        columns: [...t.tHead!.rows[0]!.cells].map(text),
        labels: [...t.tBodies[0]!.rows].map((row) => text(row.cells[0])),
      })),
      readouts: [1, 2, 3, 4].map((s) => ({
        labels: [...document.querySelectorAll(`#s${s} .readouts dt`)].map(text),
        values: [...document.querySelectorAll(`#s${s} .readouts dd`)].map(text),
      })),
      checks: [...document.querySelectorAll<HTMLElement>("#checks-list li")].map((li) => ({
        label: text(li.querySelector(".label")),
        pass: li.dataset.pass === "true",
        measured: li.dataset.measured ?? "",
        expected: li.dataset.expected ?? "",
      })),
    };
  });
}

/** Sets the radius slider like a user would (value + input/change events) and waits. */
export async function setRadius(page: Page, radius: number): Promise<void> {
  await page.locator("#radius").fill(String(radius));
  await ready(page);
}

/** Sets section 4's step slider (value + input/change events) and waits. */
export async function setStep(page: Page, step: number): Promise<void> {
  await page.locator("#step").fill(String(step));
  await ready(page);
}

/** Clicks a radio of a control group (shape, view, method) and waits. */
export async function choose(page: Page, name: string, value: string): Promise<void> {
  await page.locator(`input[name="${name}"][value="${value}"]`).check();
  await ready(page);
}

/** CJK ideographs, CJK punctuation, and full-width forms: none may show in English. */
export const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/**
 * A message key shown untranslated (every MESSAGES / page prose key has one of these prefixes),
 * or a placeholder left unfilled.
 */
export const RAW_KEY = /\b(?:page|table|col|row|log|check|readout|hover|word)\.[A-Za-z]|\{\w+\}/;
