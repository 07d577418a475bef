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

/** Neighbour grid, local boundaries and the nearest neighbours of every walking agent. */
export function updateNeighbours(s: CrowdSim): void {
  const np = s.npos;
  s.grid.build(s.activeList, s.nactive, np, s.height);
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
    // The MAX_NEIGHBOURS nearest within collisionQueryRange (Detour's getNeighbours, but the
    // true nearest: see NeighbourGrid).
    s.nneis[i] = s.grid.nearest(
      i,
      np[o]!,
      np[o + 1]!,
      np[o + 2]!,
      s.height[i]!,
      range,
      MAX_NEIGHBOURS,
      s.neis,
      s.neiDist,
      i * MAX_NEIGHBOURS,
    );
  }
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
