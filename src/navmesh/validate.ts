import type { NavMesh, NavMeshTile } from "./nav-mesh.js";
import { EDGE_TILE_BORDER, EDGE_WALL, polygonAreaXZ } from "./nav-mesh.js";

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
export function validateNavMesh(navMesh: NavMesh, options: ValidateOptions = {}): NavMeshValidation {
  const maxProblems = options.maxProblems ?? 50;
  const tol = options.tolerance ?? 1e-3;
  const problems: string[] = [];
  const report = (msg: string) => {
    if (problems.length < maxProblems) problems.push(msg);
  };
  navMesh.tiles.forEach((tile, t) => {
    validateTile(tile, t, navMesh, tol, report);
  });
  return { ok: problems.length === 0, problems };
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
        report(`${where}: edge ${i} (${a}-${b}) and polygon ${q}'s edge ${back} (${c}-${d}) differ`);
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
  if (Math.abs(sum / 2 - area) > 1e-3 * Math.max(area, 1e-3)) {
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
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < tile.polyVertCount[p]!; i++) {
      const a = tile.polyVerts[p * nvp + i]! * 3;
      x0 = Math.min(x0, v[a]!); x1 = Math.max(x1, v[a]!);
      y0 = Math.min(y0, v[a + 1]!); y1 = Math.max(y1, v[a + 1]!);
      z0 = Math.min(z0, v[a + 2]!); z1 = Math.max(z1, v[a + 2]!);
    }
    box.set([x0, y0, z0, x1, y1, z1], p * 6);
  }
  const cell = Math.max(navMesh.cellSize * 16, 1e-6);
  const buckets = new Map<string, number[]>();
  for (let p = 0; p < n; p++) {
    const gx0 = Math.floor(box[p * 6]! / cell), gx1 = Math.floor(box[p * 6 + 3]! / cell);
    const gz0 = Math.floor(box[p * 6 + 2]! / cell), gz1 = Math.floor(box[p * 6 + 5]! / cell);
    for (let gz = gz0; gz <= gz1; gz++) {
      for (let gx = gx0; gx <= gx1; gx++) {
        const key = `${gx},${gz}`;
        let list = buckets.get(key);
        if (!list) buckets.set(key, (list = []));
        list.push(p);
      }
    }
  }
  const seen = new Set<number>();
  const climb = navMesh.agentMaxClimb;
  for (const list of buckets.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const p = list[i]!, q = list[j]!;
        const key = p * n + q;
        if (seen.has(key)) continue;
        seen.add(key);
        if (box[p * 6 + 4]! + climb < box[q * 6 + 1]! || box[q * 6 + 4]! + climb < box[p * 6 + 1]!) continue;
        if (convexOverlapXZ(tile, p, q)) {
          report(`tile ${t}: polygons ${p} and ${q} overlap in XZ on the same level`);
        }
      }
    }
  }
}

/** Separating-axis test with a small tolerance so shared edges and touching corners pass. */
function convexOverlapXZ(tile: NavMeshTile, p: number, q: number): boolean {
  return !hasSeparatingEdge(tile, p, q) && !hasSeparatingEdge(tile, q, p);
}

function hasSeparatingEdge(tile: NavMeshTile, p: number, q: number): boolean {
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  const np = tile.polyVertCount[p]!;
  const nq = tile.polyVertCount[q]!;
  const eps = 1e-4;
  for (let i = 0; i < np; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    const b = tile.polyVerts[p * nvp + ((i + 1) % np)]! * 3;
    const nx = -(v[b + 2]! - v[a + 2]!);
    const nz = v[b]! - v[a]!;
    const len = Math.hypot(nx, nz) || 1;
    let pMin = Infinity, pMax = -Infinity, qMin = Infinity, qMax = -Infinity;
    for (let k = 0; k < np; k++) {
      const c = tile.polyVerts[p * nvp + k]! * 3;
      const d = (v[c]! * nx + v[c + 2]! * nz) / len;
      pMin = Math.min(pMin, d); pMax = Math.max(pMax, d);
    }
    for (let k = 0; k < nq; k++) {
      const c = tile.polyVerts[q * nvp + k]! * 3;
      const d = (v[c]! * nx + v[c + 2]! * nz) / len;
      qMin = Math.min(qMin, d); qMax = Math.max(qMax, d);
    }
    if (pMax <= qMin + eps || qMax <= pMin + eps) return true;
  }
  return false;
}
