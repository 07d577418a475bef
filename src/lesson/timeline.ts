import { FUNNEL_STEP_STRIDE } from "./funnel.js";
import type { LessonPath } from "./path.js";

/**
 * Section 4's step slider: step 0 shows the midpoint polyline; steps 1..D play point-dropping
 * test by test (it stalls: the last sweep drops nothing); steps D+1..D+F play the funnel portal
 * by portal; the last step, D+F+1, shows the final path with everything else for comparison.
 */
export interface PathStep {
  phase: "midpoint" | "drop" | "funnel" | "done";
  /** Index within the phase (drop test or funnel record), 0-based; 0 for midpoint / done. */
  index: number;
  /** The step itself, already clamped to 0..last. */
  step: number;
  last: number;
}

/** The last step of `path`'s timeline (0 when there is no path). */
export function lastPathStep(path: LessonPath): number {
  if (path.midpoint.count === 0) return 0;
  return path.drops.count + path.funnelRun.stepCount + 1;
}

/** The phase shown at `step` (-1 or anything beyond the end: the last step). */
export function pathStepAt(path: LessonPath, step: number): PathStep {
  const last = lastPathStep(path);
  const s = step < 0 || step > last ? last : Math.floor(step);
  const d = path.drops.count;
  const f = path.funnelRun.stepCount;
  if (s === last) return { phase: "done", index: 0, step: s, last };
  if (s === 0) return { phase: "midpoint", index: 0, step: s, last };
  if (s <= d) return { phase: "drop", index: s - 1, step: s, last };
  return { phase: "funnel", index: Math.min(s - d - 1, f - 1), step: s, last };
}

/** Points of the midpoint polyline still standing before drop test `index` (x, z pairs). */
export function droppedBefore(path: LessonPath, index: number): Float64Array {
  const gone = new Uint8Array(path.midpoint.count);
  for (let k = 0; k < index; k++) if (path.drops.dropped[k]) gone[path.drops.tested[k]!] = 1;
  const out: number[] = [];
  const p = path.midpoint.points;
  for (let i = 0; i < path.midpoint.count; i++) if (!gone[i]) out.push(p[i * 2]!, p[i * 2 + 1]!);
  return Float64Array.from(out);
}

/** One funnel record: apex, left and right ends, portal index, path points fixed so far. */
export function funnelRecord(
  path: LessonPath,
  index: number,
): {
  apex: [number, number];
  left: [number, number];
  right: [number, number];
  portal: number;
  fixed: number;
} {
  const r = path.funnelRun.steps;
  const o = index * FUNNEL_STEP_STRIDE;
  return {
    apex: [r[o]!, r[o + 1]!],
    left: [r[o + 2]!, r[o + 3]!],
    right: [r[o + 4]!, r[o + 5]!],
    portal: r[o + 6]!,
    fixed: r[o + 7]!,
  };
}
