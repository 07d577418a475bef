import { type Adjacency, measureAdjacency } from "./adjacency.js";
import { measurePartition, type PartitionConvexity } from "./convex.js";
import { ConvexSurface, crossProductSigns, type Ring, signedArea } from "./geometry.js";
import type { MeshwayLessonBuild } from "./meshway-build.js";
import { type CellRectangles, maximalRectangles, rectangleRings } from "./rectangles.js";
import { LESSON_SCENE } from "./scene.js";
import type { LessonMethod } from "./settings.js";

/** Section 3 for one method: its polygons and what the criteria measure on them. */
export interface LessonPartition {
  method: LessonMethod;
  /** The polygons as XZ rings (world units). Index = polygon id everywhere in the result. */
  polygons: Ring[];
  /** The simple method's rectangles in cell units; null for meshway. */
  rectangles: CellRectangles | null;
  /** Sum of the polygons' areas (XZ). */
  area: number;
  /** This method's walkable cells after filtering, and × cell area. */
  walkableCells: number;
  cellArea: number;
  /** Polygons that pass criterion ① (all cross products agree). */
  convexCount: number;
  adjacency: Adjacency;
  /** Shortest and longest shared segment (0 when no pairs). */
  shortestShared: number;
  longestShared: number;
  /** Criteria ① and ② over every polygon (section 1 reads these too). */
  convexity: PartitionConvexity;
  /** Point-location helper over the polygons (hit tests, path checks). */
  surface: ConvexSurface;
}

function partitionOf(
  method: LessonMethod,
  polygons: Ring[],
  rectangles: CellRectangles | null,
  walkableCells: number,
): LessonPartition {
  const adjacency = measureAdjacency(polygons);
  let area = 0;
  let convexCount = 0;
  for (const p of polygons) {
    area += Math.abs(signedArea(p));
    if (crossProductSigns(p).convex) convexCount++;
  }
  let shortest = Infinity;
  let longest = 0;
  for (const l of adjacency.lengths) {
    if (l < shortest) shortest = l;
    if (l > longest) longest = l;
  }
  const cs = LESSON_SCENE.cellSize;
  return {
    method,
    polygons,
    rectangles,
    area,
    walkableCells,
    cellArea: walkableCells * cs * cs,
    convexCount,
    adjacency,
    shortestShared: adjacency.lengths.length ? shortest : 0,
    longestShared: longest,
    convexity: measurePartition(polygons),
    surface: new ConvexSurface(polygons),
  };
}

/** The simple partition of the toy-filtered cells into maximal rectangles. */
export function simplePartition(kept: Uint8Array): LessonPartition {
  const rects = maximalRectangles(kept);
  let cells = 0;
  for (let c = 0; c < kept.length; c++) cells += kept[c]!;
  return partitionOf("simple", rectangleRings(rects), rects, cells);
}

/** meshway's polygons (regions → contours → polygon mesh) over its eroded cells. */
export function meshwayPartition(mw: MeshwayLessonBuild): LessonPartition {
  let cells = 0;
  for (let c = 0; c < mw.erodedWalkable.length; c++) cells += mw.erodedWalkable[c]!;
  return partitionOf("meshway", mw.polygons, null, cells);
}
