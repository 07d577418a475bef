import { readFileSync } from "node:fs";

/** meshway's version from its package.json (two levels up from src/cli and dist/cli). */
export function packageVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}
