/**
 * Wall-clock timing for the differential tests, which print how long meshway's stage takes next
 * to Recast's (WASM). Informational only: no test asserts on a time. Stable API:
 *
 *   median([3, 1, 2])                      // 2 (upper median for even lengths)
 *   const { result, ms } = timed(5, () => run());   // last result, median ms of 5 runs
 */

/** The middle value of `xs` (the upper one of the two for an even count); `xs` is not changed. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Runs `fn` `runs` times; returns the last result and the median wall time in ms. */
export function timed<T>(runs: number, fn: () => T): { result: T; ms: number } {
  const times: number[] = [];
  let result!: T;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    result = fn();
    times.push(performance.now() - t0);
  }
  return { result, ms: median(times) };
}
