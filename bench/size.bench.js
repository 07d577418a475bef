// Start-up and size: what a user pays before the first query (issue 17).
//
// - Cold import: `import("meshway")` (and "meshway/node") in a fresh Node process per sample,
//   alternating with `import("navcat")`; the median of --runs samples on the wall clock and on
//   the child's CPU time (user + system, which leaves out what other processes of a shared
//   machine take from it).
// - Bundle size: small fixture apps (bench/size-apps/) bundled by Vite as a user's app would be,
//   minified; min and min + gzip (level 9) of everything the app loads. runtime = load a
//   .navmesh and query it; build = buildNavMesh + computePath; "lean" = the same with
//   NavMeshQueryCore (raycast as a free function) instead of NavMeshQuery, whose forwarding
//   methods a bundler cannot drop, and buildNavMeshCore (only the default watershed partition)
//   instead of buildNavMesh (all three); navcat = its build + findPath.
//
// What each module adds to one of these apps: node bench/size-modules.js <app>.
//
// Usage: npm run build && node bench/size.bench.js [--runs 10] [--dist dist] [--baseline DIR]
//   --dist measures another build of meshway (a folder laid out like dist/); --baseline adds
//   rows for a second one (e.g. an older build) measured in the same run, alternating. A
//   folder outside this package is imported as a copy inside it (bench/.baseline-*): Node
//   parses a .js outside any "type": "module" scope twice (module syntax detection), which
//   made an old build look ~30% slower to import.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { median } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "10" },
    dist: { type: "string", default: join(here, "../dist") },
    baseline: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const DIST = resolve(values.dist);
const BASELINE = values.baseline === undefined ? null : inPackage(resolve(values.baseline));

/** `dir`, or a copy of it under bench/ when it lies outside this package (see above). */
function inPackage(dir) {
  const pkg = resolve(here, "..");
  if (dir.startsWith(`${pkg}/`)) return dir;
  const copy = join(here, `.baseline-${basename(dir)}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  process.on("exit", () => rmSync(copy, { recursive: true, force: true }));
  return copy;
}
/** A dist/ of the old per-module layout has its subpath entries at <sub>/index.js. */
const entry = (dist, sub) =>
  existsSync(join(dist, `${sub}.js`)) ? join(dist, `${sub}.js`) : join(dist, sub, "index.js");

/** One fresh process importing `specifier`: { wall, cpu } in ms. */
function importOnce(specifier) {
  const code = `const c = process.cpuUsage(); const t = performance.now();
await import(${JSON.stringify(specifier)});
const w = performance.now() - t; const d = process.cpuUsage(c);
process.stdout.write(JSON.stringify({ wall: w, cpu: (d.user + d.system) / 1000 }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: here });
  return JSON.parse(out.toString());
}

const imports = {
  meshway: pathToFileURL(join(DIST, "index.js")).href,
  "meshway/node": pathToFileURL(entry(DIST, "node")).href,
  navcat: "navcat",
};
if (BASELINE !== null) {
  imports["meshway (baseline)"] = pathToFileURL(join(BASELINE, "index.js")).href;
  imports["meshway/node (baseline)"] = pathToFileURL(entry(BASELINE, "node")).href;
}
const samples = Object.fromEntries(Object.keys(imports).map((k) => [k, { wall: [], cpu: [] }]));
for (let r = 0; r < RUNS; r++) {
  const names = Object.keys(imports);
  // Rotate the order so no library always runs first after a pause.
  for (let i = 0; i < names.length; i++) {
    const n = names[(i + r) % names.length];
    const s = importOnce(imports[n]);
    samples[n].wall.push(s.wall);
    samples[n].cpu.push(s.cpu);
  }
}
const importRows = {};
for (const [n, s] of Object.entries(samples)) {
  importRows[n] = {
    "wall ms": +median(s.wall).toFixed(1),
    "cpu ms": +median(s.cpu).toFixed(1),
    "cpu / navcat": +(median(s.cpu) / median(samples.navcat.cpu)).toFixed(2),
  };
}
console.log(
  `cold import in a fresh process, median of ${RUNS} (${DIST}${BASELINE ? `; baseline ${BASELINE}` : ""})`,
);
console.table(importRows);

/** Bundles one fixture app with Vite (production, minified); min and gzip bytes of all chunks. */
async function bundleSize(app, dist = DIST) {
  const out = await build({
    configFile: false,
    logLevel: "silent",
    root: here,
    resolve: {
      alias: [{ find: /^meshway$/, replacement: join(dist, "index.js") }],
    },
    build: {
      write: false,
      minify: true,
      modulePreload: false,
      rollupOptions: { input: join(here, "size-apps", app), preserveEntrySignatures: "strict" },
    },
  });
  const chunks = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  let min = 0;
  let gz = 0;
  for (const c of chunks) {
    if (c.type !== "chunk") continue;
    min += Buffer.byteLength(c.code);
    gz += gzipSync(c.code, { level: 9 }).length;
  }
  return { "min KB": +(min / 1024).toFixed(1), "min+gzip KB": +(gz / 1024).toFixed(1) };
}

const sizeRows = {
  "meshway runtime (load .navmesh + queries)": await bundleSize("runtime.js"),
  "meshway runtime, lean (NavMeshQueryCore)": await bundleSize("runtime-lean.js"),
  "meshway build + queries": await bundleSize("build.js"),
  "meshway build + queries, lean (buildNavMeshCore)": await bundleSize("build-lean.js"),
  "navcat build + findPath": await bundleSize("navcat-build.js"),
};
if (BASELINE !== null) {
  sizeRows["baseline runtime"] = await bundleSize("runtime.js", BASELINE);
  sizeRows["baseline build + queries"] = await bundleSize("build.js", BASELINE);
}
console.log("bundle size of a fixture app (Vite, minified; KB = 1024 bytes)");
console.table(sizeRows);
