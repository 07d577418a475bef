import type { NavMesh } from "../navmesh/nav-mesh.js";
import type { NavMeshColourBy } from "./colour-by.js";
import { tilePolygonColours } from "./colour-by.js";
import { checkColourBy, polyUsesDetail } from "./navmesh.js";

export interface NavMeshGeometryOptions {
  /** Use each polygon's detail triangles (true, default: follows the ground) or fan its vertices. */
  detail?: boolean;
  /** Vertex colours: "polygon" (default; neighbours differ, as in the PNGs), "area", "flags", "tile". */
  colourBy?: NavMeshColourBy;
}

/** An indexed triangle mesh of the navmesh surface, ready for any engine's vertex buffers. */
export interface NavMeshGeometry {
  /** 3 floats per vertex, world units. */
  positions: Float32Array;
  /** 3 per triangle, counter-clockwise seen from above (cross(b − a, c − a).y > 0). */
  indices: Uint32Array;
  /** 4 floats per vertex: red, green, blue, alpha in 0..1 (alpha 1). */
  colours: Float32Array;
  /** The polygon reference each triangle belongs to (for picking). */
  triangleRefs: Float64Array;
}

/**
 * The navmesh's ground polygons as one indexed triangle mesh. Every polygon gets its own
 * vertices (a polygon has one colour, and neighbours differ), so vertices are not shared
 * across polygons; within a polygon they are. Off-mesh connections are not part of it.
 */
export function navMeshGeometry(
  navMesh: NavMesh,
  options: NavMeshGeometryOptions = {},
): NavMeshGeometry {
  const colourBy = checkColourBy(options.colourBy, "navMeshGeometry");
  const detail = options.detail !== false;
  const tiles = navMesh.tiles;
  let vertexTotal = 0;
  let triangleTotal = 0;
  for (const tile of tiles) {
    for (let p = 0; p < tile.polyCount; p++) {
      if (polyUsesDetail(tile, p, detail)) {
        vertexTotal += tile.detailMeshes[p * 4 + 1]!;
        triangleTotal += tile.detailMeshes[p * 4 + 3]!;
      } else {
        const nv = tile.polyVertCount[p]!;
        vertexTotal += nv;
        triangleTotal += Math.max(0, nv - 2);
      }
    }
  }
  const positions = new Float32Array(vertexTotal * 3);
  const colours = new Float32Array(vertexTotal * 4);
  const indices = new Uint32Array(triangleTotal * 3);
  const triangleRefs = new Float64Array(triangleTotal);
  let vo = 0;
  let to = 0;
  // Live tiles in slot order: `ti` counts them as navMesh.tiles does (the colour seed).
  const slotCount = navMesh.slots.length;
  for (let slot = 0, ti = 0; slot < slotCount; slot++) {
    const tile = navMesh.tileInSlot(slot);
    if (tile === null) continue;
    const tileRef = navMesh.polyRef(slot, 0);
    const cols = tilePolygonColours(tile, ti, colourBy);
    const nvp = tile.maxVertsPerPoly;
    for (let p = 0; p < tile.polyCount; p++) {
      const base = vo;
      const ref = tileRef + p;
      const c = cols[p]!;
      if (polyUsesDetail(tile, p, detail)) {
        const dm = tile.detailMeshes;
        const vb = dm[p * 4]!;
        const vc = dm[p * 4 + 1]!;
        const tb = dm[p * 4 + 2]!;
        const tc = dm[p * 4 + 3]!;
        positions.set(tile.detailVertices.subarray(vb * 3, (vb + vc) * 3), vo * 3);
        vo += vc;
        const t = tile.detailTriangles;
        for (let k = 0; k < tc; k++) {
          const o = (tb + k) * 4;
          indices[to * 3] = base + t[o]!;
          indices[to * 3 + 1] = base + t[o + 1]!;
          indices[to * 3 + 2] = base + t[o + 2]!;
          triangleRefs[to++] = ref;
        }
      } else {
        const nv = tile.polyVertCount[p]!;
        for (let j = 0; j < nv; j++) {
          const k = tile.polyVerts[p * nvp + j]! * 3;
          positions[vo * 3] = tile.vertices[k]!;
          positions[vo * 3 + 1] = tile.vertices[k + 1]!;
          positions[vo * 3 + 2] = tile.vertices[k + 2]!;
          vo++;
        }
        for (let j = 2; j < nv; j++) {
          indices[to * 3] = base;
          indices[to * 3 + 1] = base + j - 1;
          indices[to * 3 + 2] = base + j;
          triangleRefs[to++] = ref;
        }
      }
      for (let v = base; v < vo; v++) {
        colours[v * 4] = c[0] / 255;
        colours[v * 4 + 1] = c[1] / 255;
        colours[v * 4 + 2] = c[2] / 255;
        colours[v * 4 + 3] = 1;
      }
    }
    ti++;
  }
  return { positions, indices, colours, triangleRefs };
}
