import { describe, expect, test } from "vitest";
import { BuildContext } from "../../src/generate/context.js";
import { buildPolyMeshDetail } from "../../src/generate/detail.js";
import {
  type CompactHeightfield,
  MESH_NULL_INDEX,
  NOT_CONNECTED,
  type PolyMesh,
  type PolyMeshDetail,
  type Regions,
} from "../../src/generate/types.js";

const CS = 0.3;
const CH = 0.2;
const f = Math.fround;
/** World y of a detail vertex sampled at voxel height h: Recast lifts it by one cell height. */
const worldY = (h: number): number => f(f(h * f(CH)) + f(CH));

interface Floor {
  /** Voxel height of the floor at cell (x, z); NaN = no span there. */
  height: (x: number, z: number) => number;
  region: number;
}

/**
 * Compact heightfield of `w` x `d` columns, one span per floor per column, floors stacked in
 * the given order (lowest first). Spans of one floor connect to their 4 neighbours on the same
 * floor.
 */
function makeCompact(
  w: number,
  d: number,
  floors: Floor[],
): { chf: CompactHeightfield; regions: Regions } {
  const cols = w * d;
  const cellFirst = new Uint32Array(cols);
  const cellCount = new Uint16Array(cols);
  const y: number[] = [];
  const reg: number[] = [];
  const floorOf: number[] = [];
  const spanAt = new Int32Array(cols * floors.length).fill(-1);
  for (let z = 0; z < d; z++) {
    for (let x = 0; x < w; x++) {
      const c = x + z * w;
      cellFirst[c] = y.length;
      floors.forEach((fl, k) => {
        const h = fl.height(x, z);
        if (Number.isNaN(h)) return;
        spanAt[c * floors.length + k] = y.length - cellFirst[c]!;
        y.push(h);
        reg.push(fl.region);
        floorOf.push(k);
      });
      cellCount[c] = y.length - cellFirst[c]!;
    }
  }
  const n = y.length;
  const spanCon = new Uint32Array(n);
  const dx = [-1, 0, 1, 0];
  const dz = [0, 1, 0, -1];
  for (let z = 0; z < d; z++) {
    for (let x = 0; x < w; x++) {
      const c = x + z * w;
      for (let i = cellFirst[c]!; i < cellFirst[c]! + cellCount[c]!; i++) {
        let con = 0;
        for (let dir = 0; dir < 4; dir++) {
          const nx = x + dx[dir]!;
          const nz = z + dz[dir]!;
          let v = NOT_CONNECTED;
          if (nx >= 0 && nz >= 0 && nx < w && nz < d) {
            const k = spanAt[(nx + nz * w) * floors.length + floorOf[i]!]!;
            if (k >= 0) v = k;
          }
          con |= v << (8 * dir);
        }
        spanCon[i] = con >>> 0;
      }
    }
  }
  const chf: CompactHeightfield = {
    width: w,
    depth: d,
    spanCount: n,
    walkableHeightVoxels: 10,
    walkableClimbVoxels: 4,
    borderSize: 0,
    bmin: [0, 0, 0],
    bmax: [w * CS, 20, d * CS],
    cellSize: CS,
    cellHeight: CH,
    cellFirst,
    cellCount,
    spanY: Uint16Array.from(y),
    spanH: new Uint16Array(n).fill(1000),
    spanCon,
    areas: new Uint8Array(n).fill(63),
  };
  return { chf, regions: { spanRegion: Uint16Array.from(reg), regionCount: 2 } };
}

/** PolyMesh of the given polygons (voxel x, y, z per vertex, Recast's winding), one region each. */
function makePolyMesh(polys: number[][][], regions: number[], nvp = 6): PolyMesh {
  const verts: number[] = [];
  const p = new Uint32Array(polys.length * nvp * 2).fill(MESH_NULL_INDEX);
  polys.forEach((poly, i) => {
    poly.forEach((v, j) => {
      p[i * nvp * 2 + j] = verts.length / 3;
      verts.push(v[0]!, v[1]!, v[2]!);
    });
  });
  return {
    verts: Uint16Array.from(verts),
    vertCount: verts.length / 3,
    polys: p,
    polyCount: polys.length,
    regions: Uint16Array.from(regions),
    flags: new Uint16Array(polys.length),
    areas: new Uint8Array(polys.length).fill(63),
    maxVertsPerPoly: nvp,
    bmin: [0, 0, 0],
    bmax: [100, 20, 100],
    cellSize: CS,
    cellHeight: CH,
    borderSize: 0,
    maxEdgeError: 1.3,
  };
}

/** Axis-aligned square in Recast's polygon winding: (x0,z0) → (x0,z1) → (x1,z1) → (x1,z0). */
function square(
  x0: number,
  z0: number,
  x1: number,
  z1: number,
  y: (x: number, z: number) => number,
) {
  return [
    [x0, y(x0, z0), z0],
    [x0, y(x0, z1), z1],
    [x1, y(x1, z1), z1],
    [x1, y(x1, z0), z0],
  ];
}

/** Twice the signed XZ area of (a, b, c), in Recast's cross convention. */
function cross2(ax: number, az: number, bx: number, bz: number, cx: number, cz: number): number {
  return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

function polyVertexCount(pm: PolyMesh, p: number): number {
  let n = 0;
  while (n < pm.maxVertsPerPoly && pm.polys[p * pm.maxVertsPerPoly * 2 + n] !== MESH_NULL_INDEX)
    n++;
  return n;
}

/**
 * The properties every detail mesh must have: sub-mesh starts with the polygon's vertices,
 * at most 127 vertices and 255 triangles, triangles have nonzero area with the polygon's
 * orientation, lie inside the polygon (XZ) and together cover exactly its area.
 */
function expectDetailInvariants(pm: PolyMesh, dm: PolyMeshDetail, relTol = 1e-6): void {
  expect(dm.meshCount).toBe(pm.polyCount);
  for (let p = 0; p < pm.polyCount; p++) {
    const vb = dm.meshes[p * 4]!;
    const nv = dm.meshes[p * 4 + 1]!;
    const tb = dm.meshes[p * 4 + 2]!;
    const nt = dm.meshes[p * 4 + 3]!;
    const npoly = polyVertexCount(pm, p);
    expect(nv).toBeGreaterThanOrEqual(npoly);
    expect(nv).toBeLessThanOrEqual(127); // Recast's per-polygon caps
    expect(nt).toBeLessThanOrEqual(255);
    const vx = (i: number) => dm.verts[(vb + i) * 3]!;
    const vz = (i: number) => dm.verts[(vb + i) * 3 + 2]!;
    for (let j = 0; j < npoly; j++) {
      const pv = pm.polys[p * pm.maxVertsPerPoly * 2 + j]!;
      expect(vx(j)).toBe(f(pm.verts[pv * 3]! * f(CS)));
      expect(vz(j)).toBe(f(pm.verts[pv * 3 + 2]! * f(CS)));
    }
    let polyArea = 0;
    for (let j = 1; j + 1 < npoly; j++)
      polyArea += cross2(vx(0), vz(0), vx(j), vz(j), vx(j + 1), vz(j + 1));
    const orient = Math.sign(polyArea);
    expect(orient).not.toBe(0);
    const scale = Math.sqrt(Math.abs(polyArea));
    let triArea = 0;
    for (let t = tb; t < tb + nt; t++) {
      const a = dm.tris[t * 4]!;
      const b = dm.tris[t * 4 + 1]!;
      const c = dm.tris[t * 4 + 2]!;
      expect(Math.max(a, b, c)).toBeLessThan(nv);
      const area = cross2(vx(a), vz(a), vx(b), vz(b), vx(c), vz(c));
      expect(area * orient).toBeGreaterThan(0);
      triArea += area;
      // Inside the (convex) polygon: every corner on the inner side of every polygon edge.
      for (const k of [a, b, c]) {
        for (let j = 0; j < npoly; j++) {
          const i = (j + 1) % npoly;
          const side = cross2(vx(j), vz(j), vx(i), vz(i), vx(k), vz(k)) * orient;
          expect(side).toBeGreaterThanOrEqual(-1e-5 * scale * scale);
        }
      }
    }
    expect(Math.abs(triArea - polyArea)).toBeLessThanOrEqual(relTol * Math.abs(polyArea));
  }
}

/** Height of the detail surface of polygon p at world (x, z), or NaN when outside. */
function detailHeightAt(dm: PolyMeshDetail, p: number, x: number, z: number): number {
  const vb = dm.meshes[p * 4]!;
  const tb = dm.meshes[p * 4 + 2]!;
  const nt = dm.meshes[p * 4 + 3]!;
  const v = (i: number, k: number) => dm.verts[(vb + i) * 3 + k]!;
  for (let t = tb; t < tb + nt; t++) {
    const [a, b, c] = [dm.tris[t * 4]!, dm.tris[t * 4 + 1]!, dm.tris[t * 4 + 2]!];
    const den = cross2(v(a, 0), v(a, 2), v(b, 0), v(b, 2), v(c, 0), v(c, 2));
    const wa = cross2(x, z, v(b, 0), v(b, 2), v(c, 0), v(c, 2)) / den;
    const wb = cross2(v(a, 0), v(a, 2), x, z, v(c, 0), v(c, 2)) / den;
    const wc = 1 - wa - wb;
    if (wa >= -1e-9 && wb >= -1e-9 && wc >= -1e-9)
      return wa * v(a, 1) + wb * v(b, 1) + wc * v(c, 1);
  }
  return Number.NaN;
}

/** The edges (as "a-b", a < b) of polygon p's detail triangles, with their flag values. */
function edgeFlags(dm: PolyMeshDetail, p: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const tb = dm.meshes[p * 4 + 2]!;
  for (let t = tb; t < tb + dm.meshes[p * 4 + 3]!; t++) {
    const idx = [dm.tris[t * 4]!, dm.tris[t * 4 + 1]!, dm.tris[t * 4 + 2]!];
    for (let e = 0; e < 3; e++) {
      const a = idx[e]!;
      const b = idx[(e + 1) % 3]!;
      const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
      const flag = (dm.tris[t * 4 + 3]! >> (2 * e)) & 3;
      out.set(key, [...(out.get(key) ?? []), flag]);
    }
  }
  return out;
}

const flat = (h: number) => () => h;

describe("buildPolyMeshDetail", () => {
  test("flat square on a flat heightfield: 4 vertices, 2 triangles on the plane, boundary edges flagged", () => {
    const { chf, regions } = makeCompact(12, 12, [{ height: flat(5), region: 1 }]);
    const pm = makePolyMesh([square(1, 1, 11, 11, flat(5))], [1]);
    for (const sampleDist of [6 * CS, 0]) {
      const dm = buildPolyMeshDetail(pm, chf, regions, sampleDist, CH);
      expect(dm.meshCount).toBe(1);
      expect(dm.vertCount).toBe(4);
      expect(dm.triCount).toBe(2);
      expect(Array.from(dm.meshes)).toEqual([0, 4, 0, 2]);
      for (let i = 0; i < 4; i++) expect(dm.verts[i * 3 + 1]).toBe(worldY(5));
      // Each polygon side is a boundary edge of one triangle; the diagonal is shared, unflagged.
      const edges = edgeFlags(dm, 0);
      expect(edges.size).toBe(5);
      const boundary = [...edges].filter(([, fl]) => fl.length === 1);
      const shared = [...edges].filter(([, fl]) => fl.length === 2);
      expect(boundary.map(([k]) => k).sort()).toEqual(["0-1", "0-3", "1-2", "2-3"]);
      expect(boundary.every(([, fl]) => fl[0] === 1)).toBe(true);
      expect(shared).toHaveLength(1);
      expect(shared[0]![1]).toEqual([0, 0]);
      for (let t = 0; t < 2; t++) expect(dm.tris[t * 4 + 3]! & ~0x15).toBe(0);
      expectDetailInvariants(pm, dm);
    }
  });

  test("sampleDist 0 triangulates just the polygon vertices (hexagon: 6 vertices, 4 triangles)", () => {
    const { chf, regions } = makeCompact(20, 20, [
      { height: (x, z) => 5 + ((x * 7 + z * 3) % 5), region: 1 },
    ]);
    const hex = [
      [4, 5, 8],
      [6, 5, 14],
      [12, 5, 16],
      [16, 5, 12],
      [14, 5, 6],
      [8, 5, 4],
    ];
    const pm = makePolyMesh([hex], [1]);
    const dm = buildPolyMeshDetail(pm, chf, regions, 0, CH);
    expect(dm.vertCount).toBe(6);
    expect(dm.triCount).toBe(4);
    for (let i = 0; i < 6; i++) expect(dm.verts[i * 3 + 1]).toBe(worldY(5));
    const edges = edgeFlags(dm, 0);
    for (let i = 0; i < 6; i++) {
      const key = `${Math.min(i, (i + 1) % 6)}-${Math.max(i, (i + 1) % 6)}`;
      expect(edges.get(key)).toEqual([1]);
    }
    expectDetailInvariants(pm, dm);
  });

  test("over a slope rising (curving) with x, grid samples are within the max error", () => {
    // Rises with x along a parabola, with a shallow trough across z so interior points matter.
    const h = (x: number, z: number) => Math.floor((x * x) / 40) + Math.floor((z - 13) ** 2 / 60);
    const { chf, regions } = makeCompact(26, 26, [{ height: h, region: 1 }]);
    const pm = makePolyMesh([square(2, 2, 24, 24, h)], [1]);
    const sampleDist = 2 * CS;
    const maxError = CH;
    const dm = buildPolyMeshDetail(pm, chf, regions, sampleDist, maxError);
    expect(dm.vertCount).toBeGreaterThan(12);
    expectDetailInvariants(pm, dm);
    // Recast measures each interior grid sample at a position jittered by up to 0.1 cell per
    // axis; the slope (< 1.2 voxels per cell in x, < 0.4 in z) moves the surface by less than
    // 0.16 ch over that distance.
    const tol = maxError + 0.16 * CH + 1e-5;
    const inset = Math.sqrt(sampleDist / 2); // Recast samples only this deep inside
    let checked = 0;
    for (let gz = 1; gz * sampleDist < 24 * CS; gz++) {
      for (let gx = 1; gx * sampleDist < 24 * CS; gx++) {
        const x = gx * sampleDist;
        const z = gz * sampleDist;
        if (x < 2 * CS + inset || x > 24 * CS - inset || z < 2 * CS + inset || z > 24 * CS - inset)
          continue;
        const surface = detailHeightAt(dm, 0, x, z);
        const expected = worldY(h(Math.floor(x / CS + 0.01), Math.floor(z / CS + 0.01)));
        expect(Math.abs(surface - expected)).toBeLessThanOrEqual(tol);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    // Every added vertex carries the height of a heightfield cell at (or, jittered, next to) it.
    for (let i = 4; i < dm.vertCount; i++) {
      const cx = Math.floor(dm.verts[i * 3]! / CS + 0.01);
      const cz = Math.floor(dm.verts[i * 3 + 2]! / CS + 0.01);
      const ys: number[] = [];
      for (let dz = -1; dz <= 1; dz++)
        for (let dx = -1; dx <= 1; dx++) ys.push(worldY(h(cx + dx, cz + dz)));
      expect(ys).toContain(dm.verts[i * 3 + 1]);
    }
  });

  test("triangles have positive area, stay inside and cover bumpy polygons (hexagon, triangle)", () => {
    const bumps = (x: number, z: number) =>
      20 + Math.round(4 * Math.sin(x * 0.7) + 3 * Math.cos(z * 0.5) + 2 * Math.sin((x + z) * 0.3));
    const { chf, regions } = makeCompact(40, 40, [{ height: bumps, region: 1 }]);
    const pm = makePolyMesh(
      [
        [
          [4, bumps(4, 12), 12],
          [8, bumps(8, 30), 30],
          [20, bumps(20, 36), 36],
          [34, bumps(34, 28), 28],
          [30, bumps(30, 8), 8],
          [14, bumps(14, 3), 3],
        ],
        [
          [3, bumps(3, 3), 3],
          [3, bumps(3, 38), 38],
          [38, bumps(38, 3), 3],
        ],
      ],
      [1, 1],
    );
    for (const [sampleDist, maxError] of [
      [6 * CS, CH],
      [2 * CS, 0.5 * CH],
      [CS, 2 * CH],
    ] as const) {
      const dm = buildPolyMeshDetail(pm, chf, regions, sampleDist, maxError);
      expect(dm.meshes[1]!).toBeGreaterThan(6);
      expectDetailInvariants(pm, dm);
    }
  });

  test("the height patch follows the polygon's region: upper of two floors, also via the centre seed", () => {
    // Lower floor everywhere at 5 (region 1); upper floor at 30 with a bump (region 2).
    const upper = (x: number, z: number) => 30 + (Math.abs(x - 10) + Math.abs(z - 10) < 5 ? 4 : 0);
    const { chf, regions } = makeCompact(21, 21, [
      { height: flat(5), region: 1 },
      { height: upper, region: 2 },
    ]);
    // Region 2 (its own), 0 (polygon merged from several regions: no region heights, walk
    // from the vertex span nearest in height to the centre) and 9 (no span has it).
    for (const region of [2, 0, 9]) {
      const pm = makePolyMesh([square(2, 2, 18, 18, flat(30))], [region]);
      const ctx = new BuildContext();
      const dm = buildPolyMeshDetail(pm, chf, regions, 2 * CS, CH, ctx);
      expect(ctx.warnings).toEqual([]);
      expect(dm.vertCount).toBeGreaterThan(4);
      for (let i = 0; i < dm.vertCount; i++) {
        expect(dm.verts[i * 3 + 1]).toBeGreaterThanOrEqual(worldY(30));
      }
      // The bump was picked up: some vertex is 4 voxels higher.
      expect(Math.max(...Array.from(dm.verts).filter((_, k) => k % 3 === 1))).toBe(worldY(34));
      expectDetailInvariants(pm, dm);
    }
  });

  test("a polygon with no spans under it keeps just its own vertices and says so", () => {
    // Spans only in the far corner: no span of the region in the patch, none near a vertex.
    const { chf, regions } = makeCompact(20, 20, [
      { height: (x, z) => (x < 3 && z < 3 ? 5 : Number.NaN), region: 1 },
    ]);
    const pm = makePolyMesh([square(10, 10, 18, 18, flat(7))], [1]);
    const ctx = new BuildContext();
    const dm = buildPolyMeshDetail(pm, chf, regions, 2 * CS, CH, ctx);
    expect(ctx.warnings).toEqual([
      "buildPolyMeshDetail: no height data under polygon 0; using its vertices only",
    ]);
    expect(dm.vertCount).toBe(4);
    expect(dm.triCount).toBe(2);
    for (let i = 0; i < 4; i++) expect(dm.verts[i * 3 + 1]).toBe(worldY(7));
    expectDetailInvariants(pm, dm);
  });

  test("polygons sharing an edge get identical samples on it (edges walked in a fixed order)", () => {
    const h = (x: number, z: number) => 10 + ((x * 5 + z * 11) % 7);
    const { chf, regions } = makeCompact(30, 30, [{ height: h, region: 1 }]);
    const left = square(2, 2, 14, 26, h);
    const right = square(14, 2, 26, 26, h);
    const pm = makePolyMesh([left, right], [1, 1]);
    const dm = buildPolyMeshDetail(pm, chf, regions, 2 * CS, 0.5 * CH);
    const onShared = (p: number) => {
      const out: string[] = [];
      for (let i = 0; i < dm.meshes[p * 4 + 1]!; i++) {
        const k = (dm.meshes[p * 4]! + i) * 3;
        if (Math.abs(dm.verts[k]! - f(14 * f(CS))) < 1e-6) {
          out.push(`${dm.verts[k + 1]},${dm.verts[k + 2]}`);
        }
      }
      return out.sort();
    };
    expect(onShared(0).length).toBeGreaterThan(2);
    expect(onShared(0)).toEqual(onShared(1));
  });

  test("is deterministic and counts its output in the context", () => {
    const bumps = (x: number, z: number) => 10 + ((x * x + 3 * z) % 6);
    const { chf, regions } = makeCompact(24, 24, [{ height: bumps, region: 1 }]);
    const pm = makePolyMesh([square(1, 1, 22, 22, bumps)], [1]);
    const ctx = new BuildContext();
    const a = buildPolyMeshDetail(pm, chf, regions, 2 * CS, 0.5 * CH, ctx);
    const b = buildPolyMeshDetail(pm, chf, regions, 2 * CS, 0.5 * CH);
    expect(Buffer.from(a.verts.buffer)).toEqual(Buffer.from(b.verts.buffer));
    expect(Array.from(a.tris)).toEqual(Array.from(b.tris));
    expect(Array.from(a.meshes)).toEqual(Array.from(b.meshes));
    expect(ctx.counts["detail.verts"]).toBe(a.vertCount);
    expect(ctx.counts["detail.tris"]).toBe(a.triCount);
  });

  test("an empty polygon mesh gives an empty detail mesh", () => {
    const { chf, regions } = makeCompact(4, 4, [{ height: flat(1), region: 1 }]);
    const pm = makePolyMesh([], []);
    const dm = buildPolyMeshDetail(pm, chf, regions, 1, 0.2);
    expect(dm).toMatchObject({ meshCount: 0, vertCount: 0, triCount: 0 });
  });
});
