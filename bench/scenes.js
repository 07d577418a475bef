// Bench inputs: the shared Recast demo meshes and a seeded large generated scene.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32, parseObj } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));

export const SHARED_MESHES = ["nav_test", "dungeon", "undulating"];

export function loadScene(name) {
  if (name === "large") return generateLargeScene();
  const file = join(here, "..", "test", "fixtures", "meshes", `${name}.obj`);
  return parseObj(readFileSync(file, "utf8"), file);
}

/**
 * ≥ 300k triangles: a 350 × 350 rolling terrain (one quad per unit), 5000 buildings (boxes,
 * some rotated) standing on it and 300 ramps up to rooftops. Seeded, so every run is identical.
 */
export function generateLargeScene(seed = 1) {
  const rand = mulberry32(seed);
  const pos = [];
  const idx = [];
  const N = 350;
  const height = (x, z) =>
    2 * Math.sin(x * 0.05) * Math.cos(z * 0.04) + 0.8 * Math.sin(x * 0.21 + z * 0.17);
  for (let z = 0; z <= N; z++) for (let x = 0; x <= N; x++) pos.push(x, height(x, z), z);
  for (let z = 0; z < N; z++) {
    for (let x = 0; x < N; x++) {
      const a = z * (N + 1) + x;
      const b = a + N + 1;
      // Up-facing: cross(v1 − v0, v2 − v0) points +Y.
      idx.push(a, b, b + 1, a, b + 1, a + 1);
    }
  }
  const quad = (p0, p1, p2, p3) => {
    const base = pos.length / 3;
    pos.push(...p0, ...p1, ...p2, ...p3);
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  };
  const box = (cx, y0, cz, sx, sy, sz, angle) => {
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const corner = (dx, y, dz) => [cx + dx * c - dz * s, y, cz + dx * s + dz * c];
    const hx = sx / 2;
    const hz = sz / 2;
    const y1 = y0 + sy;
    const b = [corner(-hx, y0, -hz), corner(-hx, y0, hz), corner(hx, y0, hz), corner(hx, y0, -hz)];
    const t = [corner(-hx, y1, -hz), corner(-hx, y1, hz), corner(hx, y1, hz), corner(hx, y1, -hz)];
    quad(t[0], t[1], t[2], t[3]);
    quad(b[0], b[3], b[2], b[1]);
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      quad(b[j], t[j], t[i], b[i]);
    }
  };
  for (let i = 0; i < 5000; i++) {
    const cx = 5 + rand() * (N - 10);
    const cz = 5 + rand() * (N - 10);
    const sx = 1 + rand() * 5;
    const sz = 1 + rand() * 5;
    const sy = 1 + rand() * 6;
    const angle = rand() < 0.3 ? rand() * Math.PI : 0;
    box(cx, height(cx, cz) - 1, cz, sx, sy + 1, sz, angle);
  }
  for (let i = 0; i < 300; i++) {
    const x0 = 5 + rand() * (N - 20);
    const z0 = 5 + rand() * (N - 10);
    const len = 6 + rand() * 6;
    const w = 1.5 + rand() * 2;
    const y0 = height(x0, z0);
    const y1 = y0 + len * 0.5;
    quad([x0, y0, z0], [x0, y0, z0 + w], [x0 + len, y1, z0 + w], [x0 + len, y1, z0]);
  }
  return {
    positions: Float32Array.from(pos),
    indices: Uint32Array.from(idx),
    vertexCount: pos.length / 3,
    triangleCount: idx.length / 3,
  };
}
