/**
 * Vertex welding and T-junction repair for authored polygon meshes (navMeshFromPolygons).
 * Authoring tools leave near-duplicate vertices along seams and vertices of one face lying on
 * another face's edge; both must become shared vertices so faces can be linked edge to edge.
 */

/** Welded positions (float32, the precision tiles store) and old index → welded index. */
export interface WeldResult {
  positions: Float32Array;
  remap: Uint32Array;
  count: number;
}

/**
 * Merges vertices within `tolerance` (3D distance, world units) of an earlier kept vertex,
 * scanning in index order so the first vertex of a cluster represents it (deterministic).
 * A hash grid of cell `tolerance` finds candidates in the 27 surrounding cells.
 */
export function weldVertices(
  positions: ArrayLike<number>,
  vertexCount: number,
  tolerance: number,
): WeldResult {
  const cell = tolerance > 0 ? tolerance : 1;
  const grid = new Map<string, number[]>();
  const remap = new Uint32Array(vertexCount);
  const kept: number[] = [];
  const tol2 = tolerance * tolerance;
  for (let i = 0; i < vertexCount; i++) {
    const x = positions[i * 3]!;
    const y = positions[i * 3 + 1]!;
    const z = positions[i * 3 + 2]!;
    const gx = Math.floor(x / cell);
    const gy = Math.floor(y / cell);
    const gz = Math.floor(z / cell);
    let found = -1;
    for (let dx = -1; dx <= 1 && tolerance > 0; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dz = -1; dz <= 1; dz++) {
          const list = grid.get(`${gx + dx},${gy + dy},${gz + dz}`);
          if (!list) continue;
          for (const k of list) {
            const j = kept[k]!;
            const ex = positions[j * 3]! - x;
            const ey = positions[j * 3 + 1]! - y;
            const ez = positions[j * 3 + 2]! - z;
            if (ex * ex + ey * ey + ez * ez <= tol2 && (found < 0 || k < found)) found = k;
          }
        }
      }
    }
    if (found < 0 && tolerance === 0) {
      const list = grid.get(`${gx},${gy},${gz}`);
      for (const k of list ?? []) {
        const j = kept[k]!;
        if (positions[j * 3] === x && positions[j * 3 + 1] === y && positions[j * 3 + 2] === z) {
          found = k;
          break;
        }
      }
    }
    if (found >= 0) {
      remap[i] = found;
      continue;
    }
    remap[i] = kept.length;
    const key = `${gx},${gy},${gz}`;
    let list = grid.get(key);
    if (!list) grid.set(key, (list = []));
    list.push(kept.length);
    kept.push(i);
  }
  const out = new Float32Array(kept.length * 3);
  kept.forEach((j, k) => {
    out[k * 3] = positions[j * 3]!;
    out[k * 3 + 1] = positions[j * 3 + 1]!;
    out[k * 3 + 2] = positions[j * 3 + 2]!;
  });
  return { positions: out, remap, count: kept.length };
}

/**
 * Inserts into each face edge every used vertex lying within `tolerance` of the edge (3D) and
 * strictly between its ends, in order along the edge — so a face whose edge is split by its
 * neighbours' vertices (a T-junction) shares those vertices and links to each neighbour.
 * Returns the number of vertices inserted. Candidates come from an XZ grid with cells about
 * one average edge long, so each edge looks at a few cells.
 */
export function insertTJunctions(
  faces: number[][],
  positions: Float32Array,
  tolerance: number,
): number {
  const used = new Set<number>();
  let edgeLen = 0;
  let edges = 0;
  for (const f of faces) {
    for (let i = 0; i < f.length; i++) {
      used.add(f[i]!);
      const a = f[i]! * 3;
      const b = f[(i + 1) % f.length]! * 3;
      edgeLen += Math.hypot(positions[b]! - positions[a]!, positions[b + 2]! - positions[a + 2]!);
      edges++;
    }
  }
  if (edges === 0) return 0;
  const cell = Math.max(edgeLen / edges, tolerance, 1e-6);
  const grid = new Map<string, number[]>();
  for (const v of [...used].sort((a, b) => a - b)) {
    const key = `${Math.floor(positions[v * 3]! / cell)},${Math.floor(positions[v * 3 + 2]! / cell)}`;
    let list = grid.get(key);
    if (!list) grid.set(key, (list = []));
    list.push(v);
  }
  let inserted = 0;
  const tol2 = tolerance * tolerance;
  for (let fi = 0; fi < faces.length; fi++) {
    const f = faces[fi]!;
    const out: number[] = [];
    for (let i = 0; i < f.length; i++) {
      const a = f[i]!;
      const b = f[(i + 1) % f.length]!;
      out.push(a);
      const ax = positions[a * 3]!;
      const ay = positions[a * 3 + 1]!;
      const az = positions[a * 3 + 2]!;
      const ex = positions[b * 3]! - ax;
      const ey = positions[b * 3 + 1]! - ay;
      const ez = positions[b * 3 + 2]! - az;
      const len2 = ex * ex + ey * ey + ez * ez;
      if (len2 === 0) continue;
      const gx0 = Math.floor((Math.min(ax, ax + ex) - tolerance) / cell);
      const gx1 = Math.floor((Math.max(ax, ax + ex) + tolerance) / cell);
      const gz0 = Math.floor((Math.min(az, az + ez) - tolerance) / cell);
      const gz1 = Math.floor((Math.max(az, az + ez) + tolerance) / cell);
      const hits: [number, number][] = [];
      for (let gz = gz0; gz <= gz1; gz++) {
        for (let gx = gx0; gx <= gx1; gx++) {
          for (const v of grid.get(`${gx},${gz}`) ?? []) {
            if (v === a || v === b) continue;
            const px = positions[v * 3]! - ax;
            const py = positions[v * 3 + 1]! - ay;
            const pz = positions[v * 3 + 2]! - az;
            const t = (px * ex + py * ey + pz * ez) / len2;
            if (t <= 0 || t >= 1) continue;
            const dx = px - t * ex;
            const dy = py - t * ey;
            const dz = pz - t * ez;
            if (dx * dx + dy * dy + dz * dz <= tol2) hits.push([t, v]);
          }
        }
      }
      if (hits.length === 0) continue;
      hits.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      for (const [, v] of hits) {
        if (out[out.length - 1] !== v && !f.includes(v)) {
          out.push(v);
          inserted++;
        }
      }
    }
    faces[fi] = out;
  }
  return inserted;
}
