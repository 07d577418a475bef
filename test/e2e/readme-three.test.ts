import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The README's "With three.js" block runs as written against the built package (`npm test`
// builds dist/ first): it resolves "meshway", "meshway/debug" and "meshway/three" through
// package.json "exports", as a user's project would.
mkdirSync("tmp", { recursive: true });
const dir = mkdtempSync(join("tmp", "readme-three-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README: with three.js", () => {
  it("the ten-line example builds a navmesh from a three.js scene and draws a path", () => {
    const readme = readFileSync("README.md", "utf8");
    const section = readme.slice(readme.indexOf("## With three.js"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const file = join(dir, "example.mjs");
    writeFileSync(
      file,
      `${block}\nconsole.log(JSON.stringify({ status: path.status, children: scene.children.length }));\n`,
    );
    const r = spawnSync(process.execPath, [file], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ status: "complete", children: 4 });
  });
});
