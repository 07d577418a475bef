import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

// Issue 19 A3: a clockwise-wound or Z-up level gave 0 polygons, exit 0, and the file written.
const dir = mkdtempSync(join(tmpdir(), "meshway-orient-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = readFileSync("test/fixtures/meshes/undulating.obj", "utf8");

/** undulating.obj with each vertex and face line rewritten. */
function variant(name: string, v: (x: string, y: string, z: string) => string, flip: boolean) {
  const text = source
    .split("\n")
    .map((line) => {
      const w = line.trim().split(/\s+/);
      if (w[0] === "v") return `v ${v(w[1]!, w[2]!, w[3]!)}`;
      if (w[0] === "f" && flip) return `f ${w[1]} ${w.slice(2).reverse().join(" ")}`;
      return line;
    })
    .join("\n");
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
const neg = (s: string) => (s.startsWith("-") ? s.slice(1) : `-${s}`);
const zUp = variant("z-up.obj", (x, y, z) => `${x} ${neg(z)} ${y}`, false);
const clockwise = variant("cw.obj", (x, y, z) => `${x} ${y} ${z}`, true);
const original = join(dir, "y-up.obj");
writeFileSync(original, source);

describe("meshway build on Z-up or clockwise input", () => {
  it("a Z-up level: exit 1, nothing written, the message names --up z (was: exit 0, empty file)", () => {
    const out = join(dir, "z.navmesh");
    const r = meshway("build", zUp, "-o", out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^meshway: warning: .*z-up\.obj: .*Z-up; try --up z/);
    expect(r.stderr).toMatch(/meshway: .*z-up\.obj: the navmesh is empty \(0 polygons .*--up z/);
    expect(r.stderr).toMatch(/--allow-empty/);
    expect(existsSync(out)).toBe(false);
  });

  it("--up z builds what the Y-up file builds", () => {
    const a = join(dir, "a.navmesh");
    const b = join(dir, "b.navmesh");
    expect(meshway("build", original, "-o", a, "--quiet").code).toBe(0);
    const r = meshway("build", zUp, "--up", "z", "-o", b, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(b)).toEqual(readFileSync(a));
  });

  it("a clockwise level: the warning and refusal name --flip-winding, which fixes it", () => {
    const r = meshway("build", clockwise, "--json");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/faces down.*--flip-winding/);
    const fixed = meshway("build", clockwise, "--flip-winding", "--json");
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(JSON.parse(fixed.stdout)).toEqual({
      ...JSON.parse(meshway("build", original, "--json").stdout),
      buildMs: expect.any(Number),
    });
  });

  it("--allow-empty writes the empty navmesh; a tiled build warns the same way", () => {
    const out = join(dir, "empty.navmesh");
    const r = meshway("build", zUp, "-o", out, "--allow-empty", "--quiet");
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    // Tiled, a few steep bits of the Z-up terrain count as floor: not empty, but warned.
    const t = meshway("build", zUp, "--tile-size", "32", "--threads", "1");
    expect(t.stderr).toMatch(/^meshway: warning: .*Z-up; try --up z/);
    expect(meshway("build", zUp, "--up", "x").stderr).toMatch(/^meshway: --up must be y or z/);
  });
});
