import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

const NAV_TEST = "test/fixtures/meshes/nav_test.obj";

describe("meshway build (spawned CLI)", () => {
  it("--json prints exactly one JSON object with the contract's fields", () => {
    const r = meshway("build", NAV_TEST, "--json");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(
      ["area", "buildMs", "detailTriangles", "polygons", "tiles", "vertices"].sort(),
    );
    expect(out.polygons).toBe(155); // Recast-WASM builds the same 155 polygons
    expect(out.tiles).toBe(1);
    expect(r.stderr).toBe("");
  });

  it("prints a summary with per-stage times by default", () => {
    const r = meshway("build", NAV_TEST);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/triangles in\s+1612/);
    expect(r.stdout).toMatch(/polygons\s+155/);
    expect(r.stdout).toMatch(/rasterize/);
  });

  it("flags override the defaults", () => {
    const a = JSON.parse(meshway("build", NAV_TEST, "--json").stdout);
    const b = JSON.parse(meshway("build", NAV_TEST, "--json", "--agent-radius", "1.2").stdout);
    expect(b.area).toBeLessThan(a.area);
  });

  it("unknown flags and commands are usage errors (exit 2)", () => {
    const r = meshway("build", NAV_TEST, "--agent-radios", "1");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^meshway: .*agent-radios/);
    expect(meshway("fly").code).toBe(2);
    expect(meshway("build", NAV_TEST, "--cell-size", "abc").code).toBe(2);
  });

  it("bad input exits 1 with a located message and no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "meshway-"));
    const missing = join(dir, "missing.obj");
    let r = meshway("build", missing);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`meshway: ${missing}: no such file\n`);

    const bad = join(dir, "bad.obj");
    writeFileSync(bad, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n");
    r = meshway("build", bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^meshway: ${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4: `),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);

    r = meshway("build", `${dir}/`);
    expect(r.code).toBe(1);
    const neg = meshway("build", NAV_TEST, "--cell-size=-1");
    expect(neg.code).toBe(1);
    expect(neg.stderr).toMatch(/^meshway: config option "cellSize" = -1 is out of range/);
  });
});
