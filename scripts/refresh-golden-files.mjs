// Rewrites test/golden/navmesh-file-hashes.json: SHA-256 of the whole `.navmesh` file (header,
// stored config, tile blocks) of the default-config build of each shared mesh — the bytes
// `meshway build <mesh>.obj -o out.navmesh` writes. Run `npm run build` first. These change
// when the algorithm OR the file format changes: commit the new file with a note saying why.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { buildNavMesh, parseObj, resolveConfig, serializeNavMesh } from "../dist/index.js";

const out = {};
for (const name of ["nav_test", "dungeon", "undulating"]) {
  const file = `test/fixtures/meshes/${name}.obj`;
  const { navMesh } = buildNavMesh(parseObj(readFileSync(file, "utf8"), file));
  const bytes = serializeNavMesh(navMesh, resolveConfig({}));
  out[name] = { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}
const target = "test/golden/navmesh-file-hashes.json";
writeFileSync(`${target}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
console.log(out);
