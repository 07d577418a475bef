#!/usr/bin/env node
// The playground's README screenshot: builds examples/ with Vite into a temporary folder,
// serves it on 127.0.0.1, opens the playground in headless Debian chromium (WebGL2 through
// SwiftShader) and captures nav_test with a funnel and an exact path, a crowd on its way to the
// goal and two obstacles.
//   node scripts/screenshot-playground.mjs [--out docs/playground.png] [--width 1280 --height 800]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { build } from "vite";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "docs/playground.png" },
    width: { type: "string", default: "1280" },
    height: { type: "string", default: "800" },
  },
});

const dir = mkdtempSync(join(tmpdir(), "meshway-examples-"));
await build({ configFile: "examples/vite.config.ts", logLevel: "warn", build: { outDir: dir } });
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
  try {
    if (!file.startsWith(dir)) throw new Error("outside");
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox"],
});
try {
  const viewport = { width: Number(values.width), height: Number(values.height) };
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/playground/index.html`);
  const settled = () =>
    page.waitForFunction(
      () =>
        window.__playground?.builds > 0 &&
        window.__playground.state === "ready" &&
        window.__playground.pendingTiles() === 0,
      null,
      { timeout: 60_000 },
    );
  await settled();
  const click = async (p) => {
    const [x, y] = await page.evaluate((q) => window.__playground.project(q), p);
    await page.mouse.click(x, y);
  };
  const goal = [-24.4, -2.1, -12];
  await click([21, -2.1, 15.6]);
  await click(goal);
  await page.check('input[name="mode"][value="crowd"]');
  await page.click("#spawn");
  await click(goal);
  await page.check('input[name="mode"][value="obstacle"]');
  await click([40, -2, -20]);
  await click([10, -2.1, 5]);
  await page.waitForTimeout(1500);
  await settled();
  await page.check('input[name="mode"][value="path"]');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: values.out });
  console.log(`wrote ${values.out}`);
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
