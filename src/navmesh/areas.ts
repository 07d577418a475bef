/** Area id meaning "not walkable". Area ids are 0..63 (QueryFilter prices 64 of them). */
export const NULL_AREA = 0;
/** Default area id of walkable surface. */
export const WALKABLE_AREA = 63;
/** Number of area ids a polygon may carry: 0..MAX_AREAS - 1. */
export const MAX_AREAS = 64;
