import { existsSync, readFileSync } from "node:fs";

/**
 * meshway's version from its package.json: one level up from the bundled dist/cli.js, two from
 * src/cli/version.ts (tests run the sources).
 */
export function packageVersion(): string {
  const bundled = new URL("../package.json", import.meta.url);
  const url = existsSync(bundled) ? bundled : new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}
