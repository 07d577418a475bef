import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatLessonTables,
  lessonToJson,
  resolveLessonSettings,
  runLesson,
} from "../../src/lesson/index.js";
import { renderLessonSection } from "../../src/lesson/pictures.js";
import { meshway } from "../helpers/cli.js";
import { decodeRgbaPng } from "../helpers/png.js";

// `meshway lesson` through the spawned CLI (dist/, built by the pretest script).
const dir = mkdtempSync(join(tmpdir(), "meshway-lesson-"));

describe("meshway lesson", () => {
  it.each([0.25, 0.75, 1.5])(
    "--radius %s --json prints one object whose tables equal runLesson's",
    (r) => {
      const out = meshway("lesson", "--radius", String(r), "--json");
      expect(out.code).toBe(0);
      expect(out.stderr).toBe("");
      const json = JSON.parse(out.stdout);
      const direct = runLesson(resolveLessonSettings({ radius: r }));
      expect(json).toEqual(JSON.parse(JSON.stringify(lessonToJson(direct))));
      expect(json.tables.length).toBe(4);
      expect(json.settings).toEqual({
        radius: r,
        shape: "square",
        method: "simple",
        view: "straight",
        step: -1,
        start: [2.25, 2.75],
        goal: [21.25, 13.25],
        corner: [12, 8],
      });
      expect(json.passed).toBe(true);
    },
  );

  it("default text output is the Chinese tables and self-check, as formatLessonTables prints them", () => {
    const out = meshway("lesson");
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(formatLessonTables(runLesson(resolveLessonSettings({})), "zh", "text"));
    expect(out.stdout).toMatch(/^表①/);
    expect(out.stdout).toContain("自检：");
  });

  it("--lang en --markdown prints English Markdown tables for the chosen settings", () => {
    const out = meshway(
      "lesson",
      "--lang",
      "en",
      "--markdown",
      "--method",
      "simple",
      "--shape",
      "L",
      "--radius",
      "1.2",
    );
    expect(out.code).toBe(0);
    const settings = resolveLessonSettings({ method: "simple", shape: "L", radius: 1.2 });
    expect(out.stdout).toBe(formatLessonTables(runLesson(settings), "en", "markdown"));
    expect(out.stdout).toMatch(/^### Table ①/);
    expect(out.stdout.match(/^\| --- /gm)?.length).toBe(4);
    expect(/[\u4e00-\u9fff]/.test(out.stdout)).toBe(false);
  });

  it.each([1, 2, 3, 4])(
    "--png --section %s writes the very pixels renderLessonSection draws",
    (n) => {
      const file = join(dir, `s${n}.png`);
      const out = meshway(
        "lesson",
        "--radius",
        "0.5",
        "--view",
        "midpoint",
        "--png",
        file,
        "--section",
        String(n),
      );
      expect(out.code).toBe(0);
      const png = decodeRgbaPng(new Uint8Array(readFileSync(file)));
      const img = renderLessonSection(
        runLesson(resolveLessonSettings({ radius: 0.5, view: "midpoint" })),
        n as 1,
      );
      expect([png.width, png.height]).toEqual([img.width, img.height]);
      expect(Buffer.from(png.pixels).equals(Buffer.from(img.data))).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
    },
  );

  it("--from/--to move section 4's path exactly as runLesson does; --step picks the picture's step", () => {
    const file = join(dir, "moved.png");
    const args = ["--from", "2.25,8", "--to", "20,3", "--method", "meshway", "--step", "3"];
    const out = meshway("lesson", ...args, "--json", "--png", file, "--section", "4");
    expect(out.code, out.stderr).toBe(0);
    const settings = resolveLessonSettings({
      start: [2.25, 8],
      goal: [20, 3],
      method: "meshway",
      step: 3,
    });
    const direct = runLesson(settings);
    const json = JSON.parse(out.stdout);
    expect(json).toEqual(JSON.parse(JSON.stringify(lessonToJson(direct))));
    expect(json.path.midpoint.slice(0, 2)).toEqual([2.25, 8]);
    const png = decodeRgbaPng(new Uint8Array(readFileSync(file)));
    expect(Buffer.from(png.pixels).equals(Buffer.from(renderLessonSection(direct, 4).data))).toBe(
      true,
    );
    expect(meshway("lesson", "--step", "last", "--json").code).toBe(0);
  });

  it("--corner moves the L's inner corner exactly as runLesson does (table ①, checks, section 1's picture)", () => {
    const file = join(dir, "corner.png");
    const out = meshway(
      "lesson",
      "--shape",
      "L",
      "--corner",
      "16,4",
      "--json",
      "--png",
      file,
      "--section",
      "1",
    );
    expect(out.code, out.stderr).toBe(0);
    const direct = runLesson(resolveLessonSettings({ shape: "L", corner: [16, 4] }));
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(JSON.stringify(lessonToJson(direct))));
    const png = decodeRgbaPng(new Uint8Array(readFileSync(file)));
    expect(Buffer.from(png.pixels).equals(Buffer.from(renderLessonSection(direct, 1).data))).toBe(
      true,
    );
  });

  it.each([
    [["--from", "30,1"], /--from.*outside/],
    [["--corner", "11,8"], /--corner 11,8 is outside the L's notch/],
    [["--to", "1;2"], /--to must be x,z/],
    [["--step", "-3"], /--step/],
    [["--step", "1.5"], /--step/],
    [["--radius", "2"], /--radius/],
    [["--radius", "abc"], /--radius/],
    [["--shape", "circle"], /--shape/],
    [["--method", "recast"], /--method/],
    [["--view", "both"], /--view/],
    [["--lang", "fr"], /--lang/],
    [["--section", "2"], /--png and --section/],
    [["--png", "x.png", "--section", "5"], /--section/],
    [["--json", "--markdown"], /--json and --markdown/],
    [["--frobnicate"], /frobnicate/],
    [["extra.obj"], /no file/],
  ])("bad arguments %j exit 2 with a usage message and write nothing", (args, msg) => {
    const out = meshway("lesson", ...args);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^meshway: /);
    expect(out.stderr).toMatch(msg);
    expect(out.stderr).toContain("see 'meshway lesson --help'");
    expect(out.stderr).not.toContain("usage: meshway lesson");
    expect(existsSync("x.png")).toBe(false);
  });

  it("--help prints the usage with examples and exits 0", () => {
    const out = meshway("lesson", "--help");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("usage: meshway lesson");
    expect(out.stdout).toContain("examples:");
  });
});
