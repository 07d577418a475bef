import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { NULL_AREA } from "../navmesh/areas.js";
import { bumpTileStateVersion } from "../navmesh/poly-state.js";
import { type NavMeshTile, POLY_FLAG_WALK } from "../navmesh/tile.js";
import { computeBounds } from "./grid.js";

/**
 * Game-state hooks shared by buildNavMesh, buildTiledNavMesh and createTileCache (Recast's
 * per-triangle area ids and Detour's dtTileCacheMeshProcess analogue).
 */
export interface BuildHooks {
  /**
   * Area id (0..63) per input triangle: water, road… Triangles too steep for the agent are
   * still unwalkable (area 0), as Recast's rcClearUnwalkableTriangles; area 0 marks a triangle
   * unwalkable. Default: every walkable triangle gets area 63 (WALKABLE_AREA).
   */
  triangleAreas?: Uint8Array;
  /**
   * World bounds of the build (heightfield, tile grid) instead of the input's: a fixed tile
   * grid across edits of the level; geometry outside is clipped away.
   */
  bounds?: { bmin: Vec3; bmax: Vec3 };
  /**
   * Flags of a polygon from its area id, applied to every tile built or rebuilt (the tile
   * cache's rebuilds included). Default: POLY_FLAG_WALK on every polygon. Must return
   * 0..0xffff and be pure (it is called once per polygon of each tile built).
   */
  polyFlags?: (area: number) => number;
}

function fail(where: string, what: string): never {
  throw new MeshwayError("INVALID_ARGUMENT", `${where}: ${what}`);
}

/**
 * Combines markWalkableTriangles' areas (in place) with the caller's per-triangle ids:
 * walkable triangles take the caller's id, steep ones stay 0. Returns `walkable`.
 */
export function combineTriangleAreas(
  walkable: Uint8Array,
  triangleAreas: Uint8Array | undefined,
  where: string,
): Uint8Array {
  if (triangleAreas === undefined) return walkable;
  if (!(triangleAreas instanceof Uint8Array)) fail(where, "triangleAreas must be a Uint8Array");
  if (triangleAreas.length !== walkable.length) {
    fail(
      where,
      `triangleAreas has ${triangleAreas.length} entries, the input ${walkable.length} triangles`,
    );
  }
  for (let t = 0; t < walkable.length; t++) {
    const a = triangleAreas[t]!;
    if (a > 63) fail(where, `triangleAreas[${t}] is ${a}, area ids are 0..63`);
    if (walkable[t] !== NULL_AREA) walkable[t] = a;
  }
  return walkable;
}

/** The build's bounds: the caller's (checked) or the input's. */
export function buildBounds(
  positions: Float32Array,
  bounds: BuildHooks["bounds"],
  where: string,
): { bmin: Vec3; bmax: Vec3 } {
  if (bounds === undefined) return computeBounds(positions);
  const ok = (v: unknown) =>
    Array.isArray(v) &&
    v.length === 3 &&
    v.every((c) => typeof c === "number" && Number.isFinite(c));
  if (!ok(bounds?.bmin) || !ok(bounds?.bmax)) fail(where, "bounds.bmin / bmax must be finite xyz");
  for (let k = 0; k < 3; k++) {
    if (!(bounds.bmin[k]! < bounds.bmax[k]!)) {
      fail(
        where,
        `bounds.bmin[${k}] ${bounds.bmin[k]} must be below bounds.bmax[${k}] ${bounds.bmax[k]}`,
      );
    }
  }
  return { bmin: [...bounds.bmin] as Vec3, bmax: [...bounds.bmax] as Vec3 };
}

/** Checks a polyFlags hook is a function (or absent). */
export function checkPolyFlagsHook(hook: BuildHooks["polyFlags"], where: string): void {
  if (hook !== undefined && typeof hook !== "function") fail(where, "polyFlags must be a function");
}

/**
 * Writes a freshly built (or re-used) tile's build flags: hook(area) per polygon, or
 * POLY_FLAG_WALK without a hook. Throws naming the area when the hook returns a bad value.
 */
export function applyBuildFlags(tile: NavMeshTile, hook: BuildHooks["polyFlags"]): void {
  let changed = false;
  for (let p = 0; p < tile.polyCount; p++) {
    let f = POLY_FLAG_WALK;
    if (hook !== undefined) {
      const area = tile.polyAreas[p]!;
      f = hook(area);
      if (!Number.isInteger(f) || f < 0 || f > 0xffff) {
        fail("polyFlags hook", `returned ${String(f)} for area ${area}; flags are 0..0xffff`);
      }
    }
    if (tile.polyFlags[p] !== f) {
      tile.polyFlags[p] = f;
      changed = true;
    }
  }
  // A re-used tile object may have cached flag-derived data (topology): version it.
  if (changed) bumpTileStateVersion(tile);
}
