import { describe, it } from "vitest";
import { detourTarget, navmeshTarget } from "../../fuzz/targets.js";
import { runFuzzTarget } from "./fuzz-helpers.js";

// Navmesh files are untrusted: a damaged or crafted file is refused with INVALID_INPUT naming
// the byte, and whatever loads can be queried without any other exception or hang.
describe("fuzzed navmesh files", () => {
  it(".navmesh edits (with and without repaired checksums): refused at a byte, or loaded and safe to query", async () => {
    await runFuzzTarget(navmeshTarget, 300, 83);
  });

  it("Detour export edits: refused at a byte, or imported and safe to query", async () => {
    await runFuzzTarget(detourTarget, 300, 84);
  });
});
