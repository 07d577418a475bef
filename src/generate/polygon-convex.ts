/**
 * Convex decomposition of authored faces in XZ: ear clipping (Meisters' two-ears theorem)
 * followed by a Hertel–Mehlhorn merge (drop diagonals while the union stays convex), the same
 * greedy "longest shared edge first" order Recast's rcBuildPolyMesh merges triangles in.
 * Polygons are vertex-index lists wound like meshway's tiles: clockwise in XZ, i.e.
 * polygonAreaXZ < 0 and every turn's cross product negative.
 */

/** Turn at b of a → b → c in XZ: negative for a convex corner of a meshway polygon. */
export function turnXZ(pos: Float32Array, a: number, b: number, c: number): number {
  const ax = pos[a * 3]!;
  const az = pos[a * 3 + 2]!;
  return (pos[b * 3]! - ax) * (pos[c * 3 + 2]! - az) - (pos[b * 3 + 2]! - az) * (pos[c * 3]! - ax);
}

/** Twice the signed XZ area, as polygonAreaXZ (negative for meshway's winding). */
export function twiceAreaXZ(pos: Float32Array, poly: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]! * 3;
    const b = poly[(i + 1) % poly.length]! * 3;
    s += pos[a]! * pos[b + 2]! - pos[b]! * pos[a + 2]!;
  }
  return s;
}

/** Every corner turns strictly the meshway way, with no repeated vertex. */
export function isStrictlyConvexXZ(pos: Float32Array, poly: readonly number[]): boolean {
  const n = poly.length;
  if (n < 3) return false;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) if (poly[i] === poly[j]) return false;
    if (!(turnXZ(pos, poly[i]!, poly[(i + 1) % n]!, poly[(i + 2) % n]!) < 0)) return false;
  }
  return true;
}

/** First corner (index into poly) that turns the wrong way (reflex), or -1. */
export function firstReflexCorner(pos: Float32Array, poly: readonly number[]): number {
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    if (turnXZ(pos, poly[(i + n - 1) % n]!, poly[i]!, poly[(i + 1) % n]!) > 0) return i;
  }
  return -1;
}

function inOrOnTriangle(pos: Float32Array, a: number, b: number, c: number, p: number): boolean {
  return turnXZ(pos, a, b, p) <= 0 && turnXZ(pos, b, c, p) <= 0 && turnXZ(pos, c, a, p) <= 0;
}

function samePoint(pos: Float32Array, a: number, b: number): boolean {
  return pos[a * 3] === pos[b * 3] && pos[a * 3 + 2] === pos[b * 3 + 2];
}

/**
 * Triangulates a simple polygon (possibly concave, possibly with straight-angle vertices) by
 * ear clipping. An ear must turn strictly convex and hold no other vertex inside or on it, so
 * straight-angle vertices stay corners of some triangle (their neighbours' edges still match).
 * Returns null when no ear exists (self-intersecting or degenerate face).
 */
export function earClipXZ(pos: Float32Array, poly: readonly number[]): number[][] | null {
  const idx = poly.slice();
  const tris: number[][] = [];
  let start = 0;
  while (idx.length > 3) {
    const n = idx.length;
    let clipped = false;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const a = idx[(i + n - 1) % n]!;
      const b = idx[i]!;
      const c = idx[(i + 1) % n]!;
      if (!(turnXZ(pos, a, b, c) < 0)) continue;
      let blocked = false;
      for (const w of idx) {
        if (w === a || w === b || w === c) continue;
        if (samePoint(pos, w, a) || samePoint(pos, w, b) || samePoint(pos, w, c)) continue;
        if (inOrOnTriangle(pos, a, b, c, w)) {
          blocked = true;
          break;
        }
      }
      if (blocked) continue;
      tris.push([a, b, c]);
      idx.splice(i, 1);
      start = i % idx.length;
      clipped = true;
      break;
    }
    if (!clipped) return null;
  }
  if (turnXZ(pos, idx[0]!, idx[1]!, idx[2]!) < 0) tris.push(idx);
  return tris;
}

/**
 * Hertel–Mehlhorn merge: removes shared edges, longest first, while the merged polygon stays
 * strictly convex with at most `maxVerts` corners and `canMerge` agrees. Two polygons merge
 * only over an edge both use in opposite directions. Returns the surviving polygons in the
 * order of their first member; `owner[i]` (output) is the surviving index of input polygon i.
 */
export function mergeConvexXZ(
  pos: Float32Array,
  polys: number[][],
  maxVerts: number,
  canMerge: (a: number, b: number, merged: readonly number[]) => boolean,
): { polys: number[][]; owner: Int32Array } {
  const n = polys.length;
  const edgeOwners = new Map<string, number[]>();
  for (let p = 0; p < n; p++) {
    const poly = polys[p]!;
    for (let i = 0; i < poly.length; i++) {
      const u = poly[i]!;
      const v = poly[(i + 1) % poly.length]!;
      const key = u < v ? `${u},${v}` : `${v},${u}`;
      let list = edgeOwners.get(key);
      if (!list) edgeOwners.set(key, (list = []));
      list.push(p);
    }
  }
  const candidates: { u: number; v: number; p: number; q: number; len: number }[] = [];
  for (const [key, list] of edgeOwners) {
    if (list.length !== 2 || list[0] === list[1]) continue;
    const [u, v] = key.split(",").map(Number) as [number, number];
    const len = Math.hypot(pos[u * 3]! - pos[v * 3]!, pos[u * 3 + 2]! - pos[v * 3 + 2]!);
    candidates.push({ u, v, p: list[0]!, q: list[1]!, len });
  }
  candidates.sort((a, b) => b.len - a.len || a.u - b.u || a.v - b.v);
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const cur = polys.map((p) => p.slice());
  for (const c of candidates) {
    const a = find(c.p);
    const b = find(c.q);
    if (a === b) continue;
    const merged = mergeOver(cur[a]!, cur[b]!, c.u, c.v);
    if (!merged || merged.length > maxVerts) continue;
    if (!isStrictlyConvexXZ(pos, merged) || !canMerge(a, b, merged)) continue;
    const keep = Math.min(a, b);
    cur[keep] = merged;
    parent[Math.max(a, b)] = keep;
  }
  const out: number[][] = [];
  const index = new Int32Array(n).fill(-1);
  const owner = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const r = find(p);
    if (index[r]! < 0) {
      index[r] = out.length;
      out.push(cur[r]!);
    }
    owner[p] = index[r]!;
  }
  return { polys: out, owner };
}

/** The union of A and B over their shared edge u–v (A has one direction, B the other). */
function mergeOver(A: number[], B: number[], u: number, v: number): number[] | null {
  const edgeAt = (P: number[], s: number, t: number): number => {
    for (let i = 0; i < P.length; i++) if (P[i] === s && P[(i + 1) % P.length] === t) return i;
    return -1;
  };
  let ia = edgeAt(A, u, v);
  let s = u;
  let t = v;
  if (ia < 0) {
    ia = edgeAt(A, v, u);
    s = v;
    t = u;
  }
  if (ia < 0) return null;
  const ib = edgeAt(B, t, s);
  if (ib < 0) return null;
  // A rotated to run t … s, B rotated to run s … t; drop B's copies of s and t.
  const out: number[] = [];
  for (let k = 0; k < A.length; k++) out.push(A[(ia + 1 + k) % A.length]!);
  for (let k = 2; k < B.length; k++) out.push(B[(ib + k) % B.length]!);
  return out;
}

/** True when two non-adjacent edges of the face cross or touch in XZ (a bow tie, a fold). */
export function selfIntersectsXZ(pos: Float32Array, poly: readonly number[]): boolean {
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % n]!;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const c = poly[j]!;
      const d = poly[(j + 1) % n]!;
      const d1 = turnXZ(pos, a, b, c);
      const d2 = turnXZ(pos, a, b, d);
      const d3 = turnXZ(pos, c, d, a);
      const d4 = turnXZ(pos, c, d, b);
      if (
        ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) &&
        ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
      ) {
        return true;
      }
    }
  }
  return false;
}
