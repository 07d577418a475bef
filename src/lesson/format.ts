/**
 * Number formatting for the tables: fixed decimals, no locale, never language-dependent, so
 * the page and the CLI print the very same cell strings.
 */

/** Not available / not applicable. */
export const NA = "—";

/** A length, area or distance with 4 decimals; "—" for non-finite values. */
export function fmt4(x: number): string {
  if (!Number.isFinite(x)) return NA;
  const s = x.toFixed(4);
  return s === "-0.0000" ? "0.0000" : s;
}

/** A percentage with 2 decimals and a % sign. */
export function fmtPercent(x: number): string {
  if (!Number.isFinite(x)) return NA;
  const s = x.toFixed(2);
  return `${s === "-0.00" ? "0.00" : s}%`;
}

/** An integer count. */
export function fmtInt(n: number): string {
  return String(Math.round(n));
}

/** "a / b". */
export function fmtOf(a: number, b: number): string {
  return `${fmtInt(a)} / ${fmtInt(b)}`;
}

/** A boolean as the tables spell it. */
export function fmtBool(b: boolean): string {
  return b ? "true" : "false";
}

/** The agent radius as the controls show it (2 decimals). */
export function fmtRadius(r: number): string {
  return r.toFixed(2);
}
