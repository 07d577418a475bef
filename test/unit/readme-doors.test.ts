import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The README's doors example runs as written (the "meshway" import pointed at src/).
it("the README's doors example runs as written and the door closes for the blue team", async () => {
  const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  const section = readme.slice(readme.indexOf("## Doors, teams and reachability at runtime"));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  expect(code.trim().split("\n").length).toBeLessThanOrEqual(13);
  const src = fileURLToPath(new URL("../../src/index.ts", import.meta.url));
  const file = join(mkdtempSync(join(tmpdir(), "meshway-readme-")), "doors.ts");
  writeFileSync(
    file,
    `${code.replace('from "meshway"', `from ${JSON.stringify(src)}`)}\nexport { path, door, query, from, to };\n`,
  );
  const m = await import(/* @vite-ignore */ file);
  expect(m.path.status).toBe("complete");
  expect(m.path.polys).not.toContain(m.door);
  expect(m.query.computePath(m.from, m.to).polys).toContain(m.door);
});
