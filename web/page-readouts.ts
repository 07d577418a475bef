/**
 * The readouts the page lists beside a picture: only what the section's table does not already
 * say (the table, with its "what it means" column, sits right under them). The lesson's full
 * readouts stay in `meshway lesson --json`; the page leaves out the ones a table row repeats.
 */
export const PAGE_READOUTS: Readonly<Record<1 | 2 | 3 | 4, readonly string[]>> = Object.freeze({
  // Of the 60 drawn segments, how many leave: the table counts all 1000 pairs.
  1: ["drawnLeaving"],
  2: [],
  3: [],
  // What the picture draws at this step, its gap to the exact path, and the step itself.
  4: ["shown", "exactGap", "step"],
});

export function pageReadoutIds(section: number): readonly string[] {
  return PAGE_READOUTS[section as 1 | 2 | 3 | 4] ?? [];
}
