import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { codeRegion } from "./code-region.js";
import { prerenderPage } from "./prerender.js";

/**
 * The explainer page ("from cells to faces"). Vite root is web/; the build is one self-contained
 * index.html in dist-web/ (script and styles inlined) so it works from any static host and when
 * opened straight from disk: Chromium refuses `<script type="module" src>` over file://, but an
 * inline script needs no fetch at all.
 */
const webRoot = fileURLToPath(new URL(".", import.meta.url));
const outDir = fileURLToPath(new URL("../dist-web", import.meta.url));

/** Moves the emitted JS chunk and CSS asset into index.html and drops them from the bundle. */
function inlineIntoHtml(): Plugin {
  return {
    name: "meshway-inline-into-html",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find(
        (f) => f.type === "asset" && f.fileName.endsWith(".html"),
      );
      if (html?.type !== "asset") return;
      let text = String(html.source);
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type === "chunk" && file.isEntry) {
          const tag = new RegExp(
            `<script[^>]*src="[^"]*${escapeRegExp(file.fileName)}"[^>]*></script>`,
          );
          // A classic script: no module fetch, no CORS check, and "</script" can never end it early.
          // Vite put the entry in <head>; a classic inline script must run after the body exists.
          const code = file.code.replaceAll("</script", "<\\/script");
          text = text.replace(tag, "");
          const end = text.lastIndexOf("</body>");
          text = `${text.slice(0, end)}<script>${code}</script>\n${text.slice(end)}`;
          delete bundle[name];
        } else if (file.type === "asset" && file.fileName.endsWith(".css")) {
          const tag = new RegExp(`<link[^>]*href="[^"]*${escapeRegExp(file.fileName)}"[^>]*>`);
          text = text.replace(tag, () => `<style>${String(file.source)}</style>`);
          delete bundle[name];
        }
      }
      html.source = text;
    },
  };
}

/** Writes the lesson's default state into the HTML (web/prerender.ts): readable without JS. */
function prerender(): Plugin {
  return {
    name: "meshway-prerender-lesson",
    transformIndexHtml: { order: "pre", handler: (html) => prerenderPage(html, readCodeRegions()) },
  };
}

/** The src/lesson regions the page's code boxes quote, as "file:region" (web/main.ts). */
const CODE_REGIONS = [
  "geometry:cross",
  "scene:distance",
  "surface:filter",
  "rectangles:rectangles",
  "funnel:drop",
  "funnel:funnel",
] as const;
const CODE_MODULE = "virtual:lesson-code";

/** The quoted regions by "file:region", read from src/lesson; `watch` is told each file. */
function readCodeRegions(watch?: (path: string) => void): Record<string, string[]> {
  const regions: Record<string, string[]> = {};
  for (const key of CODE_REGIONS) {
    const [file, region] = key.split(":") as [string, string];
    const path = fileURLToPath(new URL(`../src/lesson/${file}.ts`, import.meta.url));
    watch?.(path);
    regions[key] = codeRegion(readFileSync(path, "utf8"), region);
  }
  return regions;
}

/**
 * `virtual:lesson-code`: the quoted regions themselves, cut out of src/lesson at build time, so
 * the page's script carries a few dozen lines instead of five whole source files (`?raw`).
 */
function lessonCode(): Plugin {
  const resolved = `\0${CODE_MODULE}`;
  return {
    name: "meshway-lesson-code",
    resolveId: (id) => (id === CODE_MODULE ? resolved : null),
    load(id) {
      if (id !== resolved) return null;
      const regions = readCodeRegions((path) => this.addWatchFile(path));
      return `export const CODE_REGIONS = ${JSON.stringify(regions)};`;
    },
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export default defineConfig({
  root: webRoot,
  base: "./",
  publicDir: false,
  // Port 0 would be ephemeral; `npm run dev` keeps Vite's usual default.
  server: { host: "127.0.0.1" },
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: Number.POSITIVE_INFINITY,
    // One chunk in IIFE form, so it can run as an inline classic script (see inlineIntoHtml).
    rolldownOptions: { output: { format: "iife", codeSplitting: false } },
  },
  plugins: [lessonCode(), prerender(), inlineIntoHtml()],
});
