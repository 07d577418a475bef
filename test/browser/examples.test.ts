// The standalone three.js examples (examples/three-*/) in a real browser: built by Vite as a
// user's project would ("meshway" resolved through package.json "exports" to the built dist/),
// opened in one headless Chromium with WebGL2 (SwiftShader), each must load without a console
// error, draw (pixels other than the transparent background) and react (a click, a crowd that
// walks, a navmesh that follows its obstacles).
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, requireChromium } from "../helpers/chromium.js";
import { serve } from "./harness.js";

const EXAMPLES = ["three-click-to-move", "three-crowd", "three-obstacles"] as const;
const outDir = mkdtempSync(join(tmpdir(), "meshway-examples-"));
let server: Server;
let origin = "";
let browser: Browser;

// Before any page script: WebGL contexts keep their drawing buffer, so the test can read the
// pixels back after the frame was shown.
const KEEP_DRAWING_BUFFER = `{
  const get = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs) {
    return get.call(this, type, type.startsWith("webgl") ? { ...attrs, preserveDrawingBuffer: true } : attrs);
  };
}`;

/** Pixels of the page's WebGL canvas that are not the transparent background, and a checksum. */
function drawn(page: Page): Promise<{ drawn: number; total: number; sum: number }> {
  return page.evaluate(() => {
    const gl = document.querySelector("canvas")!.getContext("webgl2")!;
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let n = 0;
    let sum = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3]! > 0) n++;
      sum = (sum * 31 + px[i]! + px[i + 1]! * 7 + px[i + 2]! * 13) >>> 0;
    }
    return { drawn: n, total: w * h, sum };
  });
}

async function open(name: string): Promise<{ page: Page; pageErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 400, height: 300 } });
  const pageErrors: string[] = [];
  page.on("console", (m) => m.type() === "error" && pageErrors.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => pageErrors.push(`page error: ${e.message}`));
  await page.addInitScript(KEEP_DRAWING_BUFFER);
  await page.goto(`${origin}/${name}/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { state: "attached" });
  return { page, pageErrors };
}

const info = (page: Page) => page.locator("#info").textContent();

describe("the three.js examples in Chromium (WebGL2)", () => {
  beforeAll(async () => {
    requireChromium();
    await build({
      configFile: false,
      root: "examples",
      base: "./",
      logLevel: "warn",
      build: {
        outDir,
        emptyOutDir: true,
        chunkSizeWarningLimit: 4096, // three.js
        rolldownOptions: {
          input: Object.fromEntries(EXAMPLES.map((n) => [n, `examples/${n}/index.html`])),
        },
      },
    });
    ({ server, origin } = await serve(outDir));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--enable-unsafe-swiftshader"],
    });
    const page = await browser.newPage();
    const webgl2 = await page.evaluate(
      () => document.createElement("canvas").getContext("webgl2") !== null,
    );
    await page.close();
    if (!webgl2) throw new Error(`WebGL2 is not available in ${CHROMIUM} (SwiftShader missing?)`);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    rmSync(outDir, { recursive: true, force: true });
  });

  it("click to move: draws the level and navmesh; a click on the ground finds a complete path", async () => {
    const { page, pageErrors } = await open("three-click-to-move");
    const before = await drawn(page);
    expect(before.drawn / before.total).toBeGreaterThan(0.2);
    await page.mouse.click(250, 190);
    await page.waitForFunction(() =>
      /^complete: \d/.test(document.querySelector("#info")!.textContent ?? ""),
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("crowd: the agents walk (the picture changes) with no console error", async () => {
    const { page, pageErrors } = await open("three-crowd");
    const a = await drawn(page);
    expect(a.drawn / a.total).toBeGreaterThan(0.2);
    expect(await info(page)).toMatch(/^40 agents/);
    await page.waitForTimeout(400);
    expect((await drawn(page)).sum).not.toBe(a.sum);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("obstacles: a click drops an obstacle, the navmesh follows, the path is recomputed", async () => {
    const { page, pageErrors } = await open("three-obstacles");
    await page.waitForFunction(() =>
      /^1 obstacles, path \d/.test(document.querySelector("#info")!.textContent ?? ""),
    );
    expect((await drawn(page)).drawn).toBeGreaterThan(0);
    await page.mouse.click(200, 160);
    await page.waitForFunction(() =>
      /^2 obstacles, path \d/.test(document.querySelector("#info")!.textContent ?? ""),
    );
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
