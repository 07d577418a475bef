import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codeRegion } from "../../web/code-region.js";

// The page quotes src/lesson verbatim beside its pictures (web/main.ts, `?raw` imports) and
// highlights the running line by its text: the regions must exist and hold those lines.
const read = (f: string) => readFileSync(`src/lesson/${f}`, "utf8");

describe("the explainer page's code boxes", () => {
  it.each([
    ["funnel.ts", "drop", ["alive.splice(k, 1);", "k++;"]],
    ["funnel.ts", "funnel", ["rx = prx;", "lx = plx;", "push(ax, az);"]],
    ["geometry.ts", "cross", ["if (cross > 0) positive++;"]],
    ["rectangles.ts", "rectangles", ["out.push(i, j, i1, j1);"]],
    ["surface.ts", "filter", []],
    ["scene.ts", "distance", []],
  ] as const)(
    "%s region %s is quoted, short, and holds its highlighted lines",
    (file, name, hot) => {
      const source = read(file);
      const lines = codeRegion(source, name);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(40);
      // Verbatim: every quoted line, re-indented, is a line of the file.
      const fileLines = new Set(source.split("\n").map((l) => l.trim()));
      for (const l of lines) expect(fileLines.has(l.trim()), l).toBe(true);
      for (const h of hot) expect(lines.map((l) => l.trim())).toContain(h);
    },
  );
});
