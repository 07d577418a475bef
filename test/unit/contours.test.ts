import { describe, expect, it } from "vitest";
import { BuildContext } from "../../src/generate/context.js";
import {
  buildContours,
  CONTOUR_TESS_AREA_EDGES,
  CONTOUR_TESS_WALL_EDGES,
} from "../../src/generate/contours.js";
import {
  AREA_BORDER,
  BORDER_REGION,
  BORDER_VERTEX,
  CONTOUR_REG_MASK,
  type CompactHeightfield,
  type Contour,
  NOT_CONNECTED,
  type Regions,
  WALKABLE_AREA,
} from "../../src/generate/types.js";

/**
 * One-layer compact heightfield from a grid of region ids, rows listed by z (row 0 is z = 0).
 * -1 = column without a span. Every pair of neighbouring spans is linked.
 */
function gridField(
  regionRows: number[][],
  opts: { areaRows?: number[][]; y?: number; borderSize?: number } = {},
): { chf: CompactHeightfield; regions: Regions } {
  const depth = regionRows.length;
  const width = regionRows[0]!.length;
  const cellFirst = new Uint32Array(width * depth);
  const cellCount = new Uint16Array(width * depth);
  const spanOf = new Int32Array(width * depth).fill(-1);
  let n = 0;
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      cellFirst[x + z * width] = n;
      if (regionRows[z]![x]! >= 0) {
        cellCount[x + z * width] = 1;
        spanOf[x + z * width] = n++;
      }
    }
  }
  const spanY = new Uint16Array(n).fill(opts.y ?? 0);
  const spanH = new Uint16Array(n).fill(0xffff);
  const spanCon = new Uint32Array(n);
  const areas = new Uint8Array(n);
  const spanRegion = new Uint16Array(n);
  const dx = [-1, 0, 1, 0];
  const dz = [0, 1, 0, -1];
  for (let z = 0; z < depth; z++) {
    for (let x = 0; x < width; x++) {
      const s = spanOf[x + z * width]!;
      if (s < 0) continue;
      spanRegion[s] = regionRows[z]![x]!;
      areas[s] = opts.areaRows ? opts.areaRows[z]![x]! : WALKABLE_AREA;
      let con = 0;
      for (let d = 0; d < 4; d++) {
        const nx = x + dx[d]!;
        const nz = z + dz[d]!;
        const linked =
          nx >= 0 && nz >= 0 && nx < width && nz < depth && spanOf[nx + nz * width]! >= 0;
        con |= (linked ? 0 : NOT_CONNECTED) << (8 * d);
      }
      spanCon[s] = con >>> 0;
    }
  }
  let maxRegion = 0;
  for (const r of spanRegion) if ((r & BORDER_REGION) === 0 && r > maxRegion) maxRegion = r;
  const chf: CompactHeightfield = {
    width,
    depth,
    spanCount: n,
    walkableHeightVoxels: 10,
    walkableClimbVoxels: 4,
    borderSize: opts.borderSize ?? 0,
    bmin: [0, 0, 0],
    bmax: [width * 0.5, 10, depth * 0.5],
    cellSize: 0.5,
    cellHeight: 0.25,
    cellFirst,
    cellCount,
    spanY,
    spanH,
    spanCon,
    areas,
  };
  return { chf, regions: { spanRegion, regionCount: maxRegion } };
}

/** w × d rectangle filled by `fill(x, z)`. */
function grid(w: number, d: number, fill: (x: number, z: number) => number): number[][] {
  return Array.from({ length: d }, (_, z) => Array.from({ length: w }, (_, x) => fill(x, z)));
}

function vertsOf(c: Contour, raw = false): number[][] {
  const v = raw ? c.rawVerts : c.verts;
  const out: number[][] = [];
  for (let i = 0; i < v.length; i += 4) out.push([v[i]!, v[i + 1]!, v[i + 2]!, v[i + 3]!]);
  return out;
}

/** Twice the signed XZ area in Recast's orientation (outlines positive). */
function area2(v: Int32Array): number {
  let a = 0;
  const n = v.length / 4;
  for (let i = 0, j = n - 1; i < n; j = i++)
    a += v[i * 4]! * v[j * 4 + 2]! - v[j * 4]! * v[i * 4 + 2]!;
  return a;
}

describe("buildContours", () => {
  it("outlines a lone 5×5 region with its four corners at the corner height", () => {
    const { chf, regions } = gridField(
      grid(5, 5, () => 1),
      { y: 3 },
    );
    const cset = buildContours(chf, regions, 1.3, 12);
    expect(cset.contours).toHaveLength(1);
    const c = cset.contours[0]!;
    expect(c.region).toBe(1);
    expect(c.area).toBe(WALKABLE_AREA);
    expect(vertsOf(c)).toEqual([
      [0, 3, 0, 0],
      [0, 3, 5, 0],
      [5, 3, 5, 0],
      [5, 3, 0, 0],
    ]);
    // Raw outline: one vertex per boundary edge, walking up x = 0 first.
    expect(c.rawVerts.length / 4).toBe(20);
    expect(vertsOf(c, true).slice(0, 6)).toEqual([
      [0, 3, 1, 0],
      [0, 3, 2, 0],
      [0, 3, 3, 0],
      [0, 3, 4, 0],
      [0, 3, 5, 0],
      [1, 3, 5, 0],
    ]);
    expect(area2(c.verts)).toBeGreaterThan(0);
    expect(cset.width).toBe(5);
    expect(cset.depth).toBe(5);
    expect(cset.maxError).toBe(1.3);
  });

  it("corner height is the highest floor of the spans around the corner", () => {
    const { chf, regions } = gridField(
      grid(5, 5, () => 1),
      { y: 3 },
    );
    // Raise the span at cell (4, 4): the corner (5, 5) and the corners touching it rise.
    chf.spanY[4 + 4 * 5] = 7;
    const c = buildContours(chf, regions, 1.3, 12).contours[0]!;
    const byXZ = new Map(vertsOf(c, true).map((v) => [`${v[0]},${v[2]}`, v[1]]));
    expect(byXZ.get("5,5")).toBe(7);
    expect(byXZ.get("4,5")).toBe(7);
    expect(byXZ.get("5,4")).toBe(7);
    expect(byXZ.get("3,5")).toBe(3);
  });

  it("two regions side by side share the boundary and name each other in the 4th component", () => {
    const { chf, regions } = gridField(grid(10, 5, (x) => (x < 5 ? 1 : 2)));
    const cset = buildContours(chf, regions, 1.3, 12);
    expect(cset.contours.map((c) => c.region)).toEqual([1, 2]);
    // The vertex starting the shared edge carries the other region's id.
    expect(vertsOf(cset.contours[0]!)).toEqual([
      [5, 0, 5, 2],
      [5, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 5, 0],
    ]);
    expect(vertsOf(cset.contours[1]!)).toEqual([
      [5, 0, 5, 0],
      [10, 0, 5, 0],
      [10, 0, 0, 0],
      [5, 0, 0, 1],
    ]);
    // Raw vertices along the shared edge name the neighbour too, without flags.
    const shared1 = vertsOf(cset.contours[0]!, true).filter(
      (v) => (v[3]! & CONTOUR_REG_MASK) === 2,
    );
    expect(shared1.map((v) => [v[0], v[2]])).toEqual([
      [5, 4],
      [5, 3],
      [5, 2],
      [5, 1],
      [5, 0],
    ]);
  });

  it("splits wall edges longer than maxEdgeLen at the middle raw vertex", () => {
    const { chf, regions } = gridField(grid(12, 2, () => 1));
    const plain = buildContours(chf, regions, 1.3, 0).contours[0]!;
    expect(vertsOf(plain).map((v) => [v[0], v[2]])).toEqual([
      [0, 0],
      [0, 2],
      [12, 2],
      [12, 0],
    ]);
    const split = buildContours(chf, regions, 1.3, 6).contours[0]!;
    expect(vertsOf(split).map((v) => [v[0], v[2]])).toEqual([
      [0, 0],
      [0, 2],
      [6, 2],
      [12, 2],
      [12, 0],
      [6, 0],
    ]);
    const short = buildContours(chf, regions, 1.3, 4).contours[0]!;
    const sv = short.verts;
    const n = sv.length / 4;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const ex = sv[j * 4]! - sv[i * 4]!;
      const ez = sv[j * 4 + 2]! - sv[i * 4 + 2]!;
      expect(ex * ex + ez * ez).toBeLessThanOrEqual(16);
    }
    // Without a tessellation flag nothing is split.
    const none = buildContours(chf, regions, 1.3, 4, 0).contours[0]!;
    expect(none.verts.length / 4).toBe(4);
  });

  it("splits long edges between areas only with CONTOUR_TESS_AREA_EDGES", () => {
    const regionRows = grid(4, 12, (x) => (x < 2 ? 1 : 2));
    const areaRows = grid(4, 12, (x) => (x < 2 ? WALKABLE_AREA : 5));
    const { chf, regions } = gridField(regionRows, { areaRows });
    const sharedVerts = (flags: number) =>
      vertsOf(buildContours(chf, regions, 1.3, 6, flags).contours[0]!).filter((v) => v[0] === 2);
    expect(sharedVerts(CONTOUR_TESS_WALL_EDGES).map((v) => v[2])).toEqual([12, 0]);
    expect(sharedVerts(CONTOUR_TESS_AREA_EDGES).map((v) => v[2])).toEqual([12, 6, 0]);
  });

  it("flags the vertices of an edge between two areas with AREA_BORDER", () => {
    const regionRows = grid(10, 5, (x) => (x < 5 ? 1 : 2));
    const areaRows = grid(10, 5, (x) => (x < 5 ? WALKABLE_AREA : 5));
    const { chf, regions } = gridField(regionRows, { areaRows });
    const [a, b] = buildContours(chf, regions, 1.3, 12).contours as [Contour, Contour];
    expect(a.area).toBe(WALKABLE_AREA);
    expect(b.area).toBe(5);
    expect(vertsOf(a)).toEqual([
      [5, 0, 5, 2 | AREA_BORDER],
      [5, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 5, 0],
    ]);
    expect(vertsOf(b)[3]).toEqual([5, 0, 0, 1 | AREA_BORDER]);
    for (const v of vertsOf(a, true)) {
      expect((v[3]! & AREA_BORDER) !== 0).toBe((v[3]! & CONTOUR_REG_MASK) === 2);
    }
  });

  it("merges a hole into its region's outline through a bridge to the nearest outline vertex", () => {
    // 7×7 ring: cells 2..4 × 2..4 have no span.
    const rows = grid(7, 7, (x, z) => (x >= 2 && x <= 4 && z >= 2 && z <= 4 ? -1 : 1));
    const { chf, regions } = gridField(rows);
    const ctx = new BuildContext();
    const cset = buildContours(chf, regions, 1.3, 12, CONTOUR_TESS_WALL_EDGES, ctx);
    expect(ctx.warnings).toEqual([]);
    // The hole keeps its slot (as in Recast) but its vertices moved into the outline.
    expect(cset.contours).toHaveLength(2);
    const [outline, hole] = cset.contours as [Contour, Contour];
    expect(hole.region).toBe(1);
    expect(hole.verts.length).toBe(0);
    expect(hole.rawVerts.length / 4).toBe(12);
    // Outline from (0,0) round to (0,0), bridge to the hole's leftmost vertex (2,2), the hole
    // (clockwise) round to (2,2), bridge back.
    expect(vertsOf(outline).map((v) => [v[0], v[2]])).toEqual([
      [0, 0],
      [0, 7],
      [7, 7],
      [7, 0],
      [0, 0],
      [2, 2],
      [5, 2],
      [5, 5],
      [2, 5],
      [2, 2],
    ]);
    // Area = outer 49 − hole 9.
    expect(area2(outline.verts)).toBe(2 * 40);
    // Weakly simple: no two edges cross properly.
    const v = outline.verts;
    const n = v.length / 4;
    const orient = (a: number, b: number, c: number) =>
      Math.sign(
        (v[b * 4]! - v[a * 4]!) * (v[c * 4 + 2]! - v[a * 4 + 2]!) -
          (v[c * 4]! - v[a * 4]!) * (v[b * 4 + 2]! - v[a * 4 + 2]!),
      );
    for (let i = 0; i < n; i++) {
      for (let j = i + 2; j < n; j++) {
        const i1 = (i + 1) % n;
        const j1 = (j + 1) % n;
        if (j1 === i) continue;
        const crosses =
          orient(i, i1, j) * orient(i, i1, j1) < 0 && orient(j, j1, i) * orient(j, j1, i1) < 0;
        expect(crosses).toBe(false);
      }
    }
  });

  it("merges two holes left to right, each bridged without crossing the other", () => {
    // 11×5 region with two 1-cell-wide pillars of no span: (3, 1..3) and (7, 1..3).
    const rows = grid(11, 5, (x, z) => ((x === 3 || x === 7) && z >= 1 && z <= 3 ? -1 : 1));
    const { chf, regions } = gridField(rows);
    const ctx = new BuildContext();
    const cset = buildContours(chf, regions, 0.5, 0, CONTOUR_TESS_WALL_EDGES, ctx);
    expect(ctx.warnings).toEqual([]);
    const nonEmpty = cset.contours.filter((c) => c.verts.length > 0);
    expect(cset.contours).toHaveLength(3);
    expect(nonEmpty).toHaveLength(1);
    const v = nonEmpty[0]!.verts;
    // 4 outline + 2×4 hole vertices, each loop closed by a repeated vertex.
    expect(v.length / 4).toBe(4 + 1 + 4 + 1 + (1 + 4 + 1));
    expect(area2(v)).toBe(2 * (55 - 3 - 3));
  });

  it("removes the border offset and marks vertices where a region meets the tile border", () => {
    const bs = 2;
    // 9×9 grid: 2-cell border (Recast paints left, right, bottom, top in that order),
    // interior 5×5 split into region 5 (x 2..4) and region 6 (x 5..6).
    const rows = grid(9, 9, (x, z) => {
      if (z >= 9 - bs) return BORDER_REGION | 4;
      if (z < bs) return BORDER_REGION | 3;
      if (x >= 9 - bs) return BORDER_REGION | 2;
      if (x < bs) return BORDER_REGION | 1;
      return x < 5 ? 5 : 6;
    });
    const { chf, regions } = gridField(rows, { borderSize: bs });
    const cset = buildContours(chf, regions, 1.3, 12);
    expect(cset.borderSize).toBe(bs);
    expect(cset.width).toBe(5);
    expect(cset.depth).toBe(5);
    expect(cset.bmin[0]).toBeCloseTo(bs * 0.5);
    expect(cset.bmax[2]).toBeCloseTo(9 * 0.5 - bs * 0.5);
    expect(cset.contours.map((c) => c.region)).toEqual([5, 6]);
    const a = vertsOf(cset.contours[0]!);
    for (const p of a) {
      expect(p[0]).toBeGreaterThanOrEqual(0);
      expect(p[0]).toBeLessThanOrEqual(5);
      expect(p[2]).toBeGreaterThanOrEqual(0);
      expect(p[2]).toBeLessThanOrEqual(5);
    }
    // Where regions 5 and 6 meet the top and bottom borders: border vertices.
    const top = a.find((p) => p[0] === 3 && p[2] === 5);
    const bottom = a.find((p) => p[0] === 3 && p[2] === 0);
    expect(top).toBeDefined();
    expect(bottom).toBeDefined();
    expect(top![3]! & BORDER_VERTEX).toBe(BORDER_VERTEX);
    expect(bottom![3]! & BORDER_VERTEX).toBe(BORDER_VERTEX);
    // Box corners touch two different border regions: not border vertices.
    const corner = a.find((p) => p[0] === 0 && p[2] === 0);
    expect(corner![3]! & BORDER_VERTEX).toBe(0);
    // Edges along the border name the border region (with its flag).
    expect(a.some((p) => (p[3]! & CONTOUR_REG_MASK) === (BORDER_REGION | 1))).toBe(true);
    for (const p of vertsOf(cset.contours[0]!, true)) {
      expect(p[0]).toBeGreaterThanOrEqual(0);
      expect(p[2]).toBeLessThanOrEqual(5);
    }
  });

  it("drops a region sliver along the tile border whose simplified outline is a line (no area)", () => {
    const bs = 2;
    // 12×8 grid, 2-cell border; inside, only a strip of region 5 (x 3..8) along the top
    // border row, `rows` cells thick. The top border changes region at x = 6, so the outline
    // keeps (1, 4), (4, 4), (7, 4) on the border line (interior coordinates); a 1-cell strip's
    // wall side deviates 1 cell < maxError 1.3 from that line and is simplified away.
    const strip = (rows: number) =>
      grid(12, 8, (x, z) => {
        if (z >= 8 - bs) return BORDER_REGION | (x < 6 ? 4 : 5);
        if (z < bs) return BORDER_REGION | 3;
        if (x < bs) return BORDER_REGION | 1;
        if (x >= 12 - bs) return BORDER_REGION | 2;
        return x >= 3 && x <= 8 && z >= 6 - rows ? 5 : -1;
      });
    const thin = gridField(strip(1), { borderSize: bs });
    expect(buildContours(thin.chf, thin.regions, 1.3, 12).contours).toEqual([]);
    // Two cells thick: the wall side is kept and the outline has area.
    const thick = gridField(strip(2), { borderSize: bs });
    const [c] = buildContours(thick.chf, thick.regions, 1.3, 12).contours;
    expect(c!.region).toBe(5);
    expect(area2(c!.verts)).toBeGreaterThan(0);
    expect(vertsOf(c!).map((v) => [v[0], v[2]])).toContainEqual([4, 4]);
  });

  it("skips border regions, region 0 and single-span regions", () => {
    const rows = grid(6, 3, (x) => [0, BORDER_REGION | 1, 2, 3, 3, 3][x]!);
    const { chf, regions } = gridField(rows);
    const cset = buildContours(chf, regions, 1.3, 12);
    expect(cset.contours.map((c) => c.region)).toEqual([2, 3]);
    const lone = gridField([
      [-1, -1, -1],
      [-1, 1, -1],
      [-1, -1, -1],
    ]);
    expect(buildContours(lone.chf, lone.regions, 1.3, 12).contours).toHaveLength(0);
  });

  it("is deterministic: the same input gives identical output", () => {
    const rows = grid(11, 5, (x, z) =>
      (x === 3 || x === 7) && z >= 1 && z <= 3 ? -1 : 1 + (x >> 3),
    );
    const { chf, regions } = gridField(rows);
    const a = buildContours(chf, regions, 1.3, 4);
    const b = buildContours(chf, regions, 1.3, 4);
    expect(a).toEqual(b);
  });

  it("throws INVALID_ARGUMENT when regions do not match the heightfield", () => {
    const { chf } = gridField(grid(3, 3, () => 1));
    expect(() =>
      buildContours(chf, { spanRegion: new Uint16Array(2), regionCount: 1 }, 1.3, 12),
    ).toThrow(/spanRegion/);
  });
});
