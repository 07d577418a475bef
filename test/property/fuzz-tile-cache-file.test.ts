import { describe, it } from "vitest";
import { tileCacheTarget, tileCacheTilesTarget } from "../../fuzz/targets.js";
import { runFuzzTarget } from "./fuzz-helpers.js";

// Tile cache files are untrusted: a damaged or crafted file is refused with INVALID_INPUT
// naming the byte, and whatever loads can be queried, edited, rebuilt and saved again.
describe("fuzzed tile cache files", () => {
  it("tile cache edits (with and without repaired checksums): refused at a byte, or loaded and safe to use", async () => {
    await runFuzzTarget(tileCacheTarget, 200, 85);
  });

  it("edits inside the range-coded tile blocks (lengths, checksums repaired): refused at a byte, or loaded and safe to use", async () => {
    await runFuzzTarget(tileCacheTilesTarget, 60, 86);
  });
});
