import type * as NavMeshQueryApi from "@recast-navigation/core/dist/nav-mesh-query.js";
import { it } from "vitest";
import { resolveConfig } from "../../src/config.js";
import { importDetourNavMesh } from "../../src/navmesh/detour-import.js";
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import { getPortalPoints } from "../../src/navmesh/neighbours.js";
import { polyOfRef, tileOfRef, encodePolyRef } from "../../src/navmesh/poly-ref.js";
import { NavMeshQuery } from "../../src/query/nav-mesh-query.js";
import { buildDetourNavMesh } from "../helpers/detour.js";
import { loadSharedMesh } from "../helpers/meshes.js";
import { initRecast, recast } from "../helpers/recast.js";
const core = recast as unknown as typeof recast & typeof NavMeshQueryApi;

interface N { ref: number; pos: number[]; cost: number; total: number; flags: number; parent: N | null }
/** Detour 1.6 findPath, node per (ref, crossSide), Detour's heap and link order. */
function refAStar(nm: NavMesh, startRef: number, endRef: number, s: number[], e: number[], useStates: boolean): number[] {
  const nodes = new Map<string, N>();
  const get = (ref: number, st: number) => { const k = `${ref}:${useStates ? st : 0}`; let n = nodes.get(k); if (!n) { n = { ref, pos: [0,0,0], cost: 0, total: 0, flags: 0, parent: null }; nodes.set(k, n); } return n; };
  const heap: N[] = [];
  const bubbleUp = (i: number, n: N) => { let p = (i - 1) >> 1; while (i > 0 && heap[p]!.total > n.total) { heap[i] = heap[p]!; i = p; p = (i - 1) >> 1; } heap[i] = n; };
  const trickle = (i: number, n: N) => { let c = i * 2 + 1; while (c < heap.length) { if (c + 1 < heap.length && heap[c]!.total > heap[c + 1]!.total) c++; heap[i] = heap[c]!; i = c; c = i * 2 + 1; } bubbleUp(i, n); };
  const push = (n: N) => { heap.push(n); bubbleUp(heap.length - 1, n); };
  const pop = () => { const r = heap[0]!; const last = heap.pop()!; if (heap.length > 0) trickle(0, last); return r; };
  const dist = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
  const start = get(startRef, 0); start.pos = [...s]; start.total = dist(s, e) * 0.999; start.flags = 1; push(start);
  let lastBest = start; let lastBestCost = start.total;
  const L = new Float64Array(3), R = new Float64Array(3);
  while (heap.length > 0) {
    const best = pop(); best.flags = 2;
    if (best.ref === endRef) { lastBest = best; break; }
    const parentRef = best.parent ? best.parent.ref : 0;
    // neighbours in Detour's order: external links (LinkPool order) then internal by edge
    const slot = tileOfRef(best.ref); const poly = polyOfRef(best.ref);
    const S = nm.slots[slot]!; const tile = S.tile!;
    const nbs: [number, number][] = [];
    for (let l = S.links.first[poly]!; l >= 0; l = S.links.next[l]!) nbs.push([S.links.ref[l]!, S.links.side[l]! === 0xff ? 0 : S.links.side[l]!]);
    for (let i = 0; i < tile.polyVertCount[poly]!; i++) { const nb = tile.polyNeighbours[poly * tile.maxVertsPerPoly + i]!; if (nb !== 0 && nb < 0x80000000) nbs.push([encodePolyRef(S.salt, slot, nb - 1), 0]); }
    for (const [nref, side] of nbs) {
      if (nref === parentRef) continue;
      // meshway side (Recast dir 0=-x,1=+z,2=+x,3=-z) -> Detour side (0=+x,2=+z,4=-x,6=-z) >> 1
      const dtSide = [2, 1, 0, 3][side]!;
      const crossSide = nbs.indexOf(nbs.find((x) => x[0] === nref)!) >= 0 && tileOfRef(nref) !== slot ? dtSide : 0;
      const n = get(nref, crossSide);
      if (n.flags === 0) { getPortalPoints(nm, best.ref, nref, L, R); n.pos = [(L[0]! + R[0]!) / 2, (L[1]! + R[1]!) / 2, (L[2]! + R[2]!) / 2]; }
      let cost: number; let h: number;
      if (nref === endRef) { cost = best.cost + dist(best.pos, n.pos) + dist(n.pos, e); h = 0; } else { cost = best.cost + dist(best.pos, n.pos); h = dist(n.pos, e) * 0.999; }
      const total = cost + h;
      if ((n.flags & 1) && total >= n.total) continue;
      if ((n.flags & 2) && total >= n.total) continue;
      n.parent = best; n.flags &= ~2; n.cost = cost; n.total = total;
      if (n.flags & 1) { bubbleUp(heap.indexOf(n), n); } else { n.flags |= 1; push(n); }
      if (h < lastBestCost) { lastBestCost = h; lastBest = n; }
    }
  }
  const path: number[] = []; for (let n: N | null = lastBest; n; n = n.parent) path.push(n.ref); return path.reverse();
}

it("reference A* with node states reproduces Detour's tiled corridors", async () => {
  await initRecast();
  for (const m of ["nav_test", "dungeon", "undulating"] as const) {
    const d = buildDetourNavMesh(loadSharedMesh(m), resolveConfig(), { tileSize: 32 });
    const nm = importDetourNavMesh(d.bytes);
    const mq = new NavMeshQuery(nm, { maxNodes: 8192 });
    const dq = new core.NavMeshQuery(d.navMesh, { maxNodes: 8192 });
    const dt = d.navMesh;
    const toDt = (r: number) => { const t = nm.tileInSlot(tileOfRef(r))!; return dt.getPolyRefBase(dt.getTileAt(t.tileX, t.tileZ, 0)) + polyOfRef(r); };
    const all: number[] = []; for (let s = 0; s < nm.slots.length; s++) { const t = nm.tileInSlot(s); if (t) for (let p = 0; p < t.polyCount; p++) all.push(nm.polyRef(s, p)); }
    let a = 1; const rand = () => { a = (a * 16807) % 2147483647; return a / 2147483647; };
    const centre = (r: number) => { const t = nm.tileInSlot(tileOfRef(r))!; const p = polyOfRef(r); let x=0,y=0,z=0; const n = t.polyVertCount[p]!; for (let i=0;i<n;i++){const k=t.polyVerts[p*6+i]!*3; x+=t.vertices[k]!;y+=t.vertices[k+1]!;z+=t.vertices[k+2]!;} return [Math.fround(x/n),Math.fround(y/n),Math.fround(z/n)]; };
    let same = 0, refStates = 0, refNoStates = 0, mwNoStates = 0; const N = 300;
    for (let i = 0; i < N; i++) {
      const A = all[Math.floor(rand() * all.length)]!, B = all[Math.floor(rand() * all.length)]!;
      const s = centre(A), e = centre(B);
      const dp = dq.findPath(toDt(A), toDt(B), { x: s[0]!, y: s[1]!, z: s[2]! }, { x: e[0]!, y: e[1]!, z: e[2]! }, { maxPathPolys: 4096 });
      const dtPath = [...dp.polys.getHeapView()].join();
      dp.polys.destroy();
      const r = mq.findPath(A, B, s, e);
      const mw = Array.from(r.polys).slice(0, r.polyCount).map(toDt).join();
      const rs = refAStar(nm, A, B, s, e, true).map(toDt).join();
      const rn = refAStar(nm, A, B, s, e, false).map(toDt).join();
      if (mw === dtPath) same++;
      if (rs === dtPath) refStates++;
      if (rn === dtPath) refNoStates++;
      if (rn === mw) mwNoStates++;
    }
    console.log(m, `tiled: meshway==detour ${same}/${N}; reference A* with (ref, crossSide) nodes==detour ${refStates}/${N}; reference without states==detour ${refNoStates}/${N}; reference without states==meshway ${mwNoStates}/${N}`);
  }
});
