// npm run build: one bundled ESM file per entry point in dist/, plus tsc's declarations.
// An import then loads a handful of files instead of ~200 modules (issue 17, start-up).
// Every .js lands flat in dist/ (entries and shared chunks alike), so a module that finds a
// worker script with `new URL("./…-worker.js", import.meta.url)` finds it wherever the bundler
// put that module. Shared code lives in shared chunks, never copied into two entries, so
// MeshwayError, NavMesh … are one class across meshway, meshway/node, the CLI and the workers.
// Declarations keep the source tree (dist/index.d.ts, dist/io/index.d.ts, …).
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
// Built into a staging folder and swapped in at the end, so a process reading dist/ meanwhile
// (a test running the README's `npm start`, a CLI in another terminal) never finds it empty.
const staging = join(root, "dist-next");

/** dist/<name>.js ← src/<path>. The names are the package's export targets (package.json). */
export const ENTRIES = {
  index: "src/index.ts",
  io: "src/io/index.ts",
  node: "src/node/index.ts",
  lesson: "src/lesson/public.ts",
  render: "src/render/index.ts",
  debug: "src/debug/index.ts",
  three: "src/three/index.ts",
  cli: "src/cli/main.ts",
  // Spawned by file URL (src/node/tile-pool.ts, src/tiles/web-worker-pool.ts).
  "tile-worker": "src/node/tile-worker.ts",
  "web-tile-worker": "src/tiles/web-tile-worker.ts",
};

/**
 * The old per-module paths of the public entry points, kept as one-line re-exports so scripts
 * that imported dist/node/index.js … still work (same module instances: they re-export).
 */
const ALIASES = {
  "io/index.js": "../io.js",
  "node/index.js": "../node.js",
  "debug/index.js": "../debug.js",
  "three/index.js": "../three.js",
  "cli/main.js": "../cli.js",
};

const entryFiles = new Set(Object.values(ENTRIES).map((p) => join(root, p)));

/** The modules an entry reaches through static imports (getModuleInfo's importedIds). */
function reachFrom(entry, ctx) {
  const seen = new Set();
  const stack = [join(root, entry)];
  while (stack.length > 0) {
    const m = stack.pop();
    if (seen.has(m)) continue;
    seen.add(m);
    stack.push(...(ctx.getModuleInfo(m)?.importedIds ?? []));
  }
  return seen;
}

/** Entry points that use only a few modules of the root; they must not load the whole of it. */
const LIGHT_ENTRIES = ["io", "render", "debug"];
/** Modules `import("meshway")` reaches, and those of them a light entry reaches too; on first use. */
let rootReach = null;
let lightReach = null;
function reach(ctx) {
  if (rootReach === null) {
    rootReach = reachFrom(ENTRIES.index, ctx);
    lightReach = new Set();
    for (const e of LIGHT_ENTRIES) for (const m of reachFrom(ENTRIES[e], ctx)) lightReach.add(m);
  }
}

/**
 * The shared chunk of a source module (entries stay themselves). What the root entry reaches is
 * three chunks: "meshway" (navmesh, query, format, generate, math, config …), "tiles" and
 * "crowd", but for the few modules the light entries (meshway/io, /render, /debug) use as well
 * (errors, input, the OBJ parser, tile constants …), which are the small chunk "base", so a
 * light entry loads that and not the whole library. A cold `import("meshway")` is parse-bound,
 * and each file it loads costs about as much again as parsing 30 KB of code; tiles and crowd
 * stay two chunks all the same, because meshway/node (and so the CLI) needs the tiles and not
 * the crowd: one "tiles + crowd" chunk made its import 37.4 ms of CPU instead of 30.7, the root's
 * 24.6 instead of 23.9 (same run, noise). meshway/io and meshway/render import in ~60% of the
 * time they took before "base" (issue 17).
 * A user's bundler (sideEffects: false) drops a chunk whole when an app uses none of it, but
 * inside a chunk it keeps every top-level statement it cannot prove pure. So the module tops in
 * "meshway" are pure (`@__PURE__` on top-level calls and `new` of our classes, no top-level
 * loops; test/package/runtime-bundle.test.ts checks a runtime-only app holds no builder code),
 * and tiles/ and crowd/, whose tops build frozen presets and probe globalThis, stay apart.
 * What the root does not reach: one chunk per folder under src/ ("io" for the glTF parser,
 * "lesson", "render", "cli" …).
 */
function sharedChunk(id, ctx) {
  if (entryFiles.has(id)) return null;
  const folder = folderOf(id);
  if (folder === null) return null;
  reach(ctx);
  if (!rootReach.has(id)) return folder;
  if (lightReach.has(id)) return "base";
  return folder === "tiles" || folder === "crowd" ? folder : "meshway";
}

/** A source module's folder under src/ ("core" for the files at the top), null outside src/. */
function folderOf(id) {
  const src = join(root, "src/");
  if (!id.startsWith(src)) return null;
  const rel = id.slice(src.length);
  const slash = rel.indexOf("/");
  return slash < 0 ? "core" : rel.slice(0, slash);
}

rmSync(staging, { recursive: true, force: true });
const tsc = join(root, "node_modules/typescript/bin/tsc");
execFileSync(
  process.execPath,
  [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly", "--outDir", staging],
  {
    cwd: root,
    stdio: "inherit",
  },
);

const input = Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, join(root, v)]));
const bundle = await rolldown({
  input,
  platform: "neutral",
  external: [/^node:/, /^three($|\/)/],
  treeshake: true,
  // The folder chunks may export more than an entry needs (codeSplitting below).
  preserveEntrySignatures: "allow-extension",
  logLevel: "warn",
});
await bundle.write({
  dir: staging,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "[name]-[hash].js",
  // Shared code lives in shared chunks (sharedChunk above), never copied into two entries.
  codeSplitting: {
    includeDependenciesRecursively: false,
    groups: [{ debugName: "shared", name: sharedChunk, test: (id) => folderOf(id) !== null }],
  },
  // No comments but the bundler annotations (a user's bundler drops unused `@__PURE__` calls),
  // minified: locals renamed, expressions compressed and whitespace removed, while function and
  // class names stay (keepNames: stack traces, error messages). Parsing is most of a cold
  // import; minifying makes the JS about a third smaller, and removing the line breaks and
  // indents (a quarter of the bytes left) made V8's compile of what `import("meshway")` loads
  // about 11% faster (min of 40 in-process compiles, 10.3 vs 11.6 ms). Renaming functions too
  // saved only another 1-2%, not worth the stack traces. No source maps (src/ is not shipped);
  // the .d.ts keep the doc comments.
  comments: { legal: true, annotation: true, jsdoc: false },
  minify: { compress: true, mangle: { keepNames: true }, codegen: { removeWhitespace: true } },
  sourcemap: false,
});
await bundle.close();

// Every .js ASCII-only: a non-ASCII character (×, ± in messages, the lesson's Chinese) makes the
// engine hold the whole file as a two-byte string and decode it on a slow path; a cold
// `import("meshway")` is about 3% faster without. They only occur in string, template and
// regex literals (no String.raw in src/), where the \uXXXX escape means the same character.
for (const f of readdirSync(staging)) {
  if (!f.endsWith(".js")) continue;
  const file = join(staging, f);
  const code = readFileSync(file, "utf8");
  const ascii = code.replace(
    /[^\0-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== code) writeFileSync(file, ascii);
}

for (const [path, target] of Object.entries(ALIASES)) {
  const file = join(staging, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `export * from "${target}";\n`);
}

// The swap: old dist/ aside, the new one in, the old one removed.
const old = join(root, "dist-old");
rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
renameSync(staging, dist);
rmSync(old, { recursive: true, force: true });
