import { MeshwayError } from "../errors.js";
import type { TriangleMesh } from "../input.js";
import type { BuildContext } from "./context.js";
import { addSpan } from "./heightfield.js";
import { type Heightfield, NULL_AREA, SPAN_MAX_HEIGHT, WALKABLE_AREA } from "./types.js";

/** Area id of a triangle that must not be rasterized at all (e.g. zero area). */
export const SKIP_TRIANGLE = 0xff;

const fround = Math.fround;

/**
 * Marks each triangle walkable or not by its slope, like Recast's rcMarkWalkableTriangles.
 *
 * A triangle (v0, v1, v2) is walkable when the unit normal n = normalize(cross(v1 − v0, v2 − v0))
 * has n.y > cos(walkableSlopeDegrees); the comparison is strict, so a triangle exactly at the
 * limit is not walkable (a flat triangle with a 0° limit is not walkable). Arithmetic is float32,
 * as in Recast, so results agree with it bit for bit at the limit.
 *
 * Winding: with +Y up, cross(v1 − v0, v2 − v0) points up when the triangle runs
 * counter-clockwise seen from above. Looking down the −Y axis with +x to the right, +z points
 * down the page (right-handed axes), so:
 *
 *       v0 (0,0,0) ────────> v2 (1,0,0)     +x →
 *        │                 ╱                +z ↓
 *        │             ╱
 *        v          ╱                       v0 → v1 → v2 is counter-clockwise on screen:
 *       v1 (0,0,1)                          cross = (0, 1, 0), walkable.
 *
 * The opposite winding (v0, v2, v1) has a downward normal and is never walkable: a floor must be
 * wound counter-clockwise seen from above (clockwise if you draw your map with +z up the page).
 *
 * A triangle whose normal cannot be normalized (zero area: coincident or collinear vertices)
 * gets SKIP_TRIANGLE and is counted in `degenerateCount`; all others get NULL_AREA or WALKABLE_AREA.
 */
export function markWalkableTriangles(
  mesh: TriangleMesh,
  walkableSlopeDegrees: number,
): { areas: Uint8Array; degenerateCount: number } {
  const pos = mesh.positions;
  const idx = mesh.indices;
  const triCount = mesh.triangleCount;
  const areas = new Uint8Array(triCount);
  // Recast: cosf(angle / 180 * RC_PI) in float32.
  const threshold = fround(
    Math.cos(fround(fround(fround(walkableSlopeDegrees) / 180) * fround(Math.PI))),
  );
  let degenerateCount = 0;
  for (let t = 0; t < triCount; t++) {
    const a = idx[t * 3]! * 3;
    const b = idx[t * 3 + 1]! * 3;
    const c = idx[t * 3 + 2]! * 3;
    const ax = pos[a]!;
    const ay = pos[a + 1]!;
    const az = pos[a + 2]!;
    const e0x = fround(pos[b]! - ax);
    const e0y = fround(pos[b + 1]! - ay);
    const e0z = fround(pos[b + 2]! - az);
    const e1x = fround(pos[c]! - ax);
    const e1y = fround(pos[c + 1]! - ay);
    const e1z = fround(pos[c + 2]! - az);
    const nx = fround(fround(e0y * e1z) - fround(e0z * e1y));
    const ny = fround(fround(e0z * e1x) - fround(e0x * e1z));
    const nz = fround(fround(e0x * e1y) - fround(e0y * e1x));
    const lenSq = fround(fround(fround(nx * nx) + fround(ny * ny)) + fround(nz * nz));
    if (lenSq === 0) {
      areas[t] = SKIP_TRIANGLE;
      degenerateCount++;
      continue;
    }
    const invLen = fround(1 / fround(Math.sqrt(lenSq)));
    areas[t] = fround(ny * invLen) > threshold ? WALKABLE_AREA : NULL_AREA;
  }
  return { areas, degenerateCount };
}

// Scratch polygons for clipping, reused by every call: four buffers (triangle remainder, row,
// cell, row remainder) of up to MAX_POLY_VERTS xyz vertices in one Float32Array. Storing into
// a Float32Array rounds to float32, which together with the explicit frounds reproduces
// Recast's float32 arithmetic exactly. A triangle cut by two pairs of axis-aligned lines has at
// most 7 vertices; the head-room covers repeated vertices lying exactly on a cut line.
const MAX_POLY_VERTS = 16;
const POLY_STRIDE = MAX_POLY_VERTS * 3;
const polyBuf = new Float32Array(POLY_STRIDE * 4);
const axisDelta = new Float32Array(MAX_POLY_VERTS);

/**
 * Splits the convex polygon at `inOff` (n vertices) by the plane {v[axis] = offset} into the
 * part with v[axis] <= offset (written at `outA`) and the part with v[axis] >= offset (at `outB`).
 * Vertices on the plane go to both. Returns countA | (countB << 16).
 */
function splitPoly(
  buf: Float32Array,
  inOff: number,
  n: number,
  outA: number,
  outB: number,
  offset: number,
  axis: number,
): number {
  const delta = axisDelta;
  for (let i = 0; i < n; i++) delta[i] = offset - buf[inOff + i * 3 + axis]!;
  let na = 0;
  let nb = 0;
  for (let i = 0, j = n - 1; i < n; j = i, i++) {
    const di = delta[i]!;
    const dj = delta[j]!;
    const vi = inOff + i * 3;
    if (di >= 0 !== dj >= 0) {
      // Edge j→i crosses the plane: both parts get the intersection point.
      const s = fround(dj / fround(dj - di));
      const vj = inOff + j * 3;
      const xj = buf[vj]!;
      const yj = buf[vj + 1]!;
      const zj = buf[vj + 2]!;
      const oa = outA + na * 3;
      buf[oa] = xj + fround(fround(buf[vi]! - xj) * s);
      buf[oa + 1] = yj + fround(fround(buf[vi + 1]! - yj) * s);
      buf[oa + 2] = zj + fround(fround(buf[vi + 2]! - zj) * s);
      const ob = outB + nb * 3;
      buf[ob] = buf[oa]!;
      buf[ob + 1] = buf[oa + 1]!;
      buf[ob + 2] = buf[oa + 2]!;
      na++;
      nb++;
      // Vertex i itself, unless it lies on the plane (then the intersection is it).
      if (di > 0) {
        const o = outA + na * 3;
        buf[o] = buf[vi]!;
        buf[o + 1] = buf[vi + 1]!;
        buf[o + 2] = buf[vi + 2]!;
        na++;
      } else if (di < 0) {
        const o = outB + nb * 3;
        buf[o] = buf[vi]!;
        buf[o + 1] = buf[vi + 1]!;
        buf[o + 2] = buf[vi + 2]!;
        nb++;
      }
    } else {
      if (di >= 0) {
        const o = outA + na * 3;
        buf[o] = buf[vi]!;
        buf[o + 1] = buf[vi + 1]!;
        buf[o + 2] = buf[vi + 2]!;
        na++;
        if (di !== 0) continue;
      }
      const o = outB + nb * 3;
      buf[o] = buf[vi]!;
      buf[o + 1] = buf[vi + 1]!;
      buf[o + 2] = buf[vi + 2]!;
      nb++;
    }
  }
  return na | (nb << 16);
}

/**
 * Rasterizes triangles into solid spans, as Recast's rcRasterizeTriangles (Mononen): each
 * triangle is cut into grid rows (z) and then cells (x) by splitting the remaining polygon
 * along successive cell boundaries; the y extent of each cell piece, clamped to the heightfield
 * box and snapped down/up to cell heights, becomes a span added with {@link addSpan}.
 *
 * Triangles whose bounding box misses the heightfield box, and triangles marked SKIP_TRIANGLE,
 * add nothing. Everything is computed in float32 like Recast (bounds and cell sizes are read as
 * float32), including Recast's truncation toward zero of grid coordinates: a piece lying less
 * than one cell before the grid's low x/z edge lands in the first cell rather than being cut off.
 * Counts "rasterize.skippedTriangles" and "rasterize.outsideTriangles" in `ctx`.
 */
export function rasterizeTriangles(
  hf: Heightfield,
  positions: Float32Array,
  indices: Uint32Array,
  triAreas: Uint8Array,
  flagMergeThreshold: number,
  ctx?: BuildContext,
): void {
  const triCount = Math.floor(indices.length / 3);
  if (triAreas.length < triCount) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `rasterizeTriangles: triAreas has ${triAreas.length} entries for ${triCount} triangles`,
    );
  }
  const w = hf.width;
  const h = hf.depth;
  const bminX = fround(hf.bmin[0]);
  const bminY = fround(hf.bmin[1]);
  const bminZ = fround(hf.bmin[2]);
  const bmaxX = fround(hf.bmax[0]);
  const bmaxY = fround(hf.bmax[1]);
  const bmaxZ = fround(hf.bmax[2]);
  const cs = fround(hf.cellSize);
  const ics = fround(1 / cs);
  const ich = fround(1 / fround(hf.cellHeight));
  const by = fround(bmaxY - bminY);
  const buf = polyBuf;
  let skipped = 0;
  let outside = 0;

  for (let t = 0; t < triCount; t++) {
    const area = triAreas[t]!;
    if (area === SKIP_TRIANGLE) {
      skipped++;
      continue;
    }
    const a = indices[t * 3]! * 3;
    const b = indices[t * 3 + 1]! * 3;
    const c = indices[t * 3 + 2]! * 3;
    const ax = positions[a]!;
    const ay = positions[a + 1]!;
    const az = positions[a + 2]!;
    const bx = positions[b]!;
    const by_ = positions[b + 1]!;
    const bz = positions[b + 2]!;
    const cx = positions[c]!;
    const cy = positions[c + 1]!;
    const cz = positions[c + 2]!;
    const tMinX = ax < bx ? (ax < cx ? ax : cx) : bx < cx ? bx : cx;
    const tMaxX = ax > bx ? (ax > cx ? ax : cx) : bx > cx ? bx : cx;
    const tMinY = ay < by_ ? (ay < cy ? ay : cy) : by_ < cy ? by_ : cy;
    const tMaxY = ay > by_ ? (ay > cy ? ay : cy) : by_ > cy ? by_ : cy;
    const tMinZ = az < bz ? (az < cz ? az : cz) : bz < cz ? bz : cz;
    const tMaxZ = az > bz ? (az > cz ? az : cz) : bz > cz ? bz : cz;
    // Written as "all overlap" so NaN coordinates count as outside.
    if (
      !(
        tMinX <= bmaxX &&
        tMaxX >= bminX &&
        tMinY <= bmaxY &&
        tMaxY >= bminY &&
        tMinZ <= bmaxZ &&
        tMaxZ >= bminZ
      )
    ) {
      outside++;
      continue;
    }

    let z0 = Math.trunc(fround(fround(tMinZ - bminZ) * ics));
    let z1 = Math.trunc(fround(fround(tMaxZ - bminZ) * ics));
    // Start at -1 so the first cut removes what lies before the grid.
    z0 = z0 < -1 ? -1 : z0 > h - 1 ? h - 1 : z0;
    z1 = z1 < 0 ? 0 : z1 > h - 1 ? h - 1 : z1;

    // Buffer offsets; the roles rotate as polygons are split.
    let rest = 0;
    let row = POLY_STRIDE;
    let cell = POLY_STRIDE * 2;
    let spare = POLY_STRIDE * 3;
    buf[0] = ax;
    buf[1] = ay;
    buf[2] = az;
    buf[3] = bx;
    buf[4] = by_;
    buf[5] = bz;
    buf[6] = cx;
    buf[7] = cy;
    buf[8] = cz;
    let restCount = 3;

    for (let z = z0; z <= z1; z++) {
      const cellZ = fround(bminZ + fround(z * cs));
      const rz = splitPoly(buf, rest, restCount, row, cell, fround(cellZ + cs), 2);
      const rowCount = rz & 0xffff;
      restCount = rz >>> 16;
      const tmp = rest;
      rest = cell;
      cell = tmp;
      if (rowCount < 3 || z < 0) continue;

      let minX = buf[row]!;
      let maxX = minX;
      for (let v = 1; v < rowCount; v++) {
        const px = buf[row + v * 3]!;
        if (px < minX) minX = px;
        if (px > maxX) maxX = px;
      }
      let x0 = Math.trunc(fround(fround(minX - bminX) * ics));
      let x1 = Math.trunc(fround(fround(maxX - bminX) * ics));
      if (x1 < 0 || x0 >= w) continue;
      x0 = x0 < -1 ? -1 : x0;
      x1 = x1 > w - 1 ? w - 1 : x1;

      let rowRest = row;
      let rowRestCount = rowCount;
      for (let x = x0; x <= x1; x++) {
        const cellX = fround(bminX + fround(x * cs));
        const rx = splitPoly(buf, rowRest, rowRestCount, cell, spare, fround(cellX + cs), 0);
        const cellCount = rx & 0xffff;
        rowRestCount = rx >>> 16;
        const t2 = rowRest;
        rowRest = spare;
        spare = t2;
        if (cellCount < 3 || x < 0) continue;

        let spanMin = buf[cell + 1]!;
        let spanMax = spanMin;
        for (let v = 1; v < cellCount; v++) {
          const py = buf[cell + v * 3 + 1]!;
          if (py < spanMin) spanMin = py;
          if (py > spanMax) spanMax = py;
        }
        spanMin = fround(spanMin - bminY);
        spanMax = fround(spanMax - bminY);
        if (spanMax < 0 || spanMin > by) continue;
        if (spanMin < 0) spanMin = 0;
        if (spanMax > by) spanMax = by;

        let iMin = Math.floor(fround(spanMin * ich));
        iMin = iMin < 0 ? 0 : iMin > SPAN_MAX_HEIGHT ? SPAN_MAX_HEIGHT : iMin;
        let iMax = Math.ceil(fround(spanMax * ich));
        iMax = iMax <= iMin ? iMin + 1 : iMax > SPAN_MAX_HEIGHT ? SPAN_MAX_HEIGHT : iMax;
        if (iMax > SPAN_MAX_HEIGHT) continue; // Only when iMin is at the very top: no room.
        addSpan(hf, x, z, iMin, iMax, area, flagMergeThreshold);
      }
      // Put the row buffer back in the rotation so the four offsets stay distinct.
      if (rowRest !== row) {
        const t3 = row;
        row = rowRest;
        rowRest = t3;
      }
    }
  }
  if (ctx) {
    if (skipped > 0) ctx.count("rasterize.skippedTriangles", skipped);
    if (outside > 0) ctx.count("rasterize.outsideTriangles", outside);
  }
}
