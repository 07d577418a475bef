import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";
import { meshToObj, TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

const dir = mkdtempSync(join(tmpdir(), "meshway-merge-"));
const scene = join(dir, "scene.obj");
writeFileSync(scene, meshToObj(tiledScene()));
const cfgFile = join(dir, "cfg.json");
const { tileSize: _tileSize, ...cells } = TILED_CONFIG;
writeFileSync(cfgFile, JSON.stringify(cells));

/** `meshway build scene --tile-size 64 [--tiles range] -o file` (a 6 × 6 grid). */
function build(out: string, tiles?: string, ...extra: string[]) {
  const range = tiles === undefined ? [] : ["--tiles", tiles];
  const r = meshway(
    "build",
    scene,
    "--config",
    cfgFile,
    "--tile-size",
    "64",
    ...range,
    "-o",
    out,
    "--quiet",
    ...extra,
  );
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe("meshway build --tiles / meshway merge (spawned CLI)", () => {
  const whole = build(join(dir, "whole.navmesh"));

  it("uneven pieces on 1 and 2 threads merge into the one-machine build's bytes", () => {
    const parts = [
      build(join(dir, "a.navmesh"), "0:1,0:5", "--threads", "1"),
      build(join(dir, "b.navmesh"), "2:5,0:1", "--threads", "2"),
      build(join(dir, "c.navmesh"), "2:5,2:5"),
    ];
    const out = join(dir, "world.navmesh");
    const r = meshway("merge", ...parts, "-o", out, "--json");
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(meshway("info", whole, "--json").stdout);
    expect(JSON.parse(r.stdout)).toEqual({
      files: 3,
      tiles: info.tiles,
      polygons: info.polygons,
      vertices: info.vertices,
    });
    expect(readFileSync(out).equals(readFileSync(whole))).toBe(true);
  });

  it("the summary names the tile range", () => {
    const r = meshway(
      "build",
      scene,
      "--config",
      cfgFile,
      "--tile-size",
      "64",
      "--tiles",
      "1:2,3:3",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/tile range\s+x 1:2, z 3:3/);
    expect(r.stdout).toMatch(/tiles\s+2 built, 0 empty/);
  });

  it("refuses overlapping or mismatched pieces (exit 1, nothing written)", () => {
    const a = build(join(dir, "o1.navmesh"), "0:2,0:0");
    const b = build(join(dir, "o2.navmesh"), "2:3,0:0");
    const c = build(join(dir, "o3.navmesh"), "4:5,0:0", "--agent-radius", "0.75");
    const out = join(dir, "never.navmesh");
    const overlap = meshway("merge", a, b, "-o", out);
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toMatch(
      /o1\.navmesh and .*o2\.navmesh cannot be merged: both hold tile \(2, 0\)/,
    );
    const radius = meshway("merge", a, c, "-o", out);
    expect(radius.code).toBe(1);
    expect(radius.stderr).toMatch(/cannot be merged: agentRadius 0\.5 vs 0\.75/);
    expect(existsSync(out)).toBe(false);
  });

  it("usage errors: bad --tiles, --tiles without --tile-size, merge without -o (exit 2)", () => {
    for (const [args, msg] of [
      [["build", scene, "--tile-size", "64", "--tiles", "0-1,0:1"], /--tiles expects x0:x1,z0:z1/],
      [["build", scene, "--tile-size", "64", "--tiles", "3:1,0:1"], /x0 ≤ x1/],
      [["build", scene, "--tiles", "0:1,0:1"], /--tiles needs a tiled build/],
      [["merge", whole], /merge needs -o/],
      [["merge", "-o", join(dir, "x.navmesh")], /merge needs one or more/],
    ] as [string[], RegExp][]) {
      const r = meshway(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
    const outside = meshway(
      "build",
      scene,
      "--config",
      cfgFile,
      "--tile-size",
      "64",
      "--tiles",
      "0:6,0:0",
    );
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/the grid has 6 × 6 tiles, x 0:5, z 0:5/);
  });
});
