import type { Vec3 } from "../math/vec3.js";
import { closestPointOnPoly } from "./geometry.js";
import type { NavMesh } from "./nav-mesh.js";
import { LINK_EDGE_OFF_MESH, LINK_SIDE_NONE } from "./neighbours.js";
import {
  encodePolyRef,
  isLiveRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "./poly-ref.js";
import { queryPolygonsInTile } from "./spatial.js";

/**
 * Off-mesh connection landing, after Detour's baseOffMeshLinks / connectExtOffMeshLinks
 * (Mononen): each end snaps to the nearest ground polygon in a box of half extents
 * (radius, agent climb, radius) around it — in any tile filed near it, not only the connection's — and
 * links only when the snapped point is within `radius` on XZ. A polygon the end point is
 * directly above, within climb height, counts as distance 0 (Detour's findNearestPolyInTile
 * rule). Links: connection → start polygon (edge 0) and → end polygon (edge 1); start polygon
 * → connection always, end polygon → connection only when bidirectional.
 */

const scratchPoint = new Float64Array(3);
const landing = new Float64Array(3);
let scratchPolys = new Int32Array(64);
const nearSlots: number[] = [];

/**
 * Nearest ground polygon to (x, y, z) within the box of half extents (hx, hy, hz), over all
 * tiles; writes its closest point to `out` and returns its ref, or 0 when none is in the box.
 */
export function nearestGroundPoly(
  navMesh: NavMesh,
  x: number,
  y: number,
  z: number,
  hx: number,
  hy: number,
  hz: number,
  climb: number,
  out: Float64Array,
): PolyRef {
  const bmin: Vec3 = [x - hx, y - hy, z - hz];
  const bmax: Vec3 = [x + hx, y + hy, z + hz];
  let bestRef = 0;
  let best = Infinity;
  const slots = navMesh.slots;
  // Only tiles filed near the box: scanning every tile made loading tiles × connections.
  navMesh.tileSlotsNear(bmin[0], bmin[2], bmax[0], bmax[2], nearSlots);
  for (let i = 0; i < nearSlots.length; i++) {
    const s = nearSlots[i]!;
    const tile = slots[s]!.tile;
    if (!tile) continue;
    if (scratchPolys.length < tile.polyCount) scratchPolys = new Int32Array(tile.polyCount);
    const n = queryPolygonsInTile(tile, bmin, bmax, scratchPolys, scratchPolys.length);
    for (let i = 0; i < n; i++) {
      const p = scratchPolys[i]!;
      const over = closestPointOnPoly(tile, p, x, y, z, scratchPoint);
      const dx = x - scratchPoint[0]!;
      const dy = y - scratchPoint[1]!;
      const dz = z - scratchPoint[2]!;
      let d: number;
      if (over) {
        d = Math.abs(dy) - climb;
        d = d > 0 ? d * d : 0;
      } else {
        d = dx * dx + dy * dy + dz * dz;
      }
      if (d < best) {
        best = d;
        bestRef = encodePolyRef(slots[s]!.salt, s, p);
        out[0] = scratchPoint[0]!;
        out[1] = scratchPoint[1]!;
        out[2] = scratchPoint[2]!;
      }
    }
  }
  return bestRef;
}

/** True when `ref` is a live ground polygon (landings always name polygons of their tile). */
function liveGround(navMesh: NavMesh, ref: PolyRef): boolean {
  return tileOfRef(ref) !== OFF_MESH_SLOT && isLiveRef(navMesh, ref);
}

/** Removes connection `index`'s links (both directions) and resets its snapped ends. */
export function unlinkOffMeshConnection(navMesh: NavMesh, index: number): void {
  const links = navMesh.slots[OFF_MESH_SLOT]!.links;
  if (index >= links.first.length) return;
  const conRef = encodePolyRef(navMesh.slots[OFF_MESH_SLOT]!.salt, OFF_MESH_SLOT, index);
  const dropCon = (ref: number) => ref === conRef;
  for (let l = links.first[index]!; l >= 0; l = links.next[l]!) {
    const target = links.ref[l]!;
    if (!liveGround(navMesh, target)) continue;
    navMesh.slots[tileOfRef(target)]!.links.removeWhere(polyOfRef(target), dropCon);
  }
  links.removeWhere(index, () => true);
  const con = navMesh.offMesh[index];
  if (con) {
    const pts = navMesh.offMeshPoints;
    pts[index * 6] = con.start[0];
    pts[index * 6 + 1] = con.start[1];
    pts[index * 6 + 2] = con.start[2];
    pts[index * 6 + 3] = con.end[0];
    pts[index * 6 + 4] = con.end[1];
    pts[index * 6 + 5] = con.end[2];
  }
}

/** (Re)links connection `index` to the ground at both ends; snaps the linked ends. */
export function linkOffMeshConnection(navMesh: NavMesh, index: number): void {
  unlinkOffMeshConnection(navMesh, index);
  const con = navMesh.offMesh[index];
  if (!con) return;
  const conLinks = navMesh.slots[OFF_MESH_SLOT]!.links;
  conLinks.ensurePolys(index + 1);
  const conRef = encodePolyRef(navMesh.slots[OFF_MESH_SLOT]!.salt, OFF_MESH_SLOT, index);
  const climb = navMesh.params.agentMaxClimb;
  const r = con.radius;
  const pts = navMesh.offMeshPoints;
  // End 0 first so the start link ends up last in the connection's (prepending) list.
  for (let end = 1; end >= 0; end--) {
    const p = end === 0 ? con.start : con.end;
    const ground = nearestGroundPoly(navMesh, p[0], p[1], p[2], r, climb, r, climb, landing);
    if (ground === 0) continue;
    const dx = landing[0]! - p[0];
    const dz = landing[2]! - p[2];
    if (dx * dx + dz * dz > r * r) continue;
    pts[index * 6 + end * 3] = landing[0]!;
    pts[index * 6 + end * 3 + 1] = landing[1]!;
    pts[index * 6 + end * 3 + 2] = landing[2]!;
    conLinks.add(index, ground, end, LINK_SIDE_NONE);
    if (end === 0 || con.bidirectional) {
      const slot = navMesh.slots[tileOfRef(ground)]!;
      slot.links.add(polyOfRef(ground), conRef, LINK_EDGE_OFF_MESH, LINK_SIDE_NONE);
    }
  }
}

/** Ground polygon the end (0 start, 1 end) of connection `index` is linked to, or 0. */
export function offMeshLanding(navMesh: NavMesh, index: number, end: number): PolyRef {
  const links = navMesh.slots[OFF_MESH_SLOT]!.links;
  if (index >= links.first.length) return 0;
  for (let l = links.first[index]!; l >= 0; l = links.next[l]!) {
    if (links.edge[l] === end) return links.ref[l]!;
  }
  return 0;
}
