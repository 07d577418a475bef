import { type BuildScratch, sharedBuildScratch } from "./scratch.js";

/**
 * Collects what a build has to say without throwing: warnings, counters and per-stage times,
 * and owns the scratch memory its stages share. Stages never throw for data reasons; they
 * report here and carry on.
 */
export class BuildContext {
  readonly warnings: string[] = [];
  /** Things stages skipped or fixed up, by name (e.g. "rasterize.skippedTriangles"). */
  readonly counts: Record<string, number> = {};
  /** Milliseconds per stage. */
  readonly timings: Record<string, number> = {};
  /** Scratch buffers the stages share; by default the thread's {@link sharedBuildScratch}. */
  readonly scratch: BuildScratch;

  constructor(scratch: BuildScratch = sharedBuildScratch) {
    this.scratch = scratch;
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }
}
