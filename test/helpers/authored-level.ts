import type { AuthoredPolygons } from "../../src/generate/from-polygons.js";

/**
 * A Blender-style authored navmesh, built in code: every face has its own copies of its
 * corners (as exporters with split normals write them), nudged by up to 1 mm; a concave L
 * floor whose right edge is split by two neighbour faces (a T-junction); a ramp; and three
 * islands, one of them wound clockwise.
 */
export function authoredLevel(): AuthoredPolygons {
  const vertices: number[] = [];
  const polygons: number[][] = [];
  let jitter = 0;
  const face = (pts: [number, number, number][]) => {
    const f: number[] = [];
    for (const [x, y, z] of pts) {
      jitter = (jitter + 1) % 3;
      const d = (jitter - 1) * 0.0008;
      f.push(vertices.length / 3);
      vertices.push(x + d, y, z - d);
    }
    polygons.push(f);
  };
  // Island A: concave L (one face) and two faces meeting its x = 4 edge at z = 1 (T-junction).
  face([
    [0, 0, 0],
    [0, 0, 4],
    [2, 0, 4],
    [2, 0, 2],
    [4, 0, 2],
    [4, 0, 0],
  ]);
  face([
    [4, 0, 0],
    [4, 0, 1],
    [6, 0, 1],
    [6, 0, 0],
  ]);
  face([
    [4, 0, 1],
    [4, 0, 2],
    [6, 0, 2],
    [6, 0, 1],
  ]);
  // Island B: a floor and a ramp rising 1 over 2.
  face([
    [10, 0, 0],
    [10, 0, 2],
    [12, 0, 2],
    [12, 0, 0],
  ]);
  face([
    [12, 0, 0],
    [12, 0, 2],
    [14, 1, 2],
    [14, 1, 0],
  ]);
  // Island C: an octagon (more corners than a polygon may have), wound the other way.
  const oct: [number, number, number][] = [];
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    oct.push([20 + 1.5 * Math.cos(a), 0.5, 1 + 1.5 * Math.sin(a)]);
  }
  face(oct);
  return { vertices, polygons, areas: polygons.map((_, i) => (i === 4 ? 5 : 63)) };
}
