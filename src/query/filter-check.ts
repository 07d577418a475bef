import { MeshwayError } from "../errors.js";
import type { QueryFilter } from "../navmesh/filter.js";

/** Area ids a filter must price (navmesh areas are 0..63). */
const AREA_COUNT = 64;

/**
 * Throws INVALID_ARGUMENT unless `filter` looks like a QueryFilter whose 64 area costs are all
 * >= 0 (Infinity allowed: it makes an area unreachable). A NaN or negative cost would let a
 * graph search lower a node's cost forever and never finish; a short cost table reads NaN.
 */
export function checkFilterCosts(filter: QueryFilter, what: string): void {
  if (
    filter == null ||
    typeof filter.includeFlags !== "number" ||
    typeof filter.excludeFlags !== "number" ||
    filter.areaCost == null ||
    !(filter.areaCost.length >= AREA_COUNT)
  ) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${what}: filter must be a QueryFilter (include/exclude flags and 64 area costs)`,
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
      `${what}: filter.passFilter and filter.getCost must be functions or undefined`,
    );
  }
  const costs = filter.areaCost;
  for (let a = 0; a < AREA_COUNT; a++) {
    if (!(costs[a]! >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `${what}: filter cost of area ${a} is ${costs[a]}; costs must be >= 0 (Infinity blocks the area)`,
      );
    }
  }
}
