// What each source module adds to a size fixture app (bench/size-apps/), to find what to make
// tree-shakable or smaller (issue 17). The app is bundled with Vite against src/ (not dist/, so
// modules keep their names), unminified; each module's rendered code (what tree-shaking kept
// of it) is then minified and gzipped on its own. The sum is above the app's real min + gzip
// (gzip shares a dictionary across modules), but the ranking holds.
//
// Usage: node bench/size-modules.js [runtime-lean.js] [--top 40]
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { minifySync } from "rolldown/utils";
import { build } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "40" } },
});
const app = positionals[0] ?? "runtime-lean.js";

const out = await build({
  configFile: false,
  logLevel: "silent",
  root,
  resolve: { alias: [{ find: /^meshway$/, replacement: join(root, "src/index.ts") }] },
  build: {
    write: false,
    minify: false,
    modulePreload: false,
    rollupOptions: { input: join(here, "size-apps", app), preserveEntrySignatures: "strict" },
  },
});
const rows = [];
for (const o of Array.isArray(out) ? out : [out]) {
  for (const c of o.output) {
    if (c.type !== "chunk") continue;
    for (const [id, m] of Object.entries(c.modules)) {
      if (!m.code) continue;
      const min = minifySync("m.js", m.code, { compress: true, mangle: { toplevel: true } }).code;
      rows.push({
        module: relative(root, id),
        "min B": min.length,
        "gzip B": gzipSync(min, { level: 9 }).length,
      });
    }
  }
}
rows.sort((a, b) => b["gzip B"] - a["gzip B"]);
const sum = rows.reduce((s, r) => s + r["gzip B"], 0);
console.log(
  `${app}: ${rows.length} modules, per-module min + gzip summed ${(sum / 1024).toFixed(1)} KB`,
);
console.table(rows.slice(0, Number(values.top)));
