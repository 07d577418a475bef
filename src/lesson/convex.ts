import { mulberry32 } from "../query/random-point.js";
import { crossProductSigns, pointInPolygon, type Ring, ringBounds } from "./geometry.js";
import type { LessonShape } from "./settings.js";

/** Random point pairs per shape (criterion ②). */
export const CONVEX_PAIRS = 1000;
/** Samples along each pair's segment, both ends included. */
export const CONVEX_SAMPLES = 256;
/** Segments the picture draws (the first pairs). */
export const CONVEX_DRAWN = 60;
/** Pairs tested per polygon of a partition (criterion ② over many polygons, kept cheap). */
export const PARTITION_PAIRS_PER_POLYGON = 16;

/** The two test shapes, in world units so they draw on the lesson canvas. */
export const LESSON_SHAPES_XZ: Readonly<Record<LessonShape, Ring>> = Object.freeze({
  square: new Float64Array([7, 3, 17, 3, 17, 13, 7, 13]),
  // The notch is the top-right quarter: the corner at (12, 8) is reflex.
  L: new Float64Array([7, 3, 12, 3, 12, 8, 17, 8, 17, 13, 7, 13]),
});

/** The L with its inner corner (ring index 2) at `corner`; the default corner gives LESSON_SHAPES_XZ.L. */
export function lShapeRing(corner: readonly [number, number]): Ring {
  const ring = LESSON_SHAPES_XZ.L.slice();
  ring[4] = corner[0];
  ring[5] = corner[1];
  return ring;
}

/**
 * True when the L's inner corner is reflex: strictly on the notch's side of the diagonal from
 * (12, 3) to (17, 8) (the geometry the two criteria are checked against).
 */
export function lCornerReflex(corner: readonly [number, number]): boolean {
  // Cross product of (17, 8) − (12, 3) with corner − (12, 3): positive on the (12, 8) side.
  return 5 * (corner[1] - 3) - 5 * (corner[0] - 12) > 1e-9;
}

const SHAPE_SEED: Record<LessonShape, number> = { square: 0x5eed01, L: 0x5eed02 };

/** Both convexity criteria measured on one shape. */
export interface ShapeConvexity {
  shape: LessonShape;
  /** The shape's corners as x, z pairs. */
  ring: Ring;
  /** Criterion ①: cross products of consecutive edges, counted by sign. */
  crossPositive: number;
  crossNegative: number;
  /** Criterion ① verdict: all signs agree. */
  crossConvex: boolean;
  /** Criterion ②: pairs tested, and how many had a sample outside the shape. */
  pairs: number;
  leaving: number;
  /** The first CONVEX_DRAWN segments as x0, z0, x1, z1 quadruples. */
  drawn: Float64Array;
  /** 1 when drawn segment k leaves the shape. */
  drawnLeaves: Uint8Array;
}

/** Criteria ① and ② over every polygon of one partition. */
export interface PartitionConvexity {
  polygons: number;
  /** Polygons whose cross products all agree. */
  crossConvex: number;
  pairs: number;
  leaving: number;
}

/** A uniform random point inside `ring` (rejection sampling in its bounds; bounded tries). */
function randomPointIn(ring: Ring, rand: () => number, out: Float64Array, k: number): void {
  const [minX, minZ, maxX, maxZ] = ringBounds(ring);
  for (let tries = 0; tries < 10000; tries++) {
    const x = minX + rand() * (maxX - minX);
    const z = minZ + rand() * (maxZ - minZ);
    if (pointInPolygon(ring, x, z)) {
      out[k] = x;
      out[k + 1] = z;
      return;
    }
  }
  out[k] = ring[0]!;
  out[k + 1] = ring[1]!;
}

/**
 * A segment farther than this from every edge of a ring lies wholly on one side of its
 * boundary: pointInPolygon (exact to ~1e-12 away from the boundary, GEOM_EPS on it) gives all
 * its samples the same answer as its first one.
 */
const CLEAR_OF_EDGES = 1e-6;

/** Squared distance from (px, pz) to the segment a–b. */
function distSqToSegment(px: number, pz: number, ax: number, az: number, bx: number, bz: number) {
  const dx = bx - ax;
  const dz = bz - az;
  const len = dx * dx + dz * dz;
  const t = len > 0 ? Math.min(1, Math.max(0, ((px - ax) * dx + (pz - az) * dz) / len)) : 0;
  const ex = ax + t * dx - px;
  const ez = az + t * dz - pz;
  return ex * ex + ez * ez;
}

/** True when the segment a–b stays farther than CLEAR_OF_EDGES from every edge of `ring`. */
function clearOfEdges(ring: Ring, ax: number, az: number, bx: number, bz: number): boolean {
  const n = ring.length >> 1;
  const m2 = CLEAR_OF_EDGES * CLEAR_OF_EDGES;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const cx = ring[j * 2]!;
    const cz = ring[j * 2 + 1]!;
    const dx = ring[i * 2]!;
    const dz = ring[i * 2 + 1]!;
    // Proper crossing: each segment's ends on opposite sides of the other.
    const o1 = (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
    const o2 = (bx - ax) * (dz - az) - (bz - az) * (dx - ax);
    const o3 = (dx - cx) * (az - cz) - (dz - cz) * (ax - cx);
    const o4 = (dx - cx) * (bz - cz) - (dz - cz) * (bx - cx);
    if (o1 > 0 !== o2 > 0 && o3 > 0 !== o4 > 0) return false;
    // Otherwise the nearest approach is at one of the four ends.
    if (
      distSqToSegment(ax, az, cx, cz, dx, dz) <= m2 ||
      distSqToSegment(bx, bz, cx, cz, dx, dz) <= m2 ||
      distSqToSegment(cx, cz, ax, az, bx, bz) <= m2 ||
      distSqToSegment(dx, dz, ax, az, bx, bz) <= m2
    )
      return false;
  }
  return true;
}

/**
 * True when some of the segment's samples fall outside `ring`. A segment clear of every edge
 * keeps all its samples on its first sample's side, so only the first is tested then (the
 * answer is the same as sampling all 256: test/unit/lesson-criteria.test.ts compares them).
 */
export function segmentLeaves(
  ring: Ring,
  ax: number,
  az: number,
  bx: number,
  bz: number,
  inside: (ring: Ring, x: number, z: number) => boolean,
): boolean {
  if (clearOfEdges(ring, ax, az, bx, bz)) return !inside(ring, ax, az);
  return segmentLeavesSampled(ring, ax, az, bx, bz, inside);
}

/** Criterion ② by its definition: every one of the segment's CONVEX_SAMPLES samples tested. */
export function segmentLeavesSampled(
  ring: Ring,
  ax: number,
  az: number,
  bx: number,
  bz: number,
  inside: (ring: Ring, x: number, z: number) => boolean,
): boolean {
  for (let s = 0; s < CONVEX_SAMPLES; s++) {
    const t = s / (CONVEX_SAMPLES - 1);
    if (!inside(ring, ax + t * (bx - ax), az + t * (bz - az))) return true;
  }
  return false;
}

/** Runs criterion ② on `ring`: `pairs` seeded pairs; returns how many leave. */
export function samplePairs(
  ring: Ring,
  pairs: number,
  seed: number,
  drawn: Float64Array | null,
  flags: Uint8Array | null,
  leavesTest: typeof segmentLeaves = segmentLeaves,
): number {
  const rand = mulberry32(seed);
  const p = new Float64Array(4);
  let leaving = 0;
  for (let i = 0; i < pairs; i++) {
    randomPointIn(ring, rand, p, 0);
    randomPointIn(ring, rand, p, 2);
    const leaves = leavesTest(ring, p[0]!, p[1]!, p[2]!, p[3]!, pointInPolygon);
    if (leaves) leaving++;
    if (drawn && flags && i < flags.length) {
      drawn.set(p, i * 4);
      flags[i] = leaves ? 1 : 0;
    }
  }
  return leaving;
}

/** Section 1 on one of the two shapes. Deterministic (seeded per shape). */
export function measureShape(
  shape: LessonShape,
  corner: readonly [number, number] = [12, 8],
): ShapeConvexity {
  const ring = shape === "L" ? lShapeRing(corner) : LESSON_SHAPES_XZ[shape];
  const signs = crossProductSigns(ring);
  const drawn = new Float64Array(CONVEX_DRAWN * 4);
  const drawnLeaves = new Uint8Array(CONVEX_DRAWN);
  const leaving = samplePairs(ring, CONVEX_PAIRS, SHAPE_SEED[shape], drawn, drawnLeaves);
  return {
    shape,
    ring,
    crossPositive: signs.positive,
    crossNegative: signs.negative,
    crossConvex: signs.convex,
    pairs: CONVEX_PAIRS,
    leaving,
    drawn,
    drawnLeaves,
  };
}

/** Both criteria over every polygon of a partition (seeded per polygon index). */
export function measurePartition(polys: readonly Ring[]): PartitionConvexity {
  let crossConvex = 0;
  let leaving = 0;
  for (let p = 0; p < polys.length; p++) {
    const ring = polys[p]!;
    if (crossProductSigns(ring).convex) crossConvex++;
    leaving += samplePairs(ring, PARTITION_PAIRS_PER_POLYGON, 0x9a17 + p, null, null);
  }
  return {
    polygons: polys.length,
    crossConvex,
    pairs: polys.length * PARTITION_PAIRS_PER_POLYGON,
    leaving,
  };
}
