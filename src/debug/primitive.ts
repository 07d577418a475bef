import type { Colour } from "../navmesh/palette.js";

/** What a primitive set draws: every 3 vertices a triangle, every 2 a segment, or points. */
export type DebugPrimitiveKind = "triangles" | "lines" | "points";

/**
 * One engine-agnostic set of vertices to draw, world units: hand `positions` and `colours`
 * to any engine's vertex buffers (three.js: BufferAttribute(positions, 3) and (colours, 4)).
 */
export interface DebugPrimitive {
  kind: DebugPrimitiveKind;
  /** 3 floats per vertex, world units. */
  positions: Float32Array;
  /** 4 floats per vertex: red, green, blue, alpha in 0..1. */
  colours: Float32Array;
  /** Suggested line width or point size in pixels (1 for triangles). */
  size: number;
}

/** Vertices appended one at a time into growing typed arrays (no per-vertex objects). */
export class PrimitiveBuilder {
  readonly kind: DebugPrimitiveKind;
  readonly size: number;
  private positions = new Float32Array(3 * 256);
  private colours = new Float32Array(4 * 256);
  /** Vertices appended so far. */
  count = 0;

  constructor(kind: DebugPrimitiveKind, size = 1) {
    this.kind = kind;
    this.size = size;
  }

  /** Appends one vertex; `alpha` (0..255) overrides the colour's own. */
  vertex(x: number, y: number, z: number, c: Colour, alpha = c[3]): void {
    if (this.count * 3 === this.positions.length) this.grow();
    const p = this.count * 3;
    const q = this.count * 4;
    this.positions[p] = x;
    this.positions[p + 1] = y;
    this.positions[p + 2] = z;
    this.colours[q] = c[0] / 255;
    this.colours[q + 1] = c[1] / 255;
    this.colours[q + 2] = c[2] / 255;
    this.colours[q + 3] = alpha / 255;
    this.count++;
  }

  /** Appends a segment (lines) from vertex a to vertex b, both of colour c. */
  segment(ax: number, ay: number, az: number, bx: number, by: number, bz: number, c: Colour): void {
    this.vertex(ax, ay, az, c);
    this.vertex(bx, by, bz, c);
  }

  private grow(): void {
    const p = new Float32Array(this.positions.length * 2);
    p.set(this.positions);
    this.positions = p;
    const c = new Float32Array(this.colours.length * 2);
    c.set(this.colours);
    this.colours = c;
  }

  /** The primitive set with arrays trimmed to the vertices appended. */
  finish(): DebugPrimitive {
    return {
      kind: this.kind,
      positions: this.positions.slice(0, this.count * 3),
      colours: this.colours.slice(0, this.count * 4),
      size: this.size,
    };
  }
}

/** The non-empty sets of `builders`, finished, in order. */
export function finishAll(...builders: PrimitiveBuilder[]): DebugPrimitive[] {
  const out: DebugPrimitive[] = [];
  for (const b of builders) if (b.count > 0) out.push(b.finish());
  return out;
}

/** Scales a colour's RGB by `f` (face shading), keeping alpha. */
export function shade(c: Colour, f: number): Colour {
  return [Math.round(c[0] * f), Math.round(c[1] * f), Math.round(c[2] * f), c[3]];
}

/** Same colour, alpha replaced (0..255). */
export function withAlpha(c: Colour, alpha: number): Colour {
  return [c[0], c[1], c[2], alpha];
}
