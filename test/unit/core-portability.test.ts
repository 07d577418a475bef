import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The core library must run unchanged in browsers: no Node built-ins, no runtime dependencies.
// Only the Node-side front ends (src/cli, src/node) may import Node built-ins and libraries.
const NODE_SIDE = new Set(["cli", "node"]);
// Engine adapters import their engine (an optional peer dependency) and nothing else.
const PEER_IMPORTS: Record<string, readonly string[]> = { three: ["three"] };
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return NODE_SIDE.has(name) ? [] : sourceFiles(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

describe("core library portability", () => {
  it("imports nothing but its own relative modules outside src/cli and src/node", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles("src")) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/^\s*(?:import|export)[^'"]*from\s+["']([^"']+)["']/gm)) {
        if (m[1]!.startsWith(".")) continue;
        const part = file.split(/[\\/]/)[1]!;
        if (PEER_IMPORTS[part]?.includes(m[1]!)) continue;
        offenders.push(`${file}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("installs no runtime dependency at all (glTF is read by meshway's own parser, meshway/io)", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    expect(pkg.dependencies ?? {}).toEqual({});
    // Engine adapters (meshway/three) name their engine as an optional peer: never installed
    // for a user who does not import that entry point.
    for (const name of Object.keys(pkg.peerDependencies ?? {})) {
      expect(pkg.peerDependenciesMeta?.[name]?.optional, `${name} is an optional peer`).toBe(true);
    }
  });
});
