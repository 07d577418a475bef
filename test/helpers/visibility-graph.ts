import type { QueryFilter } from "../../src/navmesh/filter.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { polyOfRef, tileOfRef } from "../../src/navmesh/poly-ref.js";
import { EDGE_WALL } from "../../src/navmesh/tile.js";

/**
 * Reference exact shortest paths for flat (single-level) navmeshes: Dijkstra over the
 * visibility graph of the start, the goal and the navmesh's boundary vertices (wall ends and
 * edges to excluded polygons), with visibility tested in XZ against the boundary edges:
 * a segment is visible when it properly crosses no boundary edge and every piece between
 * the boundary vertices lying on it has its midpoint on the (filtered) navmesh. Where
 * obstacles touch at a vertex, its polygons form separate fans: the vertex is one graph node
 * per fan, and no segment passes from one fan to another (the navmesh's connectivity). Slow and
 * simple on purpose — a test oracle, not a query. Assumes a single tile (no tile borders).
 */
export class VisibilityGraph {
  /** Boundary edges: 4 numbers each (x0, z0, x1, z1). */
  readonly edges: number[] = [];
  /** Graph nodes (fans of boundary vertices): 2 numbers each. */
  readonly verts: number[] = [];
  /** Polygons of each graph node's fan. */
  private readonly fanPolys: number[][] = [];
  /** Polygons (passable ones), as flat xz lists. */
  private readonly polys: number[][] = [];
  /** Per boundary vertex ("x,z"): polygons (indices into polys) having it as a corner. */
  private readonly cornerPolys = new Map<string, number[]>();
  /** Vertex-to-vertex visibility, distances (Infinity when not visible). */
  private readonly vv: Float64Array;

  constructor(navMesh: NavMesh, filter?: QueryFilter) {
    const seen = new Set<string>();
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
          for (const w of [a, b]) seen.add(`${v[w * 3]},${v[w * 3 + 2]}`);
        }
        this.polys.push(ring);
      }
    }
    this.polys.forEach((ring, i) => {
      for (let k = 0; k < ring.length; k += 2) {
        const key = `${ring[k]},${ring[k + 1]}`;
        if (!seen.has(key)) continue;
        let list = this.cornerPolys.get(key);
        if (!list) this.cornerPolys.set(key, (list = []));
        list.push(i);
      }
    });
    // Graph nodes: one per fan of polygons around each boundary vertex (a vertex where two
    // obstacles touch has two fans, and a path may not pass from one to the other).
    for (const [key, list] of this.cornerPolys) {
      const [x, z] = key.split(",").map(Number) as [number, number];
      for (const fan of this.fans(x, z, list)) {
        this.verts.push(x, z);
        this.fanPolys.push(fan);
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
        if (ax === bx && az === bz) continue;
        if (this.visible(ax, az, bx, bz) && this.leaves(i, bx, bz) && this.leaves(j, ax, az)) {
          const d = Math.hypot(bx - ax, bz - az);
          this.vv[i * nv + j] = d;
          this.vv[j * nv + i] = d;
        }
      }
    }
  }

  /** True when the segment from node i towards (x, z) starts inside node i's fan. */
  private leaves(i: number, x: number, z: number): boolean {
    const vx = this.verts[i * 2]!;
    const vz = this.verts[i * 2 + 1]!;
    const len = Math.hypot(x - vx, z - vz);
    const px = vx + ((x - vx) * 1e-6) / len;
    const pz = vz + ((z - vz) * 1e-6) / len;
    return this.fanPolys[i]!.some((poly) => this.inRing(this.polys[poly]!, px, pz));
  }

  /** The polygons around vertex (vx, vz) grouped into fans joined by edges (v, w). */
  private fans(vx: number, vz: number, list: number[]): number[][] {
    const parent = list.map((_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i]!;
      return i;
    };
    const nextTo = (ring: number[]) => {
      const n = ring.length / 2;
      for (let k = 0; k < n; k++) {
        if (ring[k * 2] === vx && ring[k * 2 + 1] === vz) {
          const a = (k + n - 1) % n;
          const b = (k + 1) % n;
          return [`${ring[a * 2]},${ring[a * 2 + 1]}`, `${ring[b * 2]},${ring[b * 2 + 1]}`];
        }
      }
      return [];
    };
    const adj = list.map((i) => nextTo(this.polys[i]!));
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (adj[i]!.some((w) => adj[j]!.includes(w))) parent[find(i)] = find(j);
      }
    }
    const groups = new Map<number, number[]>();
    list.forEach((poly, i) => {
      const g = find(i);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(poly);
    });
    return [...groups.values()];
  }

  /**
   * True when points p and q near boundary vertex (vx, vz) lie in polygons around it that are
   * joined through edges ending at the vertex.
   */
  private sameFan(vx: number, vz: number, px: number, pz: number, qx: number, qz: number): boolean {
    const list = this.cornerPolys.get(`${vx},${vz}`) ?? [];
    return this.fans(vx, vz, list).some(
      (fan) =>
        fan.some((poly) => this.inRing(this.polys[poly]!, px, pz)) &&
        fan.some((poly) => this.inRing(this.polys[poly]!, qx, qz)),
    );
  }

  private inRing(ring: number[], x: number, z: number): boolean {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const ax = ring[i * 2]!;
      const az = ring[i * 2 + 1]!;
      const bx = ring[((i + 1) % n) * 2]!;
      const bz = ring[((i + 1) % n) * 2 + 1]!;
      const len = Math.hypot(bx - ax, bz - az);
      if (((bx - ax) * (z - az) - (bz - az) * (x - ax)) / len > 1e-7) return false;
    }
    return true;
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
          if (t * len > 1e-9 && (1 - t) * len > 1e-9) {
            cuts.push(t);
            // Through a boundary vertex: only within one fan of polygons around it (two
            // obstacles touching at a vertex do not let a path squeeze between them).
            const d = 1e-6 / len;
            const [qx, qz, rx, rz] = [
              ax + dx * (t - d),
              az + dz * (t - d),
              ax + dx * (t + d),
              az + dz * (t + d),
            ];
            if (!this.sameFan(px, pz, qx, qz, rx, rz)) return false;
          }
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

  /** Points (x, z) of the path found by the last shortest() call (empty when none). */
  lastPath: number[][] = [];

  /**
   * Length of the shortest path from s to t (XZ), Infinity when there is none. `links` are
   * off-mesh connections: an extra edge from (ax, az) to (bx, bz) (both ways when
   * bidirectional) costing `cost`.
   */
  shortest(
    sx: number,
    sz: number,
    tx: number,
    tz: number,
    links: readonly OffMeshLink[] = [],
  ): number {
    const nv = this.verts.length / 2;
    // Extra points: start, goal, then each link's two ends.
    const ex = [sx, tx];
    const ez = [sz, tz];
    for (const l of links) {
      ex.push(l.ax, l.bx);
      ez.push(l.az, l.bz);
    }
    const ne = ex.length;
    const n = nv + ne;
    const S = nv;
    const T = nv + 1;
    const px = (i: number) => (i < nv ? this.verts[i * 2]! : ex[i - nv]!);
    const pz = (i: number) => (i < nv ? this.verts[i * 2 + 1]! : ez[i - nv]!);
    // Edges from/to extra points, computed once: extra[e * n + j].
    const extra = new Float64Array(ne * n).fill(Infinity);
    for (let e = 0; e < ne; e++) {
      const x = ex[e]!;
      const z = ez[e]!;
      for (let j = 0; j < n; j++) {
        if (j === nv + e) continue;
        const jx = px(j);
        const jz = pz(j);
        const fanOk = j >= nv || (jx === x && jz === z) || this.leaves(j, x, z);
        if (fanOk && this.visible(x, z, jx, jz)) extra[e * n + j] = Math.hypot(jx - x, jz - z);
      }
    }
    const weight = (u: number, w: number): number => {
      let d = Infinity;
      if (u >= nv) d = extra[(u - nv) * n + w]!;
      else if (w >= nv) d = extra[(w - nv) * n + u]!;
      else d = this.vv[u * nv + w]!;
      links.forEach((l, k) => {
        const a = nv + 2 + k * 2;
        if (u === a && w === a + 1) d = Math.min(d, l.cost);
        if (l.bidirectional && u === a + 1 && w === a) d = Math.min(d, l.cost);
      });
      return d;
    };
    const dist = new Float64Array(n).fill(Infinity);
    const prev = new Int32Array(n).fill(-1);
    const done = new Uint8Array(n);
    dist[S] = 0;
    for (;;) {
      let u = -1;
      for (let i = 0; i < n; i++) if (!done[i] && (u < 0 || dist[i]! < dist[u]!)) u = i;
      if (u < 0 || dist[u] === Infinity) break;
      if (u === T) break;
      done[u] = 1;
      for (let w = 0; w < n; w++) {
        if (done[w] || w === u) continue;
        const d = weight(u, w);
        if (dist[u]! + d < dist[w]!) {
          dist[w] = dist[u]! + d;
          prev[w] = u;
        }
      }
    }
    this.lastPath = [];
    for (let i = T; i >= 0 && dist[T] !== Infinity; i = prev[i]!) {
      this.lastPath.unshift([px(i), pz(i)]);
    }
    return dist[T]!;
  }
}

/** An off-mesh connection for {@link VisibilityGraph.shortest}. */
export interface OffMeshLink {
  ax: number;
  az: number;
  bx: number;
  bz: number;
  cost: number;
  bidirectional: boolean;
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
