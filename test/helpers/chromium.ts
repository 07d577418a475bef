import { existsSync } from "node:fs";

/** The browser the page tests drive (playwright-core, Debian's package). */
export const CHROMIUM = "/usr/bin/chromium";

export const MISSING_CHROMIUM =
  `the browser tests (test/browser/, test/e2e/browser-tiles.test.ts) need Debian's chromium at ${CHROMIUM}: ` +
  "install it with `apt-get install chromium` (as root), or run other tests alone, e.g. " +
  "`npx vitest run test/unit`";

/** Throws one clear error when chromium is missing, before anything else is tried. */
export function requireChromium(path = CHROMIUM): void {
  if (!existsSync(path)) throw new Error(MISSING_CHROMIUM);
}

/** Whether a vitest command line runs the browser tests: no file filter, or one naming them. */
export function runIncludesBrowserTests(argv: readonly string[]): boolean {
  const run = argv.indexOf("run");
  const filters = argv.slice(run < 0 ? 0 : run + 1).filter((a) => !a.startsWith("-"));
  return filters.length === 0 || filters.some((f) => /browser/.test(f));
}
