// Types of sample-points.js (seeded navmesh sample points shared by the query bench and tests).

/** The parts of a navmesh tile that pointInPoly reads (meshway's NavMeshTile has them). */
export interface SampledTile {
  maxVertsPerPoly: number;
  polyVertCount: ArrayLike<number>;
  polyVerts: ArrayLike<number>;
  vertices: ArrayLike<number>;
}

export function pointInPoly(tile: SampledTile, poly: number, rand: () => number): number[];
