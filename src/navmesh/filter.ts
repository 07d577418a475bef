/**
 * Which polygons a query may cross and what crossing costs: a polygon passes when
 * (flags & includeFlags) !== 0 and (flags & excludeFlags) === 0; moving a distance d inside
 * a polygon of area a costs d * areaCost[a]. Off-mesh connections with their own cost use it.
 */
export class QueryFilter {
  includeFlags = 0xffff;
  excludeFlags = 0;
  /** Cost multiplier per area id (0..63); default 1. */
  readonly areaCost = new Float64Array(64).fill(1);

  passes(flags: number): boolean {
    return (flags & this.includeFlags) !== 0 && (flags & this.excludeFlags) === 0;
  }

  setAreaCost(area: number, cost: number): this {
    this.areaCost[area] = cost;
    return this;
  }
}
