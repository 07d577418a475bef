import { STRAIGHT_PATH_OFFMESH } from "../query/straight-path.js";
import { updateFlags as UF } from "./agent-params.js";
import {
  type CrowdSim,
  MAX_CORNERS,
  MAX_NEIGHBOURS,
  S_OFFMESH,
  S_WALKING,
  T_NONE,
  T_VELOCITY,
} from "./sim.js";

/**
 * What each agent sees before it steers: the proximity grid and its nearest neighbours, its
 * local walls, the next corners of its corridor (with the visibility shortcut), and off-mesh
 * links close enough to take.
 */

/** Proximity grid, local boundaries and the nearest neighbours of every walking agent. */
export function updateNeighbours(s: CrowdSim): void {
  const grid = s.grid;
  const np = s.npos;
  grid.clear();
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    const r = s.radius[i]!;
    grid.addItem(i, np[i * 3]! - r, np[i * 3 + 2]! - r, np[i * 3]! + r, np[i * 3 + 2]! + r);
  }
  const q = s.query;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const o = i * 3;
    const range = s.collisionQueryRange[i]!;
    const b = s.boundaries[i]!;
    const thr = range * 0.25;
    const dx = np[o]! - b.center[0]!;
    const dz = np[o + 2]! - b.center[2]!;
    const filter = s.filters[i]!;
    if (!(dx * dx + dz * dz <= thr * thr) || !b.isValid(q, filter)) {
      b.update(s.corridors[i]!.firstPoly, s.nposView[i]!, range, q, filter);
    }
    findNeighbours(s, i, range);
  }
}

/**
 * The MAX_NEIGHBOURS nearest agents within `range` (XZ; vertically within the mean of the two
 * heights), sorted by distance: Detour's getNeighbours, which reads the first 32 agents the
 * grid holds around the whole range. In a dense crowd those 32 are not the nearest (the grid
 * scans cells row by row), so for an agent that had MAX_NEIGHBOURS neighbours last update
 * meshway first asks a quarter of the range: when that finds MAX_NEIGHBOURS agents without
 * overflowing, they are the true nearest; otherwise the full-range query runs as Detour's. Less work, and neighbours that are
 * really the closest where it matters.
 */
export function findNeighbours(s: CrowdSim, i: number, range: number): void {
  // Try the small query only where the agent was crowded last update: in sparse surroundings
  // it would find too few and cost a second query.
  if (s.nneis[i] === MAX_NEIGHBOURS) {
    const n = gatherNeighbours(s, i, range * 0.25, false);
    if (n === MAX_NEIGHBOURS && s.lastQueryCount < s.ids.length) return;
  }
  gatherNeighbours(s, i, range, false);
  // An overflowing full-range query holds an arbitrary 32 of the agents around, often not the
  // adjacent ones (then nothing keeps them apart): merge in the nearest quarter of the range.
  if (s.lastQueryCount >= s.ids.length) gatherNeighbours(s, i, range * 0.25, true);
}

/**
 * One grid query of half size `range` into agent i's sorted neighbour list; returns its length.
 * With `merge`, the list is kept and extended (agents already in it skipped).
 */
function gatherNeighbours(s: CrowdSim, i: number, range: number, merge: boolean): number {
  const np = s.npos;
  const o = i * 3;
  const px = np[o]!;
  const py = np[o + 1]!;
  const pz = np[o + 2]!;
  const nids = s.grid.queryItems(px - range, pz - range, px + range, pz + range, s.ids);
  s.lastQueryCount = nids;
  const base = i * MAX_NEIGHBOURS;
  const neis = s.neis;
  const dist = s.neiDist;
  let n = merge ? s.nneis[i]! : 0;
  const kept = n;
  const h = s.height[i]!;
  const rangeSqr = range * range;
  for (let k = 0; k < nids; k++) {
    const j = s.ids[k]!;
    if (j === i) continue;
    const dy = py - np[j * 3 + 1]!;
    if (Math.abs(dy) >= (h + s.height[j]!) / 2) continue;
    const dx = px - np[j * 3]!;
    const dz = pz - np[j * 3 + 2]!;
    const d = dx * dx + dz * dz;
    if (d > rangeSqr) continue;
    if (kept > 0 && listed(neis, base, n, j)) continue;
    // Sorted insertion (before equal distances, as Detour), the farthest dropped when full.
    let slot: number;
    if (n === 0) {
      slot = 0;
    } else if (d >= dist[base + n - 1]!) {
      if (n >= MAX_NEIGHBOURS) continue;
      slot = n;
    } else {
      slot = 0;
      while (slot < n && d > dist[base + slot]!) slot++;
      const last = Math.min(n, MAX_NEIGHBOURS - 1);
      for (let m = last; m > slot; m--) {
        neis[base + m] = neis[base + m - 1]!;
        dist[base + m] = dist[base + m - 1]!;
      }
    }
    neis[base + slot] = j;
    dist[base + slot] = d;
    n = Math.min(n + 1, MAX_NEIGHBOURS);
  }
  s.nneis[i] = n;
  return n;
}

function listed(neis: Int32Array, base: number, n: number, j: number): boolean {
  for (let k = 0; k < n; k++) if (neis[base + k] === j) return true;
  return false;
}

export function updateCorners(s: CrowdSim): void {
  const q = s.query;
  const cb = s.cornerBuffers;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) continue;
    const c = s.corridors[i]!;
    const n = c.findCorners(cb, i * MAX_CORNERS, MAX_CORNERS, q);
    s.ncorners[i] = n;
    if (c.lastCornersStatus === "invalidRef") s.cornersStale[i] = 1;
    if ((s.flags[i]! & UF.optimizeVisibility) !== 0 && n > 0) {
      const t = (i * MAX_CORNERS + Math.min(1, n - 1)) * 3;
      const next = s.tmp3;
      next[0] = cb.verts[t]!;
      next[1] = cb.verts[t + 1]!;
      next[2] = cb.verts[t + 2]!;
      c.optimizePathVisibility(next, s.pathOptimizationRange[i]!, q, s.filters[i]!);
    }
  }
}

/** Agents near the start of an off-mesh link on their corridor take it. */
export function triggerOffMesh(s: CrowdSim): void {
  const cb = s.cornerBuffers;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) continue;
    const n = s.ncorners[i]!;
    if (n === 0) continue;
    const last = i * MAX_CORNERS + n - 1;
    if ((cb.flags[last]! & STRAIGHT_PATH_OFFMESH) === 0) continue;
    const o = i * 3;
    const trigger = s.radius[i]! * 2.25;
    const dx = s.npos[o]! - cb.verts[last * 3]!;
    const dz = s.npos[o + 2]! - cb.verts[last * 3 + 2]!;
    if (dx * dx + dz * dz >= trigger * trigger) continue;
    const start = s.animStartView[i]!;
    const end = s.animEndView[i]!;
    if (!s.corridors[i]!.moveOverOffMeshConnection(cb.polys[last]!, s.refs2, start, end, s.query)) {
      continue;
    }
    for (let k = 0; k < 3; k++) s.animInit[o + k] = s.npos[o + k]!;
    s.animRef[i] = s.refs2[1]!;
    s.animActive[i] = 1;
    s.animT[i] = 0;
    const ex = end[0]! - start[0]!;
    const ez = end[2]! - start[2]!;
    const speed = s.maxSpeed[i]!;
    s.animTmax[i] = speed > 0 ? (Math.sqrt(ex * ex + ez * ez) / speed) * 0.5 : 0;
    s.state[i] = S_OFFMESH;
    s.ncorners[i] = 0;
    s.nneis[i] = 0;
  }
}
