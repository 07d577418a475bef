// Types of sample-points.js (seeded navmesh sample points shared by the query bench and tests).

/** The parts of a navmesh tile that pointInPoly reads (meshway's NavMeshTile has them). */
export interface SampledTile {
  maxVertsPerPoly: number;
  polyVertCount: ArrayLike<number>;
  polyVerts: ArrayLike<number>;
  vertices: ArrayLike<number>;
}

export function pointInPoly(
  tile: SampledTile,
  poly: number,
  rand: () => number,
): [number, number, number];

/** The parts of a navmesh and query that polygonPointSampler reads. */
export interface SampledNavMesh {
  slots: ArrayLike<unknown>;
  tileInSlot(slot: number): (SampledTile & { polyCount: number }) | null;
  polyRef(slot: number, poly: number): number;
}

export function polygonPointSampler(
  navMesh: SampledNavMesh,
  query: { getPolyHeight(ref: number, p: ArrayLike<number>): number },
  rand: () => number,
): () => { p: number[]; slot: number; poly: number };

export function searchNodeLimit(polyCount: number): number;
