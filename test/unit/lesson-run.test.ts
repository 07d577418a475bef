import { describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/index.js";
import { computeExactPath } from "../../src/lesson/exact-path.js";
import { prepareLesson } from "../../src/lesson/index.js";
import {
  LESSON_CANVAS,
  lessonPixelToWorld,
  lessonWorldToPixel,
  renderLessonSection,
} from "../../src/lesson/pictures.js";
import {
  clearLessonCache,
  DEFAULT_LESSON_SETTINGS,
  formatLessonTables,
  hitTestLesson,
  LESSON_SCENE,
  lessonToJson,
  lessonTriangleMesh,
  resolveLessonSettings,
  runLesson,
} from "../../src/lesson/public.js";
import { maximalRectangles } from "../../src/lesson/rectangles.js";
import { cellNavMesh, rectangleNavMesh } from "../../src/lesson/simple-navmesh.js";
import { toyFilter } from "../../src/lesson/surface.js";
import { navMeshArea } from "../../src/navmesh/nav-mesh.js";

describe("lesson settings", () => {
  it("defaults to radius 0.75, square, the toy method, straight, the last step, the scene's start and goal", () => {
    expect(resolveLessonSettings({})).toEqual({
      radius: 0.75,
      shape: "square",
      method: "simple",
      view: "straight",
      step: -1,
      start: [2.25, 2.75],
      goal: [21.25, 13.25],
      corner: [12, 8],
    });
    expect(DEFAULT_LESSON_SETTINGS.radius).toBe(0.75);
  });

  it("moves section 4's path with the start and goal; the default points reuse the cached paths", () => {
    const moved = runLesson({ start: [2.25, 8], goal: [20, 3] });
    expect(moved.settings.start).toEqual([2.25, 8]);
    expect(moved.path.status).toBe("complete");
    const [sx, sz] = [moved.path.midpoint.points[0], moved.path.midpoint.points[1]];
    expect([sx, sz]).toEqual([2.25, 8]);
    expect(moved.path.polygons).not.toEqual(runLesson({}).path.polygons);
    expect(runLesson({ start: [2.25, 2.75] }).path).toBe(runLesson({}).path);
  });

  it("snaps the radius to the 0.05 grid", () => {
    expect(resolveLessonSettings({ radius: 0.30000000000000004 }).radius).toBe(0.3);
    expect(resolveLessonSettings({ radius: 0.76 }).radius).toBe(0.75);
    expect(resolveLessonSettings({ radius: 1.5 }).radius).toBe(1.5);
  });

  it.each([
    [{ radius: 0.2 }, /radius.*0\.2/],
    [{ radius: Number.NaN }, /radius/],
    [{ radius: 1.6 }, /radius.*1\.6/],
    [{ shape: "circle" as never }, /shape.*circle/],
    [{ method: "recast" as never }, /method.*recast/],
    [{ view: "both" as never }, /view.*both/],
    [{ step: 1.5 }, /step.*1\.5/],
    [{ step: -2 }, /step.*-2/],
    [{ start: [25, 1] as const }, /start.*25,1.*outside/],
    [{ goal: [1, Number.NaN] as never }, /goal/],
  ])("refuses %j with a MeshwayError naming the option and value", (bad, msg) => {
    let err: unknown;
    try {
      resolveLessonSettings(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MeshwayError);
    expect((err as MeshwayError).code).toBe("INVALID_ARGUMENT");
    expect((err as Error).message).toMatch(msg);
  });
});

describe("the L's draggable inner corner", () => {
  it("at its default the L is the lesson's; past the diagonal both criteria call it convex", () => {
    const base = runLesson({ shape: "L" });
    const same = runLesson({ shape: "L", corner: [12, 8] });
    expect(same.convex.L).toBe(base.convex.L);
    expect(base.convex.L.crossConvex).toBe(false);
    expect(base.convex.L.leaving).toBeGreaterThan(0);
    // (16, 4) lies beyond the diagonal from (12, 3) to (17, 8): the corner is convex now.
    const moved = runLesson({ shape: "L", corner: [16, 4] });
    expect(moved.convex.L.crossConvex).toBe(true);
    expect(moved.convex.L.crossNegative * moved.convex.L.crossPositive).toBe(0);
    expect(moved.convex.L.leaving).toBe(0);
    expect(moved.tables[0]!.rows[1]!.label).toBe("row.convex.Lmoved");
    expect(moved.tables[0]!.rows[1]!.cells[0]).not.toBe(base.tables[0]!.rows[1]!.cells[0]);
    // Still reflex at (13, 7): concave, and the moved-corner checks pass either way.
    const reflex = runLesson({ shape: "L", corner: [13, 7] });
    expect(reflex.convex.L.crossConvex).toBe(false);
    for (const r of [moved, reflex]) {
      const ids = r.checks.map((c) => c.id);
      expect(ids).toContain("lCrossMoved");
      expect(r.checks.every((c) => c.pass)).toBe(true);
    }
    // The square does not depend on the corner.
    expect(moved.convex.square).toBe(base.convex.square);
  });

  it("rejects a corner outside the notch, naming the option", () => {
    expect(() => resolveLessonSettings({ corner: [11, 8] })).toThrow(/"corner" = 11,8 is outside/);
    expect(() => resolveLessonSettings({ corner: [14, 9] })).toThrow(MeshwayError);
  });

  it("section 1 maps its larger view both ways", () => {
    expect(lessonPixelToWorld(1, 240, 160)).toEqual({ x: 12, z: 8, panel: null });
    expect(lessonWorldToPixel(1, 7, 3)).toEqual([100, 20]);
    expect(lessonWorldToPixel(2, 7, 3)).toEqual([140, 60]);
  });
});

describe("lesson scene", () => {
  it("is 24 × 16 with 0.5 cells and obstacles on the cell grid", () => {
    expect(LESSON_SCENE.cols * LESSON_SCENE.cellSize).toBe(LESSON_SCENE.width);
    expect(LESSON_SCENE.rows * LESSON_SCENE.cellSize).toBe(LESSON_SCENE.depth);
    for (const o of LESSON_SCENE.obstacles) {
      for (const v of [o.x0, o.z0, o.x1, o.z1]) expect(Number.isInteger(v * 2)).toBe(true);
      expect(o.x1).toBeGreaterThan(o.x0);
      expect(o.z1).toBeGreaterThan(o.z0);
    }
  });

  it("as triangles: a floor and a five-faced box per obstacle", () => {
    const m = lessonTriangleMesh();
    expect(m.triangleCount).toBe(2 + LESSON_SCENE.obstacles.length * 10);
    expect(m.indices.length).toBe(m.triangleCount * 3);
  });
});

describe("runLesson", () => {
  it("is deterministic: the same settings give the same tables, checks and pictures, cached or not", () => {
    const s = {
      radius: 0.6,
      shape: "L" as const,
      method: "simple" as const,
      view: "midpoint" as const,
    };
    const a = runLesson(s);
    const picA = [1, 2, 3, 4].map((n) =>
      Buffer.from(renderLessonSection(a, n as 1).data).toString("base64"),
    );
    clearLessonCache();
    const b = runLesson(s);
    expect(JSON.stringify(lessonToJson(b))).toBe(JSON.stringify(lessonToJson(a)));
    expect(formatLessonTables(b, "zh", "text")).toBe(formatLessonTables(a, "zh", "text"));
    const picB = [1, 2, 3, 4].map((n) =>
      Buffer.from(renderLessonSection(b, n as 1).data).toString("base64"),
    );
    expect(picB).toEqual(picA);
  });

  it("returns four tables in section order, every row as wide as its columns", () => {
    const r = runLesson(resolveLessonSettings({}));
    expect(r.tables.map((t) => t.id)).toEqual(["convex", "surface", "partition", "path"]);
    for (const t of r.tables)
      for (const row of t.rows) expect(row.cells.length).toBe(t.columns.length - 2);
    for (const t of r.tables) expect(t.columns[t.columns.length - 1]).toBe("col.means");
    expect(r.readouts.map((s) => s.section)).toEqual([1, 2, 3, 4]);
    expect(r.log.length).toBe(r.logVars.length);
  });

  it("section 4's readouts follow the path view: the drawn polyline and its removable points", () => {
    const mid = runLesson(resolveLessonSettings({ view: "midpoint", method: "meshway" }))
      .readouts[3]!.items;
    const straight = runLesson(resolveLessonSettings({ view: "straight", method: "meshway" }))
      .readouts[3]!.items;
    expect(mid[0]!.label).toBe("readout.shownMidpoint");
    expect(straight[0]!.label).toBe("readout.shownStraight");
    expect(mid[0]!.value).not.toBe(straight[0]!.value);
    expect(straight.find((i) => i.id === "removable")!.value).toBe("0");
  });

  it("section 4 shows the exact shortest path: table rows, readouts and checks (r = 0.75)", () => {
    const mw = runLesson(resolveLessonSettings({ method: "meshway" }));
    const row = (r: typeof mw, label: string) =>
      r.tables[3]!.rows.find((x) => x.label === label)!.cells;
    // On this scene A* picks the optimal corridor: the funnel is the exact path.
    expect(row(mw, "row.path.funnel")).toEqual(["6 / 30.3658 / 11.89%"]);
    expect(row(mw, "row.path.exact")).toEqual(["6 / 30.3658 / 11.89%"]);
    expect(row(mw, "row.path.exactChecks")).toEqual(["0; 609 / 609"]);
    const items = mw.readouts[3]!.items;
    expect(items.find((i) => i.id === "exact")!.value).toBe("6 / 30.3658");
    expect(items.find((i) => i.id === "exactGap")!.value).toBe("0.00%");
    const ids = mw.checks.filter((c) => c.id.startsWith("exact")).map((c) => [c.id, c.pass]);
    expect(ids).toEqual([
      ["exactFunnelMidpoint", true],
      ["exactDropped", true],
      ["exactOnSurface", true],
      ["exactNoRemovable", true],
    ]);
    // The simple method: dropping midpoints stalls (nothing dropped, 14% longer than exact);
    // the funnel through the same rectangles' portals finds the exact path.
    const simple = runLesson(resolveLessonSettings({ method: "simple" }));
    expect(row(simple, "row.path.dropped")).toEqual(["6 / 33.0158 / 0.00%"]);
    expect(row(simple, "row.path.funnel")).toEqual(["6 / 28.9660 / 12.27%"]);
    expect(row(simple, "row.path.exactCells")).toEqual(["6 / 28.9660 / 12.27%"]);
    expect(simple.readouts[3]!.items.find((i) => i.id === "exactGap")!.value).toBe("0.00%");
    expect(simple.checks.find((c) => c.id === "exactFunnelMidpoint")!.pass).toBe(true);
  });

  it("the simple method's cell navmesh has one square polygon per kept cell, on the rectangles' area", () => {
    for (const radius of [0.25, 0.75, 1.5]) {
      const res = runLesson(resolveLessonSettings({ radius, method: "simple" }));
      const nav = cellNavMesh(toyFilter(radius));
      const tile = nav.tiles[0]!;
      expect(tile.polyCount).toBe(res.partition.simple.walkableCells);
      expect(navMeshArea(nav)).toBeCloseTo(res.partition.simple.area, 9);
      for (let p = 0; p < tile.polyCount; p++) expect(tile.polyVertCount[p]).toBe(4);
    }
  });

  it("the rectangles as triangle fans give the cell navmesh's exact paths (the page's cheaper mesh)", () => {
    // Same surface, ~8× fewer polygons: status, bends and length agree for the scene's ends
    // and for ends on both sides of the narrow passage, where the fans' T-junctions matter.
    const ends: (readonly [number, number])[] = [
      LESSON_SCENE.start,
      LESSON_SCENE.goal,
      [12, 13],
      [20, 3],
    ];
    for (const radius of [0.3, 0.75, 1.5]) {
      const kept = toyFilter(radius);
      const cells = cellNavMesh(kept);
      const fans = rectangleNavMesh(maximalRectangles(kept));
      expect(navMeshArea(fans)).toBeCloseTo(navMeshArea(cells), 9);
      for (const a of ends) {
        for (const b of ends) {
          if (a === b) continue;
          const want = computeExactPath(cells, a, b)!;
          const got = computeExactPath(fans, a, b)!;
          expect(got.status, `r ${radius} ${a} → ${b}`).toBe(want.status);
          expect(got.points.length).toBe(want.points.length);
          expect(got.length).toBeCloseTo(want.length, 9);
        }
      }
    }
  });

  it("the JSON tables carry exactly the result's cell strings", () => {
    const r = runLesson(resolveLessonSettings({ radius: 1.5, method: "simple" }));
    const json = lessonToJson(r) as { tables: { rows: { cells: string[] }[] }[] };
    expect(json.tables.map((t) => t.rows.map((x) => x.cells))).toEqual(
      r.tables.map((t) => t.rows.map((x) => x.cells)),
    );
  });
});

describe("hitTestLesson and pictures", () => {
  const r = runLesson(resolveLessonSettings({ radius: 0.5, method: "simple" }));

  it("finds the start's cell and rectangle, and reports obstacles as unwalkable", () => {
    const [sx, sz] = LESSON_SCENE.start;
    const hit = hitTestLesson(r, sx, sz);
    expect(hit.cell).toEqual([Math.floor(sx / 0.5), Math.floor(sz / 0.5)]);
    expect(hit.walkable).toBe(true);
    expect(hit.polygon).toBe(r.path.startPolygon);
    expect(hitTestLesson(r, 0.25, 0.25)).toEqual({
      cell: [0, 0],
      walkable: false,
      polygon: null,
      inShape: false,
    });
    expect(hitTestLesson(r, -1, 3).cell).toBeNull();
    expect(hitTestLesson(r, sx, sz, "meshway").polygon).not.toBeNull();
  });

  it("maps pixels to world at 20 px per unit, null outside", () => {
    expect(lessonPixelToWorld(3, 45, 55)).toEqual({ x: 2.25, z: 2.75, panel: null });
    expect(lessonPixelToWorld(1, LESSON_CANVAS.width, 0)).toBeNull();
  });

  it("draws every section on white at LESSON_CANVAS size, reusing `out`", () => {
    for (const n of [1, 2, 3, 4] as const) {
      const img = renderLessonSection(r, n);
      expect([img.width, img.height]).toEqual([LESSON_CANVAS.width, LESSON_CANVAS.height]);
      let nonWhite = 0;
      for (let i = 0; i < img.data.length; i += 4)
        if (img.data[i] !== 255 || img.data[i + 1] !== 255) nonWhite++;
      expect(nonWhite).toBeGreaterThan(1000);
      const again = renderLessonSection(r, n, img);
      expect(again).toBe(img);
      expect(Buffer.from(again.data).equals(Buffer.from(renderLessonSection(r, n).data))).toBe(
        true,
      );
    }
  });
});

describe("prepareLesson", () => {
  it("fills the caches piece by piece; runLesson then gives what it gives from scratch", () => {
    for (const settings of [
      {},
      { radius: 1.2, method: "meshway" as const, shape: "L" as const },
      { radius: 0.4, start: [3, 3] as [number, number] },
    ]) {
      clearLessonCache();
      const cold = lessonToJson(runLesson(settings));
      clearLessonCache();
      let pieces = 0;
      for (const _ of prepareLesson(settings)) pieces++;
      expect(pieces).toBeGreaterThan(2);
      // Everything is cached now: preparing again has nothing left to do.
      expect([...prepareLesson(settings)].length).toBe(0);
      expect(lessonToJson(runLesson(settings))).toEqual(cold);
    }
  });
});
