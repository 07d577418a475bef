import { beforeAll, describe, expect, it } from "vitest";
import { buildNavMesh } from "../../src/generate/build-nav-mesh.js";
import type { Vec3 } from "../../src/math/vec3.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { renderTopDownSvg } from "../../src/render/svg.js";
import { layoutTopDown } from "../../src/render/top-down.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { SceneBuilder } from "../helpers/scenes.js";

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
}

/**
 * A strict little XML reader for the subset the renderer writes (elements, double-quoted
 * attributes, no text content): throws on anything malformed — unbalanced or misnested tags,
 * bad attribute syntax, duplicate attributes, stray characters.
 */
function parseXml(text: string): Element {
  const root: Element = { name: "#root", attrs: {}, children: [] };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    tag.lastIndex = i;
    const m = tag.exec(text);
    if (!m) throw new Error(`malformed XML at ${i}: ${text.slice(i, i + 40)}`);
    i = tag.lastIndex;
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      if (attrText || selfClose) throw new Error(`bad closing tag ${name}`);
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
      attrs[a[1]!] = a[2]!;
    }
    const el: Element = { name: name!, attrs, children: [] };
    stack[stack.length - 1]!.children.push(el);
    if (!selfClose) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (root.children.length !== 1) throw new Error("expected one root element");
  return root.children[0]!;
}

function all(el: Element, name: string, out: Element[] = []): Element[] {
  if (el.name === name) out.push(el);
  for (const c of el.children) all(c, name, out);
  return out;
}

function parsePoints(s: string): number[][] {
  return s.split(" ").map((p) => p.split(",").map(Number));
}

describe("renderTopDownSvg on nav_test", () => {
  const mesh = loadSharedMesh("nav_test");
  let navMesh: NavMesh;
  let path: Vec3[];
  let svg: string;
  let doc: Element;

  beforeAll(() => {
    navMesh = buildNavMesh(mesh).navMesh;
    path = new NavMeshQuery(navMesh).computePath([-20, -2, 20], [16.8, -2, -22.4], {
      halfExtents: [2, 10, 2],
    }).points;
    svg = renderTopDownSvg({ geometry: mesh, navMesh, path });
    doc = parseXml(svg);
  });

  it("is well-formed SVG with the raster's size", () => {
    const L = layoutTopDown({ geometry: mesh, navMesh, path });
    expect(doc.name).toBe("svg");
    expect(doc.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
    expect(doc.attrs.width).toBe(String(L.width));
    expect(doc.attrs.height).toBe(String(L.height));
    expect(doc.attrs.viewBox).toBe(`0 0 ${L.width} ${L.height}`);
    // White background first.
    expect(doc.children[0]!.name).toBe("rect");
    expect(doc.children[0]!.attrs.fill).toBe("#ffffff");
    // Every mask and <use> reference resolves.
    const ids = new Set(
      all(doc, "g")
        .concat(all(doc, "mask"))
        .map((e) => e.attrs.id)
        .filter(Boolean),
    );
    for (const u of all(doc, "use")) expect(ids.has(u.attrs.href!.slice(1))).toBe(true);
    for (const g of all(doc, "g")) {
      if (g.attrs.mask) expect(ids.has(g.attrs.mask.slice(5, -1))).toBe(true);
    }
    expect(all(doc, "mask").length).toBeGreaterThan(0); // nav_test has floors above floors
  });

  it("has one <polygon> per navmesh polygon, at the layout's pixel positions", () => {
    const L = layoutTopDown({ geometry: mesh, navMesh, path });
    const polygons = all(doc, "polygon");
    let total = 0;
    for (const t of navMesh.tiles) total += t.polyCount;
    expect(polygons.length).toBe(total);
    for (let p = 0; p < total; p++) {
      const pts = parsePoints(polygons[p]!.attrs.points!);
      const ring = L.polyXY.subarray(L.polyStart[p]! * 2, L.polyStart[p + 1]! * 2);
      expect(pts.length).toBe(ring.length / 2);
      for (let i = 0; i < pts.length; i++) {
        expect(Math.abs(pts[i]![0]! - ring[i * 2]!)).toBeLessThanOrEqual(0.005);
        expect(Math.abs(pts[i]![1]! - ring[i * 2 + 1]!)).toBeLessThanOrEqual(0.005);
      }
      expect(polygons[p]!.attrs.fill).toMatch(/^#[0-9a-f]{6}$/);
      expect(Number(polygons[p]!.attrs["fill-opacity"])).toBeCloseTo(150 / 255, 2);
    }
  });

  it("draws the path as a polyline through every path point, with start and end dots", () => {
    const L = layoutTopDown({ geometry: mesh, navMesh, path });
    const g = all(doc, "g").find((e) => e.attrs.class === "path")!;
    const lines = all(g, "polyline");
    expect(lines.length).toBe(2); // white halo, then the line
    const line = lines[1]!;
    expect(line.attrs.stroke).toBe("#c81e28");
    const pts = parsePoints(line.attrs.points!);
    expect(pts.length).toBe(path.length);
    for (let i = 0; i < pts.length; i++) {
      expect(pts[i]![0]).toBeCloseTo(L.pathXY[i * 2]!, 2);
      expect(pts[i]![1]).toBeCloseTo(L.pathXY[i * 2 + 1]!, 2);
    }
    const dots = all(g, "circle");
    expect(dots.length).toBe(4);
    expect(Number(dots[1]!.attrs.cx)).toBeCloseTo(pts[0]![0]!, 2);
    expect(Number(dots[3]!.attrs.cy)).toBeCloseTo(pts[pts.length - 1]![1]!, 2);
  });

  it("is deterministic and has no NaN or -0 coordinates", () => {
    expect(renderTopDownSvg({ geometry: mesh, navMesh, path })).toBe(svg);
    expect(svg).not.toMatch(/NaN|Infinity|-0[ ,"LZ]/);
  });
});

describe("renderTopDownSvg on a single floor", () => {
  it("writes no masks when nothing lies above anything, and no path group without a path", () => {
    const navMesh = buildNavMesh(new SceneBuilder().floor(0, 0, 10, 6).build()).navMesh;
    const doc = parseXml(renderTopDownSvg({ navMesh, size: 200 }));
    expect(all(doc, "mask")).toEqual([]);
    expect(all(doc, "polyline")).toEqual([]);
    expect(all(doc, "polygon").length).toBe(navMesh.tiles[0]!.polyCount);
    expect(Math.max(Number(doc.attrs.width), Number(doc.attrs.height))).toBe(200);
  });

  it("draws a geometry-only picture as grey paths", () => {
    const doc = parseXml(
      renderTopDownSvg({ geometry: new SceneBuilder().floor(0, 0, 4, 4).build() }),
    );
    const paths = all(doc, "path");
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p.attrs.fill).toMatch(/^#([0-9a-f]{2})\1\1$/);
    expect(all(doc, "polygon")).toEqual([]);
  });
});
