import type { DebugPrimitive } from "meshway/debug";

/**
 * A polyline as a flat band of triangles `width` wide (world units), `lift` above its points:
 * WebGL draws lines one pixel wide whatever is asked, too thin to follow a path by eye.
 */
export function ribbon(
  points: readonly (readonly number[])[],
  width: number,
  rgba: readonly [number, number, number, number],
  lift: number,
): DebugPrimitive {
  const segments = Math.max(0, points.length - 1);
  const positions = new Float32Array(segments * 18);
  const colours = new Float32Array(segments * 24);
  for (let i = 0; i < colours.length; i += 4) colours.set(rgba, i);
  const h = width / 2;
  for (let i = 0; i < segments; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const dx = b[0]! - a[0]!;
    const dz = b[2]! - a[2]!;
    const len = Math.hypot(dx, dz) || 1;
    const nx = (-dz / len) * h;
    const nz = (dx / len) * h;
    const ay = a[1]! + lift;
    const by = b[1]! + lift;
    // Two triangles: a-left, a-right, b-right and a-left, b-right, b-left.
    positions.set(
      [
        a[0]! + nx,
        ay,
        a[2]! + nz,
        a[0]! - nx,
        ay,
        a[2]! - nz,
        b[0]! - nx,
        by,
        b[2]! - nz,
        a[0]! + nx,
        ay,
        a[2]! + nz,
        b[0]! - nx,
        by,
        b[2]! - nz,
        b[0]! + nx,
        by,
        b[2]! + nz,
      ],
      i * 18,
    );
  }
  return { kind: "triangles", positions, colours, size: 1 };
}
