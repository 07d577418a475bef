import { describe, expect, it } from "vitest";
import { orientPortal, runFunnel } from "../../src/lesson/funnel.js";
import { lessonRadii, runLesson } from "../../src/lesson/index.js";
import { dropStraighten } from "../../src/lesson/path.js";
import { droppedBefore, lastPathStep, pathStepAt } from "../../src/lesson/timeline.js";

const close = (a: Float64Array, b: Float64Array) =>
  a.length === b.length && a.every((v, i) => Math.abs(v - b[i]!) < 1e-6);

describe("the lesson's funnel", () => {
  it("orients a portal by the side it lies on, seen from inside the polygon before it", () => {
    // Walking +x from (0, 0) to the portal x = 1: the end at z = +1 has cross > 0 ("left").
    expect(orientPortal(0, 0, 1, 1, 1, -1)).toEqual([1, 1, 1, -1]);
    expect(orientPortal(0, 0, 1, -1, 1, 1)).toEqual([1, 1, 1, -1]);
  });

  it("bends exactly at the inner corner of an L-shaped corridor", () => {
    // Right along z = 0.5 to the corner column, then down: portals x = 2 (z 0..1) and z = 1 (x 2..3).
    const start = [0.5, 0.5] as const;
    const goal = [2.5, 3.5] as const;
    const portals = new Float64Array([
      ...orientPortal(1, 0.5, 2, 0, 2, 1),
      ...orientPortal(2.5, 0.5, 2, 1, 3, 1),
    ]);
    const run = runFunnel(start, goal, portals);
    expect(Array.from(run.points)).toEqual([0.5, 0.5, 2, 1, 2.5, 3.5]);
    expect(run.stepCount).toBeGreaterThanOrEqual(3);
  });

  it.each(lessonRadii())("r = %s: on meshway's navmesh it equals findStraightPath", (radius) => {
    const p = runLesson({ radius, method: "meshway" }).path;
    expect(close(p.funnelRun.points, p.funnel!.points)).toBe(true);
  });

  it.each(lessonRadii())(
    "r = %s: through the toy rectangles it is the exact shortest path; point-dropping is not shorter",
    (radius) => {
      const p = runLesson({ radius, method: "simple" }).path;
      expect(p.final).toBe("funnel");
      expect(p.funnel!.length).toBeCloseTo(p.exact!.length, 9);
      expect(p.dropped.length).toBeGreaterThanOrEqual(p.funnel!.length);
    },
  );
});

describe("section 4's step slider", () => {
  it("r = 0.75, simple: point-dropping tests 4 points, drops none (the stall), the funnel finds the exact path", () => {
    const p = runLesson({ radius: 0.75, method: "simple" }).path;
    expect(p.drops.count).toBe(4);
    expect(Array.from(p.drops.dropped)).toEqual([0, 0, 0, 0]);
    expect(p.dropped.count).toBe(p.midpoint.count);
    expect(p.funnel!.length).toBeLessThan(p.dropped.length);
  });

  it("replays point-dropping exactly: after the last test, the points left are dropStraighten's", () => {
    for (const method of ["simple", "meshway"] as const) {
      for (const radius of [0.25, 0.75, 1.3]) {
        const p = runLesson({ radius, method }).path;
        const left = droppedBefore(p, p.drops.count);
        const mid = Array.from(p.midpoint.points);
        expect(Array.from(left)).toEqual(Array.from(p.dropped.points));
        // The stall: the final sweep drops nothing, whatever came before.
        expect(
          dropStraighten(Array.from(left), runLesson({ radius, method }).partition.current.surface),
        ).toEqual(Array.from(left));
        expect(mid.length).toBeGreaterThanOrEqual(left.length);
      }
    }
  });

  it("goes midpoints → drop tests → funnel steps → done; -1 and anything past the end is the last step", () => {
    const p = runLesson({ radius: 0.75, method: "meshway" }).path;
    const last = lastPathStep(p);
    expect(last).toBe(p.drops.count + p.funnelRun.stepCount + 1);
    expect(pathStepAt(p, 0).phase).toBe("midpoint");
    expect(pathStepAt(p, 1).phase).toBe("drop");
    expect(pathStepAt(p, p.drops.count + 1).phase).toBe("funnel");
    expect(pathStepAt(p, last).phase).toBe("done");
    expect(pathStepAt(p, -1)).toEqual(pathStepAt(p, last));
    expect(pathStepAt(p, 999).step).toBe(last);
  });

  it("its last step is the final path: the funnel the walk ends with is the method's final path", () => {
    for (const method of ["simple", "meshway"] as const) {
      for (const radius of lessonRadii()) {
        const p = runLesson({ radius, method }).path;
        expect(close(p.funnelRun.points, p.funnel!.points), `${method} ${radius}`).toBe(true);
      }
    }
  });
});
