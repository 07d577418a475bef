// The tiled build in a real browser (Debian's Chromium through playwright-core): dist/ served
// over HTTP, cross-origin isolated (so the mesh goes to the Web Workers in shared memory) and
// not (copied to each worker once); the bytes must equal the in-page single-thread build and
// Node's. Skipped when Chromium is not installed.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { serializeNavMesh } from "../../src/format/navmesh-file.js";
import { buildTiledNavMesh } from "../../src/tiles/build-tiled.js";
import { loadSharedMesh } from "../helpers/meshes.js";

const CHROMIUM = "/usr/bin/chromium";
const ROOT = process.cwd();
const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".obj": "text/plain",
  ".html": "text/html",
};

let server: Server;
let base = "";

/** Serves dist/ and the fixtures; `?isolated` pages get COOP/COEP (crossOriginIsolated). */
function serve(): Promise<void> {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const headers: Record<string, string> = {
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
      "Cross-Origin-Resource-Policy": "same-origin",
    };
    if (url.pathname === "/page.html") {
      res.writeHead(200, {
        "Content-Type": "text/html",
        ...(url.searchParams.has("isolated") ? headers : {}),
      });
      res.end("<!doctype html><title>tiles</title>");
      return;
    }
    const file = normalize(join(ROOT, url.pathname));
    if (!file.startsWith(ROOT) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      ...headers,
    });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

/** Builds nav_test tiled on this thread and on 2 Web Workers, in the page. */
const IN_PAGE = `(async () => {
  const m = await import("/dist/index.js");
  const text = await (await fetch("/test/fixtures/meshes/nav_test.obj")).text();
  const mesh = m.parseObj(text, "nav_test.obj");
  const config = { tileSize: 32 };
  const one = await m.buildTiledNavMesh(mesh, config);
  const pool = m.createWebWorkerTilePool(2);
  const two = await m.buildTiledNavMesh(mesh, config, { pool });
  await pool.close();
  const own = await m.buildTiledNavMesh(mesh, config, { threads: 2 });
  const cfg = m.resolveConfig(config);
  const c = m.serializeNavMesh(own.navMesh, cfg);
  const a = m.serializeNavMesh(one.navMesh, cfg);
  const b = m.serializeNavMesh(two.navMesh, cfg);
  return {
    isolated: globalThis.crossOriginIsolated,
    threads: two.stats.threads,
    tiles: two.stats.tiles,
    same: a.length === b.length && a.every((v, i) => v === b[i]) && c.every((v, i) => v === b[i]),
    ownThreads: own.stats.threads,
    bytes: Array.from(b),
  };
})()`;

/** The tile cache built on this thread and on 2 Web Workers, then one obstacle, in the page. */
const CACHE_IN_PAGE = `(async () => {
  const m = await import("/dist/index.js");
  const text = await (await fetch("/test/fixtures/meshes/nav_test.obj")).text();
  const mesh = m.parseObj(text, "nav_test.obj");
  const config = { tileSize: 32 };
  const areaVolumes = [{ kind: "box", min: [-5, -5, -5], max: [5, 5, 5], area: 7 }];
  const cfg = m.resolveConfig(config);
  const bytes = (c) => Array.from(m.serializeNavMesh(c.navMesh, cfg));
  const sync = m.createTileCache(mesh, config, { areaVolumes });
  const workers = await m.createTileCacheAsync(mesh, config, { threads: 2, areaVolumes });
  const out = { threads: workers.threads, built: [bytes(sync), bytes(workers)] };
  for (const c of [sync, workers]) {
    c.cache.addObstacle({ kind: "cylinder", center: [0, -3, 0], radius: 1.5, height: 6 });
    c.cache.flush();
  }
  out.obstacle = [bytes(sync), bytes(workers)];
  return out;
})()`;

describe.skipIf(!existsSync(CHROMIUM))("tiled build in Chromium with Web Workers", () => {
  beforeAll(serve);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("2 Web Workers (given as a pool or by threads: 2) give the same bytes as one thread, isolated (shared memory) or not, and as Node", async () => {
    const cfg = resolveConfig({ tileSize: 32 });
    const node = serializeNavMesh(
      (await buildTiledNavMesh(loadSharedMesh("nav_test"), { tileSize: 32 })).navMesh,
      cfg,
    );
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      for (const isolated of [true, false]) {
        const page = await browser.newPage();
        await page.goto(`${base}/page.html${isolated ? "?isolated" : ""}`);
        // A string, not a function: vitest would rewrite a function's import() for Node.
        const out = (await page.evaluate(IN_PAGE)) as {
          isolated: boolean;
          threads: number;
          tiles: number;
          same: boolean;
          ownThreads: number;
          bytes: number[];
        };
        expect(out.isolated).toBe(isolated);
        expect(out.threads).toBe(2);
        expect(out.ownThreads).toBe(2);
        expect(out.tiles).toBe(66);
        expect(out.same).toBe(true);
        expect(Buffer.from(Uint8Array.from(out.bytes)).equals(Buffer.from(node))).toBe(true);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("createTileCacheAsync on 2 Web Workers gives createTileCache's bytes, before and after an obstacle", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      for (const isolated of [true, false]) {
        const page = await browser.newPage();
        await page.goto(`${base}/page.html${isolated ? "?isolated" : ""}`);
        const out = (await page.evaluate(CACHE_IN_PAGE)) as {
          threads: number;
          built: number[][];
          obstacle: number[][];
        };
        expect(out.threads).toBe(2);
        expect(out.built[0]!.length).toBeGreaterThan(1000);
        expect(out.built[1]).toEqual(out.built[0]);
        expect(out.obstacle[0]).not.toEqual(out.built[0]);
        expect(out.obstacle[1]).toEqual(out.obstacle[0]);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 120_000);
});
