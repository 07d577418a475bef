// meshway/io's glTF parser in a real browser (Debian's Chromium through playwright-core): the
// built dist/ is served as plain ES modules (so a Node built-in anywhere in its import graph
// would fail to load), the fixtures are fetched by the page, and the triangles must equal the
// Node loader's byte for byte; a broken GLB gives the same message.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGltfMesh } from "../../src/node/gltf/index.js";
import { CHROMIUM, requireChromium } from "../helpers/chromium.js";
import { GLTF_FIXTURES, writeGltfFixtures } from "../helpers/gltf-fixtures.js";

const ROOT = process.cwd();
const fixtures = mkdtempSync(join(tmpdir(), "meshway-gltf-browser-"));
let server: Server;
let origin = "";
let browser: Browser;

/** /dist/… from the repo, /fixtures/… from the temporary folder, / an empty page. */
function serve(): Promise<void> {
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (path === "/favicon.ico") {
      res.writeHead(204).end();
      return;
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>gltf</title>");
      return;
    }
    const [base, rest] = path.startsWith("/fixtures/")
      ? [fixtures, path.slice("/fixtures/".length)]
      : [ROOT, path.slice(1)];
    const file = normalize(join(base, rest));
    if (!file.startsWith(base) || !(path.startsWith("/dist/") || base === fixtures)) {
      res.writeHead(404).end();
      return;
    }
    try {
      const type = file.endsWith(".js") ? "text/javascript" : "application/octet-stream";
      res.writeHead(200, { "content-type": type }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

// A string, not a function: vitest would rewrite a function's import() for Node.
const IN_PAGE = (names: readonly string[]) => `(async () => {
  const io = await import("/dist/io/index.js");
  const b64 = (a) => {
    const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    let s = "";
    for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const out = {};
  for (const name of ${JSON.stringify(names)}) {
    const url = new URL("/fixtures/" + name, location.href);
    const res = await fetch(url);
    const resolve = async (uri) => new Uint8Array(await (await fetch(new URL(uri, url))).arrayBuffer());
    const r = name.endsWith(".glb")
      ? await io.parseGlb(await res.arrayBuffer(), { source: name })
      : await io.parseGltf(await res.text(), resolve, { source: name });
    out[name] = { positions: b64(r.mesh.positions), indices: b64(r.mesh.indices), warnings: r.warnings };
  }
  const glb = new Uint8Array(await (await fetch("/fixtures/dungeon.glb")).arrayBuffer());
  try {
    await io.parseGlb(glb.subarray(0, glb.length - 10), { source: "t.glb" });
  } catch (e) {
    out.error = { name: e.name, code: e.code, message: e.message };
  }
  return out;
})()`;

describe("meshway/io glTF parser in Chromium", () => {
  beforeAll(async () => {
    requireChromium();
    await writeGltfFixtures(fixtures);
    await serve();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(fixtures, { recursive: true, force: true });
  });

  it("loads every fixture (GLB, external .bin, data URI, nested transforms) to exactly the Node loader's triangles", async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
    await page.goto(origin);
    const out = (await page.evaluate(IN_PAGE(GLTF_FIXTURES))) as Record<
      string,
      { positions: string; indices: string; warnings: string[] }
    > & { error: { name: string; code: string; message: string } };
    for (const name of GLTF_FIXTURES) {
      const node = await loadGltfMesh(join(fixtures, name));
      const got = out[name]!;
      const bytes = (a: Float32Array | Uint32Array) =>
        Buffer.from(a.buffer, a.byteOffset, a.byteLength);
      expect(Buffer.from(got.positions, "base64").equals(bytes(node.mesh.positions)), name).toBe(
        true,
      );
      expect(Buffer.from(got.indices, "base64").equals(bytes(node.mesh.indices)), name).toBe(true);
      expect(got.warnings, name).toEqual(node.warnings);
    }
    const glb = readFileSync(join(fixtures, "dungeon.glb"));
    expect(out.error).toEqual({
      name: "MeshwayError",
      code: "INVALID_INPUT",
      message: `t.glb: truncated GLB: the header declares ${glb.length} bytes but the file has ${glb.length - 10}`,
    });
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
