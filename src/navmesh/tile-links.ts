import type { NavMesh } from "./nav-mesh.js";
import { encodePolyRef, tileOfRef } from "./poly-ref.js";
import { EDGE_TILE_BORDER, type NavMeshTile } from "./tile.js";

/**
 * Portals between neighbouring tiles, as Detour's connectExtLinks / findConnectingPolys
 * (Mononen): a tile-border edge on side s links to every border edge on the opposite side of
 * the neighbouring tile that lies on the same border line (within 0.01), overlaps it along
 * the border (ends shrunk by 0.01 so corner-touching edges don't link) and agrees in height
 * within the agent's climb. Each link records which part of the source edge it covers,
 * quantized to 0..255 (LinkPool bmin/bmax), so portal points can be clipped to the overlap.
 *
 * Sides are Recast directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z (EDGE_TILE_BORDER | side).
 */

/** Tile-grid offset of the neighbour on `side`. */
export const SIDE_DX = [-1, 0, 1, 0] as const;
export const SIDE_DZ = [0, 1, 0, -1] as const;

/** Side facing `side` from the neighbouring tile. */
export function oppositeSide(side: number): number {
  return (side + 2) & 3;
}

/** Slab tolerance along and across the border, world units (Detour's 0.01). */
const SLAB_EPS = 0.01;

/**
 * Portals one border edge may get into one neighbouring tile (Detour's findConnectingPolys
 * maxcon of 4). A real edge meets one or two; without a cap a crafted pair of tiles with P
 * edges on one border line gets P × P links (portals-quadratic).
 */
export const MAX_PORTALS_PER_EDGE = 4;

/** Per tile: its border edges per side, and its seam portal edges (see borderEdgesOf). */
const borderEdgeCache = new WeakMap<NavMeshTile, Int32Array[]>();

/**
 * A tile's edges marked as tile-border portals, as (polygon, edge) pairs in polygon then
 * edge order: entries 0..3 per side, only those lying on a border line (a layer seam edge
 * may carry a side but lies inside the tile); entry 4 every marked edge (seam candidates).
 * Tiles are immutable but for flags and areas, so this is computed once per tile.
 */
function borderEdgesOf(tile: NavMeshTile): Int32Array[] {
  let lists = borderEdgeCache.get(tile);
  if (lists) return lists;
  const nvp = tile.maxVertsPerPoly;
  const v = tile.vertices;
  const perSide: number[][] = [[], [], [], [], []];
  for (let p = 0; p < tile.polyCount; p++) {
    const count = tile.polyVertCount[p]!;
    for (let e = 0; e < count; e++) {
      const nb = tile.polyNeighbours[p * nvp + e]!;
      if ((nb & EDGE_TILE_BORDER) === 0) continue;
      perSide[4]!.push(p, e);
      const side = nb & 3;
      if (nb !== (EDGE_TILE_BORDER | side) >>> 0) continue;
      const across = side === 0 || side === 2 ? 0 : 2;
      const g = tile.polyVerts[p * nvp + e]! * 3 + across;
      const h = tile.polyVerts[p * nvp + (e + 1 === count ? 0 : e + 1)]! * 3 + across;
      if (Math.abs(v[g]! - v[h]!) > SLAB_EPS) continue;
      perSide[side]!.push(p, e);
    }
  }
  lists = perSide.map((l) => Int32Array.from(l));
  borderEdgeCache.set(tile, lists);
  return lists;
}

/**
 * Links every border edge of the tile in `fromSlot` on `side` to the matching edges of the
 * tile in `toSlot` (which must be that side's neighbour). Returns the number of links added.
 */
export function connectTilePortals(
  navMesh: NavMesh,
  fromSlot: number,
  toSlot: number,
  side: number,
): number {
  const from = navMesh.slots[fromSlot]!;
  const to = navMesh.slots[toSlot]!;
  const a = from.tile!;
  const b = to.tile!;
  // Sides 0 and 2 (x borders) run along z; sides 1 and 3 run along x.
  const along = side === 0 || side === 2 ? 2 : 0;
  const across = 2 - along;
  const climb = navMesh.params.agentMaxClimb;
  const nvp = a.maxVertsPerPoly;
  const av = a.vertices;
  const bv = b.vertices;
  // The facing edges, in polygon order (the order links were always made in).
  const facing = borderEdgesOf(b)[oppositeSide(side)]!;
  const facingCount = facing.length >> 1;
  let added = 0;
  if (facingCount === 0) return 0;
  const sources = borderEdgesOf(a)[side]!;
  for (let s = 0; s < sources.length; s += 2) {
    const p = sources[s]!;
    const e = sources[s + 1]!;
    const count = a.polyVertCount[p]!;
    const va = a.polyVerts[p * nvp + e]! * 3;
    const vb = a.polyVerts[p * nvp + (e + 1 === count ? 0 : e + 1)]! * 3;
    const aPos = av[va + across]!;
    // Slab of the source edge: (along, y) at its low and high ends.
    const a0 = av[va + along]!;
    const a1 = av[vb + along]!;
    const aLoS = Math.min(a0, a1);
    const aHiS = Math.max(a0, a1);
    const aLoY = a0 < a1 ? av[va + 1]! : av[vb + 1]!;
    const aHiY = a0 < a1 ? av[vb + 1]! : av[va + 1]!;
    let portals = 0;
    let linked = -1;
    for (let i = 0; i < facingCount && portals < MAX_PORTALS_PER_EDGE; i++) {
      const q = facing[i * 2]!;
      if (q === linked) continue; // one portal per target polygon, like Detour
      const f = facing[i * 2 + 1]!;
      const bc = b.polyVertCount[q]!;
      const vc = b.polyVerts[q * nvp + f]! * 3;
      const vd = b.polyVerts[q * nvp + (f + 1 === bc ? 0 : f + 1)]! * 3;
      if (Math.abs(aPos - bv[vc + across]!) > SLAB_EPS) continue;
      const b0 = bv[vc + along]!;
      const b1 = bv[vd + along]!;
      const bLoS = Math.min(b0, b1);
      const bHiS = Math.max(b0, b1);
      const bLoY = b0 < b1 ? bv[vc + 1]! : bv[vd + 1]!;
      const bHiY = b0 < b1 ? bv[vd + 1]! : bv[vc + 1]!;
      if (!slabsOverlap(aLoS, aLoY, aHiS, aHiY, bLoS, bLoY, bHiS, bHiY, climb)) continue;
      // Part of the source edge the portal covers, as parameters from its first vertex.
      const lo = Math.max(aLoS, bLoS);
      const hi = Math.min(aHiS, bHiS);
      let t0 = (lo - a0) / (a1 - a0);
      let t1 = (hi - a0) / (a1 - a0);
      if (t0 > t1) {
        const t = t0;
        t0 = t1;
        t1 = t;
      }
      from.links.add(
        p,
        encodePolyRef(to.salt, toSlot, q),
        e,
        side,
        Math.round(clamp01(t0) * 255),
        Math.round(clamp01(t1) * 255),
      );
      added++;
      portals++;
      linked = q;
    }
  }
  return added;
}

function clamp01(t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  return t;
}

/**
 * True when two border segments, given as (s, y) end points sorted by s, overlap along the
 * border (each shrunk by SLAB_EPS at both ends) and either cross in height or come within
 * the climb height of each other at one end of the shared range (Detour's overlapSlabs).
 */
function slabsOverlap(
  aLoS: number,
  aLoY: number,
  aHiS: number,
  aHiY: number,
  bLoS: number,
  bLoY: number,
  bHiS: number,
  bHiY: number,
  climb: number,
): boolean {
  const lo = Math.max(aLoS + SLAB_EPS, bLoS + SLAB_EPS);
  const hi = Math.min(aHiS - SLAB_EPS, bHiS - SLAB_EPS);
  if (lo > hi) return false;
  const ad = (aHiY - aLoY) / (aHiS - aLoS);
  const bd = (bHiY - bLoY) / (bHiS - bLoS);
  const dLo = bLoY + bd * (lo - bLoS) - (aLoY + ad * (lo - aLoS));
  const dHi = bLoY + bd * (hi - bLoS) - (aLoY + ad * (hi - aLoS));
  if (dLo * dHi < 0) return true;
  const thr = 4 * climb * climb;
  return dLo * dLo <= thr || dHi * dHi <= thr;
}

/** Removes every link of the tile in `slot` that leads into tile slot `target`. */
export function disconnectTileLinks(navMesh: NavMesh, slot: number, target: number): void {
  const s = navMesh.slots[slot]!;
  const tile = s.tile;
  if (!tile) return;
  const links = s.links;
  const first = links.first;
  // Links into another tile sit on portal edges only (tile borders and layer seams; off-mesh
  // links live in their own slot), so only polygons with one are looked at.
  const marked = borderEdgesOf(tile)[4]!;
  let last = -1;
  for (let k = 0; k < marked.length; k += 2) {
    const p = marked[k]!;
    if (p === last) continue;
    last = p;
    // Most polygons have no link, and most that have one keep all: look before removing.
    let i = first[p]!;
    while (i >= 0 && tileOfRef(links.ref[i]!) !== target) i = links.next[i]!;
    if (i >= 0) links.removeWhere(p, (ref) => tileOfRef(ref) === target);
  }
}

/**
 * Links the seam portals of two layer tiles at one tile coordinate (a tile cache's storeys):
 * a portal edge of `fromSlot`'s tile links to the portal edge of `toSlot`'s tile that is the
 * same segment reversed (both layers put their seam edges on the seam's shared
 * simplification, src/tiles/layer-seams.ts) and agrees in height within the climb at both
 * ends, like overlapSlabs. Returns the number of links added.
 */
export function connectLayerSeams(navMesh: NavMesh, fromSlot: number, toSlot: number): number {
  const from = navMesh.slots[fromSlot]!;
  const to = navMesh.slots[toSlot]!;
  const a = from.tile!;
  const b = to.tile!;
  const nvp = a.maxVertsPerPoly;
  const av = a.vertices;
  const bv = b.vertices;
  const thr = 2 * navMesh.params.agentMaxClimb;
  let added = 0;
  const sources = borderEdgesOf(a)[4]!;
  const targets = borderEdgesOf(b)[4]!;
  if (targets.length === 0) return 0;
  for (let s = 0; s < sources.length; s += 2) {
    const p = sources[s]!;
    const e = sources[s + 1]!;
    const count = a.polyVertCount[p]!;
    const nb = a.polyNeighbours[p * nvp + e]!;
    const va = a.polyVerts[p * nvp + e]! * 3;
    const vb = a.polyVerts[p * nvp + (e + 1 === count ? 0 : e + 1)]! * 3;
    for (let t = 0; t < targets.length; t += 2) {
      const q = targets[t]!;
      const f = targets[t + 1]!;
      const bc = b.polyVertCount[q]!;
      const vc = b.polyVerts[q * nvp + f]! * 3;
      const vd = b.polyVerts[q * nvp + (f + 1 === bc ? 0 : f + 1)]! * 3;
      if (Math.abs(av[va]! - bv[vd]!) > SLAB_EPS || Math.abs(av[va + 2]! - bv[vd + 2]!) > SLAB_EPS)
        continue;
      if (Math.abs(av[vb]! - bv[vc]!) > SLAB_EPS || Math.abs(av[vb + 2]! - bv[vc + 2]!) > SLAB_EPS)
        continue;
      if (Math.abs(av[va + 1]! - bv[vd + 1]!) > thr || Math.abs(av[vb + 1]! - bv[vc + 1]!) > thr)
        continue;
      from.links.add(p, encodePolyRef(to.salt, toSlot, q), e, nb & 3, 0, 255);
      added++;
      break;
    }
  }
  return added;
}
