import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * Every example: Vite root is examples/, one page per `examples/<name>/index.html` (found when
 * the config loads, so a new example folder needs no edit here) plus the index page listing
 * them. `npm run build:examples` writes one self-contained folder, dist-examples/ (relative
 * URLs: serve it from any static host or path). Examples import the public entry points
 * (`meshway`, `meshway/three`, `meshway/debug`, `meshway/io`), resolved here to src/ so no
 * package build is needed first.
 */
const root = fileURLToPath(new URL(".", import.meta.url));
const src = fileURLToPath(new URL("../src", import.meta.url));
const outDir = fileURLToPath(new URL("../dist-examples", import.meta.url));

/** `{ name: path }` of every examples/<name>/index.html, and the index page. */
export function examplePages(dir = root): Record<string, string> {
  const pages: Record<string, string> = { index: join(dir, "index.html") };
  for (const name of readdirSync(dir).sort()) {
    const html = join(dir, name, "index.html");
    if (statSync(join(dir, name)).isDirectory() && exists(html)) pages[name] = html;
  }
  return pages;
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Fills the index page's list with every example found, each under its page's <title>. */
function listExamples(): Plugin {
  return {
    name: "meshway-list-examples",
    transformIndexHtml(html, ctx) {
      if (!ctx.filename.endsWith(join(root, "index.html"))) return html;
      const items = Object.entries(examplePages())
        .filter(([name]) => name !== "index")
        .map(([name, file]) => {
          const title = /<title>([^<]*)<\/title>/.exec(readFileSync(file, "utf8"))?.[1] ?? name;
          return `<li><a href="./${name}/index.html">${title}</a></li>`;
        });
      return html.replace(/(<ul id="examples">)[\s\S]*?(<\/ul>)/, `$1${items.join("")}$2`);
    },
  };
}

/** The package's entry points → their source (most specific first). */
const ENTRY_POINTS = ["three", "debug", "io"];

export default defineConfig({
  root,
  base: "./",
  publicDir: false,
  server: { host: "127.0.0.1" },
  resolve: {
    alias: [
      ...ENTRY_POINTS.map((e) => ({
        find: new RegExp(`^meshway/${e}$`),
        replacement: join(src, e, "index.ts"),
      })),
      { find: /^meshway$/, replacement: join(src, "index.ts") },
    ],
  },
  plugins: [listExamples()],
  worker: { format: "es" },
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    // Demo meshes stay files beside the pages (fetched when chosen), not inlined into the JS.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2048,
    rolldownOptions: { input: examplePages() },
  },
});
