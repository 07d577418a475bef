/**
 * The top-down picture as SVG, from the same layout as the raster version (same size, pixel
 * coordinates, draw order, colours and widths). Geometry triangles are flat-shaded with the
 * mean of their vertex greys (SVG has no per-vertex colours); upper floors hide lower ones
 * through masks built from the same height bands the raster uses.
 */
import { LABEL_BOX, labelSvgPath } from "./labels.js";
import type { Rgba } from "./raster.js";
import { layoutTopDown, polyRing, type TopDownLayout, type TopDownOptions } from "./top-down.js";

/** A coordinate with at most two decimals, no trailing zeros, never "-0". */
function num(v: number): string {
  const r = Math.round(v * 100) / 100;
  return String(r === 0 ? 0 : r);
}

function hex(c: Rgba | ArrayLike<number>): string {
  let s = "#";
  for (let i = 0; i < 3; i++) s += (c[i]! | 0).toString(16).padStart(2, "0");
  return s;
}

/** fill="…" or stroke="…" plus its opacity when not opaque. */
function paint(attr: "fill" | "stroke", c: Rgba | ArrayLike<number>): string {
  const a = c[3]!;
  return a >= 255 ? `${attr}="${hex(c)}"` : `${attr}="${hex(c)}" ${attr}-opacity="${num(a / 255)}"`;
}

function points(xy: ArrayLike<number>): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < xy.length; i += 2) out.push(`${num(xy[i]!)},${num(xy[i + 1]!)}`);
  return out.join(" ");
}

function segmentsPath(seg: ArrayLike<number>): string {
  const out: string[] = [];
  for (let i = 0; i + 3 < seg.length; i += 4) {
    out.push(`M${num(seg[i]!)} ${num(seg[i + 1]!)}L${num(seg[i + 2]!)} ${num(seg[i + 3]!)}`);
  }
  return out.join("");
}

function ringPath(xy: ArrayLike<number>): string {
  let d = "";
  for (let i = 0; i + 1 < xy.length; i += 2)
    d += `${i === 0 ? "M" : "L"}${num(xy[i]!)} ${num(xy[i + 1]!)}`;
  return `${d}Z`;
}

/** Renders the top-down picture (see renderTopDown) as a standalone SVG document. */
export function renderTopDownSvg(options: TopDownOptions): string {
  return layoutToSvg(layoutTopDown(options));
}

/** Writes a computed layout as SVG. */
export function layoutToSvg(L: TopDownLayout): string {
  const W = L.width;
  const H = L.height;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
  );
  if (L.background[3] > 0)
    out.push(`<rect width="${W}" height="${H}" ${paint("fill", L.background)}/>`);

  // Occluders: for each distinct "first polygon above" index s, a group with the polygons from
  // s on (chained through <use>), drawn black into the masks of the bands below them.
  const starts: number[] = [];
  for (let b = 0; b < L.bandCount; b++) {
    const s = L.bandOccluderStart[b]!;
    if (s < L.polyCount && starts[starts.length - 1] !== s) starts.push(s);
  }
  if (starts.length > 0) {
    out.push("<defs>");
    for (let i = starts.length - 1; i >= 0; i--) {
      const end = i + 1 < starts.length ? starts[i + 1]! : L.polyCount;
      out.push(`<g id="above${i}">`);
      for (let p = starts[i]!; p < end; p++) out.push(`<path d="${ringPath(polyRing(L, p))}"/>`);
      if (i + 1 < starts.length) out.push(`<use href="#above${i + 1}"/>`);
      out.push("</g>");
    }
    for (let i = 0; i < starts.length; i++) {
      out.push(
        `<mask id="band${i}" maskUnits="userSpaceOnUse" x="0" y="0" width="${W}" height="${H}">` +
          `<rect width="${W}" height="${H}" fill="#fff"/>` +
          `<g fill="#000"><use href="#above${i}"/></g></mask>`,
      );
    }
    out.push("</defs>");
  }
  const maskOf = (b: number): string => {
    const i = starts.indexOf(L.bandOccluderStart[b]!);
    return i < 0 ? "" : ` mask="url(#band${i})"`;
  };

  // Geometry, low → high; consecutive triangles of one grey share a path.
  if (L.triangleCount > 0) {
    out.push(`<g class="geometry" shape-rendering="crispEdges">`);
    let d = "";
    let grey = -1;
    const flush = () => {
      if (d !== "") out.push(`<path fill="${hex([grey, grey, grey])}" d="${d}"/>`);
      d = "";
    };
    for (let t = 0; t < L.triangleCount; t++) {
      const g = Math.round(
        (L.triangleGrey[t * 3]! + L.triangleGrey[t * 3 + 1]! + L.triangleGrey[t * 3 + 2]!) / 3,
      );
      if (g !== grey) {
        flush();
        grey = g;
      }
      d += ringPath(L.triangleXY.subarray(t * 6, t * 6 + 6));
    }
    flush();
    out.push("</g>");
  }

  // Navmesh: fills band by band, then outlines band by band (as the raster does).
  if (L.polyCount > 0) {
    out.push(`<g class="navmesh" shape-rendering="crispEdges">`);
    for (let b = 0; b < L.bandCount; b++) {
      out.push(`<g${maskOf(b)}>`);
      for (let p = L.bandPolyStart[b]!; p < L.bandPolyStart[b + 1]!; p++) {
        const f = L.polyFill.subarray(p * 4, p * 4 + 4);
        out.push(`<polygon points="${points(polyRing(L, p))}" ${paint("fill", f)}/>`);
      }
      out.push("</g>");
    }
    out.push("</g>");
    const s = L.style;
    out.push(`<g class="navmesh-edges" fill="none" stroke-linecap="round">`);
    for (let b = 0; b < L.bandCount; b++) {
      const inner = L.innerEdges.subarray(L.bandInnerStart[b]! * 4, L.bandInnerStart[b + 1]! * 4);
      const walls = L.wallEdges.subarray(L.bandWallStart[b]! * 4, L.bandWallStart[b + 1]! * 4);
      if (inner.length === 0 && walls.length === 0) continue;
      out.push(`<g${maskOf(b)}>`);
      if (inner.length > 0) {
        out.push(
          `<path ${paint("stroke", s.innerEdgeColour)} stroke-width="${num(s.innerEdgeWidth)}" d="${segmentsPath(inner)}"/>`,
        );
      }
      if (walls.length > 0) {
        out.push(
          `<path ${paint("stroke", s.wallColour)} stroke-width="${num(s.wallWidth)}" d="${segmentsPath(walls)}"/>`,
        );
      }
      out.push("</g>");
    }
    out.push("</g>");
  }

  const s = L.style;
  const links = L.offMeshLinks;
  if (links.length > 0) {
    out.push(`<g class="off-mesh" ${paint("fill", s.offMeshColour)}>`);
    out.push(
      `<path fill="none" stroke-linecap="round" ${paint("stroke", s.offMeshColour)} stroke-width="${num(s.offMeshWidth)}" d="${segmentsPath(links)}"/>`,
    );
    for (let i = 0; i < links.length; i += 2) {
      out.push(
        `<circle cx="${num(links[i]!)}" cy="${num(links[i + 1]!)}" r="${num(s.offMeshWidth * 1.8)}"/>`,
      );
    }
    out.push("</g>");
  }

  const path = L.pathXY;
  if (path.length >= 2) {
    const n = path.length / 2;
    const pts = points(path);
    const line = `fill="none" stroke-linecap="round" stroke-linejoin="round"`;
    out.push(`<g class="path">`);
    out.push(
      `<polyline points="${pts}" ${line} ${paint("stroke", s.pathHaloColour)} stroke-width="${num(s.pathHaloWidth)}"/>`,
    );
    out.push(
      `<polyline points="${pts}" ${line} ${paint("stroke", s.pathColour)} stroke-width="${num(s.pathWidth)}"/>`,
    );
    const dot = (x: number, y: number, c: Rgba) => {
      out.push(
        `<circle cx="${num(x)}" cy="${num(y)}" r="${num(s.dotRadius + s.dotRimWidth)}" fill="#ffffff"/>`,
      );
      out.push(
        `<circle cx="${num(x)}" cy="${num(y)}" r="${num(s.dotRadius)}" ${paint("fill", c)}/>`,
      );
    };
    dot(path[0]!, path[1]!, s.startColour);
    dot(path[(n - 1) * 2]!, path[(n - 1) * 2 + 1]!, s.endColour);
    out.push("</g>");
  }
  for (const label of L.labels) {
    out.push(
      `<g class="label"><rect x="${label.x}" y="${label.y}" width="${label.width}" height="${label.height}" ${paint("fill", LABEL_BOX)}/>` +
        `<path ${paint("fill", label.colour)} d="${labelSvgPath(label)}"/><title>${label.text}</title></g>`,
    );
  }
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
