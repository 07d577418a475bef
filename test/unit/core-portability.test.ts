import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The core library must run unchanged in browsers: no Node built-ins, no runtime dependencies.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "cli" ? [] : sourceFiles(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

describe("core library portability", () => {
  it("imports nothing but its own relative modules outside src/cli", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles("src")) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/^\s*(?:import|export)[^'"]*from\s+["']([^"']+)["']/gm)) {
        if (!m[1]!.startsWith(".")) offenders.push(`${file}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("declares no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    expect(pkg.dependencies ?? {}).toEqual({});
  });
});
