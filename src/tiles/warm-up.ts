import type { ResolvedConfig } from "../config.js";
import { markWalkableTriangles } from "../generate/rasterize.js";
import type { TriangleMesh } from "../input.js";
import type { Vec3 } from "../math/vec3.js";
import { binTriangles } from "./build-tile.js";
import type { TileBuildSetup } from "./pool.js";
import { createTileGrid } from "./tile-grid.js";

/** Tiles per side of the warm-up scene. */
const WARM_TILES = 2;

/**
 * A small synthetic scene for warming up a fresh worker while the caller is still reading its
 * input: WARM_TILES² tiles of `cfg` (same tile size, cell size, agent) over rolling ground with
 * boxes (walls, roofs: a second layer) and a ramp onto one, so building its tiles runs every
 * stage with the shapes of a real build. A new worker isolate starts with no optimized code
 * (V8 shares none across isolates); building these tiles first moves most of its JIT work
 * into time the machine would spend waiting on the parse. Seeded, fixed, and thrown away.
 */
export function warmUpSetup(cfg: ResolvedConfig): TileBuildSetup {
  const side = cfg.tileSize * cfg.cellSize * WARM_TILES;
  const n = 24; // ground quads per side
  const step = side / n;
  const pos: number[] = [];
  const idx: number[] = [];
  const height = (x: number, z: number) =>
    0.04 * side * Math.sin((x / side) * 5) * Math.cos((z / side) * 4);
  for (let z = 0; z <= n; z++) {
    for (let x = 0; x <= n; x++) pos.push(x * step, height(x * step, z * step), z * step);
  }
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      const a = z * (n + 1) + x;
      const b = a + n + 1;
      idx.push(a, b, b + 1, a, b + 1, a + 1);
    }
  }
  const quad = (p0: Vec3, p1: Vec3, p2: Vec3, p3: Vec3) => {
    const base = pos.length / 3;
    pos.push(...p0, ...p1, ...p2, ...p3);
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  };
  // Box storey: three agent heights, so roofs are a walkable second layer.
  const h = 3 * cfg.walkableHeightVoxels * cfg.cellHeight;
  for (let i = 0; i < 9; i++) {
    // Boxes on a 3 × 3 lattice, of growing size, every other one turned.
    const cx = side * (0.2 + 0.3 * (i % 3));
    const cz = side * (0.2 + 0.3 * Math.floor(i / 3));
    const hs = side * (0.03 + 0.01 * i);
    const turn = (i % 2) * 0.5;
    const y0 = height(cx, cz) - 0.5;
    const c = Math.cos(turn);
    const s = Math.sin(turn);
    const at = (dx: number, y: number, dz: number): Vec3 => [
      cx + dx * c - dz * s,
      y,
      cz + dx * s + dz * c,
    ];
    const y1 = y0 + h * (1 + (i % 3));
    const b = [at(-hs, y0, -hs), at(-hs, y0, hs), at(hs, y0, hs), at(hs, y0, -hs)] as const;
    const t = [at(-hs, y1, -hs), at(-hs, y1, hs), at(hs, y1, hs), at(hs, y1, -hs)] as const;
    quad(t[0], t[1], t[2], t[3]);
    for (let k = 0; k < 4; k++) {
      const j = (k + 1) % 4;
      quad(b[j]!, t[j]!, t[k]!, b[k]!);
    }
    if (i === 4) {
      // A ramp from the ground up to this box's roof.
      const x0 = cx - hs - side * 0.15;
      const w = hs * 0.8;
      quad(
        [x0, height(x0, cz), cz - w],
        [x0, height(x0, cz), cz + w],
        [cx - hs, y1, cz + w],
        [cx - hs, y1, cz - w],
      );
    }
  }
  const mesh: TriangleMesh = {
    positions: Float32Array.from(pos),
    indices: Uint32Array.from(idx),
    vertexCount: pos.length / 3,
    triangleCount: idx.length / 3,
  };
  let ymin = Number.POSITIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  for (let i = 1; i < mesh.positions.length; i += 3) {
    ymin = Math.min(ymin, mesh.positions[i]!);
    ymax = Math.max(ymax, mesh.positions[i]!);
  }
  const grid = createTileGrid([0, ymin, 0], [side, ymax, side], cfg);
  const bins = binTriangles(mesh, grid, (cfg.borderSizeVoxels + 1) * cfg.cellSize);
  return {
    positions: mesh.positions,
    indices: mesh.indices,
    triAreas: markWalkableTriangles(mesh, cfg.walkableSlopeDegrees).areas,
    binOffsets: bins.offsets,
    binTriangles: bins.triangles,
    binPad: bins.pad,
    grid,
    config: cfg,
    areaVolumes: [],
  };
}

/** The warm-up scene's tiles, as job coordinates (tx, tz). */
export function warmUpJobs(setup: TileBuildSetup): Int32Array {
  const jobs: number[] = [];
  for (let tz = 0; tz < setup.grid.tilesZ; tz++) {
    for (let tx = 0; tx < setup.grid.tilesX; tx++) jobs.push(tx, tz);
  }
  return Int32Array.from(jobs);
}
