import { describe, it } from "vitest";
import { buildTarget } from "../../fuzz/targets.js";
import { runFuzzTarget } from "./fuzz-helpers.js";

describe("fuzzed builds", () => {
  it("random triangle soups and edge configs: a deterministic navmesh that saves, loads and answers queries, or a MeshwayError", async () => {
    await runFuzzTarget(buildTarget, 200, 85);
  });
});
