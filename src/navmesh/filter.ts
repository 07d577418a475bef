import type { PolyRef } from "./poly-ref.js";
import type { NavMeshTile } from "./tile.js";

/**
 * Optional per-polygon test (navcat's filter function, Detour's DT_VIRTUAL_QUERYFILTER
 * passFilter): called only for polygons that already pass the flag masks; `tile` and `poly`
 * locate a ground polygon (`tile.polyFlags[poly]`…), `tile` is null for an off-mesh
 * connection (`poly` is then its index; ask navMesh.getPolyFlags(ref)). Must be pure: a
 * search may call it several times per polygon, in any order.
 */
export type PassFilterFn = (ref: PolyRef, tile: NavMeshTile | null, poly: number) => boolean;

/**
 * Optional step cost (Detour's getCost): the cost of moving from point `from` to point `to`
 * (xyz, world units; scratch arrays, read them during the call only) inside polygon or
 * connection `curRef`, entered from `prevRef` and left into `nextRef` (0 when none: the
 * start or the end of the walk). Replaces the area-cost table entirely, off-mesh connections'
 * own `cost` included. Must return a finite value >= 0 and be pure.
 */
export type GetCostFn = (
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  prevRef: PolyRef,
  curRef: PolyRef,
  nextRef: PolyRef,
) => number;

/**
 * Which polygons a query may cross and what crossing costs: a polygon passes when
 * (flags & includeFlags) !== 0 and (flags & excludeFlags) === 0 (and `passFilter`, when
 * set, says yes); moving a distance d inside a polygon of area a costs d * areaCost[a] (or
 * what `getCost` says, when set). Off-mesh connections with their own cost use it. The table
 * is the fast path; the callbacks are for rules a table cannot express (teams by ref, costs
 * by direction) and cost a function call per polygon visited. findShortestPath, exact only
 * for uniform costs, falls back to computePath for a filter with callbacks.
 */
export class QueryFilter {
  includeFlags = 0xffff;
  excludeFlags = 0;
  /** Cost multiplier per area id (0..63); default 1. */
  readonly areaCost = new Float64Array(64).fill(1);
  /** Extra per-polygon test, after the flag masks (see {@link PassFilterFn}). */
  passFilter: PassFilterFn | undefined = undefined;
  /** Step cost replacing the area-cost table (see {@link GetCostFn}). */
  getCost: GetCostFn | undefined = undefined;

  passes(flags: number): boolean {
    return (flags & this.includeFlags) !== 0 && (flags & this.excludeFlags) === 0;
  }

  setAreaCost(area: number, cost: number): this {
    this.areaCost[area] = cost;
    return this;
  }

  /** True when passFilter or getCost is set (queries then take their general path). */
  get hasCallbacks(): boolean {
    return this.passFilter !== undefined || this.getCost !== undefined;
  }
}
