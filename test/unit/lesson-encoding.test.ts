import { describe, expect, it } from "vitest";
import { forEachDigitPixel } from "../../src/lesson/glyphs.js";
import { runLesson } from "../../src/lesson/index.js";
import { insideDepth } from "../../src/lesson/label-place.js";
import { LESSON_COLOURS, placePolygonIds, renderLessonSection } from "../../src/lesson/pictures.js";

// WCAG relative luminance and contrast ratio of sRGB colours.
const channel = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = (c: readonly number[]) =>
  0.2126 * channel(c[0]!) + 0.7152 * channel(c[1]!) + 0.0722 * channel(c[2]!);
const contrast = (a: readonly number[], b: readonly number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** `top` at alpha a (0..255) over `under`. */
const over = (top: readonly number[], a: number, under: readonly number[]) =>
  [0, 1, 2].map((k) => Math.round((top[k]! * a + under[k]! * (255 - a)) / 255));

describe("the pictures' visual encoding (issue 16)", () => {
  it("removed cells are ≥ 3:1 darker than walkable ones, hatch included", () => {
    const { walkable, removed, removedHatch } = LESSON_COLOURS;
    expect(contrast(walkable, removed)).toBeGreaterThanOrEqual(3);
    // The hatch covers one pixel in four: the cell's mean colour too.
    const mean = [0, 1, 2].map((k) => (removed[k]! * 3 + removedHatch[k]!) / 4);
    expect(contrast(walkable, mean)).toBeGreaterThanOrEqual(3);
  });

  it("every path colour is ≥ 3:1 against every polygon fill it crosses, and its white casing", () => {
    const { walkable, palette, paths } = LESSON_COLOURS;
    for (const [name, colour] of Object.entries(paths)) {
      for (const fill of palette) {
        // Section 4's highlighted polygons are drawn at alpha 210 over the cells.
        const under = over(fill, 210, walkable);
        expect(contrast(colour, under), `${name} over ${fill.join(",")}`).toBeGreaterThanOrEqual(3);
      }
      expect(contrast(colour, [255, 255, 255]), name).toBeGreaterThanOrEqual(3);
    }
    // The funnel runs on the point-dropping band: ≥ 3:1 there too.
    expect(contrast(paths.funnel, paths.dropped)).toBeGreaterThanOrEqual(3);
    // The exact path's dashes run along the funnel where the two coincide.
    expect(contrast(paths.exact, paths.funnel)).toBeGreaterThanOrEqual(3);
  });

  it("the highlighted polygons' outline is ≥ 3:1 against the faded polygons beside them", () => {
    const { walkable, palette, sequenceOutline } = LESSON_COLOURS;
    for (const fill of palette) {
      const faded = over(fill, Math.round(210 * 0.35), walkable);
      expect(contrast(sequenceOutline, faded)).toBeGreaterThanOrEqual(3);
    }
  });

  it("section 2 draws the hatch: both removed colours appear at r = 0.75", () => {
    const img = renderLessonSection(runLesson({ radius: 0.75 }), 2);
    const has = (c: readonly number[]) => {
      for (let p = 0; p < img.data.length; p += 4)
        if (img.data[p] === c[0] && img.data[p + 1] === c[1] && img.data[p + 2] === c[2])
          return true;
      return false;
    };
    expect(has(LESSON_COLOURS.removed)).toBe(true);
    expect(has(LESSON_COLOURS.removedHatch)).toBe(true);
  });

  it("section 3 draws every polygon's id, as section 4 draws the sequence's", () => {
    for (const method of ["simple", "meshway"] as const) {
      const result = runLesson({ radius: 0.75, method });
      const img = renderLessonSection(result, 3);
      const t = LESSON_COLOURS.idText;
      let drawn = 0;
      for (let p = 0; p < img.data.length; p += 4)
        if (img.data[p] === t[0] && img.data[p + 1] === t[1] && img.data[p + 2] === t[2]) drawn++;
      // Every digit pixel of every id "0".."n−1" at its placed scale, and nothing else in that colour.
      const ids = result.partition.current.polygons.map((_, p) => p);
      const placed = placePolygonIds(result, ids);
      expect(placed.map((l) => l.id)).toEqual(ids);
      let expected = 0;
      for (const l of placed) forEachDigitPixel(String(l.id), 0, 0, l.scale, () => expected++);
      expect(drawn, method).toBe(expected);
    }
  });

  it("every polygon id's box lies inside its polygon, or beside it with a leader line (thin triangles)", () => {
    for (const radius of [0.5, 0.75, 1.3]) {
      for (const method of ["simple", "meshway"] as const) {
        const result = runLesson({ radius, method });
        const polys = result.partition.current.polygons;
        for (const l of placePolygonIds(
          result,
          polys.map((_, p) => p),
        )) {
          if (l.leaderTo) continue;
          const ring = polys[l.id]!;
          const { x, y, w, h } = l.box;
          for (const [px, py] of [
            [x, y],
            [x + w, y],
            [x, y + h],
            [x + w, y + h],
          ] as const) {
            expect(
              insideDepth(ring, px / 20, py / 20),
              `${method} r ${radius} id ${l.id}`,
            ).toBeGreaterThanOrEqual(-1e-9);
          }
        }
      }
    }
  });
});
