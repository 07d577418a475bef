import type { CompactHeightfield, DistanceField, Heightfield, Regions } from "../generate/types.js";
import { BORDER_REGION, NULL_AREA } from "../generate/types.js";
import { areaColour, type Colour, idColour } from "../navmesh/palette.js";
import { type DebugPrimitive, PrimitiveBuilder } from "./primitive.js";
import { appendBox, quad } from "./shapes.js";

const SOLID: Colour = [255, 255, 255, 255];
const UNWALKABLE: Colour = [64, 64, 64, 255];
const NO_REGION: Colour = [0, 0, 0, 80];

/**
 * Every solid span of a heightfield as a box (12 triangles): one colour (`"solid"`, Recast's
 * duDebugDrawHeightfieldSolid) or by area id, unwalkable dark (`"walkable"`,
 * duDebugDrawHeightfieldWalkable).
 */
export function drawHeightfield(
  hf: Heightfield,
  mode: "solid" | "walkable" = "walkable",
): DebugPrimitive[] {
  const b = new PrimitiveBuilder("triangles");
  const { width, depth, cellSize: cs, cellHeight: ch, bmin, columnHead, spans, spanArea } = hf;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const fx = bmin[0] + x * cs;
      const fz = bmin[2] + z * cs;
      for (let s = columnHead[x + z * width]!; s !== -1; s = spans[s * 2 + 1]!) {
        const packed = spans[s * 2]!;
        const bottom = packed & 0xffff;
        const top = packed >>> 16;
        const area = spanArea[s]!;
        const c = mode === "solid" ? SOLID : area === NULL_AREA ? UNWALKABLE : areaColour(area);
        appendBox(b, fx, bmin[1] + bottom * ch, fz, fx + cs, bmin[1] + top * ch, fz + cs, c);
      }
    }
  }
  return b.count > 0 ? [b.finish()] : [];
}

/**
 * One quad (2 triangles) per open span of a compact heightfield at its floor, coloured by
 * area (`"areas"`), region (`"regions"`, needs `regions`) or distance to the border
 * (`"distance"`, needs `distanceField`; brighter is farther) — Recast's
 * duDebugDrawCompactHeightfieldSolid / Regions / Distance.
 */
export function drawCompactHeightfield(
  chf: CompactHeightfield,
  options: {
    mode?: "areas" | "regions" | "distance";
    regions?: Regions | null;
    distanceField?: DistanceField | null;
  } = {},
): DebugPrimitive[] {
  const mode = options.mode ?? "areas";
  const regions = options.regions ?? null;
  const df = options.distanceField ?? null;
  if (mode === "regions" && regions === null) return [];
  if (mode === "distance" && df === null) return [];
  const b = new PrimitiveBuilder("triangles");
  const {
    width,
    depth,
    cellSize: cs,
    cellHeight: ch,
    bmin,
    cellFirst,
    cellCount,
    spanY,
    areas,
  } = chf;
  const maxDist = df !== null && df.maxDistance > 0 ? df.maxDistance : 1;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const c0 = x + z * width;
      const fx = bmin[0] + x * cs;
      const fz = bmin[2] + z * cs;
      const first = cellFirst[c0]!;
      const end = first + cellCount[c0]!;
      for (let s = first; s < end; s++) {
        let c: Colour;
        if (mode === "regions") {
          const r = regions!.spanRegion[s]! & ~BORDER_REGION;
          c = r === 0 ? NO_REGION : idColour(r);
        } else if (mode === "distance") {
          const g = Math.round((Math.min(df!.dist[s]!, maxDist) / maxDist) * 255);
          c = [g, g, g, 255];
        } else {
          const a = areas[s]!;
          c = a === NULL_AREA ? UNWALKABLE : areaColour(a);
        }
        // One cell height up, as Recast draws it, so the floor quad sits on the solid top.
        const fy = bmin[1] + (spanY[s]! + 1) * ch;
        quad(b, fx, fy, fz, fx, fy, fz + cs, fx + cs, fy, fz + cs, fx + cs, fy, fz, c);
      }
    }
  }
  return b.count > 0 ? [b.finish()] : [];
}
