import { BORDER_VERTEX, CONTOUR_REG_MASK, type ContourSet } from "../generate/types.js";
import { type Colour, idColour } from "../navmesh/palette.js";
import { type DebugPrimitive, finishAll, PrimitiveBuilder, shade } from "./primitive.js";

const BORDER_POINT: Colour = [255, 255, 255, 255];

/**
 * Region outlines as closed line loops, one colour per region, plus their vertices as points
 * (vertices on the tile border white): the simplified `verts` by default, `raw: true` for the
 * traced `rawVerts` (Recast's duDebugDrawContours / duDebugDrawRawContours).
 */
export function drawContours(cset: ContourSet, options: { raw?: boolean } = {}): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 2);
  const points = new PrimitiveBuilder("points", 4);
  const { bmin, cellSize: cs, cellHeight: ch } = cset;
  for (const cont of cset.contours) {
    const v = options.raw === true ? cont.rawVerts : cont.verts;
    const n = v.length >> 2;
    if (n < 2) continue;
    const c = idColour(cont.region);
    const dark = shade(c, 0.6);
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      lines.segment(
        bmin[0] + v[i * 4]! * cs,
        bmin[1] + (v[i * 4 + 1]! + 1) * ch,
        bmin[2] + v[i * 4 + 2]! * cs,
        bmin[0] + v[j * 4]! * cs,
        bmin[1] + (v[j * 4 + 1]! + 1) * ch,
        bmin[2] + v[j * 4 + 2]! * cs,
        c,
      );
      points.vertex(
        bmin[0] + v[i * 4]! * cs,
        bmin[1] + (v[i * 4 + 1]! + 1) * ch,
        bmin[2] + v[i * 4 + 2]! * cs,
        (v[i * 4 + 3]! & BORDER_VERTEX) !== 0 ? BORDER_POINT : dark,
      );
    }
  }
  return finishAll(lines, points);
}

/**
 * Region adjacency: a segment from each contour's centre to the centre of every region it
 * borders (once per pair), and the centres as points (duDebugDrawRegionConnections).
 */
export function drawRegionConnections(cset: ContourSet): DebugPrimitive[] {
  const lines = new PrimitiveBuilder("lines", 2);
  const points = new PrimitiveBuilder("points", 6);
  const { bmin, cellSize: cs, cellHeight: ch } = cset;
  const n = cset.contours.length;
  const centre = new Float64Array(n * 3);
  const byRegion = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const v = cset.contours[i]!.verts;
    const k = v.length >> 2;
    if (k === 0) continue;
    let x = 0;
    let y = 0;
    let z = 0;
    for (let j = 0; j < k; j++) {
      x += v[j * 4]!;
      y += v[j * 4 + 1]!;
      z += v[j * 4 + 2]!;
    }
    centre[i * 3] = bmin[0] + (x / k) * cs;
    centre[i * 3 + 1] = bmin[1] + (y / k + 1) * ch;
    centre[i * 3 + 2] = bmin[2] + (z / k) * cs;
    byRegion.set(cset.contours[i]!.region, i);
  }
  for (let i = 0; i < n; i++) {
    const cont = cset.contours[i]!;
    const v = cont.verts;
    const k = v.length >> 2;
    if (k === 0) continue;
    const seen = new Set<number>();
    for (let j = 0; j < k; j++) {
      const other = v[j * 4 + 3]! & CONTOUR_REG_MASK;
      if (other === 0 || other <= cont.region || seen.has(other)) continue;
      seen.add(other);
      const o = byRegion.get(other);
      if (o === undefined) continue;
      lines.segment(
        centre[i * 3]!,
        centre[i * 3 + 1]!,
        centre[i * 3 + 2]!,
        centre[o * 3]!,
        centre[o * 3 + 1]!,
        centre[o * 3 + 2]!,
        [0, 0, 0, 196],
      );
    }
    points.vertex(centre[i * 3]!, centre[i * 3 + 1]!, centre[i * 3 + 2]!, idColour(cont.region));
  }
  return finishAll(lines, points);
}
