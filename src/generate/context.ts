/**
 * Collects what a build has to say without throwing: warnings, counters and per-stage times.
 * Stages never throw for data reasons; they report here and carry on.
 */
export class BuildContext {
  readonly warnings: string[] = [];
  readonly counts: Record<string, number> = {};
  readonly timings: Record<string, number> = {};

  warn(message: string): void {
    this.warnings.push(message);
  }

  count(name: string, n = 1): void {
    this.counts[name] = (this.counts[name] ?? 0) + n;
  }

  /** Runs `fn`, adding its wall time in milliseconds to `timings[stage]`. */
  time<T>(stage: string, fn: () => T): T {
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      this.timings[stage] = (this.timings[stage] ?? 0) + (performance.now() - t0);
    }
  }
}
