import type { NavMesh } from "./nav-mesh.js";
import type { NavMeshTile } from "./tile.js";
import { EDGE_TILE_BORDER, EDGE_WALL, polygonAreaXZ } from "./tile.js";

/** Result of {@link validateNavMesh}: `ok` iff `problems` is empty. */
export interface NavMeshValidation {
  ok: boolean;
  /** Human-readable findings, each naming the tile and polygon (capped at `maxProblems`). */
  problems: string[];
}

export interface ValidateOptions {
  /** Stop collecting after this many problems. Default 50. */
  maxProblems?: number;
  /** Tolerance for "within bounds" and "inside the polygon", world units. Default 1e-3. */
  tolerance?: number;
}

/**
 * Checks the invariants every meshway navmesh must hold, in the spirit of delaunator's
 * `validate`: polygons strictly convex in XZ with 3..maxVertsPerPoly distinct vertices, all
 * wound the same way; neighbour links symmetric over the identical shared edge; no two
 * polygons of the same level overlapping in XZ; vertices inside the tile bounds; detail
 * triangles inside their polygon and covering it.
 */
export function validateNavMesh(
  navMesh: NavMesh,
  options: ValidateOptions = {},
): NavMeshValidation {
  const maxProblems = options.maxProblems ?? 50;
  const tol = options.tolerance ?? 1e-3;
  const problems: string[] = [];
  const report = (msg: string) => {
    if (problems.length < maxProblems) problems.push(msg);
  };
  validateParams(navMesh, report);
  navMesh.tiles.forEach((tile, t) => {
    validateTile(tile, t, navMesh, tol, report);
    validatePlacement(tile, t, navMesh, tol, report);
    validateBVTree(tile, t, tol, report);
  });
  return { ok: problems.length === 0, problems };
}

/** Sizes the queries divide by must be positive and finite, the agent's non-negative. */
function validateParams(navMesh: NavMesh, report: (msg: string) => void): void {
  const p = navMesh.params;
  for (const k of ["tileWidth", "tileDepth", "cellSize", "cellHeight"] as const) {
    if (!(p[k] > 0 && p[k] < Infinity)) report(`navmesh ${k} ${p[k]} is not positive and finite`);
  }
  for (const k of ["agentHeight", "agentRadius", "agentMaxClimb"] as const) {
    if (!(p[k] >= 0 && p[k] < Infinity)) report(`navmesh ${k} ${p[k]} is not >= 0 and finite`);
  }
}

/**
 * Position queries find a tile through the grid cell a point falls in, so a tile whose bounds
 * lie outside its own cell (a tile width of 1e-300, every tile filed under one coordinate) is
 * never found: its centre must fall in its cell.
 */
function validatePlacement(
  tile: NavMeshTile,
  t: number,
  navMesh: NavMesh,
  tol: number,
  report: (msg: string) => void,
): void {
  if (tile.polyCount === 0) return;
  const { origin, tileWidth, tileDepth } = navMesh.params;
  const cx = (tile.bmin[0] + tile.bmax[0]) / 2;
  const cz = (tile.bmin[2] + tile.bmax[2]) / 2;
  const x0 = origin[0] + tile.tileX * tileWidth;
  const z0 = origin[2] + tile.tileZ * tileDepth;
  const slack = tol + 1e-6 * Math.max(Math.abs(cx), Math.abs(cz));
  const inside =
    cx >= x0 - slack &&
    cx <= x0 + tileWidth + slack &&
    cz >= z0 - slack &&
    cz <= z0 + tileDepth + slack;
  if (!inside) {
    report(
      `tile ${t}: its bounds' centre (${cx}, ${cz}) lies outside its grid cell (${tile.tileX}, ${tile.tileZ}) = x ${x0}..${x0 + tileWidth}, z ${z0}..${z0 + tileDepth}: position queries never reach it`,
    );
  }
}

/** BV boxes not inverted, and each leaf's box holding its polygon (queries skip what it misses). */
function validateBVTree(
  tile: NavMeshTile,
  t: number,
  tol: number,
  report: (msg: string) => void,
): void {
  const b = tile.bvBounds;
  const idx = tile.bvIndex;
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  if (idx.length === 0 && tile.polyCount > 0) return; // no tree: queries scan the polygons
  let leaves = 0;
  for (let i = 0; i < idx.length; i++) {
    const o = i * 6;
    if (!(b[o]! <= b[o + 3]! && b[o + 1]! <= b[o + 4]! && b[o + 2]! <= b[o + 5]!)) {
      report(`tile ${t}: BV node ${i} has an inverted box`);
      return;
    }
    const p = idx[i]!;
    if (p < 0 || p >= tile.polyCount) continue;
    leaves++;
    for (let k = 0; k < tile.polyVertCount[p]!; k++) {
      const a = tile.polyVerts[p * nvp + k]! * 3;
      for (let c = 0; c < 3; c++) {
        const slack = tol + Math.abs(v[a + c]!) * 2 ** -20;
        if (v[a + c]! < b[o + c]! - slack || v[a + c]! > b[o + 3 + c]! + slack) {
          report(`tile ${t}: BV leaf ${i}'s box does not hold polygon ${p}'s vertex ${k}`);
          return;
        }
      }
    }
  }
  if (leaves !== tile.polyCount) {
    report(`tile ${t}: BV tree has ${leaves} leaves for ${tile.polyCount} polygons`);
  }
}

function validateTile(
  tile: NavMeshTile,
  t: number,
  navMesh: NavMesh,
  tol: number,
  report: (msg: string) => void,
): void {
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  for (let i = 0; i < tile.vertexCount; i++) {
    for (let k = 0; k < 3; k++) {
      const c = v[i * 3 + k]!;
      // Vertices stand on span tops, so y may exceed bmax by up to one cell height.
      const slack = k === 1 ? navMesh.cellHeight + tol : tol;
      if (!(c >= tile.bmin[k]! - slack && c <= tile.bmax[k]! + slack)) {
        report(`tile ${t}: vertex ${i} ${"xyz"[k]} = ${c} is outside the tile bounds`);
      }
    }
  }
  let orientation = 0;
  for (let p = 0; p < tile.polyCount; p++) {
    const n = tile.polyVertCount[p]!;
    const where = `tile ${t} polygon ${p}`;
    if (n < 3 || n > nvp) {
      report(`${where}: has ${n} vertices, expected 3..${nvp}`);
      continue;
    }
    for (let i = 0; i < n; i++) {
      const vi = tile.polyVerts[p * nvp + i]!;
      if (vi >= tile.vertexCount) report(`${where}: vertex index ${vi} out of range`);
      for (let j = i + 1; j < n; j++) {
        if (vi === tile.polyVerts[p * nvp + j]) report(`${where}: vertex ${vi} repeats`);
      }
    }
    // Strict convexity: every turn has the same, non-zero sign.
    for (let i = 0; i < n; i++) {
      const a = tile.polyVerts[p * nvp + i]! * 3;
      const b = tile.polyVerts[p * nvp + ((i + 1) % n)]! * 3;
      const c = tile.polyVerts[p * nvp + ((i + 2) % n)]! * 3;
      const cross =
        (v[b]! - v[a]!) * (v[c + 2]! - v[a + 2]!) - (v[b + 2]! - v[a + 2]!) * (v[c]! - v[a]!);
      const s = Math.sign(cross);
      if (s === 0) {
        report(`${where}: vertices ${i}, ${(i + 1) % n}, ${(i + 2) % n} are collinear in XZ`);
      } else if (orientation === 0) {
        orientation = s;
      } else if (s !== orientation) {
        report(`${where}: not convex (or wound against the others) at vertex ${(i + 1) % n}`);
      }
    }
    // Neighbour symmetry over the identical edge.
    for (let i = 0; i < n; i++) {
      const nb = tile.polyNeighbours[p * nvp + i]!;
      if (nb === EDGE_WALL || (nb & EDGE_TILE_BORDER) !== 0) continue;
      const q = nb - 1;
      if (q >= tile.polyCount) {
        report(`${where}: edge ${i} links to polygon ${q}, out of range`);
        continue;
      }
      const a = tile.polyVerts[p * nvp + i]!;
      const b = tile.polyVerts[p * nvp + ((i + 1) % n)]!;
      const m = tile.polyVertCount[q]!;
      let back = -1;
      for (let j = 0; j < m; j++) {
        if (tile.polyNeighbours[q * nvp + j] === p + 1) back = j;
      }
      if (back < 0) {
        report(`${where}: edge ${i} links to polygon ${q}, which does not link back`);
        continue;
      }
      const c = tile.polyVerts[q * nvp + back]!;
      const d = tile.polyVerts[q * nvp + ((back + 1) % m)]!;
      if (!(a === d && b === c)) {
        report(
          `${where}: edge ${i} (${a}-${b}) and polygon ${q}'s edge ${back} (${c}-${d}) differ`,
        );
      }
    }
    validateDetail(tile, p, where, tol, report);
  }
  checkOverlaps(tile, t, navMesh, report);
}

function validateDetail(
  tile: NavMeshTile,
  p: number,
  where: string,
  tol: number,
  report: (msg: string) => void,
): void {
  const vb = tile.detailMeshes[p * 4]!;
  const vc = tile.detailMeshes[p * 4 + 1]!;
  const tb = tile.detailMeshes[p * 4 + 2]!;
  const tc = tile.detailMeshes[p * 4 + 3]!;
  if (tc === 0) {
    report(`${where}: has no detail triangles`);
    return;
  }
  if ((vb + vc) * 3 > tile.detailVertices.length || (tb + tc) * 4 > tile.detailTriangles.length) {
    report(`${where}: detail mesh ranges exceed the detail arrays`);
    return;
  }
  const dv = tile.detailVertices;
  let sum = 0;
  for (let k = 0; k < tc; k++) {
    const t = (tb + k) * 4;
    const ia = tile.detailTriangles[t]!;
    const ib = tile.detailTriangles[t + 1]!;
    const ic = tile.detailTriangles[t + 2]!;
    if (ia >= vc || ib >= vc || ic >= vc) {
      report(`${where}: detail triangle ${k} has a vertex index out of range`);
      return;
    }
    const a = (vb + ia) * 3;
    const b = (vb + ib) * 3;
    const c = (vb + ic) * 3;
    sum += Math.abs(
      (dv[b]! - dv[a]!) * (dv[c + 2]! - dv[a + 2]!) - (dv[b + 2]! - dv[a + 2]!) * (dv[c]! - dv[a]!),
    );
  }
  for (let k = 0; k < vc; k++) {
    if (!pointInPolyXZ(tile, p, dv[(vb + k) * 3]!, dv[(vb + k) * 3 + 2]!, tol)) {
      report(`${where}: detail vertex ${k} lies outside the polygon in XZ`);
      return;
    }
  }
  const area = Math.abs(polygonAreaXZ(tile, p));
  // Float32 positions far from the origin cannot place a vertex closer than one ulp, so a
  // sliver's area is only known to within its perimeter times a few ulps.
  const slack = 1e-3 * area + 4 * perimeterXZ(tile, p) * float32Ulp(tile);
  if (Math.abs(sum / 2 - area) > slack) {
    report(`${where}: detail triangles cover ${sum / 2} of the polygon's area ${area}`);
  }
}

function pointInPolyXZ(tile: NavMeshTile, p: number, x: number, z: number, tol: number): boolean {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[p]!;
  const v = tile.vertices;
  let sign = 0;
  for (let i = 0; i < n; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    const b = tile.polyVerts[p * nvp + ((i + 1) % n)]! * 3;
    const ex = v[b]! - v[a]!;
    const ez = v[b + 2]! - v[a + 2]!;
    const len = Math.hypot(ex, ez);
    const d = (ex * (z - v[a + 2]!) - ez * (x - v[a]!)) / len;
    if (Math.abs(d) <= tol) continue;
    const s = Math.sign(d);
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/**
 * Two polygons of the same level must not overlap in XZ. "Same level" means their vertical
 * extents come within the agent's climb of each other; stacked floors further apart are fine.
 * Uses a uniform grid of polygon bounding boxes and a separating-axis test.
 */
function checkOverlaps(
  tile: NavMeshTile,
  t: number,
  navMesh: NavMesh,
  report: (msg: string) => void,
): void {
  const n = tile.polyCount;
  if (n < 2) return;
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  const box = new Float64Array(n * 6);
  for (let p = 0; p < n; p++) {
    let x0 = Infinity,
      y0 = Infinity,
      z0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity,
      z1 = -Infinity;
    for (let i = 0; i < tile.polyVertCount[p]!; i++) {
      const a = tile.polyVerts[p * nvp + i]! * 3;
      x0 = Math.min(x0, v[a]!);
      x1 = Math.max(x1, v[a]!);
      y0 = Math.min(y0, v[a + 1]!);
      y1 = Math.max(y1, v[a + 1]!);
      z0 = Math.min(z0, v[a + 2]!);
      z1 = Math.max(z1, v[a + 2]!);
    }
    box.set([x0, y0, z0, x1, y1, z1], p * 6);
  }
  // Buckets are counted from the tiles' lowest corner and at least 1/1024 of its extent wide,
  // so bucket indices stay small integers even at |x| ~ 1e38 (an absolute index above 2^53
  // would never advance under `++`: validate-1e17).
  let ox = Infinity,
    oz = Infinity,
    ex = -Infinity,
    ez = -Infinity;
  for (let p = 0; p < n; p++) {
    if (box[p * 6]! < ox) ox = box[p * 6]!;
    if (box[p * 6 + 2]! < oz) oz = box[p * 6 + 2]!;
    if (box[p * 6 + 3]! > ex) ex = box[p * 6 + 3]!;
    if (box[p * 6 + 5]! > ez) ez = box[p * 6 + 5]!;
  }
  const cell = Math.max(navMesh.cellSize * 16, (ex - ox) / 1024, (ez - oz) / 1024, 1e-6);
  const buckets = new Map<number, number[]>();
  // Polygons spanning more buckets than this are compared with every polygon instead.
  const maxBucketsPerPoly = 4096;
  const unbucketed: number[] = [];
  // Bucket entries in all, so a pile of large polygons cannot allocate n × 4096 of them.
  const maxEntries = 16 * n + 65_536;
  let entries = 0;
  for (let p = 0; p < n; p++) {
    const gx0 = Math.floor((box[p * 6]! - ox) / cell),
      gx1 = Math.floor((box[p * 6 + 3]! - ox) / cell);
    const gz0 = Math.floor((box[p * 6 + 2]! - oz) / cell),
      gz1 = Math.floor((box[p * 6 + 5]! - oz) / cell);
    const span = (gx1 - gx0 + 1) * (gz1 - gz0 + 1);
    if (!(span <= maxBucketsPerPoly) || !(gx1 <= 1 << 20) || entries + span > maxEntries) {
      unbucketed.push(p);
      continue;
    }
    entries += span;
    for (let gz = gz0; gz <= gz1; gz++) {
      for (let gx = gx0; gx <= gx1; gx++) {
        const key = gz * 2097152 + gx;
        let list = buckets.get(key);
        if (!list) buckets.set(key, (list = []));
        list.push(p);
      }
    }
  }
  const seen = new Set<number>();
  const climb = navMesh.agentMaxClimb;
  // Pairs clipped against each other: a real tile's boxes overlap a few neighbours each; a
  // crafted one of n polygons piled up would cost n^2 clips, so the work is capped.
  const maxPairs = 64 * n + 100_000;
  let pairs = 0;
  const checkPair = (a: number, b: number): void => {
    const p = Math.min(a, b),
      q = Math.max(a, b);
    const key = p * n + q;
    if (p === q || seen.has(key)) return;
    seen.add(key);
    pairs++;
    if (box[p * 6 + 4]! + climb < box[q * 6 + 1]! || box[q * 6 + 4]! + climb < box[p * 6 + 1]!)
      return;
    const overlap = convexIntersectionCentroidXZ(tile, p, q);
    if (overlap === null) return;
    // Stacked floors may overlap in XZ; at the overlap they are apart by more than a climb.
    const hp = detailHeightAt(tile, p, overlap[0], overlap[1]);
    const hq = detailHeightAt(tile, q, overlap[0], overlap[1]);
    if (Math.abs(hp - hq) <= climb) {
      report(`tile ${t}: polygons ${p} and ${q} overlap in XZ on the same level`);
    }
  };
  const overBudget = (): boolean => {
    if (pairs <= maxPairs) return false;
    report(
      `tile ${t}: more than ${maxPairs} pairs of polygons with overlapping bounds (of ${n} polygons); the overlap check stopped there`,
    );
    return true;
  };
  for (const list of buckets.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) checkPair(list[i]!, list[j]!);
      if (overBudget()) return;
    }
  }
  for (const p of unbucketed) {
    for (let q = 0; q < n; q++) checkPair(p, q);
    if (overBudget()) return;
  }
}

function perimeterXZ(tile: NavMeshTile, p: number): number {
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[p]!;
  const v = tile.vertices;
  let len = 0;
  for (let i = 0; i < n; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    const b = tile.polyVerts[p * nvp + ((i + 1) % n)]! * 3;
    len += Math.hypot(v[b]! - v[a]!, v[b + 2]! - v[a + 2]!);
  }
  return len;
}

/** Spacing of float32 values at the tile's largest coordinate magnitude. */
function float32Ulp(tile: NavMeshTile): number {
  let m = 0;
  for (let k = 0; k < 3; k++) m = Math.max(m, Math.abs(tile.bmin[k]!), Math.abs(tile.bmax[k]!));
  return Math.max(m, 1) * 2 ** -23;
}

/**
 * Clips convex polygon p by q (Sutherland–Hodgman) and returns the centroid of the
 * intersection, or null when the interiors do not overlap by more than a sliver.
 */
function convexIntersectionCentroidXZ(
  tile: NavMeshTile,
  p: number,
  q: number,
): [number, number] | null {
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  let pts: number[] = [];
  for (let i = 0; i < tile.polyVertCount[p]!; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    pts.push(v[a]!, v[a + 2]!);
  }
  const nq = tile.polyVertCount[q]!;
  const orient = Math.sign(polygonAreaXZ(tile, q));
  for (let i = 0; i < nq && pts.length >= 6; i++) {
    const a = tile.polyVerts[q * nvp + i]! * 3;
    const b = tile.polyVerts[q * nvp + ((i + 1) % nq)]! * 3;
    const ax = v[a]!,
      az = v[a + 2]!,
      ex = v[b]! - ax,
      ez = v[b + 2]! - az;
    // Inside means on the same side as q's interior: sign(cross) == orient (with x, z axes).
    const side = (x: number, z: number) => orient * (ex * (z - az) - ez * (x - ax));
    const out: number[] = [];
    const m = pts.length / 2;
    for (let k = 0; k < m; k++) {
      const x0 = pts[k * 2]!,
        z0 = pts[k * 2 + 1]!;
      const x1 = pts[((k + 1) % m) * 2]!,
        z1 = pts[((k + 1) % m) * 2 + 1]!;
      const s0 = side(x0, z0),
        s1 = side(x1, z1);
      if (s0 >= 0) out.push(x0, z0);
      if (s0 >= 0 !== s1 >= 0) {
        const t = s0 / (s0 - s1);
        out.push(x0 + (x1 - x0) * t, z0 + (z1 - z0) * t);
      }
    }
    pts = out;
  }
  if (pts.length < 6) return null;
  let twice = 0,
    cx = 0,
    cz = 0;
  const m = pts.length / 2;
  for (let k = 0; k < m; k++) {
    const x0 = pts[k * 2]!,
      z0 = pts[k * 2 + 1]!;
    const x1 = pts[((k + 1) % m) * 2]!,
      z1 = pts[((k + 1) % m) * 2 + 1]!;
    const c = x0 * z1 - x1 * z0;
    twice += c;
    cx += (x0 + x1) * c;
    cz += (z0 + z1) * c;
  }
  const area = Math.abs(twice) / 2;
  // Shared edges and float noise leave zero-width slivers; ignore those.
  if (area <= 1e-4 * Math.max(1, tile.maxVertsPerPoly)) return null;
  return [cx / (3 * twice), cz / (3 * twice)];
}

/** Height of polygon p's detail surface at (x, z); nearest detail triangle when outside all. */
function detailHeightAt(tile: NavMeshTile, p: number, x: number, z: number): number {
  const vb = tile.detailMeshes[p * 4]!;
  const tb = tile.detailMeshes[p * 4 + 2]!;
  const tc = tile.detailMeshes[p * 4 + 3]!;
  const dv = tile.detailVertices;
  let best = Infinity;
  let bestY = 0;
  for (let k = 0; k < tc; k++) {
    const t = (tb + k) * 4;
    const a = (vb + tile.detailTriangles[t]!) * 3;
    const b = (vb + tile.detailTriangles[t + 1]!) * 3;
    const c = (vb + tile.detailTriangles[t + 2]!) * 3;
    const v0x = dv[b]! - dv[a]!,
      v0z = dv[b + 2]! - dv[a + 2]!;
    const v1x = dv[c]! - dv[a]!,
      v1z = dv[c + 2]! - dv[a + 2]!;
    const px = x - dv[a]!,
      pz = z - dv[a + 2]!;
    const den = v0x * v1z - v0z * v1x;
    if (den === 0) continue;
    const u = (px * v1z - pz * v1x) / den;
    const w = (v0x * pz - v0z * px) / den;
    const miss = Math.max(0, -u) + Math.max(0, -w) + Math.max(0, u + w - 1);
    if (miss < best) {
      best = miss;
      bestY = dv[a + 1]! + u * (dv[b + 1]! - dv[a + 1]!) + w * (dv[c + 1]! - dv[a + 1]!);
    }
  }
  return bestY;
}
