import type { TriangleMesh } from "../../src/input.js";

/**
 * Builds triangle soups for tests. Every face is wound so that cross(v1 − v0, v2 − v0)
 * points out of the solid, which makes up-facing faces walkable.
 */
export class SceneBuilder {
  private readonly pos: number[] = [];
  private readonly idx: number[] = [];

  /** Adds a quad a-b-c-d (in order); its normal follows cross(b − a, c − a). */
  quad(a: number[], b: number[], c: number[], d: number[]): this {
    const base = this.pos.length / 3;
    this.pos.push(...a, ...b, ...c, ...d);
    this.idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
    return this;
  }

  /** Horizontal rectangle facing up at height y. */
  floor(x0: number, z0: number, x1: number, z1: number, y = 0): this {
    return this.quad([x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]);
  }

  /** Closed box with its base centre at (cx, y0, cz), size (sx, sy, sz), rotated by `angle` radians about Y. */
  box(cx: number, y0: number, cz: number, sx: number, sy: number, sz: number, angle = 0): this {
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const corner = (dx: number, y: number, dz: number) => [
      cx + dx * c - dz * s,
      y,
      cz + dx * s + dz * c,
    ];
    const hx = sx / 2;
    const hz = sz / 2;
    const y1 = y0 + sy;
    const b = [corner(-hx, y0, -hz), corner(-hx, y0, hz), corner(hx, y0, hz), corner(hx, y0, -hz)];
    const t = [corner(-hx, y1, -hz), corner(-hx, y1, hz), corner(hx, y1, hz), corner(hx, y1, -hz)];
    this.quad(t[0]!, t[1]!, t[2]!, t[3]!); // top, up
    this.quad(b[0]!, b[3]!, b[2]!, b[1]!); // bottom, down
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      // Side i goes from corner i to corner j; outward when wound b_i, t_i, t_j, b_j.
      this.quad(b[j]!, t[j]!, t[i]!, b[i]!);
    }
    return this;
  }

  /** A ramp along +x from (x0, y0) to (x1, y1), spanning z0..z1. */
  ramp(x0: number, x1: number, z0: number, z1: number, y0: number, y1: number): this {
    return this.quad([x0, y0, z0], [x0, y0, z1], [x1, y1, z1], [x1, y1, z0]);
  }

  /** Stairs along +x: `steps` boxes each `rise` higher. */
  stairs(x0: number, z0: number, z1: number, steps: number, run: number, rise: number): this {
    for (let i = 0; i < steps; i++) {
      const cx = x0 + run * (i + 0.5);
      this.box(cx, 0, (z0 + z1) / 2, run, rise * (i + 1), z1 - z0);
    }
    return this;
  }

  build(): TriangleMesh {
    return {
      positions: Float32Array.from(this.pos),
      indices: Uint32Array.from(this.idx),
      vertexCount: this.pos.length / 3,
      triangleCount: this.idx.length / 3,
    };
  }
}

/** Applies f to every vertex of a mesh. */
export function transformMesh(
  mesh: TriangleMesh,
  f: (x: number, y: number, z: number) => [number, number, number],
): TriangleMesh {
  const positions = new Float32Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const [x, y, z] = f(mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!);
    positions[i] = x;
    positions[i + 1] = y;
    positions[i + 2] = z;
  }
  return { ...mesh, positions };
}
