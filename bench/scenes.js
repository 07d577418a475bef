// Bench inputs: the shared Recast demo meshes and a seeded large generated scene.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32, parseObj } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));

export const SHARED_MESHES = ["nav_test", "dungeon", "undulating"];

export function loadScene(name) {
  if (name === "large") return generateLargeScene();
  if (name === "huge") return generateHugeScene();
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
  const box = (cx, y0, cz, sx, sy, sz, angle) => addBox(quad, cx, y0, cz, sx, sy, sz, angle);
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

/**
 * The tiled-build bench scene: ≥ 1M triangles over 525 × 525 world units. A rolling terrain
 * (700 × 700 quads of 0.75), 9000 buildings (boxes, some rotated), 400 ramps onto rooftops and
 * four multi-storey car parks (five 40 × 40 decks 3.5 apart, pillars, a ramp between each pair
 * of decks). Seeded; `generateLargeScene` is unchanged.
 */
export function generateHugeScene(seed = 2) {
  const rand = mulberry32(seed);
  const N = 700;
  const step = 0.75;
  const size = N * step;
  const height = (x, z) =>
    3 * Math.sin(x * 0.03) * Math.cos(z * 0.025) + 0.8 * Math.sin(x * 0.21 + z * 0.17);
  // Terrain straight into typed arrays; the rest (small) through arrays.
  const terrainVerts = (N + 1) * (N + 1);
  const extraPos = [];
  const extraIdx = [];
  const quad = (p0, p1, p2, p3) => {
    const base = terrainVerts + extraPos.length / 3;
    extraPos.push(...p0, ...p1, ...p2, ...p3);
    extraIdx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  };
  const box = (cx, y0, cz, sx, sy, sz, angle) => addBox(quad, cx, y0, cz, sx, sy, sz, angle);
  // Car parks first, so buildings can avoid them.
  const parks = [
    [100, 100],
    [400, 120],
    [130, 410],
    [380, 380],
  ];
  const inPark = (x, z) => parks.some(([px, pz]) => Math.abs(x - px) < 32 && Math.abs(z - pz) < 26);
  for (const [px, pz] of parks) {
    const y0 = height(px, pz);
    for (let level = 1; level <= 5; level++) {
      const y = y0 + level * 3.5;
      box(px, y - 0.3, pz, 40, 0.3, 40, 0);
      // Ramp from the deck below (or the ground) up to this deck, alternating sides.
      const side = level % 2 === 0 ? -1 : 1;
      const zr = pz + side * 21.5;
      const x0 = px - 18;
      quad(
        [x0, y - 3.5, zr - 2],
        [x0, y - 3.5, zr + 2],
        [x0 + 36, y, zr + 2],
        [x0 + 36, y, zr - 2],
      );
    }
    for (let i = -1; i <= 1; i++) {
      for (let k = -1; k <= 1; k++) box(px + i * 15, y0 - 1, pz + k * 15, 0.8, 5 * 3.5 + 1, 0.8, 0);
    }
  }
  for (let i = 0; i < 9000; i++) {
    const cx = 5 + rand() * (size - 10);
    const cz = 5 + rand() * (size - 10);
    const sx = 1 + rand() * 6;
    const sz = 1 + rand() * 6;
    const sy = 1 + rand() * 8;
    const angle = rand() < 0.3 ? rand() * Math.PI : 0;
    if (inPark(cx, cz)) continue;
    box(cx, height(cx, cz) - 1, cz, sx, sy + 1, sz, angle);
  }
  for (let i = 0; i < 400; i++) {
    const x0 = 5 + rand() * (size - 20);
    const z0 = 5 + rand() * (size - 10);
    if (inPark(x0, z0)) continue;
    const len = 6 + rand() * 6;
    const w = 1.5 + rand() * 2;
    const y0 = height(x0, z0);
    const y1 = y0 + len * 0.5;
    quad([x0, y0, z0], [x0, y0, z0 + w], [x0 + len, y1, z0 + w], [x0 + len, y1, z0]);
  }
  const positions = new Float32Array(terrainVerts * 3 + extraPos.length);
  let o = 0;
  for (let z = 0; z <= N; z++) {
    for (let x = 0; x <= N; x++) {
      positions[o++] = x * step;
      positions[o++] = height(x * step, z * step);
      positions[o++] = z * step;
    }
  }
  positions.set(extraPos, o);
  const indices = new Uint32Array(N * N * 6 + extraIdx.length);
  let k = 0;
  for (let z = 0; z < N; z++) {
    for (let x = 0; x < N; x++) {
      const a = z * (N + 1) + x;
      const b = a + N + 1;
      indices[k++] = a;
      indices[k++] = b;
      indices[k++] = b + 1;
      indices[k++] = a;
      indices[k++] = b + 1;
      indices[k++] = a + 1;
    }
  }
  indices.set(extraIdx, k);
  return {
    positions,
    indices,
    vertexCount: positions.length / 3,
    triangleCount: indices.length / 3,
  };
}

/**
 * A closed box (lid, bottom, four sides) of size sx × sy × sz standing at (cx, y0, cz),
 * turned by `angle` about Y, emitted as six quads through `quad` (outward-facing winding).
 */
function addBox(quad, cx, y0, cz, sx, sy, sz, angle) {
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
}
