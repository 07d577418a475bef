import { closestPointByRef } from "../query/ref-geometry.js";
import { updateFlags as UF } from "./agent-params.js";
import { refPassesFilter } from "./path-corridor.js";
import { PATH_QUEUE_INVALID } from "./path-queue.js";
import {
  CHECK_LOOKAHEAD,
  type CrowdSim,
  MAX_PATH,
  OPT_MAX_AGENTS,
  OPT_TIME_THR,
  PATH_MAX_AGENTS,
  QUICK_MAX_RES,
  S_INVALID,
  S_WALKING,
  T_FAILED,
  T_NONE,
  T_REQUESTING,
  T_VALID,
  T_VELOCITY,
  T_WAITING_FOR_PATH,
  T_WAITING_FOR_QUEUE,
  TARGET_REPLAN_DELAY,
} from "./sim.js";

/**
 * Path upkeep passes of the crowd update (Detour's checkPathValidity, updateMoveRequest,
 * updateTopologyOptimization): stale refs re-snapped or replanned, quick searches, the
 * time-sliced path queue, and joining queued paths onto corridors.
 */

/** Stale polygons under agents or targets: re-snap, or invalid; corridors replanned. */
export function checkPathValidity(s: CrowdSim, dt: number): void {
  const q = s.query;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    const filter = s.filters[i]!;
    const o = i * 3;
    const c = s.corridors[i]!;
    if (s.state[i] === S_INVALID) {
      // Back on the mesh when a tile under it returned.
      const ref = q.findNearestPoly(s.nposView[i]!, s.halfExtents, filter, s.nearest);
      if (ref === 0) continue;
      s.place(i, ref, s.nearest.point);
      const ts = s.tstate[i]!;
      if (ts !== T_NONE && ts !== T_VELOCITY) {
        s.requestMoveTargetReplan(i, s.targetRef[i]!, s.targetPosView[i]!);
      }
      continue;
    }
    if (s.state[i] !== S_WALKING) continue;
    s.targetReplanTime[i] = s.targetReplanTime[i]! + dt;
    let replan = false;
    let agentRef = c.firstPoly;
    if (!refPassesFilter(q, agentRef, filter)) {
      agentRef = q.findNearestPoly(s.nposView[i]!, s.halfExtents, filter, s.nearest);
      if (agentRef === 0) {
        c.reset(0, s.nposView[i]!);
        s.partial[i] = 0;
        s.boundaries[i]!.reset();
        s.ncorners[i] = 0;
        s.nneis[i] = 0;
        for (let k = 0; k < 3; k++) {
          s.vel[o + k] = 0;
          s.dvel[o + k] = 0;
          s.nvel[o + k] = 0;
        }
        s.state[i] = S_INVALID;
        continue;
      }
      c.fixPathStart(agentRef, s.nearest.point);
      s.boundaries[i]!.reset();
      for (let k = 0; k < 3; k++) s.npos[o + k] = s.nearest.point[k]!;
      replan = true;
    }
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) continue;
    if (ts !== T_FAILED) {
      if (!refPassesFilter(q, s.targetRef[i]!, filter)) {
        const tp = s.targetPosView[i]!;
        const tref = q.findNearestPoly(tp, s.halfExtents, filter, s.nearest);
        s.targetRef[i] = tref;
        if (tref !== 0) tp.set(s.nearest.point);
        replan = true;
      }
      if (s.targetRef[i] === 0) {
        c.reset(agentRef, s.nposView[i]!);
        s.partial[i] = 0;
        s.tstate[i] = T_NONE;
      }
    }
    if (!c.isValid(CHECK_LOOKAHEAD, q, filter) || s.cornersStale[i] === 1) {
      // Never follow stale polygons: cut them off, then replan.
      c.trimInvalidPath(agentRef, s.nposView[i]!, q, filter);
      s.cornersStale[i] = 0;
      s.boundaries[i]!.reset();
      replan = true;
    }
    if (s.tstate[i] === T_VALID) {
      if (
        s.targetReplanTime[i]! > TARGET_REPLAN_DELAY &&
        c.count < CHECK_LOOKAHEAD &&
        c.lastPoly !== s.targetRef[i]
      ) {
        replan = true;
      }
    }
    if (replan && s.tstate[i] !== T_NONE) {
      s.requestMoveTargetReplan(i, s.targetRef[i]!, s.targetPosView[i]!);
    }
  }
}

/** Quick searches for new requests, then the path queue (Detour's updateMoveRequest). */
export function updateMoveRequest(s: CrowdSim): void {
  const q = s.query;
  const queue = s.pathQueueAgents;
  let nqueue = 0;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] === S_INVALID) continue;
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) continue;
    const c = s.corridors[i]!;
    if (ts === T_REQUESTING && c.count > 0) {
      const filter = s.filters[i]!;
      const tref = s.targetRef[i]!;
      const tpos = s.targetPosView[i]!;
      let count = 0;
      const init = q.initSlicedFindPath(c.path[0]!, tref, s.nposView[i]!, tpos, filter);
      if (init === "inProgress") q.updateSlicedFindPath(s.quickSearch);
      const r =
        s.targetReplan[i] === 1
          ? q.finalizeSlicedFindPathPartial(c.path, s.reqPath, s.reqResult, c.count)
          : q.finalizeSlicedFindPath(s.reqPath, s.reqResult);
      s.reqPath = r.polys as Float64Array;
      const reqPath = s.reqPath;
      if (r.status !== "invalidRef" && r.status !== "noStart" && r.polyCount > 0) {
        count = Math.min(r.polyCount, QUICK_MAX_RES);
        if (reqPath[count - 1] !== tref) {
          const t = s.reqPos;
          if (
            closestPointByRef(s.navMesh, reqPath[count - 1]!, tpos[0]!, tpos[1]!, tpos[2]!, t) < 0
          ) {
            count = 0;
          }
        } else {
          s.reqPos.set(tpos);
        }
      }
      if (count === 0) {
        s.reqPos.set(s.nposView[i]!);
        reqPath[0] = c.path[0]!;
        count = 1;
      }
      c.setCorridor(s.reqPos, reqPath, count);
      s.boundaries[i]!.reset();
      s.partial[i] = 0;
      if (reqPath[count - 1] === tref) {
        s.tstate[i] = T_VALID;
        s.targetReplanTime[i] = 0;
      } else {
        s.tstate[i] = T_WAITING_FOR_QUEUE;
      }
    }
    if (s.tstate[i] === T_WAITING_FOR_QUEUE) {
      nqueue = s.addSorted(queue, nqueue, PATH_MAX_AGENTS, i, s.targetReplanTime);
    }
  }
  for (let k = 0; k < nqueue; k++) {
    const i = queue[k]!;
    const c = s.corridors[i]!;
    const h = s.pathQueue.request(
      c.lastPoly,
      s.targetRef[i]!,
      c.target,
      s.targetPosView[i]!,
      s.filters[i]!,
    );
    s.targetPathqRef[i] = h;
    if (h !== PATH_QUEUE_INVALID) s.tstate[i] = T_WAITING_FOR_PATH;
  }
  s.pathQueue.update(s.pathBudget);
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.tstate[i] !== T_WAITING_FOR_PATH) continue;
    const status = s.pathQueue.getRequestStatus(s.targetPathqRef[i]!);
    if (status === "inProgress") continue;
    if (status === "failed") {
      s.targetPathqRef[i] = PATH_QUEUE_INVALID;
      s.tstate[i] = s.targetRef[i] !== 0 ? T_REQUESTING : T_FAILED;
      s.targetReplanTime[i] = 0;
      continue;
    }
    finishQueuedPath(s, i, status === "partial");
  }
}

/** Joins a finished queued path onto the corridor (Detour's path merge). */
export function finishQueuedPath(s: CrowdSim, i: number, partial: boolean): void {
  const c = s.corridors[i]!;
  const res = s.pathResult;
  const tpos = s.tmp3;
  tpos.set(s.targetPosView[i]!);
  let nres = s.pathQueue.getPathResult(s.targetPathqRef[i]!, res);
  let valid = nres > 0;
  s.partial[i] = partial ? 1 : 0;
  const path = c.path;
  const npath = c.count;
  if (valid && (npath === 0 || path[npath - 1] !== res[0])) valid = false;
  if (valid) {
    if (npath > 1) {
      if (npath - 1 + nres > MAX_PATH) nres = MAX_PATH - (npath - 1);
      res.copyWithin(npath - 1, 0, nres);
      for (let k = 0; k < npath - 1; k++) res[k] = path[k]!;
      nres += npath - 1;
      // Drop back-and-forth detours (A B A → A).
      for (let j = 0; j < nres; j++) {
        if (j - 1 >= 0 && j + 1 < nres && res[j - 1] === res[j + 1]) {
          res.copyWithin(j - 1, j + 1, nres);
          nres -= 2;
          j -= 2;
        }
      }
    }
    if (res[nres - 1] !== s.targetRef[i]) {
      if (
        closestPointByRef(s.navMesh, res[nres - 1]!, tpos[0]!, tpos[1]!, tpos[2]!, s.reqPos) < 0
      ) {
        valid = false;
      } else {
        tpos.set(s.reqPos);
      }
    }
  }
  if (valid) {
    c.setCorridor(tpos, res, nres);
    s.boundaries[i]!.reset();
    s.tstate[i] = T_VALID;
  } else {
    s.tstate[i] = T_FAILED;
  }
  s.targetReplanTime[i] = 0;
}

export function updateTopologyOptimization(s: CrowdSim, dt: number): void {
  let nq = 0;
  for (let a = 0; a < s.nactive; a++) {
    const i = s.activeList[a]!;
    if (s.state[i] !== S_WALKING) continue;
    const ts = s.tstate[i]!;
    if (ts === T_NONE || ts === T_VELOCITY) continue;
    if ((s.flags[i]! & UF.optimizeTopology) === 0) continue;
    s.topologyOptTime[i] = s.topologyOptTime[i]! + dt;
    if (s.topologyOptTime[i]! >= OPT_TIME_THR) {
      nq = s.addSorted(s.optQueue, nq, OPT_MAX_AGENTS, i, s.topologyOptTime);
    }
  }
  for (let k = 0; k < nq; k++) {
    const i = s.optQueue[k]!;
    s.corridors[i]!.optimizePathTopology(s.query, s.filters[i]!);
    s.topologyOptTime[i] = 0;
  }
}
