import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meshway } from "../helpers/cli.js";

// Conventions a new user expects from a CLI (issue 19 A1, A7), through the spawned CLI.
const NAV_TEST = "test/fixtures/meshes/nav_test.obj";
const FROM = "21,-2.1,15.6";
const TO = "-24.4,-2.1,-12";
const dir = mkdtempSync(join(tmpdir(), "meshway-conv-"));
const navFile = join(dir, "nav_test.navmesh");

beforeAll(() => {
  expect(meshway("build", NAV_TEST, "-o", navFile, "--quiet").code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a value starting with '-' after an option that takes one (was: 'argument is ambiguous')", () => {
  it("path --from -24.4,-2.1,-12 --to … is read as coordinates", () => {
    const spaced = meshway("path", navFile, "--from", TO, "--to", FROM, "--json");
    const joined = meshway("path", navFile, `--from=${TO}`, `--to=${FROM}`, "--json");
    expect(spaced.code, spaced.stderr).toBe(0);
    expect(spaced.stdout).toBe(joined.stdout);
    expect(JSON.parse(spaced.stdout).complete).toBe(true);
  });

  it("build --agent-radius -1 gives the range error (exit 1), not a usage error", () => {
    const r = meshway("build", NAV_TEST, "--agent-radius", "-1");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/agentRadius.*-1.*out of range/);
    expect(r.stderr).not.toMatch(/ambiguous/);
  });

  it("render and lesson take negative values after a space too; -o takes a value", () => {
    const png = join(dir, "neg.png");
    const r = meshway("render", navFile, "-o", png, "--from", TO, "--to", FROM);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(png)).toBe(true);
    const l = meshway("lesson", "--radius", "-1");
    expect(l.code).toBe(2);
    expect(l.stderr).toMatch(/--radius/);
    expect(l.stderr).not.toMatch(/ambiguous/);
  });

  it("an option missing its value, or a flag given one, is one usage line", () => {
    const r = meshway("path", navFile, "--from");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("meshway: --from needs a value\nsee 'meshway path --help'\n");
    const j = meshway("info", navFile, "--json=yes");
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(/^meshway: --json takes no value/);
  });
});

describe("CLI conventions (issue 19 A7)", () => {
  it("--version prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8"));
    const r = meshway("--version");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
  });

  it("meshway help <cmd> prints that command's help; meshway help lists the commands", () => {
    const r = meshway("help", "path");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(meshway("path", "--help").stdout);
    expect(meshway("help").stdout).toMatch(/commands:/);
    expect(meshway("help", "fly").code).toBe(2);
  });

  it("usage errors print one line and a pointer to --help, not the whole help", () => {
    const r = meshway("path", navFile, "--from", "1,2", "--to", FROM);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `meshway: --from expects three numbers x,y,z, got "1,2"\nsee 'meshway path --help'\n`,
    );
    expect(r.stdout).toBe("");
  });

  it("unknown flags and commands: our wording with 'did you mean'", () => {
    const r = meshway("build", NAV_TEST, "--agent-radios", "1");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "meshway: unknown option --agent-radios; did you mean --agent-radius?\nsee 'meshway build --help'\n",
    );
    expect(meshway("path", navFile, "-x").stderr).toMatch(/^meshway: unknown option -x\n/);
    expect(meshway("biuld").stderr).toMatch(
      /^meshway: unknown command "biuld"; did you mean "build"\?/,
    );
  });

  it("export -o x.obj infers --format from the extension (was: 'got null')", () => {
    const obj = join(dir, "x.obj");
    const r = meshway("export", navFile, "-o", obj);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(obj, "utf8")).toBe(meshway("export", navFile, "--format", "obj").stdout);
    const json = join(dir, "x.JSON");
    expect(meshway("export", navFile, "-o", json).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(json, "utf8")))).toEqual([
      "vertices",
      "polygons",
      "areas",
    ]);
    const bad = meshway("export", navFile, "-o", join(dir, "x.txt"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot tell the format.*--format json\|obj/);
    expect(meshway("export", navFile).stderr).not.toMatch(/null/);
  });

  it("path --json has a status field with the library's status strings", () => {
    const ok = JSON.parse(meshway("path", navFile, "--from", FROM, "--to", TO, "--json").stdout);
    expect(ok).toMatchObject({ found: true, complete: true, status: "complete" });
    for (const k of ["found", "complete", "polys", "points", "length"])
      expect(ok).toHaveProperty(k);
    const off = JSON.parse(
      meshway("path", navFile, "--from", "1000,0,1000", "--to", TO, "--json").stdout,
    );
    expect(off.status).toBe("noStart");
  });

  it("render's 'no path drawn' is a warning line, not the error format, exit 0", () => {
    const r = meshway(
      "render",
      navFile,
      "-o",
      join(dir, "w.png"),
      "--from",
      "1000,0,1000",
      "--to",
      TO,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^meshway: warning: .*no path drawn/);
  });

  it("--threads above the available cores is capped with a note on stderr, JSON stays clean", () => {
    const many = String(availableParallelism() + 3);
    const r = meshway("build", NAV_TEST, "--tile-size", "64", "--threads", many, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`--threads ${many} capped to the ${availableParallelism()}`),
    );
    expect(JSON.parse(r.stdout).polygons).toBeGreaterThan(0);
  });
});
