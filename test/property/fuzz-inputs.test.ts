import { describe, it } from "vitest";
import { gltfTarget, objTarget } from "../../fuzz/targets.js";
import { runFuzzTarget } from "./fuzz-helpers.js";

// Level files are untrusted: every case ends in a well-formed mesh or a MeshwayError with a
// known code and a message (fuzz/targets.js). Runs on dist/ (built by pretest).
describe("fuzzed level files", () => {
  it("parseObj on random bytes, OBJ-grammar lines and edited files: a mesh or a located error", async () => {
    await runFuzzTarget(objTarget, 400, 81);
  });

  it("parseGlb / parseGltf on edited GLB bytes, chunk fields, JSON fields and data URIs: a mesh or a MeshwayError", async () => {
    await runFuzzTarget(gltfTarget, 300, 82);
  });
});
