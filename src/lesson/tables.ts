import { fmt4, fmtBool, fmtInt, fmtOf, fmtPercent, fmtRadius, NA } from "./format.js";
import type { LessonPartition } from "./partition.js";
import type { LessonPath, LessonPolyline } from "./path.js";
import { LESSON_SCENE } from "./scene.js";
import { LESSON_DEFAULT_CORNER } from "./settings.js";
import type { LessonSurface } from "./surface.js";
import type { LessonConvexSection, LessonTable, LessonTableRow } from "./types.js";

/** Each row's "what it means" key is its label's, suffixed; the column goes last. */
function withMeans(
  table: Omit<LessonTable, "rows"> & { rows: Omit<LessonTableRow, "means">[] },
): LessonTable {
  return {
    ...table,
    columns: [...table.columns, "col.means"],
    rows: table.rows.map((r) => ({ ...r, means: `${r.label}.means` })),
  };
}

/** True when the L's inner corner is not where the lesson draws it by default. */
function cornerMoved(corner: readonly [number, number]): boolean {
  return corner[0] !== LESSON_DEFAULT_CORNER[0] || corner[1] !== LESSON_DEFAULT_CORNER[1];
}

/** Table ①: both criteria on the square, the L and every polygon of both partitions. */
export function convexTable(
  c: LessonConvexSection,
  partitions: { simple: LessonPartition; meshway: LessonPartition },
): LessonTable {
  const shape = (s: LessonConvexSection["square"]) => ({
    cells: [
      fmtBool(s.crossConvex),
      `+${s.crossPositive} / −${s.crossNegative}`,
      fmtOf(s.leaving, s.pairs),
    ],
  });
  const part = (p: LessonPartition) => ({
    cells: [
      fmtBool(p.convexity.crossConvex === p.convexity.polygons),
      fmtOf(p.convexity.crossConvex, p.convexity.polygons),
      fmtOf(p.convexity.leaving, p.convexity.pairs),
    ],
  });
  return withMeans({
    id: "convex",
    title: "table.convex.title",
    titleVars: {},
    columns: ["col.item", "col.crossAgree", "col.crossSigns", "col.leaving"],
    rows: [
      { label: "row.convex.square", ...shape(c.square) },
      { label: cornerMoved(c.corner) ? "row.convex.Lmoved" : "row.convex.L", ...shape(c.L) },
      { label: "row.convex.simplePolys", ...part(partitions.simple) },
      { label: "row.convex.meshwayPolys", ...part(partitions.meshway) },
    ],
  });
}

/** Table ②: voxelize and filter, the toy method beside meshway's erosion. */
export function surfaceTable(s: LessonSurface, radius: number): LessonTable {
  const { cols, rows } = LESSON_SCENE;
  const total = `${s.totalCells} (${cols}×${rows})`;
  return withMeans({
    id: "surface",
    title: "table.surface.title",
    titleVars: { r: fmtRadius(radius) },
    columns: ["col.quantity", "col.simple", "col.meshway"],
    rows: [
      {
        label: "row.surface.radius",
        // meshway erodes by whole cells: the radius rounded up to the cell grid.
        cells: [
          fmtRadius(radius),
          `${fmtRadius(radius)} → ${fmtRadius(Math.ceil(radius / LESSON_SCENE.cellSize - 1e-9) * LESSON_SCENE.cellSize)}`,
        ],
      },
      { label: "row.surface.total", cells: [total, total] },
      {
        label: "row.surface.voxelWalkable",
        cells: [fmtInt(s.simple.voxelWalkable), fmtInt(s.meshway.voxelWalkable)],
      },
      {
        label: "row.surface.filtered",
        cells: [fmtInt(s.simple.walkable), fmtInt(s.meshway.walkable)],
      },
      {
        label: "row.surface.removed",
        cells: [fmtInt(s.simple.removed), fmtInt(s.meshway.removed)],
      },
      // The simple method's own definition counted again: meaningless for meshway.
      { label: "row.surface.crossCheck", cells: [fmtInt(s.crossCheck), NA] },
      {
        label: "row.surface.minDistance",
        cells: [fmt4(s.simple.minDistance), fmt4(s.meshway.minDistance)],
      },
      { label: "row.surface.differing", cells: [fmtInt(s.differing), fmtInt(s.differing)] },
    ],
  });
}

/** Table ③: the two partitions' readouts. */
export function partitionTable(simple: LessonPartition, meshway: LessonPartition): LessonTable {
  const both = (f: (p: LessonPartition) => string) => [f(simple), f(meshway)];
  const cs2 = LESSON_SCENE.cellSize * LESSON_SCENE.cellSize;
  return withMeans({
    id: "partition",
    title: "table.partition.title",
    titleVars: {},
    columns: ["col.quantity", "col.simple", "col.meshway"],
    rows: [
      { label: "row.partition.polygons", cells: both((p) => fmtInt(p.polygons.length)) },
      { label: "row.partition.area", cells: both((p) => fmt4(p.area)) },
      {
        label: "row.partition.cellArea",
        cells: both((p) => `${p.walkableCells} × ${cs2} = ${fmt4(p.cellArea)}`),
      },
      { label: "row.partition.areaDiff", cells: both((p) => fmt4(p.area - p.cellArea)) },
      {
        label: "row.partition.convex",
        cells: both((p) => fmtOf(p.convexCount, p.polygons.length)),
      },
      { label: "row.partition.adjacent", cells: both((p) => fmtInt(p.adjacency.lengths.length)) },
      {
        label: "row.partition.sharedRange",
        cells: both((p) =>
          p.adjacency.lengths.length ? `${fmt4(p.shortestShared)} ~ ${fmt4(p.longestShared)}` : NA,
        ),
      },
      {
        label: "row.partition.pointContacts",
        cells: both((p) => fmtInt(p.adjacency.pointPairs.length / 2)),
      },
      { label: "row.partition.pinches", cells: both((p) => fmtInt(p.adjacency.pinchPairs)) },
      {
        label: "row.partition.nodes",
        cells: both((p) => `${p.polygons.length} vs ${p.walkableCells}`),
      },
    ],
  });
}

function lineCell(
  l: LessonPolyline | null,
  midpoint: LessonPolyline,
  withShorter: boolean,
): string {
  if (!l) return NA;
  if (!withShorter) return `${fmtInt(l.count)} / ${fmt4(l.length)}`;
  const shorter = midpoint.length > 0 ? ((midpoint.length - l.length) / midpoint.length) * 100 : 0;
  return `${fmtInt(l.count)} / ${fmt4(l.length)} / ${fmtPercent(shorter)}`;
}

/** Table ④: the search and the polylines of the settings' method. */
export function pathTable(p: LessonPath): LessonTable {
  const seq = p.polygons.length ? `${p.polygons.length}: ${p.polygons.join(" → ")}` : NA;
  const poly = (i: number) => (i >= 0 ? fmtInt(i) : NA);
  const final = p.final === "funnel" ? p.funnel! : p.dropped;
  return withMeans({
    id: "path",
    title: "table.path.title",
    titleVars: { method: p.method },
    columns: ["col.quantity", "col.measured"],
    rows: [
      { label: "row.path.method", cells: [p.method] },
      { label: "row.path.status", cells: [p.status] },
      { label: "row.path.startGoal", cells: [`${poly(p.startPolygon)} / ${poly(p.goalPolygon)}`] },
      { label: "row.path.sequence", cells: [seq] },
      { label: "row.path.settled", cells: [fmtInt(p.settled)] },
      { label: "row.path.midpoint", cells: [lineCell(p.midpoint, p.midpoint, false)] },
      { label: "row.path.dropped", cells: [lineCell(p.dropped, p.midpoint, true)] },
      { label: "row.path.funnel", cells: [lineCell(p.funnel, p.midpoint, true)] },
      {
        label: p.method === "simple" ? "row.path.exactCells" : "row.path.exact",
        cells: [lineCell(p.exact, p.midpoint, true)],
      },
      {
        label: "row.path.exactChecks",
        cells: [
          p.exact
            ? `${fmtInt(p.exact.removable)}; ${fmtOf(p.exactSamplesOnSurface, p.exactSamples)}`
            : NA,
        ],
      },
      {
        label: p.final === "funnel" ? "row.path.removableFunnel" : "row.path.removableDropped",
        cells: [fmtInt(final.removable)],
      },
      { label: "row.path.onSurface", cells: [fmtOf(p.samplesOnSurface, p.samples)] },
    ],
  });
}
