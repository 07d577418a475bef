import type { NavMeshTile } from "./tile.js";

/**
 * Bounding-volume tree over a tile's polygons, built like Detour's createBVTree (Mononen):
 * top-down median split along the longest axis of the node's box, nodes stored depth-first,
 * an internal node's index holding minus the size of its subtree (the escape offset) so a
 * query walks the array linearly and skips subtrees that miss. Bounds are world-space floats
 * (Detour quantizes to voxels); polygon boxes include the polygon's detail vertices so the
 * y range covers the detail surface. Ties in the split sort break by polygon index, which
 * keeps the tree deterministic.
 */
export function buildTileBVTree(tile: NavMeshTile): {
  bvBounds: Float32Array;
  bvIndex: Int32Array;
} {
  const n = tile.polyCount;
  if (n === 0) return { bvBounds: new Float32Array(0), bvIndex: new Int32Array(0) };
  // Per polygon box: min xyz, max xyz.
  const boxes = new Float64Array(n * 6);
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  const dv = tile.detailVertices;
  const dm = tile.detailMeshes;
  for (let p = 0; p < n; p++) {
    let x0 = Infinity;
    let y0 = Infinity;
    let z0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let z1 = -Infinity;
    const count = tile.polyVertCount[p]!;
    for (let i = 0; i < count; i++) {
      const k = tile.polyVerts[p * nvp + i]! * 3;
      x0 = Math.min(x0, v[k]!);
      y0 = Math.min(y0, v[k + 1]!);
      z0 = Math.min(z0, v[k + 2]!);
      x1 = Math.max(x1, v[k]!);
      y1 = Math.max(y1, v[k + 1]!);
      z1 = Math.max(z1, v[k + 2]!);
    }
    if (dm.length >= (p + 1) * 4) {
      const vb = dm[p * 4]!;
      const vc = dm[p * 4 + 1]!;
      for (let i = 0; i < vc; i++) {
        const k = (vb + i) * 3;
        if (k + 2 >= dv.length) break;
        x0 = Math.min(x0, dv[k]!);
        y0 = Math.min(y0, dv[k + 1]!);
        z0 = Math.min(z0, dv[k + 2]!);
        x1 = Math.max(x1, dv[k]!);
        y1 = Math.max(y1, dv[k + 1]!);
        z1 = Math.max(z1, dv[k + 2]!);
      }
    }
    const o = p * 6;
    boxes[o] = x0;
    boxes[o + 1] = y0;
    boxes[o + 2] = z0;
    boxes[o + 3] = x1;
    boxes[o + 4] = y1;
    boxes[o + 5] = z1;
  }
  const nodeCount = 2 * n - 1;
  const bvBounds = new Float32Array(nodeCount * 6);
  const bvIndex = new Int32Array(nodeCount);
  const items = new Int32Array(n);
  for (let i = 0; i < n; i++) items[i] = i;
  let cur = 0;
  const subdivide = (imin: number, imax: number): void => {
    const node = cur++;
    const o = node * 6;
    if (imax - imin === 1) {
      const p = items[imin]!;
      for (let k = 0; k < 6; k++) bvBounds[o + k] = boxes[p * 6 + k]!;
      bvIndex[node] = p;
      return;
    }
    let x0 = Infinity;
    let y0 = Infinity;
    let z0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    let z1 = -Infinity;
    for (let i = imin; i < imax; i++) {
      const b = items[i]! * 6;
      x0 = Math.min(x0, boxes[b]!);
      y0 = Math.min(y0, boxes[b + 1]!);
      z0 = Math.min(z0, boxes[b + 2]!);
      x1 = Math.max(x1, boxes[b + 3]!);
      y1 = Math.max(y1, boxes[b + 4]!);
      z1 = Math.max(z1, boxes[b + 5]!);
    }
    bvBounds[o] = x0;
    bvBounds[o + 1] = y0;
    bvBounds[o + 2] = z0;
    bvBounds[o + 3] = x1;
    bvBounds[o + 4] = y1;
    bvBounds[o + 5] = z1;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const dz = z1 - z0;
    let axis = 0;
    let longest = dx;
    if (dy > longest) {
      axis = 1;
      longest = dy;
    }
    if (dz > longest) axis = 2;
    items.subarray(imin, imax).sort((a, b) => boxes[a * 6 + axis]! - boxes[b * 6 + axis]! || a - b);
    const split = imin + ((imax - imin) >> 1);
    subdivide(imin, split);
    subdivide(split, imax);
    bvIndex[node] = -(cur - node);
  };
  subdivide(0, n);
  return { bvBounds, bvIndex };
}
