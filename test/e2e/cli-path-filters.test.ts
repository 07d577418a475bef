import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pathFilterFrom } from "../../src/cli/commands/path.js";
import { meshway } from "../helpers/cli.js";

// `meshway path --include-flags / --exclude-flags / --area-cost` through the spawned CLI.
const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const dir = mkdtempSync(join(tmpdir(), "meshway-path-filters-"));
const navFile = join(dir, "nav_test.navmesh");
const ENDS = ["--from", "21,-2.1,15.6", "--to=-24.4,-2.1,-12"];

beforeAll(() => {
  expect(meshway("build", NAV_TEST, "-o", navFile, "--quiet").code).toBe(0);
});

describe("meshway path filter flags", () => {
  it("--exclude-flags 1 leaves no walkable polygon; uniform --area-cost keeps the path", () => {
    const plain = JSON.parse(meshway("path", navFile, ...ENDS, "--json").stdout);
    expect(plain.found).toBe(true);
    const closed = JSON.parse(
      meshway("path", navFile, ...ENDS, "--exclude-flags", "0x1", "--json").stdout,
    );
    expect(closed.found).toBe(false);
    const scaled = JSON.parse(
      meshway("path", navFile, ...ENDS, "--area-cost", "63=2", "--area-cost", "5=9", "--json")
        .stdout,
    );
    expect(scaled.points).toEqual(plain.points);
  });

  it("refuses malformed values with a usage error (exit 2) naming the flag", () => {
    const r = meshway("path", navFile, ...ENDS, "--area-cost", "64=1");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--area-cost/);
  });

  it("parses flags in decimal and hex and area costs A=C (Infinity blocks)", () => {
    const f = pathFilterFrom("0x3", "4", ["1=2.5", " 7 = Infinity "]);
    expect([f.includeFlags, f.excludeFlags, f.areaCost[1], f.areaCost[7], f.areaCost[0]]).toEqual([
      3,
      4,
      2.5,
      Infinity,
      1,
    ]);
    expect(() => pathFilterFrom("0x10000", undefined, [])).toThrow(/--include-flags/);
    expect(() => pathFilterFrom(undefined, "-1", [])).toThrow(/--exclude-flags/);
    expect(() => pathFilterFrom(undefined, undefined, ["3=-1"])).toThrow(/--area-cost/);
    expect(() => pathFilterFrom(undefined, undefined, ["3"])).toThrow(/--area-cost/);
  });
});
