// Small statistics shared by the benches.

/** Median of `xs` (the mean of the middle two for an even count); `xs` is not modified. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * When the anchor builder ran, adds a `${n}/${anchor}` column per other builder: its
 * `${n} ms` over the anchor's, to 2 decimals.
 */
export function addRatioColumns(row, names, anchor = "wasm") {
  if (!names.includes(anchor)) return;
  for (const n of names) {
    if (n !== anchor) row[`${n}/${anchor}`] = +(row[`${n} ms`] / row[`${anchor} ms`]).toFixed(2);
  }
}
