import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The arrows of ../shared/DESIGN.md: each part of src/ may import only the parts listed here
// (and itself). `math/` is the floor; the runtime (navmesh/, query/, crowd/, format/) never
// imports the builder, the CLI or node/; render/ knows no lesson.
const ROOT_FILES = ["errors", "config", "input"] as const;
const ALLOWED: Record<string, readonly string[]> = {
  math: [],
  errors: [],
  config: ["errors"],
  input: ["errors"],
  navmesh: ["math", "errors"],
  query: ["math", "navmesh", "errors"],
  crowd: ["math", "navmesh", "query", "errors"],
  format: ["math", "navmesh", "errors", "config"],
  io: ["math", "errors", "input"],
  generate: ["math", "navmesh", "errors", "config", "input"],
  debug: ["math", "navmesh", "query", "crowd", "generate", "errors"],
  // The three.js adapter (three is a peer dependency, imported only here).
  three: ["debug", "navmesh", "query", "math", "errors", "crowd", "tiles", "generate"],
  render: ["math", "navmesh", "errors", "input"],
  tiles: ["math", "navmesh", "query", "generate", "format", "errors", "config", "input"],
  lesson: [
    "math",
    "navmesh",
    "query",
    "generate",
    "render",
    "format",
    "io",
    "errors",
    "config",
    "input",
  ],
  node: [
    "math",
    "navmesh",
    "query",
    "crowd",
    "generate",
    "format",
    "io",
    "render",
    "tiles",
    "debug",
    "errors",
    "config",
    "input",
  ],
  // The root entry: not lesson/ or render/ (their own entry points, issue 17).
  index: [
    "math",
    "navmesh",
    "query",
    "crowd",
    "generate",
    "format",
    "io",
    "tiles",
    "debug",
    "errors",
    "config",
    "input",
  ],
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The part a path under src/ belongs to: its first folder, or the root file's name. */
function partOf(pathUnderSrc: string): string {
  const first = pathUnderSrc.split("/")[0]!;
  return first.endsWith(".ts") || first.endsWith(".js") ? first.replace(/\.(ts|js)$/, "") : first;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles("src")) {
    const from = partOf(relative("src", file));
    const allowed = ALLOWED[from];
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith(".")) continue;
      const target = relative("src", normalize(join(dirname(file), spec)));
      if (target.startsWith("..")) {
        found.push(`${file}: imports ${spec}, outside src/`);
        continue;
      }
      const to = partOf(target);
      if (to === from) continue;
      if (allowed === undefined) {
        if (to === "cli") continue; // cli/ may import anything; nothing imports cli/
        continue;
      }
      if (!allowed.includes(to)) found.push(`${file}: ${from}/ imports ${to} (${spec})`);
    }
  }
  return found;
}

describe("layout: the import arrows of DESIGN.md", () => {
  it("every part imports only the parts below it", () => {
    expect(violations()).toEqual([]);
  });

  it("every folder and root file of src/ has a rule (a new part must be placed deliberately)", () => {
    const parts = readdirSync("src").map((n) => n.replace(/\.ts$/, ""));
    const unplaced = parts.filter((p) => ALLOWED[p] === undefined && p !== "cli");
    expect(unplaced).toEqual([]);
    for (const f of ROOT_FILES) expect(ALLOWED[f]).toBeDefined();
  });

  it("nothing in the library imports cli/, and nothing platform-free imports node/", () => {
    const bad: string[] = [];
    for (const file of sourceFiles("src")) {
      const from = partOf(relative("src", file));
      if (from === "cli") continue;
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const spec = m[1] ?? m[2]!;
        if (!spec.startsWith(".")) continue;
        const to = partOf(relative("src", normalize(join(dirname(file), spec))));
        if (to === "cli" || (to === "node" && from !== "node")) bad.push(`${file}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
