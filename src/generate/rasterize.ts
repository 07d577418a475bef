import { MeshwayError } from "../errors.js";
import type { TriangleMesh } from "../input.js";
import type { BuildContext } from "./context.js";
import { addSpan } from "./heightfield.js";
import { type Heightfield, NULL_AREA, SPAN_MAX_HEIGHT, WALKABLE_AREA } from "./types.js";

/** Area id of a triangle that must not be rasterized at all (e.g. zero area). */
export const SKIP_TRIANGLE = 0xff;

const fround = Math.fround;

/**
 * The heightfield's span limit (maxVoxels) ran out while rasterizing triangle `triangle` (an
 * index into the indices given to rasterizeTriangles); callers rename the triangle to the
 * input's numbering and add what to change.
 */
export class SpanLimitError extends MeshwayError {
  readonly triangle: number;
  constructor(triangle: number, cause: MeshwayError) {
    super("GRID_TOO_LARGE", `rasterizing triangle ${triangle}: ${cause.message}`);
    this.triangle = triangle;
  }
}

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

// Scratch polygons for clipping, reused by every call: three buffers (triangle remainder, row,
// free) of up to MAX_POLY_VERTS xyz vertices whose roles rotate, so nothing is allocated per
// triangle. Every stored coordinate is a float32 value, and each arithmetic step is rounded
// with fround: fround(a op b) of float32 inputs equals the float32 operation, so this
// reproduces Recast's float32 clipping bit for bit. A triangle cut by two pairs of axis-aligned
// lines has at most 7 vertices (Recast's own buffers hold 7); the head-room covers vertices
// repeated when they lie exactly on a cut line.
const MAX_POLY_VERTS = 32;
const POLY_STRIDE = MAX_POLY_VERTS * 3;
const polyBuf = new Float64Array(POLY_STRIDE * 3);
/** Grid constants of the current rasterizeTriangles call, in float32: bmin xyz, bmax xyz,
 * cellSize, 1 / cellSize, 1 / cellHeight, box height. */
const gridParams = new Float64Array(10);

/**
 * Splits the convex polygon at `inOff` (n >= 1 vertices) by the plane z = offset, the far edge
 * of grid row `z`, into the part with z <= offset (written at `outA`) and the part with
 * z >= offset (at `outB`). Vertices on the plane go to both. Returns countA | (countB << 16).
 * Takes the row, not the offset: a float argument to a call V8 does not inline is boxed, one
 * heap number per row (most of the build's garbage).
 */
function splitRow(
  buf: Float64Array,
  inOff: number,
  n: number,
  outA: number,
  outB: number,
  z: number,
): number {
  const g = gridParams;
  const cs = g[6]!;
  const offset = fround(fround(g[2]! + fround(z * cs)) + cs);
  const last = inOff + (n - 1) * 3;
  let xj = buf[last]!;
  let yj = buf[last + 1]!;
  let zj = buf[last + 2]!;
  // Signs of the unrounded differences equal those of the float32 ones; the values are
  // rounded only where an intersection is computed.
  let dj = offset - zj;
  let a = outA;
  let b = outB;
  for (let i = inOff, end = inOff + n * 3; i < end; i += 3) {
    const xi = buf[i]!;
    const yi = buf[i + 1]!;
    const zi = buf[i + 2]!;
    const di = offset - zi;
    if (di >= 0 !== dj >= 0) {
      // Edge j→i crosses the plane: both parts get the intersection point.
      const dj32 = fround(dj);
      const s = fround(dj32 / fround(dj32 - fround(di)));
      const px = fround(xj + fround(fround(xi - xj) * s));
      const py = fround(yj + fround(fround(yi - yj) * s));
      const pz = fround(zj + fround(fround(zi - zj) * s));
      buf[a] = px;
      buf[a + 1] = py;
      buf[a + 2] = pz;
      a += 3;
      buf[b] = px;
      buf[b + 1] = py;
      buf[b + 2] = pz;
      b += 3;
      // Vertex i itself, unless it lies on the plane (then the intersection is it).
      if (di > 0) {
        buf[a] = xi;
        buf[a + 1] = yi;
        buf[a + 2] = zi;
        a += 3;
      } else if (di < 0) {
        buf[b] = xi;
        buf[b + 1] = yi;
        buf[b + 2] = zi;
        b += 3;
      }
    } else {
      // Same side; a vertex on the plane belongs to both parts.
      if (di >= 0) {
        buf[a] = xi;
        buf[a + 1] = yi;
        buf[a + 2] = zi;
        a += 3;
      }
      if (!(di > 0)) {
        buf[b] = xi;
        buf[b + 1] = yi;
        buf[b + 2] = zi;
        b += 3;
      }
    }
    xj = xi;
    yj = yi;
    zj = zi;
    dj = di;
  }
  return ((a - outA) / 3) | (((b - outB) / 3) << 16);
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
 * Throws SpanLimitError (a MeshwayError, "GRID_TOO_LARGE") when the spans exceed hf.maxSpans.
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
  if (w === 0 || h === 0) return;
  const g = gridParams;
  g[0] = fround(hf.bmin[0]);
  g[1] = fround(hf.bmin[1]);
  g[2] = fround(hf.bmin[2]);
  g[3] = fround(hf.bmax[0]);
  g[4] = fround(hf.bmax[1]);
  g[5] = fround(hf.bmax[2]);
  g[6] = fround(hf.cellSize);
  g[7] = fround(1 / g[6]);
  g[8] = fround(1 / fround(hf.cellHeight));
  g[9] = fround(g[4] - g[1]);
  let skipped = 0;
  let outside = 0;

  let t = 0;
  try {
    for (; t < triCount; t++) {
      const area = triAreas[t]!;
      if (area === SKIP_TRIANGLE) {
        skipped++;
        continue;
      }
      const inside = rasterizeTriangle(
        hf,
        positions,
        indices[t * 3]! * 3,
        indices[t * 3 + 1]! * 3,
        indices[t * 3 + 2]! * 3,
        area,
        flagMergeThreshold,
      );
      if (!inside) outside++;
    }
  } catch (e) {
    // The span pool hit hf.maxSpans: say which triangle was being rasterized.
    if (e instanceof MeshwayError && e.code === "GRID_TOO_LARGE") throw new SpanLimitError(t, e);
    throw e;
  }
  if (ctx) {
    if (skipped > 0) ctx.count("rasterize.skippedTriangles", skipped);
    if (outside > 0) ctx.count("rasterize.outsideTriangles", outside);
  }
}

/**
 * Rasterizes the triangle whose vertices start at positions[a], [b], [c]; returns false when
 * its bounding box misses the heightfield box. A function per triangle (rather than one big
 * loop) keeps the hot code small, so V8 optimizes it within the first few hundred triangles.
 */
function rasterizeTriangle(
  hf: Heightfield,
  positions: Float32Array,
  a: number,
  b: number,
  c: number,
  area: number,
  flagMergeThreshold: number,
): boolean {
  const g = gridParams;
  const bminX = g[0]!;
  const bminY = g[1]!;
  const bminZ = g[2]!;
  const ics = g[7]!;
  const w = hf.width;
  const h = hf.depth;
  const buf = polyBuf;
  const ax = positions[a]!;
  const ay = positions[a + 1]!;
  const az = positions[a + 2]!;
  const bx = positions[b]!;
  const by = positions[b + 1]!;
  const bz = positions[b + 2]!;
  const cx = positions[c]!;
  const cy = positions[c + 1]!;
  const cz = positions[c + 2]!;
  // Written as "all overlap" so NaN coordinates count as outside.
  if (
    !(
      Math.min(ax, bx, cx) <= g[3]! &&
      Math.max(ax, bx, cx) >= bminX &&
      Math.min(ay, by, cy) <= g[4]! &&
      Math.max(ay, by, cy) >= bminY &&
      Math.min(az, bz, cz) <= g[5]! &&
      Math.max(az, bz, cz) >= bminZ
    )
  ) {
    return false;
  }

  let z0 = Math.trunc(fround(fround(Math.min(az, bz, cz) - bminZ) * ics));
  let z1 = Math.trunc(fround(fround(Math.max(az, bz, cz) - bminZ) * ics));
  // Start at -1 so the first cut removes what lies before the grid.
  z0 = Math.max(-1, Math.min(z0, h - 1));
  z1 = Math.max(0, Math.min(z1, h - 1));

  // Three polygon buffers whose roles rotate as polygons are split.
  let rest = 0;
  const row = POLY_STRIDE;
  let free = POLY_STRIDE * 2;
  buf[0] = ax;
  buf[1] = ay;
  buf[2] = az;
  buf[3] = bx;
  buf[4] = by;
  buf[5] = bz;
  buf[6] = cx;
  buf[7] = cy;
  buf[8] = cz;
  let restCount = 3;

  for (let z = z0; z <= z1; z++) {
    if (restCount === 0) break; // Nothing left of the triangle.
    const rz = splitRow(buf, rest, restCount, row, free, z);
    const rowCount = rz & 0xffff;
    restCount = rz >>> 16;
    const t1 = rest;
    rest = free;
    free = t1;
    if (rowCount < 3 || z < 0) continue;

    let minX = buf[row]!;
    let maxX = minX;
    for (let v = row + 3, end = row + rowCount * 3; v < end; v += 3) {
      const px = buf[v]!;
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
    }
    let x0 = Math.trunc(fround(fround(minX - bminX) * ics));
    let x1 = Math.trunc(fround(fround(maxX - bminX) * ics));
    if (x1 < 0 || x0 >= w) continue;
    if (x0 < -1) x0 = -1;
    if (x1 > w - 1) x1 = w - 1;

    rasterizeRow(hf, row, rowCount, free, x0, x1, z, area, flagMergeThreshold);
  }
  return true;
}

/**
 * Cuts the row polygon at `row` (rowCount vertices) into cells x0..x1 of grid row z and adds
 * each cell's span. The buffer at `free` is scratch; the two buffers swap roles per cut.
 */
function rasterizeRow(
  hf: Heightfield,
  row: number,
  rowCount: number,
  free: number,
  x0: number,
  x1: number,
  z: number,
  area: number,
  flagMergeThreshold: number,
): void {
  const g = gridParams;
  const bminX = g[0]!;
  const bminY = g[1]!;
  const cs = g[6]!;
  const ich = g[8]!;
  const boxHeight = g[9]!;
  const maxHeight = SPAN_MAX_HEIGHT; // Local copy: cheaper than an imported binding in hot loops.
  const buf = polyBuf;
  // Fast form of the remaining row (see below): buffer offsets of the two cut points p1, p2,
  // of p1's successor r1 and p2's predecessor rm, and the smallest x of the other vertices.
  let fast = false;
  let p1 = 0;
  let p2 = 0;
  let r1 = 0;
  let rm = 0;
  let restMinX = 0;
  for (let x = x0; x <= x1; x++) {
    if (rowCount === 0) break; // Nothing left of the row.
    const cellX = fround(bminX + fround(x * cs));
    const offset = fround(cellX + cs);
    let cellCount = 0;
    let yMin = Infinity;
    let yMax = -Infinity;
    if (fast && offset < restMinX && buf[p1]! < offset && buf[p2]! < offset) {
      // The remaining row is, cyclically, p1, r1 … rm, p2 where p1 and p2 are the points of the
      // previous cut and every r lies strictly right of this cut: the generic cut below would
      // cross exactly the edges p1→r1 and rm→p2, give the cell {p1, p1', p2', p2} and leave
      // p1', r1 … rm, p2'. Computing just those two points (same float32 steps) and updating
      // p1, p2 in place gives the identical polygon without walking or copying the others.
      const xa = buf[p1]!;
      const ya = buf[p1 + 1]!;
      const xb = buf[r1]!;
      const yb = buf[r1 + 1]!;
      const da = fround(offset - xa);
      const sa = fround(da / fround(da - fround(offset - xb)));
      const ya2 = fround(ya + fround(fround(yb - ya) * sa));
      const xc = buf[rm]!;
      const yc = buf[rm + 1]!;
      const xd = buf[p2]!;
      const yd = buf[p2 + 1]!;
      const dc = fround(offset - xc);
      const sc = fround(dc / fround(dc - fround(offset - xd)));
      const yc2 = fround(yc + fround(fround(yd - yc) * sc));
      buf[p1] = fround(xa + fround(fround(xb - xa) * sa));
      buf[p1 + 1] = ya2;
      buf[p2] = fround(xc + fround(fround(xd - xc) * sc));
      buf[p2 + 1] = yc2;
      if (ya < yd) {
        yMin = ya;
        yMax = yd;
      } else {
        yMin = yd;
        yMax = ya;
      }
      if (ya2 < yMin) yMin = ya2;
      if (ya2 > yMax) yMax = ya2;
      if (yc2 < yMin) yMin = yc2;
      if (yc2 > yMax) yMax = yc2;
      cellCount = 4;
    } else {
      // Cut the row at x = offset: the cell part only needs its vertex count and y range,
      // the rest of the row is kept for the next cut. z is no longer needed once the row is
      // cut out, so it is not carried (this is the hottest loop of the build).
      let xj = buf[row + rowCount * 3 - 3]!;
      let yj = buf[row + rowCount * 3 - 2]!;
      let dj = offset - xj;
      let o = free;
      // Track whether the rest takes the fast form: exactly two cut points, all other
      // vertices strictly right of the cut.
      let crossings = 0;
      let plain = true;
      let minX = Infinity;
      for (let i = row, end = row + rowCount * 3; i < end; i += 3) {
        const xi = buf[i]!;
        const yi = buf[i + 1]!;
        const di = offset - xi;
        if (di >= 0 !== dj >= 0) {
          const dj32 = fround(dj);
          const s = fround(dj32 / fround(dj32 - fround(di)));
          const py = fround(yj + fround(fround(yi - yj) * s));
          if (py < yMin) yMin = py;
          if (py > yMax) yMax = py;
          cellCount++;
          buf[o] = fround(xj + fround(fround(xi - xj) * s));
          buf[o + 1] = py;
          crossings++;
          if (dj >= 0) p1 = o;
          else p2 = o;
          o += 3;
          if (di > 0) {
            if (yi < yMin) yMin = yi;
            if (yi > yMax) yMax = yi;
            cellCount++;
          } else if (di < 0) {
            buf[o] = xi;
            buf[o + 1] = yi;
            o += 3;
            if (xi < minX) minX = xi;
          }
        } else {
          if (di >= 0) {
            if (yi < yMin) yMin = yi;
            if (yi > yMax) yMax = yi;
            cellCount++;
          }
          if (!(di > 0)) {
            buf[o] = xi;
            buf[o + 1] = yi;
            o += 3;
            if (di < 0) {
              if (xi < minX) minX = xi;
            } else {
              plain = false;
            }
          }
        }
        xj = xi;
        yj = yi;
        dj = di;
      }
      rowCount = (o - free) / 3;
      fast = plain && crossings === 2 && rowCount >= 3;
      if (fast) {
        restMinX = minX;
        r1 = p1 + 3 === o ? free : p1 + 3;
        rm = p2 === free ? o - 3 : p2 - 3;
      }
      const t2 = row;
      row = free;
      free = t2;
    }
    if (cellCount < 3 || x < 0) continue;

    let spanMin = fround(yMin - bminY);
    let spanMax = fround(yMax - bminY);
    if (spanMax < 0 || spanMin > boxHeight) continue;
    if (spanMin < 0) spanMin = 0;
    if (spanMax > boxHeight) spanMax = boxHeight;

    let iMin = Math.floor(fround(spanMin * ich));
    iMin = iMin < 0 ? 0 : Math.min(iMin, maxHeight);
    let iMax = Math.ceil(fround(spanMax * ich));
    iMax = iMax <= iMin ? iMin + 1 : Math.min(iMax, maxHeight);
    if (iMax > maxHeight) continue; // Only when iMin is at the very top: no room.
    addSpan(hf, x, z, iMin, iMax, area, flagMergeThreshold);
  }
}
