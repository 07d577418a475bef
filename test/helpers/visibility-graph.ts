import type { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { EDGE_WALL } from "../../src/navmesh/tile.js";

/**
 * Reference exact shortest paths for flat (single-level) navmeshes: Dijkstra over the
 * visibility graph of the start, the goal and the navmesh's boundary vertices (wall ends and
 * edges to excluded polygons), with visibility tested in XZ against the boundary edges:
 * a segment is visible when it properly crosses no boundary edge and every piece between
 * the boundary vertices lying on it has its midpoint on the (filtered) navmesh. Slow and
 * simple on purpose — a test oracle, not a query. Assumes a single tile (no tile borders).
 */
export class VisibilityGraph {
  /** Boundary edges: 4 numbers each (x0, z0, x1, z1). */
  readonly edges: number[] = [];
  /** Boundary vertices: 2 numbers each. */
  readonly verts: number[] = [];
  /** Polygons (passable ones), as flat xz lists. */
  private readonly polys: number[][] = [];
  /** Vertex-to-vertex visibility, distances (Infinity when not visible). */
  private readonly vv: Float64Array;

  constructor(navMesh: NavMesh, filter?: QueryFilter) {
    const seen = new Map<string, number>();
    const passes = (f: number) => (filter ? filter.passes(f) : true);
    for (const tile of navMesh.tiles) {
      const nvp = tile.maxVertsPerPoly;
      const v = tile.vertices;
      for (let p = 0; p < tile.polyCount; p++) {
        if (!passes(tile.polyFlags[p]!)) continue;
        const n = tile.polyVertCount[p]!;
        const ring: number[] = [];
        for (let e = 0; e < n; e++) {
          const a = tile.polyVerts[p * nvp + e]!;
          ring.push(v[a * 3]!, v[a * 3 + 2]!);
          const nb = tile.polyNeighbours[p * nvp + e]!;
          const wall = nb === EDGE_WALL || nb >= 0x80000000 || !passes(tile.polyFlags[nb - 1]!);
          if (!wall) continue;
          const b = tile.polyVerts[p * nvp + ((e + 1) % n)]!;
          this.edges.push(v[a * 3]!, v[a * 3 + 2]!, v[b * 3]!, v[b * 3 + 2]!);
          for (const w of [a, b]) {
            const key = `${v[w * 3]},${v[w * 3 + 2]}`;
            if (!seen.has(key)) {
              seen.set(key, this.verts.length / 2);
              this.verts.push(v[w * 3]!, v[w * 3 + 2]!);
            }
          }
        }
        this.polys.push(ring);
      }
    }
    const nv = this.verts.length / 2;
    this.vv = new Float64Array(nv * nv).fill(Infinity);
    for (let i = 0; i < nv; i++) {
      for (let j = i + 1; j < nv; j++) {
        const [ax, az, bx, bz] = [
          this.verts[i * 2]!,
          this.verts[i * 2 + 1]!,
          this.verts[j * 2]!,
          this.verts[j * 2 + 1]!,
        ];
        if (this.visible(ax, az, bx, bz)) {
          const d = Math.hypot(bx - ax, bz - az);
          this.vv[i * nv + j] = d;
          this.vv[j * nv + i] = d;
        }
      }
    }
  }

  /** True when (x, z) is in (or within 1e-7 of) a passable polygon. */
  inside(x: number, z: number): boolean {
    for (const ring of this.polys) {
      const n = ring.length / 2;
      let inside = true;
      for (let i = 0; i < n && inside; i++) {
        const ax = ring[i * 2]!;
        const az = ring[i * 2 + 1]!;
        const bx = ring[((i + 1) % n) * 2]!;
        const bz = ring[((i + 1) % n) * 2 + 1]!;
        const len = Math.hypot(bx - ax, bz - az);
        // Build winding: interior where the cross product is negative.
        const c = ((bx - ax) * (z - az) - (bz - az) * (x - ax)) / len;
        if (c > 1e-7) inside = false;
      }
      if (inside) return true;
    }
    return false;
  }

  /** True when the segment a-b stays on the navmesh (see the class comment). */
  visible(ax: number, az: number, bx: number, bz: number): boolean {
    const e = this.edges;
    const dx = bx - ax;
    const dz = bz - az;
    const len = Math.hypot(dx, dz);
    if (len === 0) return this.inside(ax, az);
    const cuts: number[] = [0, 1];
    for (let i = 0; i < e.length; i += 4) {
      const cx = e[i]!;
      const cz = e[i + 1]!;
      const ex = e[i + 2]!;
      const ez = e[i + 3]!;
      const o1 = (dx * (cz - az) - dz * (cx - ax)) / len;
      const o2 = (dx * (ez - az) - dz * (ex - ax)) / len;
      const el = Math.hypot(ex - cx, ez - cz);
      const o3 = ((ex - cx) * (az - cz) - (ez - cz) * (ax - cx)) / el;
      const o4 = ((ex - cx) * (bz - cz) - (ez - cz) * (bx - cx)) / el;
      const eps = 1e-9;
      if (
        ((o1 > eps && o2 < -eps) || (o1 < -eps && o2 > eps)) &&
        ((o3 > eps && o4 < -eps) || (o3 < -eps && o4 > eps))
      ) {
        return false;
      }
      for (const [px, pz, o] of [
        [cx, cz, o1],
        [ex, ez, o2],
      ] as const) {
        if (Math.abs(o) <= eps) {
          const t = ((px - ax) * dx + (pz - az) * dz) / (len * len);
          if (t > 0 && t < 1) cuts.push(t);
        }
      }
    }
    cuts.sort((p, q) => p - q);
    for (let i = 0; i + 1 < cuts.length; i++) {
      if (cuts[i + 1]! - cuts[i]! < 1e-12) continue;
      const t = (cuts[i]! + cuts[i + 1]!) / 2;
      if (!this.inside(ax + dx * t, az + dz * t)) return false;
    }
    return true;
  }

  /** Length of the shortest path from s to t (XZ), Infinity when there is none. */
  shortest(sx: number, sz: number, tx: number, tz: number): number {
    const nv = this.verts.length / 2;
    const S = nv;
    const T = nv + 1;
    const n = nv + 2;
    const px = (i: number) => (i === S ? sx : i === T ? tx : this.verts[i * 2]!);
    const pz = (i: number) => (i === S ? sz : i === T ? tz : this.verts[i * 2 + 1]!);
    const fromS = new Float64Array(n).fill(Infinity);
    const toT = new Float64Array(n).fill(Infinity);
    for (let i = 0; i < n; i++) {
      if (i !== S && this.visible(sx, sz, px(i), pz(i)))
        fromS[i] = Math.hypot(px(i) - sx, pz(i) - sz);
      if (i !== T && this.visible(px(i), pz(i), tx, tz))
        toT[i] = Math.hypot(tx - px(i), tz - pz(i));
    }
    const dist = new Float64Array(n).fill(Infinity);
    const done = new Uint8Array(n);
    dist[S] = 0;
    for (;;) {
      let u = -1;
      for (let i = 0; i < n; i++) if (!done[i] && (u < 0 || dist[i]! < dist[u]!)) u = i;
      if (u < 0 || dist[u] === Infinity) break;
      if (u === T) break;
      done[u] = 1;
      for (let w = 0; w < n; w++) {
        if (done[w]) continue;
        let d: number;
        if (u === S) d = fromS[w]!;
        else if (w === T) d = toT[u]!;
        else if (w === S) continue;
        else d = this.vv[u * nv + w]!;
        if (dist[u]! + d < dist[w]!) dist[w] = dist[u]! + d;
      }
    }
    return dist[T]!;
  }
}

/** XZ length of a polyline. */
export function lengthXZ(points: readonly (readonly number[])[]): number {
  let l = 0;
  for (let i = 1; i < points.length; i++) {
    l += Math.hypot(points[i]![0]! - points[i - 1]![0]!, points[i]![2]! - points[i - 1]![2]!);
  }
  return l;
}

/** XZ distance from (x, z) to polygon `ref` (0 inside). */
export function distanceToPolyXZ(navMesh: NavMesh, ref: number, x: number, z: number): number {
  const tile = navMesh.slots[tileOfRef(ref)]!.tile!;
  const p = polyOfRef(ref);
  const nvp = tile.maxVertsPerPoly;
  const n = tile.polyVertCount[p]!;
  const v = tile.vertices;
  let inside = true;
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const a = tile.polyVerts[p * nvp + i]! * 3;
    const b = tile.polyVerts[p * nvp + ((i + 1) % n)]! * 3;
    const ax = v[a]!;
    const az = v[a + 2]!;
    const ex = v[b]! - ax;
    const ez = v[b + 2]! - az;
    const len2 = ex * ex + ez * ez;
    if (ex * (z - az) - ez * (x - ax) > 0) inside = false;
    const t = Math.max(0, Math.min(1, ((x - ax) * ex + (z - az) * ez) / len2));
    best = Math.min(best, Math.hypot(ax + ex * t - x, az + ez * t - z));
  }
  return inside ? 0 : best;
}
