// Rewrites test/golden/debug-hashes.json from the current build (run `npm run build` first).
// Golden hashes change only deliberately: commit the new file with a note saying why.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import * as debug from "../dist/debug.js";
import { buildNavMesh, NavMeshQuery, parseObj } from "../dist/index.js";
import { debugDrawings } from "../test/helpers/debug-drawings.js";

const file = "test/fixtures/meshes/nav_test.obj";
const mesh = parseObj(readFileSync(file, "utf8"), file);
const out = debugDrawings({ ...debug, buildNavMesh, NavMeshQuery }, mesh);
const target = "test/golden/debug-hashes.json";
writeFileSync(`${target}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${target}.tmp`, target);
console.log(out);
