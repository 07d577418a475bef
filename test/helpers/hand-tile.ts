import { buildTileBVTree } from "../../src/navmesh/bvtree.js";
import { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../src/navmesh/tile.js";

/** A tile written out by hand: vertices and polygons; links, detail fans and BV tree derived. */
export interface HandTile {
  /** xyz triples. */
  verts: number[];
  /** Vertex indices per polygon, wound like the build (polygonAreaXZ < 0). */
  polys: number[][];
  tileX?: number;
  tileZ?: number;
  /** Tile bounds; edges lying on bmin/bmax x or z become tile-border edges. */
  bmin?: [number, number, number];
  bmax?: [number, number, number];
  areas?: number[];
  flags?: number[];
  nvp?: number;
}

/** Builds a NavMeshTile from a HandTile (neighbours by shared reversed edges, borders by bounds). */
export function handTile(h: HandTile): NavMeshTile {
  const nvp = h.nvp ?? 6;
  const v = h.verts;
  const xs = v.filter((_, i) => i % 3 === 0);
  const ys = v.filter((_, i) => i % 3 === 1);
  const zs = v.filter((_, i) => i % 3 === 2);
  const bmin = h.bmin ?? [Math.min(...xs), Math.min(...ys), Math.min(...zs)];
  const bmax = h.bmax ?? [Math.max(...xs), Math.max(...ys), Math.max(...zs)];
  const pc = h.polys.length;
  const polyVerts = new Uint32Array(pc * nvp);
  const polyNeighbours = new Uint32Array(pc * nvp);
  const polyVertCount = new Uint8Array(pc);
  const detailMeshes = new Uint32Array(pc * 4);
  const dv: number[] = [];
  const dt: number[] = [];
  h.polys.forEach((poly, p) => {
    const n = poly.length;
    polyVertCount[p] = n;
    detailMeshes.set([dv.length / 3, n, dt.length / 4, n - 2], p * 4);
    for (const i of poly) dv.push(v[i * 3]!, v[i * 3 + 1]!, v[i * 3 + 2]!);
    // Fan (0, i - 1, i); an edge is on the boundary when its vertices are consecutive.
    const edgeFlag = (a: number, b: number) =>
      Math.abs(a - b) === 1 || Math.abs(a - b) === n - 1 ? 1 : 0;
    for (let i = 2; i < n; i++) {
      dt.push(0, i - 1, i, edgeFlag(0, i - 1) | (edgeFlag(i - 1, i) << 2) | (edgeFlag(i, 0) << 4));
    }
    for (let e = 0; e < n; e++) {
      const a = poly[e]!;
      const b = poly[(e + 1) % n]!;
      polyVerts[p * nvp + e] = a;
      let nb = EDGE_WALL;
      h.polys.forEach((other, q) => {
        for (let f = 0; f < other.length; f++) {
          if (q !== p && other[f] === b && other[(f + 1) % other.length] === a) nb = q + 1;
        }
      });
      if (nb === EDGE_WALL) {
        const [ax, , az] = [v[a * 3]!, 0, v[a * 3 + 2]!];
        const [bx, , bz] = [v[b * 3]!, 0, v[b * 3 + 2]!];
        let side = -1;
        if (ax === bmin[0] && bx === bmin[0]) side = 0;
        else if (az === bmax[2] && bz === bmax[2]) side = 1;
        else if (ax === bmax[0] && bx === bmax[0]) side = 2;
        else if (az === bmin[2] && bz === bmin[2]) side = 3;
        if (side >= 0) nb = (EDGE_TILE_BORDER | side) >>> 0;
      }
      polyNeighbours[p * nvp + e] = nb;
    }
  });
  const tile: NavMeshTile = {
    tileX: h.tileX ?? 0,
    tileZ: h.tileZ ?? 0,
    bmin,
    bmax,
    maxVertsPerPoly: nvp,
    vertexCount: v.length / 3,
    vertices: Float32Array.from(v),
    polyCount: pc,
    polyVerts,
    polyNeighbours,
    polyVertCount,
    polyAreas: Uint8Array.from(h.areas ?? h.polys.map(() => 63)),
    polyFlags: Uint16Array.from(h.flags ?? h.polys.map(() => 1)),
    detailMeshes,
    detailVertices: Float32Array.from(dv),
    detailTriangles: Uint8Array.from(dt),
    bvBounds: new Float32Array(0),
    bvIndex: new Int32Array(0),
  };
  const bv = buildTileBVTree(tile);
  tile.bvBounds = bv.bvBounds;
  tile.bvIndex = bv.bvIndex;
  return tile;
}

export function navMeshFor(
  tileWidth: number,
  tileDepth: number,
  origin: [number, number, number] = [0, 0, 0],
): NavMesh {
  return new NavMesh({
    origin,
    tileWidth,
    tileDepth,
    cellSize: 0.25,
    cellHeight: 0.125,
    maxVertsPerPoly: 6,
    agentHeight: 2,
    agentRadius: 0.5,
    agentMaxClimb: 0.5,
  });
}

/**
 * Two 2 × 2 squares side by side on y = 0 (x 0..4, z 0..2) in one tile, for a 4 × 2
 * {@link navMeshFor} navmesh: the small fixture of the .navmesh file tests.
 */
export function twoSquaresTile(extra: Pick<HandTile, "areas" | "flags"> = {}): NavMeshTile {
  return handTile({
    verts: [0, 0, 0, 0, 0, 2, 2, 0, 2, 2, 0, 0, 4, 0, 2, 4, 0, 0],
    polys: [
      [0, 1, 2, 3],
      [3, 2, 4, 5],
    ],
    ...extra,
  });
}
