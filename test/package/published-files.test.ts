import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 19 A6: the published .js pointed at source maps whose sources (src/) are not shipped,
// so a user's Vite dev server warned 45 times. The build emits no maps (tsconfig.build.json).
const ROOT = resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("published files", () => {
  it("dist/ has no source-map references to sources that are not shipped", () => {
    const js = files(join(ROOT, "dist")).filter((f) => /\.(js|d\.ts)$/.test(f));
    expect(js.length).toBeGreaterThan(50);
    expect(js.filter((f) => readFileSync(f, "utf8").includes("sourceMappingURL="))).toEqual([]);
  });

  // Issue 17: a non-ASCII character makes the engine hold a whole module as a two-byte string
  // (a slower cold import); scripts/build.mjs escapes them.
  it("dist/'s .js files are ASCII-only", () => {
    const js = readdirSync(join(ROOT, "dist")).filter((f) => f.endsWith(".js"));
    const nonAscii = js.filter((f) =>
      /[^\0-\x7f]/.test(readFileSync(join(ROOT, "dist", f), "utf8")),
    );
    expect(nonAscii).toEqual([]);
  });

  it("every package.json export target is a shipped file", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const shipped = (f: string) =>
      pkg.files.some((d: string) => f.replace(/^\.\//, "").startsWith(d));
    for (const conditions of Object.values(pkg.exports) as Record<string, string>[]) {
      for (const target of Object.values(conditions)) expect(shipped(target), target).toBe(true);
    }
  });
});
