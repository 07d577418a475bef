import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNearestPolyResult, NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import type { ObstacleShape } from "../../src/tiles/obstacles.js";
import { createTileCache } from "../../src/tiles/tile-cache.js";
import { CHROMIUM, requireChromium } from "../helpers/chromium.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { serve } from "./harness.js";

// The playground (examples/playground) in headless chromium with WebGL2 (SwiftShader; no
// --disable-gpu): one examples build, one server, one browser, one page driven through the
// whole tour. The page's builds are checked against the library's on the same settings.

type Vec3 = [number, number, number];
interface PathView {
  status: string;
  points: Vec3[];
  length: number;
}
interface Hook {
  state: string;
  builds: number;
  navMeshVersion: number;
  config(): Record<string, unknown>;
  path(): {
    start: Vec3 | null;
    goal: Vec3 | null;
    funnel: PathView | null;
    shortest: PathView | null;
  };
  agents(): Vec3[];
  obstacles(): ObstacleShape[];
  pendingTiles(): number;
  polygons(): number;
  livePolygons(): number;
  stageSets(): number;
  project(p: Vec3): [number, number];
}
declare const window: { __playground: Hook };

const ARTIFACTS = "test-results";
let outDir: string;
let server: Server;
let origin: string;
let browser: Browser;
/** One page for the whole file: the phone check resizes it rather than building again. */
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  requireChromium();
  outDir = mkdtempSync(join(tmpdir(), "meshway-examples-"));
  await build({
    configFile: "examples/vite.config.ts",
    logLevel: "warn",
    mode: "production",
    build: { outDir, emptyOutDir: true },
  });
  ({ server, origin } = await serve(outDir));
  // No --disable-gpu: WebGL2 runs on SwiftShader.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox"],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function open(width: number, height: number): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => pageErrors.push(`page error: ${e.message}`));
  await page.goto(`${origin}/playground/index.html`, { waitUntil: "commit" });
  return { page, pageErrors };
}

/** Fails loudly without WebGL2, then waits for the first build. */
async function started(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  const webgl2 = await page.evaluate(
    () => document.createElement("canvas").getContext("webgl2") !== null,
  );
  if (!webgl2) {
    throw new Error(
      "chromium gave no WebGL2 context (SwiftShader missing?): the playground cannot be tested",
    );
  }
  await ready(page);
}

/** Waits for the page to settle: no build in flight, the tile cache caught up. */
async function ready(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const h = window.__playground;
      return h !== undefined && h.builds > 0 && h.state !== "building" && h.pendingTiles() === 0;
    },
    null,
    { timeout: 60_000 },
  );
  const state = await page.evaluate(() => window.__playground.state);
  if (state !== "ready")
    throw new Error(`playground state ${state}: ${await page.textContent("#status")}`);
}

/** RGB of the 3D view at CSS points (the WebGL canvas keeps its drawing buffer). */
function pixelsAt(page: Page, points: [number, number][]): Promise<[number, number, number][]> {
  return page.evaluate((pts) => {
    const canvas = document.getElementById("canvas") as HTMLCanvasElement;
    const copy = document.createElement("canvas");
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext("2d")!;
    ctx.drawImage(canvas, 0, 0);
    const rect = canvas.getBoundingClientRect();
    const sx = canvas.width / rect.width;
    const sy = canvas.height / rect.height;
    const d = ctx.getImageData(0, 0, copy.width, copy.height).data;
    return pts.map(([x, y]) => {
      const px = Math.min(copy.width - 1, Math.max(0, Math.round((x - rect.left) * sx)));
      const py = Math.min(copy.height - 1, Math.max(0, Math.round((y - rect.top) * sy)));
      const i = (px + py * copy.width) * 4;
      return [d[i]!, d[i + 1]!, d[i + 2]!] as [number, number, number];
    });
  }, points);
}

/** Height of the highest level triangle over (x, z), or null when none is. */
function topSurface(pos: Float32Array, idx: Uint32Array, x: number, z: number): number | null {
  let best: number | null = null;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3;
    const b = idx[t + 1]! * 3;
    const c = idx[t + 2]! * 3;
    const [ax, az, bx, bz, cx, cz] = [
      pos[a]!,
      pos[a + 2]!,
      pos[b]!,
      pos[b + 2]!,
      pos[c]!,
      pos[c + 2]!,
    ];
    const d = (bz - cz) * (ax - cx) + (cx - bx) * (az - cz);
    if (Math.abs(d) < 1e-9) continue;
    const u = ((bz - cz) * (x - cx) + (cx - bx) * (z - cz)) / d;
    const v = ((cz - az) * (x - cx) + (ax - cx) * (z - cz)) / d;
    if (u < 0 || v < 0 || u + v > 1) continue;
    const y = u * pos[a + 1]! + v * pos[b + 1]! + (1 - u - v) * pos[c + 1]!;
    if (best === null || y > best) best = y;
  }
  return best;
}

const tinted = ([r, g, b]: [number, number, number]) => Math.max(r, g, b) - Math.min(r, g, b) > 20;

async function clickWorld(page: Page, p: Vec3): Promise<void> {
  const [x, y] = await page.evaluate((q) => window.__playground.project(q), p);
  await page.mouse.click(x, y);
}

const frames = (page: Page, n = 3) =>
  page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
        requestAnimationFrame(step);
      }),
    n,
  );

describe("the playground in a browser", () => {
  it("builds nav_test on its worker, draws it, finds the library's paths, moves a crowd and follows an obstacle", async () => {
    ({ page, pageErrors } = await open(1280, 800));
    // The library on the same level and settings (the page builds a tile cache on its worker),
    // built while the page loads.
    const { navMesh, cache } = createTileCache(loadSharedMesh("nav_test"), { tileSize: 48 });
    await started(page);
    const config = await page.evaluate(() => window.__playground.config());
    expect(config).toEqual({ tileSize: 48 });
    const query = new NavMeshQuery(navMesh);
    const polygons = navMesh.tiles.reduce((n, t) => n + t.polyCount, 0);
    expect(await page.evaluate(() => window.__playground.polygons())).toBe(polygons);

    // Navmesh colours where the navmesh is (polygon centres), none where it is not.
    await page.click("#top-view");
    await frames(page);
    const on: Vec3[] = [];
    for (const t of navMesh.tiles) {
      for (let p = 0; p < t.polyCount; p++) {
        const n = t.polyVertCount[p]!;
        const c: Vec3 = [0, 0, 0];
        for (let k = 0; k < n; k++) {
          const v = t.polyVerts[p * t.maxVertsPerPoly + k]!;
          for (let a = 0; a < 3; a++) c[a] = c[a]! + t.vertices[v * 3 + a]! / n;
        }
        on.push(c);
      }
    }
    const off: Vec3[] = [];
    const level = loadSharedMesh("nav_test");
    const near = createNearestPolyResult();
    for (let x = -28; x <= 62; x += 2) {
      for (let z = -46; z <= 31; z += 2) {
        // No polygon within 1.5 m in XZ at any height: nothing of the navmesh is drawn there.
        if (query.findNearestPoly([x, 0, z], [1.5, 100, 1.5]) !== 0) continue;
        // Projected at the height of the navmesh close by (the only one that could show there
        // in a perspective top view), else of the level, else of the floor.
        const y =
          query.findNearestPoly([x, 0, z], [8, 100, 8], undefined, near) !== 0
            ? near.point[1]!
            : (topSurface(level.positions, level.indices, x, z) ?? -2);
        off.push([x, y, z]);
      }
    }
    expect(off.length).toBeGreaterThan(100);
    const project = (ps: Vec3[]) =>
      page.evaluate((qs) => qs.map((q) => window.__playground.project(q)), ps);
    const onShare = (await pixelsAt(page, await project(on))).filter(tinted).length / on.length;
    const offShare = (await pixelsAt(page, await project(off))).filter(tinted).length / off.length;
    expect(onShare).toBeGreaterThan(0.8); // some centres sit under bridges and roofs
    expect(offShare).toBeLessThan(0.03);
    await page.screenshot({ path: join(ARTIFACTS, "playground-1280-navmesh.png") });

    // Click start, click goal: the funnel and the exact path, with the library's lengths.
    await clickWorld(page, [21, -2.1, 15.6]);
    await clickWorld(page, [-24.4, -2.1, -12]);
    const shown = await page.evaluate(() => window.__playground.path());
    expect(shown.funnel?.status).toBe("complete");
    expect(shown.funnel!.points.length).toBeGreaterThan(2);
    const funnel = query.computePath(shown.start!, shown.goal!);
    const exact = findShortestPath(query, shown.start!, shown.goal!);
    expect(shown.funnel!.length).toBeCloseTo(funnel.length, 4);
    expect(shown.shortest!.length).toBeCloseTo(exact.length, 4);
    expect(exact.length).toBeLessThanOrEqual(funnel.length + 1e-6);
    expect(await page.textContent("#funnel-length")).toContain(funnel.length.toFixed(2));
    expect(await page.textContent("#shortest-length")).toContain(exact.length.toFixed(2));

    // A build stage drawn from the worker.
    await page.selectOption("#stage", "regions");
    await ready(page);
    expect(await page.evaluate(() => window.__playground.stageSets())).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, "playground-1280-regions.png") });
    await page.selectOption("#stage", "none");

    // A crowd: spawned near the start, sent to the goal, and it moves.
    await page.check('input[name="mode"][value="crowd"]');
    await page.click("#spawn");
    const before = await page.evaluate(() => window.__playground.agents());
    expect(before.length).toBeGreaterThanOrEqual(5);
    await clickWorld(page, [-24.4, -2.1, -12]);
    // On their way: on average over a metre from where they stood (real time, any frame rate).
    await page.waitForFunction((from) => {
      const now = window.__playground.agents();
      let sum = 0;
      for (let i = 0; i < now.length; i++) {
        sum += Math.hypot(now[i]![0] - from[i]![0], now[i]![2] - from[i]![2]);
      }
      return now.length === from.length && sum / now.length > 1;
    }, before);

    // An obstacle on the funnel path: the tile cache rebuilds its tiles, the path changes, and
    // both equal the library's with the same obstacle.
    await page.check('input[name="mode"][value="obstacle"]');
    const version = await page.evaluate(() => window.__playground.navMeshVersion);
    // In the middle of the path's longest leg: the path has to go round it.
    const pts = shown.funnel!.points;
    let leg = 1;
    for (let i = 1; i < pts.length; i++) {
      const len = (j: number) =>
        Math.hypot(pts[j]![0] - pts[j - 1]![0], pts[j]![2] - pts[j - 1]![2]);
      if (len(i) > len(leg)) leg = i;
    }
    const mid = [0, 1, 2].map((k) => (pts[leg - 1]![k]! + pts[leg]![k]!) / 2) as Vec3;
    await clickWorld(page, mid);
    await page.waitForFunction(
      (v) => window.__playground.navMeshVersion > v && window.__playground.pendingTiles() === 0,
      version,
    );
    const shapes = await page.evaluate(() => window.__playground.obstacles());
    expect(shapes).toHaveLength(1);
    cache.addObstacle(shapes[0]!);
    cache.flush();
    const blocked = query.computePath(shown.start!, shown.goal!);
    expect(blocked.length).not.toBeCloseTo(funnel.length, 2);
    const rerouted = await page.evaluate(() => window.__playground.path());
    expect(rerouted.funnel!.length).toBeCloseTo(blocked.length, 4);
    expect(await page.evaluate(() => window.__playground.livePolygons())).toBe(
      navMesh.tiles.reduce((n, t) => n + t.polyCount, 0),
    );
    await frames(page);
    await page.screenshot({ path: join(ARTIFACTS, "playground-1280.png") });
    expect(pageErrors).toEqual([]);
  });

  it("fits a 390 px wide phone: no sideways scrolling, the view above the controls", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click("#top-view");
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await frames(page);
    const layout = await page.evaluate(() => {
      const view = document.getElementById("view")!.getBoundingClientRect();
      const panel = document.getElementById("panel")!.getBoundingClientRect();
      return {
        scrollWidth: document.documentElement.scrollWidth,
        viewWidth: view.width,
        viewHeight: view.height,
        gap: panel.top - view.bottom,
      };
    });
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    expect(layout.viewWidth).toBe(390);
    expect(layout.viewHeight).toBeGreaterThan(300);
    expect(Math.abs(layout.gap)).toBeLessThan(1); // the controls start under the view
    await page.screenshot({ path: join(ARTIFACTS, "playground-390.png"), fullPage: true });
    // The view keeps drawing the navmesh at its new size.
    const centre = await page.evaluate(() => window.__playground.project([21, -2.1, 15.6]));
    expect((await pixelsAt(page, [centre])).filter(tinted)).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });
});
