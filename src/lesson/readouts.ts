import { fmt4, fmtBool, fmtInt, fmtOf, fmtPercent, NA } from "./format.js";
import type { LessonPartition } from "./partition.js";
import type { LessonPath } from "./path.js";
import type { LessonPathView } from "./settings.js";
import type { LessonSurface } from "./surface.js";
import { pathStepAt } from "./timeline.js";
import type { LessonConvexSection, LessonSectionReadouts } from "./types.js";

/** The numbers shown beside each section's picture, for the current settings. */
export function lessonReadouts(
  view: LessonPathView,
  step: number,
  convex: LessonConvexSection,
  surface: LessonSurface,
  current: LessonPartition,
  path: LessonPath,
): LessonSectionReadouts[] {
  const shape = convex.shown;
  let drawnLeaving = 0;
  for (const f of shape.drawnLeaves) drawnLeaving += f;
  const sc = convex.partitions.simple;
  const mc = convex.partitions.meshway;
  const final = path.final === "funnel" ? path.funnel! : path.dropped;
  const shorter =
    path.midpoint.length > 0
      ? ((path.midpoint.length - final.length) / path.midpoint.length) * 100
      : 0;
  const shown = view === "midpoint" ? path.midpoint : final;
  const adj = current.adjacency;
  const at = pathStepAt(path, view === "midpoint" ? 0 : step);
  return [
    {
      section: 1,
      items: [
        { id: "shapeCross", label: "readout.shapeCross", value: fmtBool(shape.crossConvex) },
        {
          id: "shapeLeaving",
          label: "readout.shapeLeaving",
          value: fmtOf(shape.leaving, shape.pairs),
        },
        {
          id: "drawnLeaving",
          label: "readout.drawnLeaving",
          value: fmtOf(drawnLeaving, shape.drawnLeaves.length),
        },
        {
          id: "simpleConvex",
          label: "readout.simpleConvex",
          value: fmtOf(sc.crossConvex, sc.polygons),
        },
        {
          id: "meshwayConvex",
          label: "readout.meshwayConvex",
          value: fmtOf(mc.crossConvex, mc.polygons),
        },
      ],
    },
    {
      section: 2,
      items: [
        { id: "total", label: "readout.total", value: fmtInt(surface.totalCells) },
        {
          id: "voxelWalkable",
          label: "readout.voxelWalkable",
          value: fmtInt(surface.simple.voxelWalkable),
        },
        {
          id: "simpleFiltered",
          label: "readout.simpleFiltered",
          value: fmtInt(surface.simple.walkable),
        },
        {
          id: "simpleRemoved",
          label: "readout.simpleRemoved",
          value: fmtInt(surface.simple.removed),
        },
        { id: "crossCheck", label: "readout.crossCheck", value: fmtInt(surface.crossCheck) },
        {
          id: "minDistance",
          label: "readout.minDistance",
          value: fmt4(surface.simple.minDistance),
        },
        {
          id: "meshwayFiltered",
          label: "readout.meshwayFiltered",
          value: fmtInt(surface.meshway.walkable),
        },
        { id: "differing", label: "readout.differing", value: fmtInt(surface.differing) },
      ],
    },
    {
      section: 3,
      items: [
        { id: "polygons", label: "readout.polygons", value: fmtInt(current.polygons.length) },
        {
          id: "area",
          label: "readout.area",
          value: `${fmt4(current.area)} / ${fmt4(current.cellArea)}`,
        },
        {
          id: "convex",
          label: "readout.convex",
          value: fmtOf(current.convexCount, current.polygons.length),
        },
        { id: "adjacent", label: "readout.adjacent", value: fmtInt(adj.lengths.length) },
        {
          id: "sharedRange",
          label: "readout.sharedRange",
          value: adj.lengths.length
            ? `${fmt4(current.shortestShared)} ~ ${fmt4(current.longestShared)}`
            : NA,
        },
        {
          id: "pointContacts",
          label: "readout.pointContacts",
          value: `${adj.pointPairs.length / 2} / ${adj.pinchPairs}`,
        },
        {
          id: "nodes",
          label: "readout.nodes",
          value: `${current.polygons.length} vs ${current.walkableCells}`,
        },
      ],
    },
    {
      section: 4,
      items: [
        {
          id: "shown",
          label: view === "midpoint" ? "readout.shownMidpoint" : "readout.shownStraight",
          value: `${shown.count} / ${fmt4(shown.length)}`,
        },
        { id: "sequence", label: "readout.sequence", value: fmtInt(path.polygons.length) },
        { id: "settled", label: "readout.settled", value: fmtInt(path.settled) },
        {
          id: "midpoint",
          label: "readout.midpoint",
          value: `${path.midpoint.count} / ${fmt4(path.midpoint.length)}`,
        },
        {
          id: "straight",
          label: "readout.straight",
          value: `${final.count} / ${fmt4(final.length)}`,
        },
        { id: "shorter", label: "readout.shorter", value: fmtPercent(shorter) },
        {
          id: "exact",
          label: "readout.exact",
          value: path.exact ? `${path.exact.count} / ${fmt4(path.exact.length)}` : NA,
        },
        {
          id: "exactGap",
          label: "readout.exactGap",
          value:
            path.exact && path.exact.length > 0
              ? fmtPercent(((final.length - path.exact.length) / path.exact.length) * 100)
              : NA,
        },
        { id: "removable", label: "readout.removable", value: fmtInt(shown.removable) },
        {
          id: "onSurface",
          label: "readout.onSurface",
          value: fmtOf(path.samplesOnSurface, path.samples),
        },
        { id: "step", label: "readout.step", value: `${fmtInt(at.step)} / ${fmtInt(at.last)}` },
      ],
    },
  ];
}
