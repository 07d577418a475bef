import { NOT_CONNECTED } from "../generate/types.js";
import { distancePtSegSqrXZ } from "../navmesh/geometry.js";
import { type LayerGrid, WALKABLE_GHOST } from "./layer-grid.js";
import { NO_LAYER } from "./tile-layers.js";

/*
 * The seams between a tile's heightfield layers, simplified once for both sides. A seam is the
 * set of cell edges where a span of one layer links to a span of another (the top of a stair,
 * a floor meeting a ramp). Both layers' outlines run along it, and their polygon edges there
 * must coincide for the navmesh to link them. Each layer's own contour simplification would
 * not give the same vertices on both sides (it depends on the walk direction and the regions
 * on each side), so the seam is simplified here as a shared polyline with a canonical walk
 * (from its lowest corner, neighbours taken in corner order), Douglas–Peucker with the
 * build's maxSimplificationError, then long edges split like Recast's contours — a function
 * of the geometry only, the same whichever layer is built and whatever its obstacles. The
 * layer contours then use exactly these vertices along the seam (layer-tile.ts).
 */

/** One layer pair's seam: corners in grid coordinates, key = x + z * (width + 1). */
export interface PairSeam {
  /** Per corner: 1 when it is a vertex of the simplified seam. */
  canonical: Uint8Array;
  /** Per corner inside a polyline (not an end): the polyline's index, else -1. */
  line: Int32Array;
  /** Per corner inside a polyline: its position along it. */
  pos: Int32Array;
  /** Polylines as corner keys, in canonical walk order. */
  lines: Int32Array[];
  /** Simplified seam edges as a * corners + b, both orders. */
  edges: Set<number>;
}

/** The seams of one layer with each other layer it touches. */
export interface LayerSeams {
  /** Corner key stride (grid width + 1) and corner count. */
  stride: number;
  corners: number;
  /** Other layer → seam. */
  pairs: Map<number, PairSeam>;
}

const DX = [-1, 0, 1, 0];
const DZ = [0, 1, 0, -1];

/**
 * The seams of `grid`'s layer with the layers of its ghosts, inside the tile proper (the
 * border is another tile's business): cell edges between a walkable own span and a walkable
 * ghost (`areas`: layer areas, WALKABLE_GHOST on ghosts), so a seam's ends are where either
 * side stops being walkable, the same for both layers (compact links are symmetric, Recast's
 * overlap rule, and both read the tile's one set of areas).
 */
export function layerSeams(
  grid: LayerGrid,
  areas: Uint8Array,
  maxErrorVoxels: number,
  maxEdgeVoxels: number,
): LayerSeams {
  const chf = grid.chf;
  const { width, depth, borderSize: b, cellFirst, cellCount, spanCon } = chf;
  const stride = width + 1;
  const corners = stride * (depth + 1);
  const edgeLists = new Map<number, number[]>();
  // Only columns whose own span links to a ghost can hold a seam edge (most layers have none:
  // one storey per tile), so the walk goes over those alone.
  const columns = portalColumns(grid);
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k]!;
    const x = c % width;
    const z = (c - x) / width;
    const dirs = grid.portalDirs[c]!;
    for (let i = cellFirst[c]!, e = i + cellCount[c]!; i < e; i++) {
      if (grid.ghost[i] === 1 || areas[i] === 0) continue;
      const con = spanCon[i]!;
      for (let d = 0; d < 4; d++) {
        if ((dirs & (1 << d)) === 0) continue;
        const k = (con >>> (8 * d)) & 0xff;
        if (k === NOT_CONNECTED) continue;
        const nx = x + DX[d]!;
        const nz = z + DZ[d]!;
        if (nx < b || nz < b || nx >= width - b || nz >= depth - b) continue;
        const j = cellFirst[nx + nz * width]! + k;
        const other = grid.ghostLayer[j]!;
        if (other === NO_LAYER || areas[j] !== WALKABLE_GHOST) continue;
        // The cell edge between the columns, as its two corners.
        let a: number;
        let q: number;
        if (d === 0) {
          a = x + z * stride;
          q = x + (z + 1) * stride;
        } else if (d === 2) {
          a = x + 1 + z * stride;
          q = x + 1 + (z + 1) * stride;
        } else if (d === 1) {
          a = x + (z + 1) * stride;
          q = x + 1 + (z + 1) * stride;
        } else {
          a = x + z * stride;
          q = x + 1 + z * stride;
        }
        let list = edgeLists.get(other);
        if (!list) edgeLists.set(other, (list = []));
        list.push(a, q);
      }
    }
  }
  if (edgeLists.size === 0) return { stride, corners, pairs: new Map() };
  const sorted = [...edgeLists].sort((p, q) => p[0] - q[0]);
  // The seams are a function of these edge lists (and the two limits): a rebuild whose
  // obstacles stay clear of the seams gets the last build's seams back (read-only) instead of
  // simplifying them again.
  let size = 0;
  for (const [, list] of sorted) size += 2 + list.length;
  const signature = new Int32Array(size);
  let at = 0;
  for (const [other, list] of sorted) {
    signature[at++] = other;
    signature[at++] = list.length;
    for (let k = 0; k < list.length; k++) signature[at++] = list[k]!;
  }
  const last = lastSeams.get(grid);
  if (
    last !== undefined &&
    last.maxErrorVoxels === maxErrorVoxels &&
    last.maxEdgeVoxels === maxEdgeVoxels &&
    sameInts(last.signature, signature)
  ) {
    layerSeamsReused.count++;
    return last.seams;
  }
  const pairs = new Map<number, PairSeam>();
  for (const [other, list] of sorted) {
    pairs.set(other, pairSeam(list, stride, corners, maxErrorVoxels, maxEdgeVoxels));
  }
  const seams = { stride, corners, pairs };
  if (last === undefined) {
    keptOrder.push(new WeakRef(grid));
    if (keptOrder.length > KEPT_SEAMS) {
      const oldest = keptOrder.shift()!.deref();
      if (oldest !== undefined) lastSeams.delete(oldest);
    }
  }
  lastSeams.set(grid, { signature, seams, maxErrorVoxels, maxEdgeVoxels });
  return seams;
}

/**
 * Per layer grid: the seams of its last build and the edge lists they came from, for the
 * KEPT_SEAMS grids that got one last (seams hold corner-sized arrays, ~50 KB a pair; weakly,
 * so a dropped cache's grids go).
 */
const KEPT_SEAMS = 64;

/** @internal Builds that got their layer's last seams back (read by tests). */
export const layerSeamsReused = { count: 0 };
const keptOrder: WeakRef<LayerGrid>[] = [];
const lastSeams = new WeakMap<
  LayerGrid,
  { signature: Int32Array; seams: LayerSeams; maxErrorVoxels: number; maxEdgeVoxels: number }
>();

function sameInts(a: Int32Array, b: Int32Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Per layer grid: the columns inside the tile proper with a portal direction, z-major. */
const portalColumnsOf = new WeakMap<LayerGrid, Int32Array>();

function portalColumns(grid: LayerGrid): Int32Array {
  let out = portalColumnsOf.get(grid);
  if (out) return out;
  const { width, depth, borderSize: b } = grid.chf;
  const list: number[] = [];
  for (let z = b; z < depth - b; z++) {
    for (let x = b; x < width - b; x++) {
      if (grid.portalDirs[x + z * width] !== 0) list.push(x + z * width);
    }
  }
  out = Int32Array.from(list);
  portalColumnsOf.set(grid, out);
  return out;
}

function pairSeam(
  edges: number[],
  stride: number,
  corners: number,
  maxError: number,
  maxEdge: number,
): PairSeam {
  const deg = new Uint8Array(corners);
  const adj = new Int32Array(corners * 4);
  for (let e = 0; e < edges.length; e += 2) {
    const a = edges[e]!;
    const q = edges[e + 1]!;
    adj[a * 4 + deg[a]!++] = q;
    adj[q * 4 + deg[q]!++] = a;
  }
  const used = new Set<number>();
  const touched: number[] = [];
  for (let k = 0; k < corners; k++) {
    const n = deg[k]!;
    if (n === 0) continue;
    touched.push(k);
    // Neighbours in corner order: the walk must not depend on which layer listed the edges.
    const s = adj.subarray(k * 4, k * 4 + n);
    s.sort();
  }
  const canonical = new Uint8Array(corners);
  const line = new Int32Array(corners).fill(-1);
  const pos = new Int32Array(corners);
  const lines: Int32Array[] = [];
  const seamEdges = new Set<number>();
  const key = (a: number, q: number) => (a < q ? a * corners + q : q * corners + a);
  const walk = (start: number, next: number): number[] => {
    const chain = [start];
    let prev = start;
    let cur = next;
    used.add(key(prev, cur));
    while (deg[cur] === 2 && cur !== start) {
      chain.push(cur);
      const n0 = adj[cur * 4]!;
      const nxt = n0 !== prev ? n0 : adj[cur * 4 + 1]!;
      prev = cur;
      cur = nxt;
      used.add(key(prev, cur));
    }
    chain.push(cur);
    return chain;
  };
  const chains: number[][] = [];
  // Open polylines from their ends (corners where the seam does not simply go on), then loops.
  for (const k of touched) {
    if (deg[k] === 2) continue;
    for (let i = 0; i < deg[k]!; i++) {
      const q = adj[k * 4 + i]!;
      if (!used.has(key(k, q))) chains.push(walk(k, q));
    }
  }
  for (const k of touched) {
    if (deg[k] !== 2) continue;
    const q = adj[k * 4]!;
    if (!used.has(key(k, q))) chains.push(walk(k, q));
  }
  const keep: number[] = [];
  for (const chain of chains) {
    const n = chain.length;
    const closed = chain[0] === chain[n - 1];
    const flags = new Uint8Array(n);
    flags[0] = 1;
    flags[n - 1] = 1;
    if (closed && n > 2) flags[(n - 1) >> 1] = 1;
    simplify(chain, flags, stride, maxError);
    if (maxEdge > 0) splitLong(chain, flags, stride, maxEdge);
    const index = lines.length;
    lines.push(Int32Array.from(chain));
    keep.length = 0;
    for (let i = 0; i < n; i++) {
      const c = chain[i]!;
      if (flags[i] === 1) {
        canonical[c] = 1;
        keep.push(c);
      }
      if (i > 0 && i < n - 1) {
        line[c] = index;
        pos[c] = i;
      }
    }
    if (closed) {
      line[chain[0]!] = index;
      pos[chain[0]!] = 0;
    }
    for (let i = 1; i < keep.length; i++) {
      const a = keep[i - 1]!;
      const q = keep[i]!;
      seamEdges.add(a * corners + q);
      seamEdges.add(q * corners + a);
    }
  }
  return { canonical, line, pos, lines, edges: seamEdges };
}

/** Douglas–Peucker over chain[first..last] (xz, grid units): flags the corners kept. */
function simplify(chain: number[], flags: Uint8Array, stride: number, maxError: number): void {
  const limit = maxError * maxError;
  const stack: number[] = [];
  let a = 0;
  for (let i = 1; i < chain.length; i++) {
    if (flags[i] !== 1) continue;
    stack.push(a, i);
    a = i;
  }
  while (stack.length > 0) {
    const j = stack.pop()!;
    const i = stack.pop()!;
    const ax = chain[i]! % stride;
    const az = (chain[i]! - ax) / stride;
    const bx = chain[j]! % stride;
    const bz = (chain[j]! - bx) / stride;
    let best = -1;
    let bestD = limit;
    for (let k = i + 1; k < j; k++) {
      const px = chain[k]! % stride;
      const pz = (chain[k]! - px) / stride;
      const d = distancePtSegSqrXZ(px, pz, ax, az, bx, bz);
      if (d > bestD) {
        bestD = d;
        best = k;
      }
    }
    if (best >= 0) {
      flags[best] = 1;
      stack.push(i, best, best, j);
    }
  }
}

/** Splits kept edges longer than maxEdge cells at their middle corner, until none is. */
function splitLong(chain: number[], flags: Uint8Array, stride: number, maxEdge: number): void {
  const limit = maxEdge * maxEdge;
  let i = 0;
  while (i < chain.length - 1) {
    let j = i + 1;
    while (flags[j] !== 1) j++;
    const ax = chain[i]! % stride;
    const az = (chain[i]! - ax) / stride;
    const bx = chain[j]! % stride;
    const bz = (chain[j]! - bx) / stride;
    const dx = bx - ax;
    const dz = bz - az;
    if (dx * dx + dz * dz > limit && j - i > 1) {
      flags[(i + j) >> 1] = 1;
      continue;
    }
    i = j;
  }
}

/**
 * The corner a contour vertex on the seam moves to: itself when canonical; else the nearest
 * canonical corner along its polyline (ties: towards the polyline's start), so the two
 * regions meeting there, and the other layer, agree. -1 when the corner is on no polyline.
 */
export function nearestSeamCorner(seam: PairSeam, corner: number): number {
  if (seam.canonical[corner] === 1) return corner;
  const l = seam.line[corner]!;
  if (l < 0) return -1;
  const chain = seam.lines[l]!;
  const p = seam.pos[corner]!;
  for (let k = 1; k < chain.length; k++) {
    const lo = p - k;
    const hi = p + k;
    if (lo >= 0 && seam.canonical[chain[lo]!] === 1) return chain[lo]!;
    if (hi < chain.length && seam.canonical[chain[hi]!] === 1) return chain[hi]!;
    if (lo < 0 && hi >= chain.length) break;
  }
  return -1;
}
