import { spawnSync } from "node:child_process";

/** Exit code and output of one run of the built CLI. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (bin/meshway.js on dist/, which npm test builds first: see the pretest
 * script) with `args`, synchronously, from the repository root.
 */
export function meshway(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, ["bin/meshway.js", ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
