import type { Colour } from "../navmesh/palette.js";
import { type PrimitiveBuilder, shade } from "./primitive.js";

/**
 * Solid axis-aligned box as 12 triangles, wound counter-clockwise seen from outside; faces
 * shaded like Recast's duAppendBox (top brightest) so stacked spans read in 3D.
 */
export function appendBox(
  b: PrimitiveBuilder,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  c: Colour,
): void {
  const top = c;
  const bottom = shade(c, 0.5);
  const sideX = shade(c, 0.8);
  const sideZ = shade(c, 0.65);
  quad(b, x0, y1, z0, x0, y1, z1, x1, y1, z1, x1, y1, z0, top);
  quad(b, x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1, bottom);
  quad(b, x0, y0, z0, x0, y0, z1, x0, y1, z1, x0, y1, z0, sideX);
  quad(b, x1, y0, z0, x1, y1, z0, x1, y1, z1, x1, y0, z1, sideX);
  quad(b, x0, y0, z0, x0, y1, z0, x1, y1, z0, x1, y0, z0, sideZ);
  quad(b, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1, sideZ);
}

/** Quad a-b-c-d as two triangles (a, b, c) and (a, c, d). */
export function quad(
  b: PrimitiveBuilder,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  dx: number,
  dy: number,
  dz: number,
  c: Colour,
): void {
  b.vertex(ax, ay, az, c);
  b.vertex(bx, by, bz, c);
  b.vertex(cx, cy, cz, c);
  b.vertex(ax, ay, az, c);
  b.vertex(cx, cy, cz, c);
  b.vertex(dx, dy, dz, c);
}

/** Wire box: its 12 edges as segments. */
export function appendBoxWire(
  b: PrimitiveBuilder,
  x0: number,
  y0: number,
  z0: number,
  x1: number,
  y1: number,
  z1: number,
  c: Colour,
): void {
  for (const y of [y0, y1]) {
    b.segment(x0, y, z0, x1, y, z0, c);
    b.segment(x1, y, z0, x1, y, z1, c);
    b.segment(x1, y, z1, x0, y, z1, c);
    b.segment(x0, y, z1, x0, y, z0, c);
  }
  b.segment(x0, y0, z0, x0, y1, z0, c);
  b.segment(x1, y0, z0, x1, y1, z0, c);
  b.segment(x1, y0, z1, x1, y1, z1, c);
  b.segment(x0, y0, z1, x0, y1, z1, c);
}

/** Horizontal circle of `segments` segments. */
export function appendCircle(
  b: PrimitiveBuilder,
  cx: number,
  cy: number,
  cz: number,
  r: number,
  c: Colour,
  segments = 16,
): void {
  for (let i = 0; i < segments; i++) {
    const a0 = (i / segments) * Math.PI * 2;
    const a1 = ((i + 1) / segments) * Math.PI * 2;
    b.segment(
      cx + Math.cos(a0) * r,
      cy,
      cz + Math.sin(a0) * r,
      cx + Math.cos(a1) * r,
      cy,
      cz + Math.sin(a1) * r,
      c,
    );
  }
}

/**
 * Vertical prism over an XZ polygon (flat x, z pairs) from y0 to y1: `solid` gets the side
 * quads and both caps (fans; the footprint is convex), `wire` the outline edges.
 */
export function appendPrism(
  solid: PrimitiveBuilder,
  wire: PrimitiveBuilder,
  xz: ArrayLike<number>,
  y0: number,
  y1: number,
  c: Colour,
  edge: Colour,
): void {
  const n = xz.length >> 1;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = xz[i * 2]!;
    const az = xz[i * 2 + 1]!;
    const bx = xz[j * 2]!;
    const bz = xz[j * 2 + 1]!;
    quad(solid, ax, y0, az, bx, y0, bz, bx, y1, bz, ax, y1, az, shade(c, 0.8));
    wire.segment(ax, y0, az, bx, y0, bz, edge);
    wire.segment(ax, y1, az, bx, y1, bz, edge);
    wire.segment(ax, y0, az, ax, y1, az, edge);
  }
  for (let i = 1; i + 1 < n; i++) {
    for (const y of [y0, y1]) {
      solid.vertex(xz[0]!, y, xz[1]!, c);
      solid.vertex(xz[i * 2]!, y, xz[i * 2 + 1]!, c);
      solid.vertex(xz[(i + 1) * 2]!, y, xz[(i + 1) * 2 + 1]!, c);
    }
  }
}
