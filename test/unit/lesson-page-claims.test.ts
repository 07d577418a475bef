import { describe, expect, it } from "vitest";
import { ringBounds } from "../../src/lesson/geometry.js";
import { hitTestLesson, lessonRadii, MESSAGES, runLesson } from "../../src/lesson/index.js";
import { buildLessonNavMesh } from "../../src/lesson/meshway-build.js";
import { LESSON_LEGEND, lessonLegend, renderLessonSection } from "../../src/lesson/pictures.js";
import { LESSON_SCENE } from "../../src/lesson/scene.js";
import { toyFilter } from "../../src/lesson/surface.js";
import { lastPathStep } from "../../src/lesson/timeline.js";
import { PAGE_MESSAGES } from "../../web/page-messages.js";

// The explainer page's prose states measured facts; these tests keep the prose and the
// measurements from drifting apart.

const surfaceAt = new Map(
  lessonRadii().map((r) => [
    r.toFixed(2),
    runLesson({ radius: r, shape: "square", method: "meshway", view: "straight" }).surface,
  ]),
);
const at = (r: string) => surfaceAt.get(r)!;
const range = (from: number, to: number) =>
  lessonRadii()
    .filter((r) => r >= from - 1e-9 && r <= to + 1e-9)
    .map((r) => r.toFixed(2));

describe("the honest-differences box (page.honest.2) matches section 2's measurements", () => {
  it("meshway removes more cells at 0.25, 0.55–0.75 and 1.05–1.25", () => {
    for (const r of ["0.25", ...range(0.55, 0.75), ...range(1.05, 1.25)])
      expect(at(r).meshway.removed, r).toBeGreaterThan(at(r).simple.removed);
  });

  it("both filters agree exactly at 0.30–0.35, 0.80–1.00 and 1.30–1.45", () => {
    for (const r of [...range(0.3, 0.35), ...range(0.8, 1.0), ...range(1.3, 1.45)]) {
      expect(at(r).meshway.removed, r).toBe(at(r).simple.removed);
      expect(at(r).differing, r).toBe(0);
    }
  });

  it("at 0.40–0.50 and 1.50 meshway keeps more, with centres closer than r (0.3536, 1.4577)", () => {
    for (const r of [...range(0.4, 0.5), "1.50"]) {
      expect(at(r).meshway.removed, r).toBeLessThan(at(r).simple.removed);
      expect(at(r).meshway.minDistance, r).toBeLessThan(Number(r));
    }
    expect(at("0.50").meshway.minDistance.toFixed(4)).toBe("0.3536");
    expect(at("1.50").meshway.minDistance.toFixed(4)).toBe("1.4577");
  });

  it("the box quotes those numbers in both languages", () => {
    for (const lang of ["zh", "en"] as const) {
      const text = PAGE_MESSAGES[lang]["page.honest.2"];
      for (const s of ["0.3536", "1.4577", "0.55–0.75", "1.05–1.25", "0.40–0.50", "2√2", "5.66"])
        expect(text, `${lang} ${s}`).toContain(s);
    }
  });
});

/**
 * An independent chamfer distance field on meshway's voxel-walkable cells, as Recast's
 * erodeWalkableArea defines it: 0 at cells missing one of their four side neighbours, then
 * straight steps `straight`, diagonal steps `diagonal` (relaxed to a fixed point).
 */
function chamfer(walkable: Uint8Array, straight: number, diagonal: number): Float64Array {
  const { cols, rows } = LESSON_SCENE;
  const at = (i: number, j: number) =>
    i >= 0 && j >= 0 && i < cols && j < rows && walkable[i + j * cols] === 1;
  const d = new Float64Array(cols * rows).fill(Number.POSITIVE_INFINITY);
  for (let j = 0; j < rows; j++)
    for (let i = 0; i < cols; i++)
      if (at(i, j) && (!at(i - 1, j) || !at(i + 1, j) || !at(i, j - 1) || !at(i, j + 1)))
        d[i + j * cols] = 0;
  const steps = [
    [-1, 0, straight],
    [1, 0, straight],
    [0, -1, straight],
    [0, 1, straight],
    [-1, -1, diagonal],
    [1, -1, diagonal],
    [-1, 1, diagonal],
    [1, 1, diagonal],
  ] as const;
  for (let changed = true; changed; ) {
    changed = false;
    for (let j = 0; j < rows; j++)
      for (let i = 0; i < cols; i++) {
        if (!at(i, j)) continue;
        let v = d[i + j * cols]!;
        for (const [di, dj, w] of steps)
          if (at(i + di, j + dj)) v = Math.min(v, d[i + di + (j + dj) * cols]! + w);
        if (v < d[i + j * cols]!) {
          d[i + j * cols] = v;
          changed = true;
        }
      }
  }
  return d;
}

describe("why meshway keeps cells the toy removes at 0.40–0.50 and 1.50 (page.honest.2)", () => {
  const { cols } = LESSON_SCENE;
  /** The cells meshway keeps and the toy removes at `r`, with what the chamfer field says of them. */
  const keptByMeshwayOnly = (r: number, diagonal: number) => {
    const mw = buildLessonNavMesh(r);
    const toy = toyFilter(r);
    const voxels = Math.ceil(r / LESSON_SCENE.cellSize - 1e-9);
    const exact = chamfer(mw.voxelWalkable, 2, 3);
    const other = chamfer(mw.voxelWalkable, 2, diagonal);
    const out: { c: number; dist: number; otherDist: number; threshold: number }[] = [];
    for (let c = 0; c < toy.length; c++) {
      // The field reproduces meshway's erosion exactly: kept ⇔ distance ≥ 2 × voxel radius.
      expect(mw.erodedWalkable[c], `cell ${c}`).toBe(
        mw.voxelWalkable[c] === 1 && exact[c]! >= 2 * voxels ? 1 : 0,
      );
      if (mw.erodedWalkable[c] === 1 && toy[c] === 0)
        out.push({ c, dist: exact[c]!, otherDist: other[c]!, threshold: 2 * voxels });
    }
    return { out, mw };
  };

  it("0.40–0.50: 12 cells touching an obstacle only at a corner are not where distances start; the diagonal weight plays no part", () => {
    for (const r of [0.4, 0.45, 0.5]) {
      const { out, mw } = keptByMeshwayOnly(r, 2 * Math.SQRT2);
      expect(out.length, `r ${r}`).toBe(12);
      const w = mw.voxelWalkable;
      for (const { c, dist, otherDist } of out) {
        const sides = [c - 1, c + 1, c - cols, c + cols].filter((n) => w[n] !== 1).length;
        const diagonals = [c - cols - 1, c - cols + 1, c + cols - 1, c + cols + 1].filter(
          (n) => w[n] !== 1,
        ).length;
        expect([sides, diagonals], `r ${r} cell ${c}`).toEqual([0, 1]);
        // One straight step from a start cell: 2, not below the threshold 2 ...
        expect(dist).toBe(2);
        // ... and the same with an exact diagonal (2√2): the weight 3 is not the cause.
        expect(otherDist).toBe(2);
      }
    }
  });

  it("1.50: 17 cells at chamfer distance 6 (two diagonal steps, 3 + 3) that an exact diagonal (2√2) would remove", () => {
    const { out } = keptByMeshwayOnly(1.5, 2 * Math.SQRT2);
    expect(out.length).toBe(17);
    for (const { dist, otherDist, threshold } of out) {
      expect(dist).toBe(threshold);
      expect(otherDist).toBeLessThan(threshold);
    }
  });
});

describe("the pictures' legends", () => {
  it("name every entry in both languages", () => {
    for (const entries of Object.values(LESSON_LEGEND)) {
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        expect(MESSAGES.zh[e.key], e.key).toBeTruthy();
        expect(MESSAGES.en[e.key], e.key).toBeTruthy();
      }
    }
  });

  it("every opaque legend colour is drawn exactly in its section at r = 0.75, at every step", () => {
    const cases = (["simple", "meshway"] as const).flatMap((method) => {
      const last = lastPathStep(runLesson({ radius: 0.75, method }).path);
      return Array.from({ length: last + 1 }, (_, step) => ({ method, step }));
    });
    for (const { method, step } of cases) {
      const result = runLesson({ radius: 0.75, shape: "L", method, step });
      const view = `${method} step ${step}`;
      for (const section of [1, 2, 3, 4] as const) {
        if (section !== 4 && step > 0) continue;
        const img = renderLessonSection(result, section);
        for (const e of lessonLegend(result, section)) {
          // Translucent colours blend with what lies under them; polygons are drawn translucent.
          if (e.colour[3] !== 255 || e.key === "legend.polygon" || e.key === "legend.sequence")
            continue;
          // The rectangles meet at no single point at this radius: nothing to mark.
          if (method === "simple" && e.key === "legend.pointContact") continue;
          let found = false;
          for (let p = 0; p < img.data.length && !found; p += 4) {
            found =
              img.data[p] === e.colour[0] &&
              img.data[p + 1] === e.colour[1] &&
              img.data[p + 2] === e.colour[2];
          }
          expect(found, `section ${section} ${view} ${e.key}`).toBe(true);
        }
      }
    }
  });
});

describe("hovering section 1 reports the shape under test", () => {
  it("the square's centre is inside; the L's bounding box has points outside the L", () => {
    const square = runLesson({
      radius: 0.75,
      shape: "square",
      method: "meshway",
      view: "straight",
    });
    const [x0, z0, x1, z1] = ringBounds(square.convex.shown.ring);
    expect(hitTestLesson(square, (x0 + x1) / 2, (z0 + z1) / 2).inShape).toBe(true);
    expect(hitTestLesson(square, x0 - 0.5, z0).inShape).toBe(false);
    const L = runLesson({ radius: 0.75, shape: "L", method: "meshway", view: "straight" });
    const [a0, b0, a1, b1] = ringBounds(L.convex.shown.ring);
    let inside = 0;
    let outside = 0;
    for (let i = 1; i < 10; i++) {
      for (let j = 1; j < 10; j++) {
        const hit = hitTestLesson(L, a0 + ((a1 - a0) * i) / 10, b0 + ((b1 - b0) * j) / 10);
        if (hit.inShape) inside++;
        else outside++;
      }
    }
    expect(inside).toBeGreaterThan(0);
    expect(outside).toBeGreaterThan(0);
  });
});
