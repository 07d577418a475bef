import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";
import { meshToObj, TILED_CONFIG, tiledScene } from "../helpers/tiled-scene.js";

const dir = mkdtempSync(join(tmpdir(), "meshway-tiled-"));
const scene = join(dir, "scene.obj");
writeFileSync(scene, meshToObj(tiledScene()));
const cfgFile = join(dir, "cfg.json");
const { tileSize: _tileSize, ...cells } = TILED_CONFIG;
writeFileSync(cfgFile, JSON.stringify(cells));

describe("meshway build --tile-size / --threads (spawned CLI)", () => {
  it("builds the same file on 1 and 2 threads; --json reports the tiles; path and info read it", () => {
    const one = join(dir, "one.navmesh");
    const two = join(dir, "two.navmesh");
    const a = meshway(
      "build",
      scene,
      "--config",
      cfgFile,
      "--tile-size",
      "32",
      "--threads",
      "1",
      "-o",
      one,
      "--json",
    );
    const b = meshway(
      "build",
      scene,
      "--config",
      cfgFile,
      "--tile-size",
      "32",
      "--threads",
      "2",
      "-o",
      two,
      "--json",
    );
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stderr).toBe("");
    const ja = JSON.parse(a.stdout);
    const jb = JSON.parse(b.stdout);
    expect(Object.keys(ja).sort()).toEqual(
      ["area", "buildMs", "detailTriangles", "polygons", "tiles", "vertices"].sort(),
    );
    expect(ja.tiles).toBeGreaterThan(100);
    expect({ ...ja, buildMs: 0 }).toEqual({ ...jb, buildMs: 0 });
    expect(readFileSync(one).equals(readFileSync(two))).toBe(true);
    const info = JSON.parse(meshway("info", one, "--json").stdout);
    expect(info.tiles).toBe(ja.tiles);
    expect(info.config.tileSize).toBe(32);
    // Across the scene, through many tiles.
    const p = meshway("path", one, "--from", "2,0.25,2", "--to", "60,0.25,40", "--json");
    expect(p.code, p.stderr).toBe(0);
    const path = JSON.parse(p.stdout);
    expect(path.found).toBe(true);
    expect(path.complete).toBe(true);
    expect(path.length).toBeGreaterThan(Math.hypot(58, 38));
  });

  it("the summary names the tile grid, tiles built and threads", () => {
    const r = meshway("build", scene, "--config", cfgFile, "--tile-size", "64", "--threads", "2");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/tile grid\s+6 × 6 tiles of 64 cells \(border 5\)/);
    expect(r.stdout).toMatch(/tiles\s+\d+ built, \d+ empty/);
    expect(r.stdout).toMatch(/threads\s+2/);
  });

  it("bad --tile-size / --threads: usage errors (exit 2) or out-of-range config (exit 1), no file", () => {
    const out = join(dir, "never.navmesh");
    for (const [args, code, msg] of [
      [["--tile-size", "abc"], 2, /--tile-size expects a number/],
      [["--tile-size", "32", "--threads", "0"], 2, /--threads expects an integer/],
      [["--threads", "2"], 2, /--threads needs a tiled build/],
      [["--tile-size=-4"], 1, /"tileSize" = -4 is out of range/],
      [["--tile-size", "12.5"], 1, /"tileSize" = 12.5 is out of range/],
    ] as const) {
      const r = meshway("build", scene, "-o", out, ...args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.stderr).toMatch(/^meshway: /);
      expect(r.stderr).toMatch(msg);
      expect(existsSync(out)).toBe(false);
    }
  });
});
