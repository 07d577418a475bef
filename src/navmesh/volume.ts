import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import type { NavMesh } from "./nav-mesh.js";
import { markTileStateChanged } from "./poly-state.js";
import type { NavMeshTile } from "./tile.js";

/**
 * A world-space volume selecting polygons: the tile cache's obstacle shapes (an ObstacleShape
 * from src/tiles/obstacles.ts is one, structurally; defined here so navmesh/ needs no tiles/).
 */
export type PolyVolume =
  | { kind: "cylinder"; center: Vec3; radius: number; height: number }
  | { kind: "box"; min: Vec3; max: Vec3 }
  | { kind: "orientedBox"; center: Vec3; halfExtents: Vec3; yawRadians: number }
  | { kind: "prism"; points: ArrayLike<number>; minY: number; maxY: number };

function fail(what: string): never {
  throw new MeshwayError("INVALID_ARGUMENT", `setFlagsInVolume: ${what}`);
}

function finite(v: unknown, n: number): boolean {
  const a = v as ArrayLike<number> | null;
  if (a == null || a.length !== n) return false;
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

function checkVolume(v: PolyVolume): void {
  switch (v?.kind) {
    case "cylinder":
      if (!finite(v.center, 3)) fail("cylinder center must be finite xyz");
      if (!(v.radius >= 0 && v.height >= 0)) fail("cylinder radius and height must be >= 0");
      return;
    case "box":
      if (!finite(v.min, 3) || !finite(v.max, 3)) fail("box min and max must be finite xyz");
      return;
    case "orientedBox":
      if (!finite(v.center, 3) || !finite(v.halfExtents, 3) || !Number.isFinite(v.yawRadians)) {
        fail("orientedBox center, halfExtents and yawRadians must be finite");
      }
      return;
    case "prism":
      if (!v.points || v.points.length < 6 || v.points.length % 2 !== 0) {
        fail("prism points must be at least 3 [x, z] pairs");
      }
      if (!finite(v.points, v.points.length)) fail("prism points must be finite");
      if (!Number.isFinite(v.minY) || !Number.isFinite(v.maxY)) fail("prism minY/maxY not finite");
      return;
    default:
      fail(`unknown volume kind ${JSON.stringify((v as { kind?: unknown })?.kind)}`);
  }
}

/** True when the point lies in the volume (boundary included). */
export function pointInVolume(v: PolyVolume, x: number, y: number, z: number): boolean {
  switch (v.kind) {
    case "box":
      return (
        x >= v.min[0] &&
        x <= v.max[0] &&
        y >= v.min[1] &&
        y <= v.max[1] &&
        z >= v.min[2] &&
        z <= v.max[2]
      );
    case "cylinder": {
      const dx = x - v.center[0];
      const dz = z - v.center[2];
      return (
        dx * dx + dz * dz <= v.radius * v.radius && y >= v.center[1] && y <= v.center[1] + v.height
      );
    }
    case "orientedBox": {
      // Undo the yaw: local = R(-yaw) · (p - c), with SceneBuilder's rotation convention.
      const c = Math.cos(v.yawRadians);
      const s = Math.sin(v.yawRadians);
      const dx = x - v.center[0];
      const dz = z - v.center[2];
      const lx = dx * c + dz * s;
      const lz = -dx * s + dz * c;
      const h = v.halfExtents;
      return Math.abs(lx) <= h[0] && Math.abs(y - v.center[1]) <= h[1] && Math.abs(lz) <= h[2];
    }
    case "prism": {
      if (y < v.minY || y > v.maxY) return false;
      // Even-odd crossing test (the polygon is convex, so this is the inside test).
      const p = v.points;
      const n = p.length / 2;
      let inside = false;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const xi = p[i * 2]!;
        const zi = p[i * 2 + 1]!;
        const xj = p[j * 2]!;
        const zj = p[j * 2 + 1]!;
        if (zi > z !== zj > z && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) inside = !inside;
      }
      return inside;
    }
  }
}

/** Centroid (vertex average) of polygon p of `tile`, into out. */
function polyCentroid(tile: NavMeshTile, p: number, out: Float64Array): void {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[p]!;
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  for (let i = 0; i < n; i++) {
    const o = tile.polyVerts[p * nvp + i]! * 3;
    out[0] += tile.vertices[o]!;
    out[1] += tile.vertices[o + 1]!;
    out[2] += tile.vertices[o + 2]!;
  }
  out[0] /= n;
  out[1] /= n;
  out[2] /= n;
}

/**
 * For every ground polygon whose centroid (vertex average) lies in `volume`: flags =
 * (flags | setFlags) & ~clearFlags. Returns the number of polygons whose flags changed.
 * Use a volume reaching a little above and below the floor (polygon heights are the
 * build's, within a cell height or so of the surface).
 */
export function setFlagsInVolume(
  navMesh: NavMesh,
  volume: PolyVolume,
  setFlags: number,
  clearFlags: number,
): number {
  checkVolume(volume);
  for (const [name, f] of [
    ["set", setFlags],
    ["clear", clearFlags],
  ] as const) {
    if (!Number.isInteger(f) || f < 0 || f > 0xffff) fail(`${name} flags ${f} must be 0..0xffff`);
  }
  const c = new Float64Array(3);
  let changed = 0;
  for (const slot of navMesh.slots) {
    const tile = slot.tile;
    if (!tile) continue;
    let tileChanged = false;
    for (let p = 0; p < tile.polyCount; p++) {
      polyCentroid(tile, p, c);
      if (!pointInVolume(volume, c[0]!, c[1]!, c[2]!)) continue;
      const old = tile.polyFlags[p]!;
      const next = (old | setFlags) & ~clearFlags & 0xffff;
      if (next === old) continue;
      tile.polyFlags[p] = next;
      tileChanged = true;
      changed++;
    }
    if (tileChanged) markTileStateChanged(navMesh, tile);
  }
  return changed;
}
