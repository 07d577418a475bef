import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { encodePolyRef, OFF_MESH_SLOT, type PolyRef } from "../../navmesh/poly-ref.js";
import { heightByRef } from "../ref-geometry.js";
import type { QueryStatus } from "../status.js";
import {
  F_AX,
  F_AZ,
  F_BX,
  F_BZ,
  F_CONN,
  F_POLY,
  I_KIND,
  I_PARENT,
  I_ROOT,
  I_VIA,
  KIND_GOAL,
  KIND_INTERVAL,
  KIND_POINT,
  NF,
  NI,
  NONE,
  type RootTable,
  type SearchNodes,
} from "./node-store.js";

/**
 * Output of {@link ShortestPathFinder.findPath}, reusable across calls: the corner points
 * (start, the wall corners and off-mesh ends the path bends at, end) with surface heights,
 * the polygon corridor they run through, and lengths. Arrays grow as needed and are never
 * shrunk; read only the first pointCount * 3 / polyCount entries.
 */
export class ShortestPath {
  status: QueryStatus = "noStart";
  points = new Float64Array(3 * 32);
  pointCount = 0;
  polys = new Float64Array(64);
  polyCount = 0;
  /** Length in the XZ projection: the metric the search minimises. */
  lengthXZ = 0;
  /** Sum of the 3D lengths of the segments between consecutive points. */
  length3D = 0;
  /** Per point: 1 for a wall corner (may be dropped when the path goes straight on there). */
  private corner = new Uint8Array(32);
  /** @internal */ readonly scratch = new Float64Array(3);

  reset(): void {
    this.pointCount = 0;
    this.polyCount = 0;
    this.lengthXZ = 0;
    this.length3D = 0;
  }

  /**
   * Appends a point; an exact repeat of the previous point is dropped (not the end's).
   * `corner`: the point is a wall corner the path bends at (not the start, the end or an
   * off-mesh connection's end). Returns false when the point was dropped as a repeat.
   */
  addPoint(x: number, y: number, z: number, force = false, corner = false): boolean {
    const n = this.pointCount;
    let pts = this.points;
    if (n > 0 && !force) {
      const o = (n - 1) * 3;
      if (pts[o] === x && pts[o + 1] === y && pts[o + 2] === z) return false;
    }
    if ((n + 1) * 3 > pts.length) {
      const grown = new Float64Array(pts.length * 2);
      grown.set(pts);
      this.points = pts = grown;
    }
    if (n >= this.corner.length) {
      const grown = new Uint8Array(this.corner.length * 2);
      grown.set(this.corner);
      this.corner = grown;
    }
    this.corner[n] = corner ? 1 : 0;
    pts[n * 3] = x;
    pts[n * 3 + 1] = y;
    pts[n * 3 + 2] = z;
    if (n > 0) {
      const dx = x - pts[n * 3 - 3]!;
      const dy = y - pts[n * 3 - 2]!;
      const dz = z - pts[n * 3 - 1]!;
      this.lengthXZ += Math.sqrt(dx * dx + dz * dz);
      this.length3D += Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
    this.pointCount = n + 1;
    return true;
  }

  /**
   * Drops wall corners the path does not turn at: a shortest path can graze a corner lying
   * exactly on its line (a staircase of square cells does), and the search reports the
   * corner as a root although the path goes straight on through it. A corner is dropped when
   * its XZ turn is zero within STRAIGHT_ON relative and the path continues forward (not back).
   * Off-mesh ends, the start and the end stay. Lengths are summed again when any is dropped.
   */
  dropStraightCorners(): void {
    const n = this.pointCount;
    if (n < 3) return;
    const pts = this.points;
    const corner = this.corner;
    let w = 1;
    for (let i = 1; i < n; i++) {
      if (i + 1 < n && corner[i] === 1) {
        const o = i * 3;
        const ax = pts[o]! - pts[w * 3 - 3]!;
        const az = pts[o + 2]! - pts[w * 3 - 1]!;
        const bx = pts[o + 3]! - pts[o]!;
        const bz = pts[o + 5]! - pts[o + 2]!;
        const cross = ax * bz - az * bx;
        const dot = ax * bx + az * bz;
        const scale = Math.sqrt((ax * ax + az * az) * (bx * bx + bz * bz));
        if (dot > 0 && Math.abs(cross) <= STRAIGHT_ON * scale) continue;
      }
      if (w !== i) {
        pts[w * 3] = pts[i * 3]!;
        pts[w * 3 + 1] = pts[i * 3 + 1]!;
        pts[w * 3 + 2] = pts[i * 3 + 2]!;
        corner[w] = corner[i]!;
      }
      w++;
    }
    if (w === n) return;
    this.pointCount = w;
    let xz = 0;
    let d3 = 0;
    for (let i = 1; i < w; i++) {
      const dx = pts[i * 3]! - pts[i * 3 - 3]!;
      const dy = pts[i * 3 + 1]! - pts[i * 3 - 2]!;
      const dz = pts[i * 3 + 2]! - pts[i * 3 - 1]!;
      xz += Math.sqrt(dx * dx + dz * dz);
      d3 += Math.sqrt(dx * dx + dy * dy + dz * dz);
    }
    this.lengthXZ = xz;
    this.length3D = d3;
  }

  /** Appends a corridor polygon unless it repeats the last one. */
  addPoly(ref: PolyRef): void {
    const n = this.polyCount;
    if (n > 0 && this.polys[n - 1] === ref) return;
    if (n === this.polys.length) {
      const grown = new Float64Array(n * 2);
      grown.set(this.polys);
      this.polys = grown;
    }
    this.polys[n] = ref;
    this.polyCount = n + 1;
  }
}

/** |cross| ≤ this × |u| × |v| (XZ): the path does not turn at a point between u and v. */
const STRAIGHT_ON = 1e-9;

/** Fills chain[0..count) with the nodes from the start node to `last`; returns count. */
function collect(nodes: SearchNodes, last: number, chain: Int32Array): number {
  let count = 0;
  for (let i = last; i !== NONE && count < nodes.count; i = nodes.I[i * NI + I_PARENT]!) count++;
  let w = count;
  for (let i = last; i !== NONE && w > 0; i = nodes.I[i * NI + I_PARENT]!) chain[--w] = i;
  return count;
}

/**
 * Appends root r, on the boundary of polygon `poly`: a mesh vertex gets the detail-surface
 * height there (the existing height query; the vertex's own height where that finds none).
 */
function addRoot(
  out: ShortestPath,
  roots: RootTable,
  navMesh: NavMesh,
  r: number,
  poly: PolyRef,
): void {
  const x = roots.x[r]!;
  const z = roots.z[r]!;
  let y = roots.y[r]!;
  if (roots.vertex[r] === 1) {
    const h = heightByRef(navMesh, poly, x, z);
    if (!Number.isNaN(h)) y = h;
  }
  // Off-mesh landings are roots too, but never droppable corners.
  out.addPoint(x, y, z, false, roots.vertex[r] === 1);
}

/** Emits the points and polygons of chain[0..count): bends at each change of root. */
function emitChain(
  nodes: SearchNodes,
  roots: RootTable,
  navMesh: NavMesh,
  chain: Int32Array,
  count: number,
  out: ShortestPath,
): void {
  const first = chain[0]!;
  let root = nodes.I[first * NI + I_ROOT]!;
  out.addPoint(roots.x[root]!, roots.y[root]!, roots.z[root]!);
  out.addPoly(nodes.F[first * NF + F_POLY]!);
  const offSalt = navMesh.slotSalt(OFF_MESH_SLOT);
  const pts = navMesh.offMeshEndPoints;
  for (let k = 1; k < count; k++) {
    const n = chain[k]!;
    const kind = nodes.I[n * NI + I_KIND]!;
    const via = nodes.I[n * NI + I_VIA]!;
    // The polygon the previous node stood in or expanded into: bends lie on its boundary.
    const prevPoly = nodes.F[chain[k - 1]! * NF + F_POLY]!;
    if (kind === KIND_INTERVAL) {
      const r = nodes.I[n * NI + I_ROOT]!;
      if (r !== root) {
        root = r;
        addRoot(out, roots, navMesh, r, prevPoly);
      }
      out.addPoly(nodes.F[n * NF + F_POLY]!);
    } else if (kind === KIND_POINT) {
      if (via !== NONE) addRoot(out, roots, navMesh, via, prevPoly);
      const conn = nodes.F[n * NF + F_CONN]!;
      const o = (conn >> 1) * 6 + (conn & 1) * 3;
      out.addPoint(pts[o]!, pts[o + 1]!, pts[o + 2]!);
      out.addPoly(encodePolyRef(offSalt, OFF_MESH_SLOT, conn >> 1));
      root = nodes.I[n * NI + I_ROOT]!;
      out.addPoint(roots.x[root]!, roots.y[root]!, roots.z[root]!, true);
      out.addPoly(nodes.F[n * NF + F_POLY]!);
    } else if (kind === KIND_GOAL && via !== NONE) {
      addRoot(out, roots, navMesh, via, prevPoly);
    }
  }
}

/** Writes the path that ends at goal node `goal` (end point tx, ty, tz) to `out`. */
export function writeChain(
  nodes: SearchNodes,
  roots: RootTable,
  goal: number,
  _startRef: PolyRef,
  tx: number,
  ty: number,
  tz: number,
  navMesh: NavMesh,
  chain: Int32Array,
  out: ShortestPath,
): void {
  out.reset();
  const count = collect(nodes, goal, chain);
  emitChain(nodes, roots, navMesh, chain, count, out);
  out.addPoint(tx, ty, tz, out.pointCount === 1);
  out.dropStraightCorners();
}

/**
 * Writes the path to node `last` (a point or interval node, not the goal) followed by the
 * leg to (px, py, pz) in the node's polygon: straight when the point is in the node's cone,
 * else bending at the interval end on its side.
 */
export function writePartialChain(
  nodes: SearchNodes,
  roots: RootTable,
  last: number,
  _startRef: PolyRef,
  px: number,
  py: number,
  pz: number,
  navMesh: NavMesh,
  chain: Int32Array,
  out: ShortestPath,
): void {
  out.reset();
  const count = collect(nodes, last, chain);
  emitChain(nodes, roots, navMesh, chain, count, out);
  if (nodes.I[last * NI + I_KIND] === KIND_INTERVAL) {
    const r = nodes.I[last * NI + I_ROOT]!;
    const rx = roots.x[r]!;
    const rz = roots.z[r]!;
    const ax = nodes.F[last * NF + F_AX]!;
    const az = nodes.F[last * NF + F_AZ]!;
    const bx = nodes.F[last * NF + F_BX]!;
    const bz = nodes.F[last * NF + F_BZ]!;
    const vx = px - rx;
    const vz = pz - rz;
    let cx = Number.NaN;
    let cz = Number.NaN;
    if ((ax - rx) * vz - (az - rz) * vx < 0) {
      cx = ax;
      cz = az;
    } else if ((bx - rx) * vz - (bz - rz) * vx > 0) {
      cx = bx;
      cz = bz;
    }
    if (!Number.isNaN(cx)) {
      let cy = heightByRef(navMesh, nodes.F[last * NF + F_POLY]!, cx, cz);
      if (Number.isNaN(cy)) cy = roots.y[r]!;
      out.addPoint(cx, cy, cz, false, true);
    }
  }
  out.addPoint(px, py, pz, out.pointCount === 1);
  out.dropStraightCorners();
}
