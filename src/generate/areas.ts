import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { type CompactHeightfield, NOT_CONNECTED, NULL_AREA, WALKABLE_AREA } from "./types.js";

// Module-local copies of the shared constants: hot loops then read plain constants even
// where a test runner rewrites imports into property loads on a module object.
const UNWALKABLE = NULL_AREA;
const NO_LINK = NOT_CONNECTED;

// Area marking as in Recast's rcMarkBoxArea / rcMarkCylinderArea / rcMarkConvexPolyArea
// (Mononen): a span is marked when its column lies in the shape's footprint and its floor
// height (in voxels, truncated toward zero like Recast's int casts) lies in the shape's Y
// range; NULL_AREA spans are never revived. Footprint arithmetic is rounded to float32 at
// every step so boundary cells match Recast's exactly.

const f32 = Math.fround;

function checkAreaId(fn: string, areaId: number): void {
  if (!Number.isInteger(areaId) || areaId < 0 || areaId > WALKABLE_AREA) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `${fn}: areaId must be an integer in [0, ${WALKABLE_AREA}], got ${areaId}`,
    );
  }
}

function checkFinite(fn: string, name: string, v: number): void {
  if (!Number.isFinite(v)) {
    throw new MeshwayError("INVALID_ARGUMENT", `${fn}: ${name} must be finite, got ${v}`);
  }
}

/** World coordinate → grid index along one axis, as Recast's `(int)((v - origin) / size)`. */
function toGrid(v: number, origin: number, size: number): number {
  return Math.trunc(f32(f32(f32(v) - f32(origin)) / f32(size)));
}

/**
 * Marks, in every column of [minX..maxX] × [minZ..maxZ] (grid indices, clamped to the grid),
 * the walkable spans with floor in [minY, maxY]. Does nothing when the footprint misses the grid.
 */
function markColumns(
  chf: CompactHeightfield,
  minX: number,
  maxX: number,
  minZ: number,
  maxZ: number,
  minY: number,
  maxY: number,
  areaId: number,
): void {
  const w = chf.width;
  if (maxX < 0 || minX >= w || maxZ < 0 || minZ >= chf.depth) return;
  if (minX < 0) minX = 0;
  if (maxX >= w) maxX = w - 1;
  if (minZ < 0) minZ = 0;
  if (maxZ >= chf.depth) maxZ = chf.depth - 1;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanY = chf.spanY;
  const areas = chf.areas;
  for (let z = minZ; z <= maxZ; z++) {
    for (let x = minX; x <= maxX; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        const y = spanY[i]!;
        if (y < minY || y > maxY) continue;
        if (areas[i] === UNWALKABLE) continue;
        areas[i] = areaId;
      }
    }
  }
}

/** Sets `areaId` on walkable spans whose column and floor lie inside the world-space box. */
export function markBoxArea(chf: CompactHeightfield, bmin: Vec3, bmax: Vec3, areaId: number): void {
  checkAreaId("markBoxArea", areaId);
  for (let k = 0; k < 3; k++) {
    checkFinite("markBoxArea", "bmin", bmin[k]!);
    checkFinite("markBoxArea", "bmax", bmax[k]!);
  }
  const cs = chf.cellSize;
  const ch = chf.cellHeight;
  markColumns(
    chf,
    toGrid(bmin[0], chf.bmin[0], cs),
    toGrid(bmax[0], chf.bmin[0], cs),
    toGrid(bmin[2], chf.bmin[2], cs),
    toGrid(bmax[2], chf.bmin[2], cs),
    toGrid(bmin[1], chf.bmin[1], ch),
    toGrid(bmax[1], chf.bmin[1], ch),
    areaId,
  );
}

/**
 * Sets `areaId` on walkable spans whose cell centre lies strictly inside the circle of
 * `radius` around `center` (XZ) and whose floor lies in [center.y, center.y + height].
 */
export function markCylinderArea(
  chf: CompactHeightfield,
  center: Vec3,
  radius: number,
  height: number,
  areaId: number,
): void {
  checkAreaId("markCylinderArea", areaId);
  for (let k = 0; k < 3; k++) checkFinite("markCylinderArea", "center", center[k]!);
  checkFinite("markCylinderArea", "radius", radius);
  checkFinite("markCylinderArea", "height", height);
  const px = f32(center[0]);
  const py = f32(center[1]);
  const pz = f32(center[2]);
  const r = f32(radius);
  const cs = f32(chf.cellSize);
  const ch = chf.cellHeight;
  const ox = f32(chf.bmin[0]);
  const oz = f32(chf.bmin[2]);
  const w = chf.width;
  let minX = toGrid(f32(px - r), ox, cs);
  let maxX = toGrid(f32(px + r), ox, cs);
  let minZ = toGrid(f32(pz - r), oz, cs);
  let maxZ = toGrid(f32(pz + r), oz, cs);
  const minY = toGrid(py, chf.bmin[1], ch);
  const maxY = toGrid(f32(py + f32(height)), chf.bmin[1], ch);
  if (maxX < 0 || minX >= w || maxZ < 0 || minZ >= chf.depth) return;
  if (minX < 0) minX = 0;
  if (maxX >= w) maxX = w - 1;
  if (minZ < 0) minZ = 0;
  if (maxZ >= chf.depth) maxZ = chf.depth - 1;
  const r2 = f32(r * r);
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanY = chf.spanY;
  const areas = chf.areas;
  for (let z = minZ; z <= maxZ; z++) {
    const dz = f32(f32(oz + f32(f32(z + 0.5) * cs)) - pz);
    const dz2 = f32(dz * dz);
    for (let x = minX; x <= maxX; x++) {
      const dx = f32(f32(ox + f32(f32(x + 0.5) * cs)) - px);
      if (f32(f32(dx * dx) + dz2) >= r2) continue;
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      for (let i = first; i < end; i++) {
        if (areas[i] === UNWALKABLE) continue;
        const y = spanY[i]!;
        if (y >= minY && y <= maxY) areas[i] = areaId;
      }
    }
  }
}

/**
 * Sets `areaId` on walkable spans whose cell centre lies inside the polygon (XZ; vertex Y is
 * ignored) and whose floor lies in [minY, maxY] (world units). The crossing-number test is the
 * one Recast uses, so any simple polygon works, not only convex ones.
 */
export function markConvexPolyArea(
  chf: CompactHeightfield,
  verts: ArrayLike<number>,
  minY: number,
  maxY: number,
  areaId: number,
): void {
  checkAreaId("markConvexPolyArea", areaId);
  if (verts.length % 3 !== 0) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      `markConvexPolyArea: verts length ${verts.length} is not a multiple of 3`,
    );
  }
  checkFinite("markConvexPolyArea", "minY", minY);
  checkFinite("markConvexPolyArea", "maxY", maxY);
  const n = verts.length / 3;
  if (n === 0) return;
  // Only x and z matter; keep them as float32 like Recast's input.
  const vx = new Float32Array(n);
  const vz = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = verts[i * 3]!;
    const z = verts[i * 3 + 2]!;
    checkFinite("markConvexPolyArea", `vertex ${i}`, x);
    checkFinite("markConvexPolyArea", `vertex ${i}`, z);
    vx[i] = x;
    vz[i] = z;
  }
  let bx0 = vx[0]!;
  let bx1 = vx[0]!;
  let bz0 = vz[0]!;
  let bz1 = vz[0]!;
  for (let i = 1; i < n; i++) {
    if (vx[i]! < bx0) bx0 = vx[i]!;
    if (vx[i]! > bx1) bx1 = vx[i]!;
    if (vz[i]! < bz0) bz0 = vz[i]!;
    if (vz[i]! > bz1) bz1 = vz[i]!;
  }
  const cs = f32(chf.cellSize);
  const ox = f32(chf.bmin[0]);
  const oz = f32(chf.bmin[2]);
  const w = chf.width;
  let minX = toGrid(bx0, ox, cs);
  let maxX = toGrid(bx1, ox, cs);
  let minZ = toGrid(bz0, oz, cs);
  let maxZ = toGrid(bz1, oz, cs);
  const minYv = toGrid(minY, chf.bmin[1], chf.cellHeight);
  const maxYv = toGrid(maxY, chf.bmin[1], chf.cellHeight);
  if (maxX < 0 || minX >= w || maxZ < 0 || minZ >= chf.depth) return;
  if (minX < 0) minX = 0;
  if (maxX >= w) maxX = w - 1;
  if (minZ < 0) minZ = 0;
  if (maxZ >= chf.depth) maxZ = chf.depth - 1;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const spanY = chf.spanY;
  const areas = chf.areas;
  for (let z = minZ; z <= maxZ; z++) {
    const pz = f32(oz + f32(f32(z + 0.5) * cs));
    for (let x = minX; x <= maxX; x++) {
      const c = x + z * w;
      const first = cellFirst[c]!;
      const end = first + cellCount[c]!;
      if (first === end) continue;
      const px = f32(ox + f32(f32(x + 0.5) * cs));
      // Crossing-number point-in-polygon test, evaluated once per column.
      let inside = false;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const zi = vz[i]!;
        const zj = vz[j]!;
        if (zi > pz === zj > pz) continue;
        const xi = vx[i]!;
        const cross = f32(f32(f32(f32(vx[j]! - xi) * f32(pz - zi)) / f32(zj - zi)) + xi);
        if (px < cross) inside = !inside;
      }
      if (!inside) continue;
      for (let i = first; i < end; i++) {
        if (areas[i] === UNWALKABLE) continue;
        const y = spanY[i]!;
        if (y >= minYv && y <= maxYv) areas[i] = areaId;
      }
    }
  }
}

/**
 * Replaces each walkable span's area by the median of itself and its 8 neighbours (missing or
 * NULL_AREA neighbours count as the span's own area), as in Recast's rcMedianFilterWalkableArea.
 * Diagonals are reached through the 4-neighbour in direction d, then its link in d + 1.
 */
export function medianFilterWalkableArea(chf: CompactHeightfield): void {
  const spanCount = chf.spanCount;
  if (spanCount === 0) return;
  const w = chf.width;
  const columns = w * chf.depth;
  const cellFirst = chf.cellFirst;
  const cellCount = chf.cellCount;
  const con = chf.spanCon;
  const areas = chf.areas;
  const out = new Uint8Array(spanCount);
  const nei = new Uint8Array(9);
  // Column offset of each direction: -x, +z, +x, -z.
  const offs = new Int32Array([-1, w, 1, -w]);
  for (let c = 0; c < columns; c++) {
    const first = cellFirst[c]!;
    const end = first + cellCount[c]!;
    for (let i = first; i < end; i++) {
      const own = areas[i]!;
      if (own === UNWALKABLE) {
        out[i] = UNWALKABLE;
        continue;
      }
      nei.fill(own);
      const s = con[i]!;
      for (let dir = 0; dir < 4; dir++) {
        const ci = (s >>> (dir << 3)) & 0xff;
        if (ci === NO_LINK) continue;
        const ac = c + offs[dir]!;
        const a = cellFirst[ac]! + ci;
        const aa = areas[a]!;
        if (aa !== UNWALKABLE) nei[dir * 2] = aa;
        const dir2 = (dir + 1) & 3;
        const bi = (con[a]! >>> (dir2 << 3)) & 0xff;
        if (bi === NO_LINK) continue;
        const ba = areas[cellFirst[ac + offs[dir2]!]! + bi]!;
        if (ba !== UNWALKABLE) nei[dir * 2 + 1] = ba;
      }
      // Insertion sort of 9 bytes; the median is the 5th.
      for (let k = 1; k < 9; k++) {
        const v = nei[k]!;
        let j = k - 1;
        while (j >= 0 && nei[j]! > v) {
          nei[j + 1] = nei[j]!;
          j--;
        }
        nei[j + 1] = v;
      }
      out[i] = nei[4]!;
    }
  }
  areas.set(out);
}

/** A volume that relabels the walkable surface inside it (water, road, no-go = area 0 …). */
export type AreaVolume =
  | { kind: "box"; min: Vec3; max: Vec3; area: number }
  | { kind: "cylinder"; center: Vec3; radius: number; height: number; area: number }
  | { kind: "convex"; points: ArrayLike<number>; minY: number; maxY: number; area: number };

/** Applies area volumes to a compact heightfield in order (rcMark*Area). */
export function applyAreaVolumes(chf: CompactHeightfield, volumes: readonly AreaVolume[]): void {
  for (const v of volumes) {
    if (v.kind === "box") markBoxArea(chf, v.min, v.max, v.area);
    else if (v.kind === "cylinder") markCylinderArea(chf, v.center, v.radius, v.height, v.area);
    else markConvexPolyArea(chf, v.points, v.minY, v.maxY, v.area);
  }
}
