import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

// `meshway crowd` through the spawned CLI (dist/, built by the pretest script).
const dir = mkdtempSync(join(tmpdir(), "meshway-crowd-"));
const navFile = join(dir, "nav_test.navmesh");

beforeAll(() => {
  expect(meshway("build", "test/fixtures/meshes/nav_test.obj", "-o", navFile, "--quiet").code).toBe(
    0,
  );
});

describe("meshway crowd", () => {
  it("--json prints the quality numbers; the same seed gives the same walk", () => {
    const args = ["crowd", navFile, "--agents", "16", "--seconds", "3", "--seed", "4", "--json"];
    const a = meshway(...args);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    const ra = JSON.parse(a.stdout);
    expect(ra).toMatchObject({ agents: 16, seed: 4, avoidance: "sampled", steps: 180 });
    for (const k of ["msPerUpdate", "arrived", "overlapsPerFrame", "stuck"]) {
      expect(Number.isFinite(ra[k])).toBe(true);
    }
    const rb = JSON.parse(meshway(...args).stdout);
    const { msPerUpdate: _a, ...qa } = ra;
    const { msPerUpdate: _b, ...qb } = rb;
    expect(qb).toEqual(qa);
  });

  it("prints the table and draws the trails with --png (orca)", () => {
    const png = join(dir, "trails.png");
    const r = meshway(
      "crowd",
      navFile,
      "--agents",
      "8",
      "--seconds",
      "2",
      "--avoidance",
      "orca",
      "--png",
      png,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| ms per update \| arrived \| overlaps per frame \| stuck \|/);
    expect(r.stdout).toMatch(/8 agents \(orca/);
    const bytes = readFileSync(png);
    expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  });

  it("usage errors exit 2, bad files exit 1", () => {
    expect(meshway("crowd", navFile, "--avoidance", "magic").code).toBe(2);
    expect(meshway("crowd", navFile, "--agents", "0").code).toBe(2);
    expect(meshway("crowd").code).toBe(2);
    const missing = meshway("crowd", join(dir, "nope.navmesh"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^meshway: /);
  });
});
