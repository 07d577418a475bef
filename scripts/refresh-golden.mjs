// Rewrites test/golden/build-hashes.json from the current build (run `npm run build` first).
// Golden hashes change only deliberately: commit the new file with a note saying why.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { buildNavMesh, parseObj } from "../dist/index.js";
import { tileArrayBytes } from "../test/helpers/tile-arrays.js";

const out = {};
for (const name of ["nav_test", "dungeon", "undulating"]) {
  const file = `test/fixtures/meshes/${name}.obj`;
  const { navMesh, stats } = buildNavMesh(parseObj(readFileSync(file, "utf8"), file));
  const hash = createHash("sha256");
  for (const bytes of tileArrayBytes(navMesh)) hash.update(bytes);
  out[name] = { sha256: hash.digest("hex"), polygons: stats.polygons, vertices: stats.vertices };
}
const target = "test/golden/build-hashes.json";
writeFileSync(`${target}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
console.log(out);
