import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, type Logger, NodeIO } from "@gltf-transform/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNavMeshFile } from "../../src/node/navmesh-files.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { meshway } from "../helpers/cli.js";
import { loadSharedMesh } from "../helpers/meshes.js";

// Every command through the spawned CLI (dist/, built by the pretest script).
const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const FROM = "21,-2.1,15.6";
const TO = "-24.4,-2.1,-12";
const dir = mkdtempSync(join(tmpdir(), "meshway-cli-"));
const navFile = join(dir, "nav_test.navmesh");
const SILENT = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

/** stderr is one `meshway: <file>: …` line, no stack trace. */
function expectLocatedError(r: ReturnType<typeof meshway>, file: string, what: RegExp) {
  expect(r.code).toBe(1);
  // `meshway: <file>: …`, or `meshway: <file>:<line>: …` when a line is at fault.
  expect(r.stderr.startsWith(`meshway: ${file}:`)).toBe(true);
  expect(r.stderr.slice(`meshway: ${file}:`.length)).toMatch(/^( |\d+: )/);
  expect(r.stderr).toMatch(what);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(() => {
  expect(meshway("build", NAV_TEST, "-o", navFile, "--quiet").code).toBe(0);
});
afterAll(() => {
  // Atomic writes leave no temporary files behind.
  expect(readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
});

describe("meshway CLI commands", () => {
  it("build → save → load gives the same answers as querying the fresh build", () => {
    const r = meshway("path", navFile, "--from", FROM, `--to=${TO}`, "--json");
    expect(r.code).toBe(0);
    const fromCli = JSON.parse(r.stdout);
    const { navMesh } = loadNavMeshFile(navFile);
    const direct = new NavMeshQuery(navMesh).computePath(
      FROM.split(",").map(Number),
      TO.split(",").map(Number),
      { halfExtents: [2, 4, 2] },
    );
    expect(fromCli.found).toBe(true);
    expect(fromCli.complete).toBe(true);
    expect(fromCli.polys).toBe(direct.polys.length);
    expect(fromCli.points).toEqual(direct.points.map((p) => [...p]));
    expect(fromCli.length).toBeCloseTo(direct.length, 12);
    expect(Object.keys(fromCli).sort()).toEqual([
      "complete",
      "found",
      "length",
      "points",
      "polys",
      "status",
    ]);
  });

  it("info --json has the contract's fields and echoes the effective config", () => {
    const r = meshway("info", navFile, "--json");
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    for (const k of ["polygons", "vertices", "tiles", "area", "bounds", "version"]) {
      expect(info).toHaveProperty(k);
    }
    expect(info.polygons).toBe(155);
    expect(info.config.agentRadius).toBe(0.6);
  });

  it("--config sets options, and flags override the file", () => {
    const cfg = join(dir, "cfg.json");
    writeFileSync(cfg, JSON.stringify({ agentRadius: 1.2, cellSize: 0.3 }));
    const out = join(dir, "cfg.navmesh");
    expect(meshway("build", NAV_TEST, "--config", cfg, "-o", out, "--quiet").code).toBe(0);
    expect(JSON.parse(meshway("info", out, "--json").stdout).config.agentRadius).toBe(1.2);
    expect(
      meshway("build", NAV_TEST, "--config", cfg, "--agent-radius", "0.3", "-o", out).code,
    ).toBe(0);
    expect(JSON.parse(meshway("info", out, "--json").stdout).config.agentRadius).toBe(0.3);
    writeFileSync(cfg, JSON.stringify({ agentRadius: -1 }));
    const bad = meshway("build", NAV_TEST, "--config", cfg);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/"agentRadius" = -1 is out of range/);
  });

  it("export --format json has the contract's shape; obj has one group per area", () => {
    const r = meshway("export", navFile, "--format", "json");
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(Object.keys(data).sort()).toEqual(["areas", "polygons", "vertices"]);
    expect(data.polygons).toHaveLength(155);
    expect(data.areas).toHaveLength(155);
    expect(data.vertices[0]).toHaveLength(3);
    const objFile = join(dir, "nav.obj");
    expect(meshway("export", navFile, "--format", "obj", "-o", objFile).code).toBe(0);
    const obj = readFileSync(objFile, "utf8");
    expect(obj.match(/^f /gm)).toHaveLength(155);
    expect(obj).toMatch(/^g area_63$/m);
    // The exported OBJ is itself a valid meshway input whose faces are all walkable floors.
    const again = meshway("build", objFile, "--json", "--agent-radius", "0");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).polygons).toBeGreaterThan(0);
  });

  it("render writes a PNG and an SVG", () => {
    const png = join(dir, "nav.png");
    const svg = join(dir, "nav.svg");
    expect(
      meshway("render", navFile, "-o", png, "--from", FROM, `--to=${TO}`, "--size", "256").code,
    ).toBe(0);
    expect([...readFileSync(png).subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(meshway("render", NAV_TEST, "-o", svg).code).toBe(0);
    expect(readFileSync(svg, "utf8")).toMatch(/^<svg[^>]*>/);
  });

  it("builds from a GLB generated from the OBJ, with the same polygons", async () => {
    const mesh = loadSharedMesh("nav_test");
    const doc = new Document().setLogger(SILENT);
    const buffer = doc.createBuffer();
    const prim = doc
      .createPrimitive()
      .setAttribute(
        "POSITION",
        doc.createAccessor().setType("VEC3").setArray(mesh.positions).setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType("SCALAR").setArray(mesh.indices).setBuffer(buffer));
    const node = doc.createNode("level").setMesh(doc.createMesh("level").addPrimitive(prim));
    doc.getRoot().setDefaultScene(doc.createScene().addChild(node));
    const glb = join(dir, "nav_test.glb");
    writeFileSync(glb, await new NodeIO().setLogger(SILENT).writeBinary(doc));
    const r = meshway("build", glb, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).polygons).toBe(155);

    // A GLB whose first chunk claims more bytes than the file has.
    const bytes = new Uint8Array(readFileSync(glb));
    new DataView(bytes.buffer).setUint32(12, 10_000_000, true);
    const broken = join(dir, "broken.glb");
    writeFileSync(broken, bytes);
    const out = join(dir, "broken.navmesh");
    expectLocatedError(meshway("build", broken, "-o", out), broken, /chunk length/);
    expect(existsSync(out)).toBe(false);
  });

  it("path with a point far off the mesh reports found: false with a reason, exit 0", () => {
    const r = meshway("path", navFile, "--from", "1000,0,1000", `--to=${TO}`, "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.found).toBe(false);
    expect(out.reason).toMatch(/not on the navmesh/);
  });

  it("malformed --from and missing flags are usage errors (exit 2)", () => {
    for (const args of [
      ["path", navFile, "--from", "1,2", `--to=${TO}`],
      ["path", navFile, "--from", "a,b,c", `--to=${TO}`],
      ["path", navFile, `--to=${TO}`],
      ["export", navFile, "--format", "xml"],
      ["render", navFile, "-o", join(dir, "x.jpg")],
      ["info"],
      ["build", NAV_TEST, "--tile-size", "32", "--threads", "0"],
      ["build", NAV_TEST, "--tile-size", "x"],
      ["path", navFile, "--from", FROM, `--to=${TO}`, "--mode", "fastest"],
      ["lesson", "--radius", "9"],
    ]) {
      const r = meshway(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^meshway: /);
    }
  });

  it("every command has --help with examples", () => {
    for (const c of ["build", "path", "info", "export", "render"]) {
      const r = meshway(c, "--help");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/examples:/);
    }
  });

  it("bad inputs exit 1 with `meshway: <file>: <what>` and leave no output file", () => {
    const out = join(dir, "never.navmesh");
    const cases: [string, string | Uint8Array | null, RegExp][] = [
      ["missing.obj", null, /no such file/],
      ["empty.obj", "", /is empty/],
      ["random.obj", new Uint8Array(256).map((_, i) => (i * 97 + 13) & 0xff), /binary data|line/],
      ["nan.obj", "v 0 0 0\nv 1 0 NaN\nv 0 0 1\nf 1 2 3\n", /:2: /],
      ["range.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 7\n", /:4: /],
    ];
    for (const [name, content, what] of cases) {
      const file = join(dir, name);
      if (content !== null) writeFileSync(file, content);
      expectLocatedError(meshway("build", file, "-o", out), file, what);
      expect(existsSync(out)).toBe(false);
    }
    expectLocatedError(meshway("build", dir, "-o", out), dir, /is a directory/);
    expect(existsSync(out)).toBe(false);
  });

  it("a corrupted, truncated or newer .navmesh is refused whole", () => {
    const good = readFileSync(navFile);
    const flipped = join(dir, "flipped.navmesh");
    const f = new Uint8Array(good);
    f[good.length >> 1]! ^= 0x01;
    writeFileSync(flipped, f);
    expectLocatedError(meshway("info", flipped), flipped, /checksum|corrupt/);

    const truncated = join(dir, "truncated.navmesh");
    writeFileSync(truncated, good.subarray(0, good.length - 100));
    expectLocatedError(
      meshway("path", truncated, "--from", FROM, `--to=${TO}`),
      truncated,
      /truncated/,
    );

    const newer = join(dir, "newer.navmesh");
    const n = new Uint8Array(good);
    new DataView(n.buffer).setUint16(4, 99, true);
    writeFileSync(newer, n);
    expectLocatedError(meshway("info", newer), newer, /version 99/);
  });

  it("a failed build never clobbers an existing good file", () => {
    const target = join(dir, "keep.navmesh");
    writeFileSync(target, readFileSync(navFile));
    const bad = join(dir, "bad.obj");
    writeFileSync(bad, "v 0 0 0\nf 1 2 3\n");
    expect(meshway("build", bad, "-o", target).code).toBe(1);
    expect(Buffer.compare(readFileSync(target), readFileSync(navFile))).toBe(0);
  });
});
