// Rewrites test/golden/navmesh-file-hashes.json: SHA-256 of the whole `.navmesh` file (header,
// stored config, tile blocks) of the default-config build of each shared mesh — the bytes
// `meshway build <mesh>.obj -o out.navmesh` writes. Run `npm run build` first. These change
// when the algorithm OR the file format changes: commit the new file with a note saying why.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildNavMesh, parseObj, resolveConfig, serializeNavMesh } from "../dist/index.js";

const out = {};
for (const name of ["nav_test", "dungeon", "undulating"]) {
  const file = `test/fixtures/meshes/${name}.obj`;
  const { navMesh } = buildNavMesh(parseObj(readFileSync(file, "utf8"), file));
  const bytes = serializeNavMesh(navMesh, resolveConfig({}));
  out[name] = { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}
// Tiled builds (tile size 32) through the CLI on one thread; the test checks 1 and 2 threads.
const tmp = mkdtempSync(join(tmpdir(), "meshway-golden-"));
for (const name of ["nav_test", "dungeon", "undulating"]) {
  const file = join(tmp, `${name}.navmesh`);
  const args = ["bin/meshway.js", "build", `test/fixtures/meshes/${name}.obj`, "-o", file];
  const r = spawnSync(process.execPath, [
    ...args,
    "--tile-size",
    "32",
    "--threads",
    "1",
    "--quiet",
  ]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  const bytes = readFileSync(file);
  out[`${name}@tile32`] = {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
  };
}
rmSync(tmp, { recursive: true, force: true });
const target = "test/golden/navmesh-file-hashes.json";
writeFileSync(`${target}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
console.log(out);
