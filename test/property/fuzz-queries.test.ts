import { describe, it } from "vitest";
import { queryTarget } from "../../fuzz/targets.js";
import { runFuzzTarget } from "./fuzz-helpers.js";

describe("fuzzed queries", () => {
  it("any sequence of query calls with bad points, refs, filters and extents: well-formed answers or INVALID_ARGUMENT", async () => {
    await runFuzzTarget(queryTarget, 300, 86);
  });
});
