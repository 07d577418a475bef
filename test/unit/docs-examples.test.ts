import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeGltfFixtures } from "../helpers/gltf-fixtures.js";

// Every ```ts block of README.md and docs/*.md runs as written (issue 19 A2: the README's
// ten-line example returned noStart on the demo mesh). Imports of "meshway", "meshway/node"
// and "meshway/io" resolve to dist/ (built by npm test's pretest), as a user's would; worker
// pools need dist/'s worker scripts. A block that is only a fragment opts out with a first
// line `// doc-fragment: <why>` — keep that rare.
const ROOT = resolve(import.meta.dirname, "../..");
const OUT = join(ROOT, "test/.doc-blocks"); // git-ignored
/** "meshway/node" → "dist/node.js": package.json's import targets, as a user's import resolves. */
const ENTRY: Record<string, string> = Object.fromEntries(
  Object.entries(
    (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        exports: Record<string, { import: string }>;
      }
    ).exports,
  ).map(([sub, t]) => [join("meshway", sub), t.import.replace(/^\.\//, "")]),
);

interface Block {
  file: string;
  line: number;
  code: string;
}

function blocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```ts") continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== "```") i++;
    out.push({ file, line: start + 1, code: lines.slice(start, i + 1).join("\n") });
    i++;
  }
  return out;
}

/** Module source: imports pointed at dist/, the top-level consts exported for the checks. */
function toModule(code: string): string {
  const names = new Set<string>();
  for (const m of code.matchAll(/^(?:const|let) (\w+)/gm)) names.add(m[1]!);
  for (const m of code.matchAll(/^(?:const|let) \{([^}]*)\}/gm)) {
    for (const n of m[1]!.split(",")) {
      const name = n.split(":").at(-1)!.trim();
      if (/^\w+$/.test(name)) names.add(name);
    }
  }
  const body = code.replace(/from "(meshway(?:\/\w+)?)"/g, (_, spec: string) => {
    const target = ENTRY[spec];
    if (target === undefined) throw new Error(`unknown entry point ${spec}`);
    return `from ${JSON.stringify(join(ROOT, target))}`;
  });
  return `${body}\nexport { ${[...names].join(", ")} };\n`;
}

const all = [
  ...blocks("README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .flatMap((f) => blocks(`docs/${f}`)),
];
mkdirSync(OUT, { recursive: true });
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** Checks on what some blocks compute, beyond running without an error. */
const CHECKS: Record<string, (m: Record<string, unknown>) => void | Promise<void>> = {
  // The browser glTF example, with fetch answered from the glTF fixtures.
  "README.md:loadLevel": async (m) => {
    const dir = join(OUT, "gltf");
    await writeGltfFixtures(dir);
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string | URL) =>
      new Response(
        readFileSync(join(dir, decodeURIComponent(new URL(url).pathname))),
      )) as typeof fetch;
    try {
      const load = m.loadLevel as (url: string) => Promise<{ tiles: { polyCount: number }[] }>;
      for (const name of ["nav_test.gltf", "nested.glb"]) {
        const navMesh = await load(`https://levels.example/${name}`);
        expect(navMesh.tiles[0]!.polyCount, name).toBeGreaterThan(100);
      }
    } finally {
      globalThis.fetch = realFetch;
    }
  },
  "README.md:computePath": (m) => {
    const path = m.path as { status: string; points: unknown[] };
    expect(path.status).toBe("complete");
    expect(path.points.length).toBeGreaterThan(2);
  },
  "docs/crowd.md:new Crowd": (m) => {
    expect(m.id as number).toBeGreaterThanOrEqual(0);
    expect((m.positions as Float32Array).length).toBe(3000);
  },
  "docs/shortest-path.md:findShortestPath": (m) => {
    expect((m.path as { status: string }).status).toBe("complete");
  },
};

describe("README and docs code blocks run as written", () => {
  it("finds the blocks", () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
  });
  it.each(all.map((b) => [`${b.file}:${b.line}`, b] as const))(
    "%s",
    async (_, b) => {
      if (/^\/\/ doc-fragment: \S/.test(b.code)) return;
      const file = join(OUT, `${b.file.replace(/\W/g, "_")}_${b.line}.ts`);
      writeFileSync(file, toModule(b.code));
      const m = (await import(file)) as Record<string, unknown>;
      for (const [key, check] of Object.entries(CHECKS)) {
        const [doc, marker] = key.split(":") as [string, string];
        if (doc === b.file && b.code.includes(marker)) await check(m);
      }
    },
    60_000,
  );
});
