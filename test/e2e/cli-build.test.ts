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

  it("flags override the defaults: info echoes each, and each changes the build as it says", () => {
    const build = (...flags: string[]) => {
      const r = meshway("build", NAV_TEST, "--json", ...flags);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    const base = build();
    // Each flag alone moves the build the way its meaning says.
    expect(build("--agent-radius", "1.2").area).toBeLessThan(base.area); // walls pushed back
    expect(build("--max-slope", "10").area).toBeLessThan(base.area); // ramps no longer walkable
    expect(build("--agent-height", "5").area).toBeLessThan(base.area); // low ceilings excluded
    expect(build("--agent-climb", "0.2").area).toBeLessThan(base.area); // steps become ledges
    const monotone = build("--partition", "monotone");
    expect(monotone.polygons).not.toBe(base.polygons); // another partition, other polygons
    expect(monotone.area).toBeCloseTo(base.area, -1); // of about the same surface

    // All of them at once (and a tiled build): the file stores each, `info` echoes each.
    const dir = mkdtempSync(join(tmpdir(), "meshway-flags-"));
    const out = join(dir, "flags.navmesh");
    const flags = {
      "agent-radius": 1.2,
      "max-slope": 30,
      "agent-height": 3,
      "agent-climb": 0.5,
      "cell-size": 0.25,
      "cell-height": 0.1,
      "tile-size": 64,
    };
    const args = Object.entries(flags).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const r = meshway("build", NAV_TEST, "-o", out, "--json", "--partition", "layers", ...args);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).tiles).toBeGreaterThan(1);
    const info = JSON.parse(meshway("info", out, "--json").stdout);
    expect(info.config).toMatchObject({
      agentRadius: 1.2,
      agentMaxSlope: 30,
      agentHeight: 3,
      agentMaxClimb: 0.5,
      cellSize: 0.25,
      cellHeight: 0.1,
      tileSize: 64,
      partition: "layers",
    });
    expect(info.tiles).toBe(JSON.parse(r.stdout).tiles);
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
