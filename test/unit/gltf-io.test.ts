// meshway/io's platform-free glTF parser: the same triangles and errors as meshway/node's file
// loader (now a wrapper over it), from bytes, text or objects with a caller's buffer resolver;
// and the core entry ("meshway") does not load it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import * as core from "../../src/index.js";
import { decodeBase64 } from "../../src/io/gltf/buffers.js";
import * as io from "../../src/io/index.js";
import { loadGltfMesh } from "../../src/node/gltf/index.js";
import { GLTF_FIXTURES, writeGltfFixtures } from "../helpers/gltf-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "meshway-gltf-io-"));
beforeAll(() => writeGltfFixtures(dir));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rejection(p: Promise<unknown>): Promise<MeshwayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MeshwayError);
    return e as MeshwayError;
  }
  throw new Error("expected a rejection");
}

const fileResolver = (calls: string[]) => (uri: string) => {
  calls.push(uri);
  return readFileSync(join(dir, decodeURIComponent(uri)));
};

describe("meshway/io glTF parser", () => {
  it("gives exactly the Node loader's triangles for every fixture (GLB, external .bin, data URI, nested)", async () => {
    expect(readdirSync(dir).sort()).toEqual([...GLTF_FIXTURES, "nav test.bin"].sort());
    for (const name of GLTF_FIXTURES) {
      const node = await loadGltfMesh(join(dir, name));
      const bytes = readFileSync(join(dir, name));
      const calls: string[] = [];
      const got = name.endsWith(".glb")
        ? await io.parseGlb(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), {
            source: name,
          })
        : await io.parseGltf(bytes.toString("utf8"), fileResolver(calls), { source: name });
      expect(got.mesh.positions, name).toEqual(node.mesh.positions);
      expect(got.mesh.indices, name).toEqual(node.mesh.indices);
      expect(got.warnings, name).toEqual(node.warnings);
      expect(calls).toEqual(name === "nav_test.gltf" ? ["nav%20test.bin"] : []);
    }
  });

  it("parseGltf takes text, a parsed object or the file's bytes (a GLB among them by its magic)", async () => {
    const text = readFileSync(join(dir, "undulating.gltf"), "utf8");
    const a = await io.parseGltf(text);
    const b = await io.parseGltf(JSON.parse(text));
    const c = await io.parseGltf(new TextEncoder().encode(`\ufeff  ${text}`));
    const d = await io.parseGltf(readFileSync(join(dir, "dungeon.glb")));
    expect(b.mesh.indices).toEqual(a.mesh.indices);
    expect(c.mesh.positions).toEqual(a.mesh.positions);
    expect(d.mesh.triangleCount).toBe(
      (await loadGltfMesh(join(dir, "dungeon.glb"))).mesh.triangleCount,
    );
  });

  it("resolves a URI named by two buffers once, and accepts an async resolver returning an ArrayBuffer", async () => {
    const json = JSON.parse(readFileSync(join(dir, "nav_test.gltf"), "utf8"));
    json.buffers.push({ ...json.buffers[0] });
    json.bufferViews[1].buffer = 1;
    const calls: string[] = [];
    const got = await io.parseGltf(json, async (uri, info) => {
      calls.push(`${uri} ${info.buffer} ${info.byteLength}`);
      const b = readFileSync(join(dir, decodeURIComponent(uri)));
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length);
    });
    expect(calls).toEqual([`nav%20test.bin 0 ${json.buffers[0].byteLength}`]);
    expect(got.mesh.indices).toEqual((await loadGltfMesh(join(dir, "nav_test.gltf"))).mesh.indices);
  });

  it("names the buffer and the source when the resolver is missing, throws, returns too little or the wrong type", async () => {
    const text = readFileSync(join(dir, "nav_test.gltf"), "utf8");
    const len = JSON.parse(text).buffers[0].byteLength;
    expect((await rejection(io.parseGltf(text, null, { source: "level.gltf" }))).message).toBe(
      'level.gltf: buffers[0] refers to the external file "nav%20test.bin", which cannot be resolved from bytes alone (pass a resolveBuffer function)',
    );
    const thrown = await rejection(
      io.parseGltf(text, () => Promise.reject(new Error("HTTP 404")), { source: "l.gltf" }),
    );
    expect(thrown.message).toBe('l.gltf: buffers[0] "nav%20test.bin" could not be read: HTTP 404');
    expect((await rejection(io.parseGltf(text, () => new Uint8Array(8)))).message).toBe(
      `input.gltf: buffers[0] "nav%20test.bin" has 8 bytes but buffers[0].byteLength declares ${len}`,
    );
    const wrong = await rejection(io.parseGltf(text, () => "bytes" as unknown as Uint8Array));
    expect(wrong.message).toBe(
      'input.gltf: buffers[0] "nav%20test.bin": the buffer resolver returned string; expected a Uint8Array or ArrayBuffer',
    );
    // A MeshwayError from the resolver passes through as it is.
    const own = new MeshwayError("INVALID_INPUT", "mine");
    expect(await rejection(io.parseGltf(text, () => Promise.reject(own)))).toBe(own);
  });

  it("keeps the located errors and the triangle limit of the Node loader", async () => {
    const glb = readFileSync(join(dir, "dungeon.glb"));
    const truncated = glb.subarray(0, glb.length - 10);
    expect((await rejection(io.parseGlb(truncated, { source: "t.glb" }))).message).toBe(
      `t.glb: truncated GLB: the header declares ${glb.length} bytes but the file has ${glb.length - 10}`,
    );
    const limit = await rejection(io.parseGlb(glb, { maxTriangles: 10 }));
    expect(limit.message).toMatch(
      /^input\.glb: .*more than 3 × maxTriangles|^input\.glb: .*maxTriangles/,
    );
    expect((await rejection(io.parseGlb(glb, { maxTriangles: 0 }))).code).toBe("INVALID_ARGUMENT");
    const notBytes = await rejection(io.parseGlb("glTF" as unknown as Uint8Array));
    expect(notBytes.message).toBe(
      "parseGlb: the input is string; expected an ArrayBuffer or Uint8Array",
    );
    expect((await rejection(io.parseGltf("{ nope"))).message).toMatch(
      /^input\.gltf: the file is not valid JSON/,
    );
  });

  it("decodes base64 (padded or not, standard or URL alphabet) exactly as Node's Buffer does", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, url) => {
        const b = Buffer.from(bytes);
        const text = url ? b.toString("base64url") : b.toString("base64");
        expect(Array.from(decodeBase64(text))).toEqual(Array.from(bytes));
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/]*={0,2}$/), (s) => {
        expect(Array.from(decodeBase64(s))).toEqual(Array.from(Buffer.from(s, "base64")));
      }),
    );
  });
});

/** Every file under src/ that `entry` loads, following relative imports. */
function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:import|export)\s[^"';]*?from\s*["'](\.[^"']+)["']/g)) {
      if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
      visit(normalize(join(dirname(file), m[1]!.replace(/\.js$/, ".ts"))));
    }
  };
  visit(entry);
  return seen;
}

describe("the core entry and the glTF parser", () => {
  it('"meshway" neither exports nor loads the glTF parser; meshway/io exports it', () => {
    expect("parseGlb" in core).toBe(false);
    expect("parseGltf" in core).toBe(false);
    expect(typeof io.parseGlb).toBe("function");
    expect(typeof io.parseGltf).toBe("function");
    const loaded = [...importGraph("src/index.ts")];
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((f) => f.includes("gltf"))).toEqual([]);
    expect([...importGraph("src/io/index.ts")].some((f) => f.includes("io/gltf/"))).toBe(true);
  });
});
