import type { AreaVolume } from "../generate/areas.js";
import type { Vec3 } from "../math/vec3.js";
import { areaColour, type Colour, OBSTACLE_COLOUR, WALL_COLOUR } from "../navmesh/palette.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder, withAlpha } from "./primitive.js";
import { appendPrism } from "./shapes.js";

/**
 * A tile-cache obstacle, typed here by shape (the same union as tiles/obstacles.ts's
 * ObstacleShape, which debug/ may not import): upright cylinder (centre of its base), box,
 * box turned by yaw about +Y, or a vertical prism over convex XZ pairs.
 */
export type DebugObstacleShape =
  | { kind: "cylinder"; center: Vec3; radius: number; height: number }
  | { kind: "box"; min: Vec3; max: Vec3 }
  | { kind: "orientedBox"; center: Vec3; halfExtents: Vec3; yawRadians: number }
  | { kind: "prism"; points: ArrayLike<number>; minY: number; maxY: number };

const CIRCLE_SEGMENTS = 16;

/** XZ footprint of a shape as flat pairs, and its vertical range. */
function footprint(shape: DebugObstacleShape | AreaVolume): {
  xz: Float64Array;
  y0: number;
  y1: number;
} {
  switch (shape.kind) {
    case "cylinder": {
      const xz = new Float64Array(CIRCLE_SEGMENTS * 2);
      for (let i = 0; i < CIRCLE_SEGMENTS; i++) {
        const a = (i / CIRCLE_SEGMENTS) * Math.PI * 2;
        xz[i * 2] = shape.center[0] + Math.cos(a) * shape.radius;
        xz[i * 2 + 1] = shape.center[2] + Math.sin(a) * shape.radius;
      }
      return { xz, y0: shape.center[1], y1: shape.center[1] + shape.height };
    }
    case "box": {
      const [x0, y0, z0] = shape.min;
      const [x1, y1, z1] = shape.max;
      return { xz: Float64Array.of(x0, z0, x1, z0, x1, z1, x0, z1), y0, y1 };
    }
    case "orientedBox": {
      const c = Math.cos(shape.yawRadians);
      const s = Math.sin(shape.yawRadians);
      const [hx, hy, hz] = shape.halfExtents;
      const [cx, cy, cz] = shape.center;
      const xz = new Float64Array(8);
      const corners = [-hx, -hz, hx, -hz, hx, hz, -hx, hz];
      for (let i = 0; i < 4; i++) {
        const dx = corners[i * 2]!;
        const dz = corners[i * 2 + 1]!;
        xz[i * 2] = cx + dx * c - dz * s;
        xz[i * 2 + 1] = cz + dx * s + dz * c;
      }
      return { xz, y0: cy - hy, y1: cy + hy };
    }
    case "prism":
      return { xz: Float64Array.from(shape.points), y0: shape.minY, y1: shape.maxY };
    case "convex": {
      // Area volumes give x, y, z triples; the footprint is x, z.
      const n = Math.floor(shape.points.length / 3);
      const xz = new Float64Array(n * 2);
      for (let i = 0; i < n; i++) {
        xz[i * 2] = shape.points[i * 3]!;
        xz[i * 2 + 1] = shape.points[i * 3 + 2]!;
      }
      return { xz, y0: shape.minY, y1: shape.maxY };
    }
  }
}

function drawShapes(
  shapes: Iterable<DebugObstacleShape | AreaVolume>,
  colourOf: (s: DebugObstacleShape | AreaVolume) => Colour,
): DebugPrimitive[] {
  const solid = new PrimitiveBuilder("triangles");
  const wire = new PrimitiveBuilder("lines", 1.5);
  for (const shape of shapes) {
    const { xz, y0, y1 } = footprint(shape);
    const c = colourOf(shape);
    appendPrism(solid, wire, xz, y0, y1, withAlpha(c, 90), withAlpha(c, 230));
  }
  return finishAll(solid, wire);
}

/** Obstacles as translucent solids with their edges (cylinders as 16-sided prisms). */
export function drawObstacles(shapes: Iterable<DebugObstacleShape>): DebugPrimitive[] {
  return drawShapes(shapes, () => OBSTACLE_COLOUR);
}

/** Area volumes in the colour of their area id (area 0, no-go, in the wall colour). */
export function drawAreaVolumes(volumes: Iterable<AreaVolume>): DebugPrimitive[] {
  return drawShapes(volumes, (v) => {
    const area = (v as AreaVolume).area;
    return area === 0 ? WALL_COLOUR : areaColour(area);
  });
}
