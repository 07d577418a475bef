import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { checkRefArgument, OFF_MESH_SLOT, type PolyRef, tileOfRef } from "../navmesh/poly-ref.js";

/**
 * Argument checks of the queries' public entry points, one copy each (DESIGN.md "Errors and
 * statuses": programmer errors throw MeshwayError("INVALID_ARGUMENT") naming the argument;
 * run-time conditions such as stale refs become statuses). `name` is the argument as the
 * caller knows it, e.g. "raycast start".
 */

/** Area ids a filter must price (navmesh areas are 0..63). */
const AREA_COUNT = 64;

/**
 * Largest node limit a search accepts: NodePool and NodeQueue index nodes with Int32Array
 * and allocate about 60 bytes per node up front, so 2^24 (about 1 GB) is the practical
 * ceiling (Detour's pool is capped at 65535 nodes by its 16-bit indices).
 */
export const MAX_QUERY_NODES = 2 ** 24;

/** Throws unless `p` holds three finite numbers (a null or short `p` is refused too). */
export function checkPoint(p: ArrayLike<number>, name: string): void {
  // Optional chaining: a null or undefined point is refused like a non-finite one.
  checkCoords(p?.[0], p?.[1], p?.[2], name);
}

/**
 * {@link checkPoint} on coordinates the caller read itself (`p?.[i]`): a hot query reads its
 * points once, at its own sites, instead of through this function shared by every query.
 */
export function checkCoords(
  x: number | undefined,
  y: number | undefined,
  z: number | undefined,
  name: string,
): void {
  if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name} [${x}, ${y}, ${z}] is not finite: it must be three finite numbers`,
    );
  }
}

/** Throws unless `e` holds three finite numbers >= 0 (a search box's half size). */
export function checkHalfExtents(e: ArrayLike<number>, name: string): void {
  checkPoint(e, name);
  if (e[0]! < 0 || e[1]! < 0 || e[2]! < 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name} [${e[0]}, ${e[1]}, ${e[2]}] must not be negative`,
    );
  }
}

/** Throws unless `r` is a finite number >= 0. */
export function checkRadius(r: number, name: string): void {
  if (!Number.isFinite(r) || r < 0) {
    throw new MeshwayError("INVALID_ARGUMENT", `${name} must be a finite number >= 0, got ${r}`);
  }
}

/**
 * Checks a query's ref argument (classifyRef): true when live, false when stale (tile
 * removed or replaced: the query reports "invalidRef"); throws when it is malformed, or an
 * off-mesh connection where `groundOnly`.
 */
export function checkRef(
  navMesh: NavMesh,
  ref: PolyRef,
  name: string,
  groundOnly: boolean,
): boolean {
  const live = checkRefArgument(navMesh, ref, name);
  if (groundOnly && tileOfRef(ref) === OFF_MESH_SLOT) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name} ${ref} is an off-mesh connection; this query starts on a ground polygon`,
    );
  }
  return live;
}

/**
 * Throws unless `filter` looks like a QueryFilter whose passFilter/getCost, when set, are
 * functions and whose 64 area costs are all >= 0 (Infinity allowed: it makes an area
 * unreachable). A NaN or negative cost would let a graph search lower a node's cost forever
 * and never finish; a short cost table reads NaN.
 */
export function checkFilter(filter: QueryFilter, name: string): void {
  checkFilterShape(filter, name);
  checkAreaCosts(filter, name);
}

/**
 * The part of {@link checkFilter} without the 64 area costs: for queries that never read a
 * cost (raycast without useCosts), where the cost loop was a fifth of the call.
 */
export function checkFilterShape(filter: QueryFilter, name: string): void {
  if (
    filter == null ||
    typeof filter.includeFlags !== "number" ||
    typeof filter.excludeFlags !== "number" ||
    filter.areaCost == null ||
    !(filter.areaCost.length >= AREA_COUNT)
  ) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name}: filter must be a QueryFilter (include/exclude flags and 64 area costs)`,
    );
  }
  // Two plain reads (no array, no loop): this runs once per query.
  const pass: unknown = filter.passFilter;
  const cost: unknown = filter.getCost;
  if (
    (pass != null && typeof pass !== "function") ||
    (cost != null && typeof cost !== "function")
  ) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name}: filter.passFilter and filter.getCost must be functions or undefined`,
    );
  }
}

/** Throws unless the filter's 64 area costs are all >= 0 (see {@link checkFilter}). */
export function checkAreaCosts(filter: QueryFilter, name: string): void {
  const costs = filter.areaCost;
  for (let a = 0; a < AREA_COUNT; a++) {
    if (!(costs[a]! >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `${name}: filter cost of area ${a} is ${costs[a]}; costs must be >= 0 (Infinity blocks the area)`,
      );
    }
  }
}

/** Throws unless `n` is an integer in [1, MAX_QUERY_NODES] (`max` for a larger limit). */
export function checkMaxNodes(n: number, name: string, max = MAX_QUERY_NODES): void {
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${name} ${n} must be an integer in [1, 2^${Math.log2(max)}]`,
    );
  }
}
