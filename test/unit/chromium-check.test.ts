import { describe, expect, it } from "vitest";
import { MISSING_CHROMIUM, requireChromium, runIncludesBrowserTests } from "../helpers/chromium.js";

// Issue 19 A4: without chromium, npm test failed minutes in, test by test, with no hint.
describe("the chromium check before the browser tests", () => {
  it("a missing browser is one error naming the path and `apt-get install chromium`", () => {
    expect(() => requireChromium("/nonexistent/chromium")).toThrow(MISSING_CHROMIUM);
    expect(MISSING_CHROMIUM).toMatch(/\/usr\/bin\/chromium.*apt-get install chromium/);
  });

  it("applies to the whole suite and to browser filters, not to other files", () => {
    expect(runIncludesBrowserTests(["run"])).toBe(true);
    expect(runIncludesBrowserTests(["run", "--silent"])).toBe(true);
    expect(runIncludesBrowserTests(["run", "test/browser/lesson-page.test.ts"])).toBe(true);
    expect(runIncludesBrowserTests(["run", "test/unit/config.test.ts"])).toBe(false);
  });
});
