import { MeshwayError } from "../errors.js";
import type { AreaVolume } from "../generate/areas.js";
import { markBoxArea, markConvexPolyArea, markCylinderArea } from "../generate/areas.js";
import { type CompactHeightfield, NULL_AREA, WALKABLE_AREA } from "../generate/types.js";
import type { Vec3 } from "../math/vec3.js";

/**
 * A temporary obstacle: the walkable floor inside it becomes unwalkable, and the agent radius
 * is kept clear around it (it is marked before erosion). A floor span counts as inside when
 * its cell centre lies in the shape's XZ footprint and its floor height in the vertical range,
 * so start a shape a little below the floor it stands on. World units throughout.
 */
export type ObstacleShape =
  /** Upright cylinder; `center` is the centre of its base. */
  | { kind: "cylinder"; center: Vec3; radius: number; height: number }
  /** Axis-aligned box. */
  | { kind: "box"; min: Vec3; max: Vec3 }
  /**
   * Box rotated by `yawRadians` about +Y: a local offset (dx, dz) lands at
   * (dx cos − dz sin, dx sin + dz cos), as SceneBuilder.box turns its boxes.
   */
  | { kind: "orientedBox"; center: Vec3; halfExtents: Vec3; yawRadians: number }
  /** Vertical prism over a convex XZ polygon given as flat pairs [x0, z0, x1, z1, …]. */
  | { kind: "prism"; points: ArrayLike<number>; minY: number; maxY: number };

/** World-space axis-aligned bounds. */
export interface Bounds3 {
  bmin: Vec3;
  bmax: Vec3;
}

function fail(where: string, field: string, what: string, value: unknown): never {
  const shown = typeof value === "number" ? String(value) : JSON.stringify(value);
  throw new MeshwayError("INVALID_ARGUMENT", `${where}: ${field} ${what}, got ${shown}`);
}

function checkNumber(where: string, field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    fail(where, field, "must be a finite number", v);
  return v;
}

function checkPositive(where: string, field: string, v: unknown): number {
  const n = checkNumber(where, field, v);
  if (!(n > 0)) fail(where, field, "must be > 0", n);
  return n;
}

function checkVec3(where: string, field: string, v: unknown): Vec3 {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) fail(where, field, "must be [x, y, z]", v);
  const a = v as ArrayLike<unknown>;
  if (a.length !== 3) fail(where, field, "must have 3 components", a.length);
  return [
    checkNumber(where, `${field}[0]`, a[0]),
    checkNumber(where, `${field}[1]`, a[1]),
    checkNumber(where, `${field}[2]`, a[2]),
  ];
}

function checkMinMax(where: string, minField: string, maxField: string, lo: number, hi: number) {
  if (!(hi > lo)) fail(where, maxField, `must be > ${minField} (${lo})`, hi);
}

/**
 * Checks a convex XZ polygon of `stride` numbers per point (x at +0, z at +2 when stride is 3,
 * +1 when 2) and returns its x, z as pairs. Convex in either winding, no repeated points.
 */
function checkConvexFootprint(
  where: string,
  field: string,
  points: unknown,
  stride: 2 | 3,
): Float64Array {
  if (!Array.isArray(points) && !ArrayBuffer.isView(points)) {
    fail(where, field, "must be an array of numbers", points);
  }
  const a = points as ArrayLike<unknown>;
  if (a.length % stride !== 0) {
    fail(where, `${field}.length`, `must be a multiple of ${stride}`, a.length);
  }
  const n = a.length / stride;
  if (n < 3) fail(where, field, "must have at least 3 points", n);
  const xz = new Float64Array(n * 2);
  const zOff = stride === 3 ? 2 : 1;
  for (let i = 0; i < n; i++) {
    xz[i * 2] = checkNumber(where, `${field}[${i * stride}]`, a[i * stride]);
    xz[i * 2 + 1] = checkNumber(where, `${field}[${i * stride + zOff}]`, a[i * stride + zOff]);
    if (stride === 3) checkNumber(where, `${field}[${i * stride + 1}]`, a[i * stride + 1]);
  }
  // Convex: every turn has the same sign and none is zero (no collinear or repeated points).
  let sign = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const k = (i + 2) % n;
    const ex = xz[j * 2]! - xz[i * 2]!;
    const ez = xz[j * 2 + 1]! - xz[i * 2 + 1]!;
    const fx = xz[k * 2]! - xz[j * 2]!;
    const fz = xz[k * 2 + 1]! - xz[j * 2 + 1]!;
    const cross = ex * fz - ez * fx;
    const s = cross > 0 ? 1 : cross < 0 ? -1 : 0;
    if (s === 0 || (sign !== 0 && s !== sign)) {
      fail(where, field, `must be a convex polygon (turn at point ${j} is not)`, Array.from(xz));
    }
    sign = s;
  }
  return xz;
}

function checkKind(where: string, shape: unknown, kinds: readonly string[]): string {
  if (shape === null || typeof shape !== "object") fail(where, "shape", "must be an object", shape);
  const kind = (shape as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !kinds.includes(kind)) {
    fail(where, "kind", `must be one of ${kinds.join(", ")}`, kind);
  }
  return kind;
}

const OBSTACLE_KINDS = ["cylinder", "box", "orientedBox", "prism"] as const;

/**
 * Checks an obstacle shape and returns a frozen copy (so later edits by the caller cannot
 * change what the cache holds). Throws MeshwayError("INVALID_ARGUMENT") naming the field.
 */
export function validateObstacleShape(shape: ObstacleShape, where = "obstacle"): ObstacleShape {
  const checked = checkObstacleFields(shape, where);
  checkRepresentable(where, obstacleBounds(checked));
  return checked;
}

/** Largest finite float32: heightfields and tiles hold float32 coordinates. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * Refuses a shape whose bounds reach past the float32 range: a half extent of 1e39 or a prism
 * corner at 4e38 would mark nothing, silently, where a caller expects a blocked tile.
 */
function checkRepresentable(where: string, { bmin, bmax }: Bounds3): void {
  for (let k = 0; k < 3; k++) {
    for (const v of [bmin[k]!, bmax[k]!]) {
      if (!(Math.abs(v) <= FLOAT32_MAX)) {
        fail(
          where,
          "bounds",
          `reach ${"xyz"[k]} = ${v}, beyond float32's ±3.4e38 (meshway's coordinates are float32)`,
          [Array.from(bmin), Array.from(bmax)],
        );
      }
    }
  }
}

function checkObstacleFields(shape: ObstacleShape, where: string): ObstacleShape {
  const kind = checkKind(where, shape, OBSTACLE_KINDS);
  const s = shape as unknown as Record<string, unknown>;
  switch (kind) {
    case "cylinder":
      return Object.freeze({
        kind: "cylinder",
        center: checkVec3(where, "center", s.center),
        radius: checkPositive(where, "radius", s.radius),
        height: checkPositive(where, "height", s.height),
      });
    case "box": {
      const min = checkVec3(where, "min", s.min);
      const max = checkVec3(where, "max", s.max);
      for (let k = 0; k < 3; k++) checkMinMax(where, `min[${k}]`, `max[${k}]`, min[k]!, max[k]!);
      return Object.freeze({ kind: "box", min, max });
    }
    case "orientedBox": {
      const center = checkVec3(where, "center", s.center);
      const he = checkVec3(where, "halfExtents", s.halfExtents);
      for (let k = 0; k < 3; k++) checkPositive(where, `halfExtents[${k}]`, he[k]);
      const yawRadians = checkNumber(where, "yawRadians", s.yawRadians);
      return Object.freeze({ kind: "orientedBox", center, halfExtents: he, yawRadians });
    }
    default: {
      const xz = checkConvexFootprint(where, "points", s.points, 2);
      const minY = checkNumber(where, "minY", s.minY);
      const maxY = checkNumber(where, "maxY", s.maxY);
      checkMinMax(where, "minY", "maxY", minY, maxY);
      return Object.freeze({ kind: "prism", points: Object.freeze(Array.from(xz)), minY, maxY });
    }
  }
}

const VOLUME_KINDS = ["box", "cylinder", "convex"] as const;

/**
 * Checks an area volume (the type buildNavMesh takes) and returns a frozen copy; `area` is an
 * integer in [0, 63] (0 = no-go). Throws MeshwayError("INVALID_ARGUMENT") naming the field.
 */
export function validateAreaVolume(volume: AreaVolume, where = "area volume"): AreaVolume {
  const checked = checkVolumeFields(volume, where);
  checkRepresentable(where, areaVolumeBounds(checked));
  return checked;
}

function checkVolumeFields(volume: AreaVolume, where: string): AreaVolume {
  const kind = checkKind(where, volume, VOLUME_KINDS);
  const v = volume as unknown as Record<string, unknown>;
  const area = v.area;
  if (typeof area !== "number" || !Number.isInteger(area) || area < 0 || area > WALKABLE_AREA) {
    fail(where, "area", `must be an integer in [0, ${WALKABLE_AREA}]`, area);
  }
  switch (kind) {
    case "box": {
      const min = checkVec3(where, "min", v.min);
      const max = checkVec3(where, "max", v.max);
      for (let k = 0; k < 3; k++) checkMinMax(where, `min[${k}]`, `max[${k}]`, min[k]!, max[k]!);
      return Object.freeze({ kind: "box", min, max, area });
    }
    case "cylinder":
      return Object.freeze({
        kind: "cylinder",
        center: checkVec3(where, "center", v.center),
        radius: checkPositive(where, "radius", v.radius),
        height: checkPositive(where, "height", v.height),
        area,
      });
    default: {
      const xz = checkConvexFootprint(where, "points", v.points, 3);
      const minY = checkNumber(where, "minY", v.minY);
      const maxY = checkNumber(where, "maxY", v.maxY);
      checkMinMax(where, "minY", "maxY", minY, maxY);
      const points: number[] = [];
      const src = v.points as ArrayLike<number>;
      for (let i = 0; i < xz.length / 2; i++)
        points.push(xz[i * 2]!, src[i * 3 + 1]!, xz[i * 2 + 1]!);
      return Object.freeze({ kind: "convex", points: Object.freeze(points), minY, maxY, area });
    }
  }
}

/** The four XZ corners of an oriented box, counter-clockwise seen from above, as flat pairs. */
export function orientedBoxCorners(
  center: Vec3,
  halfExtents: Vec3,
  yawRadians: number,
): [number, number, number, number, number, number, number, number] {
  const c = Math.cos(yawRadians);
  const s = Math.sin(yawRadians);
  const hx = halfExtents[0];
  const hz = halfExtents[2];
  const at = (dx: number, dz: number): [number, number] => [
    center[0] + dx * c - dz * s,
    center[2] + dx * s + dz * c,
  ];
  return [...at(-hx, -hz), ...at(-hx, hz), ...at(hx, hz), ...at(hx, -hz)];
}

function boundsOfPairs(
  xz: ArrayLike<number>,
  stride: number,
  zOff: number,
  minY: number,
  maxY: number,
): Bounds3 {
  let x0 = Infinity;
  let x1 = -Infinity;
  let z0 = Infinity;
  let z1 = -Infinity;
  for (let i = 0; i < xz.length; i += stride) {
    x0 = Math.min(x0, xz[i]!);
    x1 = Math.max(x1, xz[i]!);
    z0 = Math.min(z0, xz[i + zOff]!);
    z1 = Math.max(z1, xz[i + zOff]!);
  }
  return { bmin: [x0, minY, z0], bmax: [x1, maxY, z1] };
}

/** World AABB of a (validated) obstacle shape. */
export function obstacleBounds(shape: ObstacleShape): Bounds3 {
  switch (shape.kind) {
    case "cylinder": {
      const [x, y, z] = shape.center;
      const r = shape.radius;
      return { bmin: [x - r, y, z - r], bmax: [x + r, y + shape.height, z + r] };
    }
    case "box":
      return { bmin: [...shape.min], bmax: [...shape.max] };
    case "orientedBox": {
      const cy = shape.center[1];
      const hy = shape.halfExtents[1];
      const xz = orientedBoxCorners(shape.center, shape.halfExtents, shape.yawRadians);
      return boundsOfPairs(xz, 2, 1, cy - hy, cy + hy);
    }
    default:
      return boundsOfPairs(shape.points, 2, 1, shape.minY, shape.maxY);
  }
}

/** World AABB of a (validated) area volume. */
export function areaVolumeBounds(volume: AreaVolume): Bounds3 {
  switch (volume.kind) {
    case "box":
      return { bmin: [...volume.min], bmax: [...volume.max] };
    case "cylinder": {
      const [x, y, z] = volume.center;
      const r = volume.radius;
      return { bmin: [x - r, y, z - r], bmax: [x + r, y + volume.height, z + r] };
    }
    default:
      return boundsOfPairs(volume.points, 3, 2, volume.minY, volume.maxY);
  }
}

/** XZ pairs → xyz triples (y = 0, ignored by markConvexPolyArea). */
function pairsToTriples(xz: ArrayLike<number>): Float64Array {
  const n = xz.length / 2;
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    out[i * 3] = xz[i * 2]!;
    out[i * 3 + 2] = xz[i * 2 + 1]!;
  }
  return out;
}

/**
 * The area volume (area NULL_AREA) that marks a (validated) obstacle, in the form
 * buildTileFromCompact's `obstacles` takes; an oriented box becomes the convex prism over its
 * 4 corners.
 */
export function obstacleAsAreaVolume(shape: ObstacleShape): AreaVolume {
  switch (shape.kind) {
    case "cylinder":
      return {
        kind: "cylinder",
        center: shape.center,
        radius: shape.radius,
        height: shape.height,
        area: NULL_AREA,
      };
    case "box":
      return { kind: "box", min: shape.min, max: shape.max, area: NULL_AREA };
    case "orientedBox": {
      const xz = orientedBoxCorners(shape.center, shape.halfExtents, shape.yawRadians);
      const cy = shape.center[1];
      const hy = shape.halfExtents[1];
      return {
        kind: "convex",
        points: pairsToTriples(xz),
        minY: cy - hy,
        maxY: cy + hy,
        area: NULL_AREA,
      };
    }
    default:
      return {
        kind: "convex",
        points: pairsToTriples(shape.points),
        minY: shape.minY,
        maxY: shape.maxY,
        area: NULL_AREA,
      };
  }
}

/**
 * Marks a (validated) obstacle's walkable spans NULL_AREA in `chf.areas`, with Recast's area
 * marking (src/generate/areas.ts); what buildTileFromCompact does for each of its `obstacles`.
 */
export function markObstacle(chf: CompactHeightfield, shape: ObstacleShape): void {
  markAreaVolume(chf, obstacleAsAreaVolume(shape));
}

/** Relabels the walkable spans inside a (validated) area volume, as buildNavMesh does. */
export function markAreaVolume(chf: CompactHeightfield, v: AreaVolume): void {
  if (v.kind === "box") markBoxArea(chf, v.min, v.max, v.area);
  else if (v.kind === "cylinder") markCylinderArea(chf, v.center, v.radius, v.height, v.area);
  else markConvexPolyArea(chf, v.points, v.minY, v.maxY, v.area);
}

/** Grown scratch for obstacleChangedSpans. */
let changedBuffer = new Int32Array(256);

/**
 * The spans whose area `marked` changed from `chf.areas`, ascending, looked for only in the
 * columns under `bounds` (the world boxes of what was marked, one cell of margin: the area
 * marking only takes cells whose centre lies inside). A function of the obstacles' footprint
 * on this heightfield alone, so two obstacle sets with equal lists give equal tile areas.
 */
export function obstacleChangedSpans(
  chf: CompactHeightfield,
  marked: Uint8Array,
  bounds: readonly Bounds3[],
): Int32Array {
  const { width, depth, cellFirst, cellCount, cellSize, areas } = chf;
  const ox = chf.bmin[0];
  const oz = chf.bmin[2];
  let n = 0;
  for (const b of bounds) {
    const x0 = Math.max(0, Math.floor((b.bmin[0] - ox) / cellSize) - 1);
    const x1 = Math.min(width - 1, Math.floor((b.bmax[0] - ox) / cellSize) + 1);
    const z0 = Math.max(0, Math.floor((b.bmin[2] - oz) / cellSize) - 1);
    const z1 = Math.min(depth - 1, Math.floor((b.bmax[2] - oz) / cellSize) + 1);
    for (let z = z0; z <= z1; z++) {
      for (let x = x0; x <= x1; x++) {
        const c = x + z * width;
        for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
          if (marked[i] === areas[i]) continue;
          if (n === changedBuffer.length) {
            const grown = new Int32Array(2 * n);
            grown.set(changedBuffer);
            changedBuffer = grown;
          }
          changedBuffer[n++] = i;
        }
      }
    }
  }
  const out = changedBuffer.slice(0, n);
  if (bounds.length > 1) {
    // Overlapping boxes list a span more than once.
    out.sort();
    let m = 0;
    for (let k = 0; k < n; k++) if (m === 0 || out[m - 1] !== out[k]) out[m++] = out[k]!;
    return out.subarray(0, m).slice();
  }
  return out;
}
