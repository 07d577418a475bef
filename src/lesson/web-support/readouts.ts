/**
 * The live readouts printed beside each section's picture on the explainer page: a flat,
 * language-neutral list per section picked from a LessonResult. Values are formatted by
 * ../format.ts exactly like the tables; labels are page message keys (./page-messages.ts).
 * Unlike the tables (which show both methods and both shapes), the readouts follow the
 * controls: the shape being tested, the current method's partition and path, the path shown.
 */
import { fmt4, fmtBool, fmtInt, fmtOf, fmtPercent, NA } from "../format.js";
import type { LessonPolyline } from "../path.js";
import type { LessonResult } from "../types.js";
import type { PageMessageKey } from "./page-messages.js";

export interface LessonReadout {
  /** Stable id (tests and CSS hooks). */
  id: string;
  label: PageMessageKey;
  /** Formatted, never language-dependent. */
  value: string;
}

export interface LessonReadoutGroup {
  section: 1 | 2 | 3 | 4;
  items: LessonReadout[];
}

function item(id: string, label: PageMessageKey, value: string): LessonReadout {
  return { id, label, value };
}

function countLength(l: LessonPolyline): string {
  return `${fmtInt(l.count)} / ${fmt4(l.length)}`;
}

/** The four sections' readouts for the controls `result` was computed with, in section order. */
export function lessonReadouts(result: LessonResult): LessonReadoutGroup[] {
  const { convex, surface, partition, path, settings } = result;

  const shape = convex.shown;
  let drawnLeaving = 0;
  for (let k = 0; k < shape.drawnLeaves.length; k++) drawnLeaving += shape.drawnLeaves[k]!;
  const parts = partition.current.convexity;
  const section1 = [
    item(
      "crossSigns",
      "page.readout.crossSigns",
      `+${shape.crossPositive} / -${shape.crossNegative}`,
    ),
    item("crossConvex", "page.readout.crossConvex", fmtBool(shape.crossConvex)),
    item("leaving", "page.readout.leaving", fmtOf(shape.leaving, shape.pairs)),
    item(
      "drawnLeaving",
      "page.readout.drawnLeaving",
      fmtOf(drawnLeaving, shape.drawnLeaves.length),
    ),
    item(
      "partitionConvex",
      "page.readout.partitionConvex",
      fmtOf(parts.crossConvex, parts.polygons),
    ),
    item("partitionLeaving", "page.readout.partitionLeaving", fmtOf(parts.leaving, parts.pairs)),
  ];

  const section2 = [
    item("totalCells", "page.readout.totalCells", fmtInt(surface.totalCells)),
    item("voxelWalkable", "page.readout.voxelWalkable", fmtInt(surface.simple.voxelWalkable)),
    item("simpleWalkable", "page.readout.simpleWalkable", fmtInt(surface.simple.walkable)),
    item("simpleRemoved", "page.readout.simpleRemoved", fmtInt(surface.simple.removed)),
    item("crossCheck", "page.readout.crossCheck", fmtInt(surface.crossCheck)),
    item("simpleMinDistance", "page.readout.simpleMinDistance", fmt4(surface.simple.minDistance)),
    item("meshwayWalkable", "page.readout.meshwayWalkable", fmtInt(surface.meshway.walkable)),
    item("meshwayRemoved", "page.readout.meshwayRemoved", fmtInt(surface.meshway.removed)),
    item(
      "meshwayMinDistance",
      "page.readout.meshwayMinDistance",
      fmt4(surface.meshway.minDistance),
    ),
    item("differing", "page.readout.differing", fmtInt(surface.differing)),
  ];

  const p = partition.current;
  const pairs = p.adjacency.lengths.length;
  const section3 = [
    item("polygons", "page.readout.polygons", fmtInt(p.polygons.length)),
    item("area", "page.readout.area", `${fmt4(p.area)} / ${fmt4(p.cellArea)}`),
    item("convex", "page.readout.convex", fmtOf(p.convexCount, p.polygons.length)),
    item("adjacent", "page.readout.adjacent", fmtInt(pairs)),
    item(
      "sharedRange",
      "page.readout.sharedRange",
      pairs ? `${fmt4(p.shortestShared)} ~ ${fmt4(p.longestShared)}` : NA,
    ),
    item("pointContacts", "page.readout.pointContacts", fmtInt(p.adjacency.pointPairs.length / 2)),
    item("pinches", "page.readout.pinches", fmtInt(p.adjacency.pinchPairs)),
    item(
      "nodes",
      "page.readout.nodes",
      `${fmtInt(p.polygons.length)} vs ${fmtInt(p.walkableCells)}`,
    ),
  ];

  const straight = path.final === "funnel" && path.funnel ? path.funnel : path.dropped;
  const shown = settings.view === "midpoint" ? path.midpoint : straight;
  const mid = path.midpoint.length;
  const shorter = mid > 0 ? ((mid - straight.length) / mid) * 100 : 0;
  const polygon = (i: number) => (i >= 0 ? fmtInt(i) : NA);
  const section4 = [
    item(
      "shown",
      settings.view === "midpoint" ? "page.readout.shownMidpoint" : "page.readout.shownStraight",
      countLength(shown),
    ),
    item(
      "startGoal",
      "page.readout.startGoal",
      `${polygon(path.startPolygon)} / ${polygon(path.goalPolygon)}`,
    ),
    item("sequence", "page.readout.sequence", fmtInt(path.polygons.length)),
    item("settled", "page.readout.settled", fmtInt(path.settled)),
    item("midpoint", "page.readout.midpoint", countLength(path.midpoint)),
    item("straight", "page.readout.straight", countLength(straight)),
    item("shorter", "page.readout.shorter", fmtPercent(shorter)),
    item("removable", "page.readout.removable", fmtInt(straight.removable)),
    item("onSurface", "page.readout.onSurface", fmtOf(path.samplesOnSurface, path.samples)),
  ];

  return [
    { section: 1, items: section1 },
    { section: 2, items: section2 },
    { section: 3, items: section3 },
    { section: 4, items: section4 },
  ];
}
