import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadNavMeshFile } from "../../src/node/navmesh-files.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { findShortestPath } from "../../src/query/shortest-path/find-shortest-path.js";
import { meshway } from "../helpers/cli.js";

// `meshway path --mode shortest` through the spawned CLI.
const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const FROM = "21,-2.1,15.6";
const TO = "-24.4,-2.1,-12";
const dir = mkdtempSync(join(tmpdir(), "meshway-shortest-"));
const navFile = join(dir, "nav_test.navmesh");

beforeAll(() => {
  expect(meshway("build", NAV_TEST, "-o", navFile, "--quiet").code).toBe(0);
});

function xz(points: number[][]): number {
  let l = 0;
  for (let i = 1; i < points.length; i++) {
    l += Math.hypot(points[i]![0]! - points[i - 1]![0]!, points[i]![2]! - points[i - 1]![2]!);
  }
  return l;
}

describe("meshway path --mode shortest", () => {
  it("prints the same JSON shape as the funnel, the library's answer, and is no longer in XZ", () => {
    const r = meshway(
      "path",
      navFile,
      "--from",
      FROM,
      `--to=${TO}`,
      "--mode",
      "shortest",
      "--json",
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const shortest = JSON.parse(r.stdout);
    expect(Object.keys(shortest).sort()).toEqual([
      "complete",
      "found",
      "length",
      "points",
      "polys",
      "status",
    ]);
    expect(shortest.found).toBe(true);
    expect(shortest.complete).toBe(true);
    const { navMesh } = loadNavMeshFile(navFile);
    const direct = findShortestPath(
      new NavMeshQuery(navMesh),
      FROM.split(",").map(Number),
      TO.split(",").map(Number),
      { halfExtents: [2, 4, 2] },
    );
    expect(shortest.points).toEqual(direct.points.map((p) => [...p]));
    expect(shortest.polys).toBe(direct.polys.length);
    expect(shortest.length).toBeCloseTo(direct.length, 12);
    const funnel = JSON.parse(
      meshway("path", navFile, "--from", FROM, `--to=${TO}`, "--json").stdout,
    );
    expect(shortest.points[0]).toEqual(funnel.points[0]);
    expect(shortest.points.at(-1)).toEqual(funnel.points.at(-1));
    expect(xz(shortest.points)).toBeLessThanOrEqual(xz(funnel.points) + 1e-9);
  });

  it("prints a readable path without --json, and funnel stays the default", () => {
    const r = meshway("path", navFile, "--from", FROM, `--to=${TO}`, "--mode", "shortest");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^path: \d+ points over \d+ polygons, length \d+\.\d{3}\n/);
    const d = meshway("path", navFile, "--from", FROM, `--to=${TO}`, "--mode", "funnel");
    const f = meshway("path", navFile, "--from", FROM, `--to=${TO}`);
    expect(d.stdout).toBe(f.stdout);
  });

  it("rejects an unknown mode as a usage error", () => {
    const r = meshway("path", navFile, "--from", FROM, `--to=${TO}`, "--mode", "fastest");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--mode must be funnel or shortest/);
  });
});
