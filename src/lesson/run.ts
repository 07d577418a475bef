import { resolveConfig } from "../config.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { lessonChecks } from "./checks.js";
import { measureShape, type ShapeConvexity } from "./convex.js";
import { computeExactPath } from "./exact-path.js";
import { fmtInt, fmtRadius } from "./format.js";
import { buildLessonNavMesh, type MeshwayLessonBuild } from "./meshway-build.js";
import { type LessonPartition, meshwayPartition, simplePartition } from "./partition.js";
import { type LessonPath, meshwayPath, simplePath } from "./path.js";
import { lessonReadouts } from "./readouts.js";
import { LESSON_SCENE, lessonBuildConfig } from "./scene.js";
import {
  LESSON_RADIUS_STEPS,
  type LessonSettings,
  type LessonShape,
  radiusIndex,
  resolveLessonSettings,
} from "./settings.js";
import { rectangleNavMesh } from "./simple-navmesh.js";
import { type LessonSurface, measureSurface, toyFilter } from "./surface.js";
import { convexTable, partitionTable, pathTable, surfaceTable } from "./tables.js";
import type { LessonResult } from "./types.js";

/**
 * meshway's side of a radius: its pipeline sees the radius only as walkable-radius voxels
 * (rounded up to whole 0.5 cells), so the 26 slider positions share 3 builds, their
 * partitions and their default-ends paths.
 */
interface VoxelRadiusState {
  build: MeshwayLessonBuild;
  partition: LessonPartition;
  path?: LessonPath;
}

const byVoxelRadius = new Map<number, VoxelRadiusState>();

function voxelRadiusState(radius: number): VoxelRadiusState {
  const voxels = resolveConfig(lessonBuildConfig(radius)).walkableRadiusVoxels;
  let hit = byVoxelRadius.get(voxels);
  if (!hit) {
    const build = buildLessonNavMesh(radius);
    hit = { build, partition: meshwayPartition(build) };
    byVoxelRadius.set(voxels, hit);
  }
  return hit;
}

/** Everything that depends on the radius only, computed once per slider position. */
interface RadiusState {
  /** meshway's build, partition and default path, shared by the radii of one voxel radius. */
  voxel: VoxelRadiusState;
  meshway: MeshwayLessonBuild;
  surface: LessonSurface;
  kept: Uint8Array;
  simple: LessonPartition;
  meshwayPartition: LessonPartition;
  /** The simple method's path between the default start and goal, found when first asked for. */
  paths: { simple?: LessonPath };
  /**
   * The kept cells' union as a navmesh (the simple method's exact path runs on it), built when
   * needed: the rectangles as triangle fans, the same surface as one square per cell
   * (cellNavMesh) in ~8× fewer polygons (a unit test checks both give the same paths).
   */
  cellMesh?: NavMesh;
}

/** The last paths for a start and goal the reader dragged (one entry: a drag recomputes often). */
let dragged: { key: string; simple?: LessonPath; meshway?: LessonPath } | null = null;

const byRadius: (RadiusState | undefined)[] = new Array(LESSON_RADIUS_STEPS);
let square: ShapeConvexity | null = null;
/** The L measured for its last few inner corners (a drag revisits them). */
const ls: { key: string; shape: ShapeConvexity }[] = [];

/** Section 1's shape for these settings (the L with the settings' corner), measured once. */
export function lessonShape(shape: LessonShape, corner: readonly [number, number]): ShapeConvexity {
  if (shape === "square") {
    square ??= measureShape("square");
    return square;
  }
  const key = corner.join(",");
  const at = ls.findIndex((e) => e.key === key);
  const entry = at >= 0 ? ls.splice(at, 1)[0]! : { key, shape: measureShape("L", corner) };
  ls.unshift(entry);
  if (ls.length > 8) ls.pop();
  return entry.shape;
}

function radiusState(radius: number): RadiusState {
  const k = radiusIndex(radius);
  const hit = byRadius[k];
  if (hit) return hit;
  const voxel = voxelRadiusState(radius);
  const mw = voxel.build;
  const surface = measureSurface(radius, mw);
  const kept = toyFilter(radius);
  const simple = simplePartition(kept);
  const meshway = voxel.partition;
  const state: RadiusState = {
    voxel,
    meshway: mw,
    surface,
    kept,
    simple,
    meshwayPartition: meshway,
    paths: {},
  };
  byRadius[k] = state;
  return state;
}

const same = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1];

/** One method's path between two points on the radius state's surface. */
function findLessonPath(
  st: RadiusState,
  method: LessonSettings["method"],
  start: readonly [number, number],
  goal: readonly [number, number],
): LessonPath {
  if (method === "simple") {
    st.cellMesh ??= rectangleNavMesh(st.simple.rectangles!);
    const exact = computeExactPath(st.cellMesh, start, goal);
    return simplePath(st.simple.surface, st.simple.adjacency, exact, start, goal);
  }
  return meshwayPath(st.meshway.navMesh, st.meshwayPartition.surface, start, goal);
}

/**
 * The settings' method's path for their start and goal: per radius for the default ends, the
 * last dragged ends otherwise; each method's path only once it is shown (the other method's
 * exact path over ~1000 cells is most of a radius's cost).
 */
function pathFor(st: RadiusState, s: LessonSettings): LessonPath {
  const m = s.method;
  if (same(s.start, LESSON_SCENE.start) && same(s.goal, LESSON_SCENE.goal)) {
    if (m === "meshway") {
      st.voxel.path ??= findLessonPath(st, m, LESSON_SCENE.start, LESSON_SCENE.goal);
      return st.voxel.path;
    }
    st.paths.simple ??= findLessonPath(st, m, LESSON_SCENE.start, LESSON_SCENE.goal);
    return st.paths.simple;
  }
  const key = `${s.radius}:${s.start.join(",")}:${s.goal.join(",")}`;
  if (dragged?.key !== key) dragged = { key };
  dragged[m] ??= findLessonPath(st, m, s.start, s.goal);
  return dragged[m];
}

/**
 * The work runLesson(settings) would do, in pieces, filling the same caches: a caller can
 * yield to the browser between pieces (first paint, input) and runLesson then only assembles
 * the result. Each `yield` follows one piece (a shape, meshway's build, the toy's surface and
 * partition, the cell navmesh, the path); pieces already cached are skipped.
 */
export function* prepareLesson(settings: Partial<LessonSettings>): Generator<void, void, void> {
  const s = resolveLessonSettings(settings);
  if (!square) {
    lessonShape("square", s.corner);
    yield;
  }
  const key = s.corner.join(",");
  if (!ls.some((e) => e.key === key)) {
    lessonShape("L", s.corner);
    yield;
  }
  if (!byRadius[radiusIndex(s.radius)]) {
    const voxels = resolveConfig(lessonBuildConfig(s.radius)).walkableRadiusVoxels;
    if (!byVoxelRadius.has(voxels)) {
      const build = buildLessonNavMesh(s.radius);
      yield;
      byVoxelRadius.set(voxels, { build, partition: meshwayPartition(build) });
      yield;
    }
    radiusState(s.radius);
    yield;
  }
  const st = radiusState(s.radius);
  if (s.method === "simple" && !st.cellMesh) {
    st.cellMesh = rectangleNavMesh(st.simple.rectangles!);
    yield;
  }
  pathFor(st, s);
}

/** Drops the cached per-radius work (tests use it to measure from scratch). */
export function clearLessonCache(): void {
  byRadius.fill(undefined);
  byVoxelRadius.clear();
  square = null;
  ls.length = 0;
  dragged = null;
}

/**
 * Runs the whole lesson for one setting of the controls. Pure and deterministic: the same
 * settings give the same result. Per radius the voxelization, meshway build, partitions and
 * both paths are computed once and cached (26 slider positions), so moving the other controls
 * or returning to a radius only reassembles tables.
 */
export function runLesson(settings: Partial<LessonSettings>): LessonResult {
  const s = resolveLessonSettings(settings);
  const L = lessonShape("L", s.corner);
  const sq = lessonShape("square", s.corner);
  const st = radiusState(s.radius);
  const convex = {
    square: sq,
    L,
    corner: s.corner,
    shown: s.shape === "L" ? L : sq,
    partitions: { simple: st.simple.convexity, meshway: st.meshwayPartition.convexity },
  };
  const partition = {
    simple: st.simple,
    meshway: st.meshwayPartition,
    current: s.method === "simple" ? st.simple : st.meshwayPartition,
  };
  const path = pathFor(st, s);
  const tables = [
    convexTable(convex, partition),
    surfaceTable(st.surface, s.radius),
    partitionTable(st.simple, st.meshwayPartition),
    pathTable(path),
  ];
  const checks = lessonChecks(s.radius, convex, st.surface, partition, path);
  const passed = checks.filter((c) => c.pass).length;
  const log = [
    "log.scene",
    "log.voxelize",
    "log.filter",
    "log.partition",
    "log.path",
    "log.checks",
  ];
  const final = path.final === "funnel" ? path.funnel! : path.dropped;
  const logVars: Record<string, string>[] = [
    {
      cols: fmtInt(LESSON_SCENE.cols),
      rows: fmtInt(LESSON_SCENE.rows),
      obstacles: fmtInt(LESSON_SCENE.obstacles.length),
    },
    {
      walkable: fmtInt(st.surface.simple.voxelWalkable),
      meshway: fmtInt(st.surface.meshway.voxelWalkable),
    },
    {
      r: fmtRadius(s.radius),
      simple: fmtInt(st.surface.simple.walkable),
      meshway: fmtInt(st.surface.meshway.walkable),
      differ: fmtInt(st.surface.differing),
    },
    {
      simple: fmtInt(st.simple.polygons.length),
      meshway: fmtInt(st.meshwayPartition.polygons.length),
    },
    {
      method: s.method,
      status: path.status,
      polygons: fmtInt(path.polygons.length),
      settled: fmtInt(path.settled),
      points: fmtInt(final.count),
    },
    { passed: fmtInt(passed), total: fmtInt(checks.length) },
  ];
  return {
    settings: s,
    scene: LESSON_SCENE,
    convex,
    surface: st.surface,
    partition,
    path,
    tables,
    readouts: lessonReadouts(s.view, s.step, convex, st.surface, partition.current, path),
    checks,
    log,
    logVars,
  };
}
