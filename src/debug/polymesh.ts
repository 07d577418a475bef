import {
  MESH_NULL_INDEX,
  PORTAL_FLAG,
  type PolyMesh,
  type PolyMeshDetail,
} from "../generate/types.js";
import {
  areaColour,
  INNER_EDGE_COLOUR,
  idColour,
  PORTAL_COLOUR,
  WALL_COLOUR,
} from "../navmesh/palette.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder, withAlpha } from "./primitive.js";

/**
 * The polygon mesh (voxel coordinates → world): polygons fanned into triangles coloured by
 * area, shared edges thin, walls dark, tile-border edges in the portal colour, vertices as
 * points (Recast's duDebugDrawPolyMesh).
 */
export function drawPolyMesh(mesh: PolyMesh): DebugPrimitive[] {
  const tris = new PrimitiveBuilder("triangles");
  const inner = new PrimitiveBuilder("lines", 1.5);
  const outer = new PrimitiveBuilder("lines", 2.5);
  const points = new PrimitiveBuilder("points", 3);
  const { bmin, cellSize: cs, cellHeight: ch, maxVertsPerPoly: nvp, verts, polys } = mesh;
  const wx = (v: number) => bmin[0] + verts[v * 3]! * cs;
  const wy = (v: number) => bmin[1] + (verts[v * 3 + 1]! + 1) * ch;
  const wz = (v: number) => bmin[2] + verts[v * 3 + 2]! * cs;
  for (let p = 0; p < mesh.polyCount; p++) {
    const base = p * 2 * nvp;
    let nv = 0;
    while (nv < nvp && polys[base + nv]! !== MESH_NULL_INDEX) nv++;
    const c = withAlpha(areaColour(mesh.areas[p]!), 160);
    const v0 = polys[base]!;
    for (let j = 2; j < nv; j++) {
      const a = polys[base + j - 1]!;
      const b = polys[base + j]!;
      tris.vertex(wx(v0), wy(v0), wz(v0), c);
      tris.vertex(wx(a), wy(a), wz(a), c);
      tris.vertex(wx(b), wy(b), wz(b), c);
    }
    for (let j = 0; j < nv; j++) {
      const nb = polys[base + nvp + j]!;
      const a = polys[base + j]!;
      const b = polys[base + ((j + 1) % nv)]!;
      if (nb === MESH_NULL_INDEX) {
        outer.segment(wx(a), wy(a), wz(a), wx(b), wy(b), wz(b), WALL_COLOUR);
      } else if ((nb & PORTAL_FLAG) !== 0) {
        outer.segment(wx(a), wy(a), wz(a), wx(b), wy(b), wz(b), PORTAL_COLOUR);
      } else if (nb > p) {
        inner.segment(wx(a), wy(a), wz(a), wx(b), wy(b), wz(b), INNER_EDGE_COLOUR);
      }
    }
  }
  for (let v = 0; v < mesh.vertCount; v++) points.vertex(wx(v), wy(v), wz(v), [0, 0, 0, 220]);
  return finishAll(tris, inner, outer, points);
}

/**
 * The detail mesh: each polygon's triangles in its own colour, polygon-boundary edges (the
 * detail edge flags) dark, vertices as points (duDebugDrawPolyMeshDetail).
 */
export function drawPolyMeshDetail(dmesh: PolyMeshDetail): DebugPrimitive[] {
  const tris = new PrimitiveBuilder("triangles");
  const edges = new PrimitiveBuilder("lines", 1.5);
  const points = new PrimitiveBuilder("points", 3);
  const { meshes, verts, tris: t } = dmesh;
  for (let m = 0; m < dmesh.meshCount; m++) {
    const vb = meshes[m * 4]!;
    const vc = meshes[m * 4 + 1]!;
    const tb = meshes[m * 4 + 2]!;
    const tc = meshes[m * 4 + 3]!;
    const c = withAlpha(idColour(m), 192);
    for (let k = 0; k < tc; k++) {
      const o = (tb + k) * 4;
      for (let e = 0; e < 3; e++) {
        const v = (vb + t[o + e]!) * 3;
        tris.vertex(verts[v]!, verts[v + 1]!, verts[v + 2]!, c);
      }
      const flags = t[o + 3]!;
      for (let e = 0; e < 3; e++) {
        if (((flags >> (e * 2)) & 3) === 0) continue;
        const a = (vb + t[o + e]!) * 3;
        const b = (vb + t[o + ((e + 1) % 3)]!) * 3;
        edges.segment(
          verts[a]!,
          verts[a + 1]!,
          verts[a + 2]!,
          verts[b]!,
          verts[b + 1]!,
          verts[b + 2]!,
          WALL_COLOUR,
        );
      }
    }
    for (let k = 0; k < vc; k++) {
      const v = (vb + k) * 3;
      points.vertex(verts[v]!, verts[v + 1]!, verts[v + 2]!, [0, 0, 0, 160]);
    }
  }
  return finishAll(tris, edges, points);
}
