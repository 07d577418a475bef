import { lCornerReflex } from "./convex.js";
import { fmt4, fmtInt, fmtOf, fmtRadius, NA } from "./format.js";
import type { LessonPath } from "./path.js";
import { LESSON_DEFAULT_CORNER } from "./settings.js";
import type { LessonSurface } from "./surface.js";
import type { LessonCheck, LessonConvexSection, LessonPartitionSection } from "./types.js";

/**
 * The self-check panel: every criterion the lesson claims, measured on the current settings.
 * The exact-vs-funnel check needs a funnel, so it appears for the meshway method only.
 */
export function lessonChecks(
  radius: number,
  convex: LessonConvexSection,
  surface: LessonSurface,
  partition: LessonPartitionSection,
  path: LessonPath,
): LessonCheck[] {
  const out: LessonCheck[] = [];
  const add = (id: string, pass: boolean, measured: string, expected: string) =>
    out.push({ id, label: `check.${id}`, pass, measured, expected });
  const sq = convex.square;
  add("squareCross", sq.crossConvex, `+${sq.crossPositive} / −${sq.crossNegative}`, "true");
  add("squarePairs", sq.leaving === 0, fmtOf(sq.leaving, sq.pairs), "0");
  const L = convex.L;
  const moved =
    convex.corner[0] !== LESSON_DEFAULT_CORNER[0] || convex.corner[1] !== LESSON_DEFAULT_CORNER[1];
  if (!moved) {
    add("lCross", !L.crossConvex, `+${L.crossPositive} / −${L.crossNegative}`, "false");
    add("lPairs", L.leaving > 0, fmtOf(L.leaving, L.pairs), "> 0");
  } else {
    // The corner dragged: both criteria must follow the geometry (reflex corner ⇔ concave).
    const reflex = lCornerReflex(convex.corner);
    add(
      "lCrossMoved",
      L.crossConvex === !reflex,
      `+${L.crossPositive} / −${L.crossNegative}`,
      reflex ? "false" : "true",
    );
    add(
      "lPairsMoved",
      reflex ? L.leaving > 0 : L.leaving === 0,
      fmtOf(L.leaving, L.pairs),
      reflex ? "> 0" : "0",
    );
  }
  for (const m of ["simple", "meshway"] as const) {
    const p = partition[m];
    const c = p.convexity;
    add(
      `${m}Convex`,
      c.crossConvex === c.polygons && c.leaving === 0,
      `${fmtOf(c.crossConvex, c.polygons)}; ${fmtOf(c.leaving, c.pairs)}`,
      `${fmtOf(c.polygons, c.polygons)}; 0`,
    );
  }
  add(
    "removedEqualsCrossCheck",
    surface.simple.removed === surface.crossCheck,
    fmtInt(surface.simple.removed),
    `= ${fmtInt(surface.crossCheck)}`,
  );
  add(
    "minDistance",
    surface.simple.minDistance >= radius,
    fmt4(surface.simple.minDistance),
    `≥ ${fmtRadius(radius)}`,
  );
  const s = partition.simple;
  add("rectArea", s.area === s.cellArea, fmt4(s.area), `= ${fmt4(s.cellArea)}`);
  add("simplePinches", s.adjacency.pinchPairs === 0, fmtInt(s.adjacency.pinchPairs), "0");
  add(
    "meshwayPinches",
    partition.meshway.adjacency.pinchPairs === 0,
    fmtInt(partition.meshway.adjacency.pinchPairs),
    "0",
  );
  add("pathComplete", path.status === "complete", path.status, "complete");
  const final = path.final === "funnel" ? path.funnel! : path.dropped;
  add("turns", final.count - 2 >= 3, fmtInt(Math.max(0, final.count - 2)), "≥ 3");
  add("noRemovable", final.removable === 0, fmtInt(final.removable), "0");
  add(
    "onSurface",
    path.samples > 0 && path.samplesOnSurface === path.samples,
    fmtOf(path.samplesOnSurface, path.samples),
    fmtOf(path.samples, path.samples),
  );
  // The exact shortest path (findShortestPath) on the same surface: never longer than any
  // path the lesson straightened there, itself on the surface, with nothing left to drop.
  const ex = path.exact;
  const tol = 1e-9;
  if (path.funnel) {
    const f = path.funnel;
    add(
      "exactFunnelMidpoint",
      ex !== null && ex.length <= f.length + tol && f.length <= path.midpoint.length + tol,
      ex ? fmt4(ex.length) : NA,
      `≤ ${fmt4(f.length)} ≤ ${fmt4(path.midpoint.length)}`,
    );
  }
  add(
    "exactDropped",
    ex !== null && ex.length <= path.dropped.length + tol,
    ex ? fmt4(ex.length) : NA,
    `≤ ${fmt4(path.dropped.length)}`,
  );
  add(
    "exactOnSurface",
    ex !== null && path.exactSamples > 0 && path.exactSamplesOnSurface === path.exactSamples,
    fmtOf(path.exactSamplesOnSurface, path.exactSamples),
    fmtOf(path.exactSamples, path.exactSamples),
  );
  add("exactNoRemovable", ex !== null && ex.removable === 0, ex ? fmtInt(ex.removable) : NA, "0");
  return out;
}
