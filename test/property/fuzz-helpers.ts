import fc from "fast-check";
import type { FuzzTarget } from "../../fuzz/targets.js";

/**
 * Bounded run of a fuzz target inside `npm test` (the deep runs are `npm run fuzz`): a fixed
 * seed, so a failure here replays with the seed and path fast-check prints.
 */
export async function runFuzzTarget(target: FuzzTarget, numRuns: number, seed: number) {
  await fc.assert(
    fc.asyncProperty(target.arbitrary, async (v) => {
      await target.check(v);
    }),
    { numRuns, seed },
  );
}
