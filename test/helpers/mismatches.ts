/** Number of indices where `a` and `b` differ (over `a`'s length): per-span disagreement counts
 * in the differential tests. */
export function countMismatches(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}
