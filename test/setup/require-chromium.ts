import { requireChromium, runIncludesBrowserTests } from "../helpers/chromium.js";

/**
 * vitest globalSetup: a run that includes the browser tests (the whole suite, or a filter
 * naming them) stops at once with one message when chromium is missing, instead of failing
 * minutes later test by test (issue 19 A4). Runs of other files are not affected.
 */
export default function setup(): void {
  if (runIncludesBrowserTests(process.argv.slice(2))) requireChromium();
}
