import { beforeAll, describe, expect, it } from "vitest";
import { MeshwayError } from "../../src/errors.js";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { Vec3 } from "../../src/math/vec3.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "../../src/navmesh/tile.js";
import { encodePng } from "../../src/node/png.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import {
  blendPixel,
  createImage,
  fillPolygonValue,
  getPixel,
  type Rgba,
  type RgbaImage,
} from "../../src/render/raster.js";
import {
  areaColour,
  DEFAULT_RENDER_SIZE,
  layoutTopDown,
  polyRing,
  renderTopDown,
  type TopDownLayout,
} from "../../src/render/top-down.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

const saturation = (p: Rgba) => Math.max(p[0], p[1], p[2]) - Math.min(p[0], p[1], p[2]);

/** Area-weighted centroid of polygon p's pixel ring, and its pixel area. */
function centroid(L: TopDownLayout, p: number): { x: number; y: number; area: number } {
  const r = polyRing(L, p);
  const n = r.length / 2;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const cross = r[i * 2]! * r[j * 2 + 1]! - r[j * 2]! * r[i * 2 + 1]!;
    a += cross;
    cx += (r[i * 2]! + r[j * 2]!) * cross;
    cy += (r[i * 2 + 1]! + r[j * 2 + 1]!) * cross;
  }
  return { x: cx / (3 * a), y: cy / (3 * a), area: Math.abs(a / 2) };
}

/** Even-odd point-in-polygon test on x, y pairs. */
function inside(ring: ArrayLike<number>, x: number, y: number): boolean {
  let odd = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[i * 2]!;
    const yi = ring[i * 2 + 1]!;
    const xj = ring[j * 2]!;
    const yj = ring[j * 2 + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

/** Distance from (x, y) to a polyline (or closed ring) of x, y pairs. */
function distToSegments(pts: ArrayLike<number>, closed: boolean, x: number, y: number): number {
  const n = pts.length / 2;
  let best = Infinity;
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const j = (i + 1) % n;
    const ax = pts[i * 2]!;
    const ay = pts[i * 2 + 1]!;
    const dx = pts[j * 2]! - ax;
    const dy = pts[j * 2 + 1]! - ay;
    const l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
  }
  return best;
}

describe("renderTopDown on nav_test", () => {
  const mesh = loadSharedMesh("nav_test");
  let navMesh: NavMesh;
  let path: Vec3[];
  let img: RgbaImage;
  let L: TopDownLayout;

  beforeAll(() => {
    navMesh = buildNavMesh(mesh).navMesh;
    const r = new NavMeshQuery(navMesh).computePath([-20, -2, 20], [16.8, -2, -22.4], {
      halfExtents: [2, 10, 2],
    });
    expect(r.status).toBe("complete");
    path = r.points;
    img = renderTopDown({ geometry: mesh, navMesh, path });
    L = layoutTopDown({ geometry: mesh, navMesh, path });
  });

  it("is 800 pixels on its longer side with the scene's aspect, white at the corners", () => {
    expect(Math.max(img.width, img.height)).toBe(DEFAULT_RENDER_SIZE);
    expect(img.data.length).toBe(img.width * img.height * 4);
    let minX = Infinity;
    let maxX = -Infinity;
    let minZ = Infinity;
    let maxZ = -Infinity;
    for (let i = 0; i < mesh.positions.length; i += 3) {
      minX = Math.min(minX, mesh.positions[i]!);
      maxX = Math.max(maxX, mesh.positions[i]!);
      minZ = Math.min(minZ, mesh.positions[i + 2]!);
      maxZ = Math.max(maxZ, mesh.positions[i + 2]!);
    }
    // The scene spans the longer side minus the margins, centred; the short side fits it.
    const s = L.view.scale;
    const left = L.view.offsetX + minX * s;
    const right = L.view.offsetX + maxX * s;
    const top = L.view.offsetY + minZ * s;
    const bottom = L.view.offsetY + maxZ * s;
    expect(left).toBeCloseTo(img.width - right, 6);
    expect(Math.abs(top - (img.height - bottom))).toBeLessThanOrEqual(1);
    expect(left).toBeGreaterThan(10);
    expect(top).toBeGreaterThan(10);
    for (const [x, y] of [
      [0, 0],
      [img.width - 1, 0],
      [0, img.height - 1],
      [img.width - 1, img.height - 1],
    ]) {
      expect(getPixel(img, x!, y!)).toEqual([255, 255, 255, 255]);
    }
  });

  it("lays out every navmesh polygon; neighbours get different colours", () => {
    let total = 0;
    for (const t of navMesh.tiles) {
      total += t.polyCount;
    }
    expect(L.polyCount).toBe(total);
    expect(L.bandPolyStart[L.bandCount]).toBe(total);
    // The layout is in draw order: find each tile polygon's fill through its pixel ring.
    const colourAt = new Map<string, string>();
    for (let p = 0; p < L.polyCount; p++) {
      const key = Array.from(polyRing(L, p), (v) => v.toFixed(3)).join();
      colourAt.set(key, Array.from(L.polyFill.subarray(p * 4, p * 4 + 4)).join());
    }
    const t = navMesh.tiles[0]!;
    const nvp = t.maxVertsPerPoly;
    const ringKey = (p: number) => {
      const out: string[] = [];
      for (let j = 0; j < t.polyVertCount[p]!; j++) {
        const v = t.polyVerts[p * nvp + j]! * 3;
        out.push(
          (L.view.offsetX + t.vertices[v]! * L.view.scale).toFixed(3),
          (L.view.offsetY + t.vertices[v + 2]! * L.view.scale).toFixed(3),
        );
      }
      return out.join();
    };
    let pairs = 0;
    for (let p = 0; p < t.polyCount; p++) {
      for (let j = 0; j < t.polyVertCount[p]!; j++) {
        const nb = t.polyNeighbours[p * nvp + j]!;
        if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) !== 0) continue;
        expect(colourAt.get(ringKey(p))).not.toBe(colourAt.get(ringKey(nb - 1)));
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(100);
  });

  it("colours the inside of every polygon (its centroid pixel is saturated, not grey)", () => {
    let checked = 0;
    for (let p = 0; p < L.polyCount; p++) {
      const c = centroid(L, p);
      if (c.area < 100) continue;
      const x = Math.floor(c.x);
      const y = Math.floor(c.y);
      // Where polygons of nearby heights overlap (steps, ledges) their fills mix: skip those.
      let layers = 0;
      for (let q = 0; q < L.polyCount; q++) if (inside(polyRing(L, q), x + 0.5, y + 0.5)) layers++;
      if (layers !== 1) continue;
      // Nor under the path or its end dots, nor on outlines of thin polygons.
      const cx = x + 0.5;
      const cy = y + 0.5;
      const n = L.pathXY.length;
      const dotR = L.style.dotRadius + L.style.dotRimWidth + 2;
      if (distToSegments(L.pathXY, false, cx, cy) < L.style.pathHaloWidth / 2 + 2) continue;
      if (Math.hypot(L.pathXY[0]! - cx, L.pathXY[1]! - cy) < dotR) continue;
      if (Math.hypot(L.pathXY[n - 2]! - cx, L.pathXY[n - 1]! - cy) < dotR) continue;
      if (distToSegments(polyRing(L, p), true, cx, cy) < L.style.wallWidth + 2) continue;
      const px = getPixel(img, x, y);
      expect(saturation(px), `polygon ${p} at ${c.x}, ${c.y}`).toBeGreaterThan(20);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("draws the path in its colour along every segment, a green start and a red end dot", () => {
    const s = L.style;
    const clear = s.dotRadius + s.dotRimWidth + 2;
    const xy = L.pathXY;
    const [sx, sy] = [xy[0]!, xy[1]!];
    const [ex, ey] = [xy[xy.length - 2]!, xy[xy.length - 1]!];
    let samples = 0;
    for (let i = 0; i + 3 < xy.length; i += 2) {
      const len = Math.hypot(xy[i + 2]! - xy[i]!, xy[i + 3]! - xy[i + 1]!);
      for (let d = 0; d <= len; d += 2) {
        const x = xy[i]! + ((xy[i + 2]! - xy[i]!) * d) / len;
        const y = xy[i + 1]! + ((xy[i + 3]! - xy[i + 1]!) * d) / len;
        if (Math.hypot(x - sx, y - sy) < clear || Math.hypot(x - ex, y - ey) < clear) continue;
        expect(getPixel(img, Math.floor(x), Math.floor(y))).toEqual(s.pathColour);
        samples++;
      }
    }
    expect(samples).toBeGreaterThan(100);
    expect(getPixel(img, Math.floor(sx), Math.floor(sy))).toEqual(s.startColour);
    expect(getPixel(img, Math.floor(ex), Math.floor(ey))).toEqual(s.endColour);
    expect(s.startColour[1]).toBeGreaterThan(s.startColour[0]);
  });

  it("is deterministic: two renders give identical pixels and identical PNG bytes", () => {
    const again = renderTopDown({ geometry: mesh, navMesh, path });
    expect(Buffer.from(again.data).equals(Buffer.from(img.data))).toBe(true);
    expect(Buffer.from(encodePng(again)).equals(Buffer.from(encodePng(img)))).toBe(true);
  });

  it("honours size and colourBy: area (one colour for the all-walkable scene)", () => {
    const small = layoutTopDown({ navMesh, size: 300, colourBy: "area" });
    expect(Math.max(small.width, small.height)).toBe(300);
    const fills = new Set<string>();
    for (let p = 0; p < small.polyCount; p++) {
      fills.add(Array.from(small.polyFill.subarray(p * 4, p * 4 + 3)).join());
    }
    expect([...fills]).toEqual([areaColour(63).slice(0, 3).join()]);
    expect(() => layoutTopDown({ navMesh, size: 4 })).toThrow(MeshwayError);
  });

  it("draws geometry alone in greys: lower ground lighter than higher", () => {
    const g = renderTopDown({ geometry: mesh, size: 200 });
    let grey = 0;
    for (let i = 0; i < g.data.length; i += 4) {
      const p: Rgba = [g.data[i]!, g.data[i + 1]!, g.data[i + 2]!, g.data[i + 3]!];
      expect(saturation(p)).toBe(0);
      if (p[0] < 255) grey++;
    }
    expect(grey).toBeGreaterThan(g.width * g.height * 0.3);
  });
});

describe("renderTopDown geometry", () => {
  it("skips faces pointing down: a floor under a ceiling shows the floor, lightest grey", () => {
    const scene = new SceneBuilder()
      .floor(0, 0, 10, 10, 0)
      .quad([0, 5, 0], [10, 5, 0], [10, 5, 10], [0, 5, 10]) // ceiling, facing down
      .floor(8, 8, 10, 10, 2) // a raised corner, so the floor is the lowest of two heights
      .build();
    const L = layoutTopDown({ geometry: scene, size: 100 });
    expect(L.triangleCount).toBe(4);
    const img = renderTopDown({ geometry: scene, size: 100 });
    const x = Math.floor(L.view.offsetX + 3 * L.view.scale);
    const y = Math.floor(L.view.offsetY + 3 * L.view.scale);
    expect(getPixel(img, x, y)).toEqual([226, 226, 226, 255]);
    const hx = Math.floor(L.view.offsetX + 9 * L.view.scale);
    const hy = Math.floor(L.view.offsetY + 9 * L.view.scale);
    expect(getPixel(img, hx, hy)).toEqual([120, 120, 120, 255]);
  });

  it("draws every face of a mesh wound the other way (nothing points up)", () => {
    const down = new SceneBuilder().quad([0, 0, 0], [4, 0, 0], [4, 0, 4], [0, 0, 4]).build();
    expect(layoutTopDown({ geometry: down }).triangleCount).toBe(2);
  });
});

describe("renderTopDown with floors above one another", () => {
  // A 12 × 12 floor and, 4 units above it, a 4-wide bridge across it along z.
  const scene = new SceneBuilder().floor(0, 0, 12, 12).floor(4, -2, 8, 14, 4).build();
  const navMesh = buildNavMesh(scene, { cellSize: 0.25, cellHeight: 0.125 }).navMesh;

  it("shows only the upper floor where it covers the lower one (as seen from above)", () => {
    const L = layoutTopDown({ navMesh, size: 240 });
    const img = renderTopDown({ navMesh, size: 240 });
    expect(L.bandCount).toBe(2);
    expect(L.bandOccluderStart[0]).toBe(L.bandPolyStart[1]);
    // Which polygon is on top at each pixel.
    const top = new Int32Array(L.width * L.height).fill(-1);
    for (let p = 0; p < L.polyCount; p++)
      fillPolygonValue(top, L.width, L.height, polyRing(L, p), p);
    const expectOneLayer = (wx: number, wz: number, upper: boolean) => {
      const x = Math.floor(L.view.offsetX + wx * L.view.scale);
      const y = Math.floor(L.view.offsetY + wz * L.view.scale);
      const p = top[y * L.width + x]!;
      expect(p >= L.bandPolyStart[1]!).toBe(upper);
      // Exactly one translucent fill over white: the lower floor does not show through.
      const ref = createImage(1, 1);
      blendPixel(ref, 0, 0, Array.from(L.polyFill.subarray(p * 4, p * 4 + 4)) as unknown as Rgba);
      expect(getPixel(img, x, y)).toEqual(getPixel(ref, 0, 0));
    };
    expectOneLayer(6, 6.3, true); // on the bridge, above the floor
    expectOneLayer(2.2, 6.3, false); // on the floor beside the bridge
  });

  it("keeps hidden polygons in the layout (occlusion happens when drawing)", () => {
    const L = layoutTopDown({ navMesh });
    let total = 0;
    for (const t of navMesh.tiles) total += t.polyCount;
    expect(L.polyCount).toBe(total);
  });
});
