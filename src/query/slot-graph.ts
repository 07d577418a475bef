import type { LinkPool } from "../navmesh/links.js";
import type { NavMesh } from "../navmesh/nav-mesh.js";
import { getPortalPoints } from "../navmesh/neighbours.js";
import { encodePolyRef, polyOfRef, tileOfRef } from "../navmesh/poly-ref.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { tileAdjacency } from "./tile-adjacency.js";

/**
 * Node state of a polygon entered across tile side s (Recast directions 0 = -x, 1 = +z,
 * 2 = +x, 3 = -z): Detour's link side >> 1 for the same side (x+ shares state 0 with
 * entries from inside the tile, as in Detour).
 */
export const CROSS_STATE = Uint8Array.of(2, 1, 0, 3);

/**
 * Everything the A* loop reads about one ground tile slot, in one object so that switching
 * slots (frequent on small tiles) costs one lookup: the ref of its polygon 0 (tileBase), the
 * polygon areas, and every neighbour of every polygon in compressed-row form.
 *
 * The neighbours of polygon p are entries k = first[p] .. first[p + 1] - 1, in the order
 * Detour's search visits them: same-tile neighbours in edge order ({@link tileAdjacency}),
 * then the slot's LinkPool list of p (newest first). An entry with fast[k] = 1 carries what
 * the search needs: target slot, poly, ref, node state (0 within the tile, the crossed side's
 * for a portal into a neighbouring tile), the target's flags (a copy, refreshed by
 * {@link refreshSlotGraphFlags} when navMesh.stateVersion moved on: flags change at run time
 * through setPolyFlags & co, geometry never does) and the portal midpoint mid[3k .. 3k + 2] — the tile adjacency's for same-tile
 * edges, getPortalPoints' (halved as the search would) for tile portals — so a search over
 * it is bit for bit a search walking polyNeighbours and the links. Other entries (off-mesh
 * connection ends, portals getPortalPoints refuses) carry only link[k], for the general
 * per-link code.
 *
 * Valid while the slot holds the same tile and LinkPool at the same version (every link
 * added or removed bumps it; the salt only changes with the LinkPool): see
 * {@link slotGraphCurrent}.
 */
export interface SlotGraph {
  readonly tile: NavMeshTile;
  readonly links: LinkPool;
  readonly version: number;
  /** Ref of polygon 0: refs of the tile's polygons are tileBase + poly. */
  readonly tileBase: number;
  readonly polyCount: number;
  readonly polyAreas: Uint8Array;
  readonly first: Int32Array;
  readonly link: Int32Array;
  readonly fast: Uint8Array;
  readonly slot: Int32Array;
  readonly poly: Int32Array;
  readonly ref: Float64Array;
  readonly state: Uint8Array;
  readonly flags: Uint16Array;
  readonly mid: Float64Array;
  /** navMesh.stateVersion the flags copy was taken at. */
  stateVersion: number;
}

/**
 * Re-copies the target flags of the fast entries from the live tiles (their slots are live:
 * a removed neighbour changes the links, which rebuilds the graph instead).
 */
export function refreshSlotGraphFlags(navMesh: NavMesh, g: SlotGraph): void {
  const n = g.first[g.polyCount]!;
  for (let k = 0; k < n; k++) {
    if (g.fast[k] === 0) continue;
    const tile = navMesh.tileInSlot(g.slot[k]!)!;
    g.flags[k] = tile.polyFlags[g.poly[k]!]!;
  }
  g.stateVersion = navMesh.stateVersion;
}

/** True when `cached` still describes a slot holding `tile` and `links`. */
export function slotGraphCurrent(
  cached: SlotGraph | undefined,
  tile: NavMeshTile,
  links: LinkPool,
): cached is SlotGraph {
  return (
    cached !== undefined &&
    cached.tile === tile &&
    cached.links === links &&
    cached.version === links.version
  );
}

/** Builds the search data of the ground tile `tile` in slot `slotIndex` (salt `salt`). */
export function buildSlotGraph(
  navMesh: NavMesh,
  slotIndex: number,
  salt: number,
  tile: NavMeshTile,
  links: LinkPool,
): SlotGraph {
  const stateVersion = navMesh.stateVersion;
  const n = tile.polyCount;
  const nl = Math.min(n, links.first.length);
  const adj = tileAdjacency(tile);
  const tileBase = encodePolyRef(salt, slotIndex, 0);
  // Bounded walks: a list is never longer than the links ever allocated.
  const maxWalk = links.next.length;
  let count = adj.first[n]!;
  for (let p = 0; p < nl; p++) {
    let steps = 0;
    for (let l = links.first[p]!; l >= 0 && steps < maxWalk; l = links.next[l]!) {
      count++;
      steps++;
    }
  }
  const first = new Int32Array(n + 1);
  const link = new Int32Array(count).fill(-1);
  const fast = new Uint8Array(count);
  const slot = new Int32Array(count);
  const poly = new Int32Array(count);
  const ref = new Float64Array(count);
  const state = new Uint8Array(count);
  const flags = new Uint16Array(count);
  const mid = new Float64Array(count * 3);
  const left = new Float64Array(3);
  const right = new Float64Array(3);
  const pf = tile.polyFlags;
  let k = 0;
  for (let p = 0; p < n; p++) {
    first[p] = k;
    for (let a = adj.first[p]!; a < adj.first[p + 1]!; a++, k++) {
      const npoly = adj.poly[a]!;
      fast[k] = 1;
      slot[k] = slotIndex;
      poly[k] = npoly;
      ref[k] = tileBase + npoly;
      flags[k] = pf[npoly]!;
      mid[k * 3] = adj.mid[a * 3]!;
      mid[k * 3 + 1] = adj.mid[a * 3 + 1]!;
      mid[k * 3 + 2] = adj.mid[a * 3 + 2]!;
    }
    if (p >= nl) continue;
    const fromRef = tileBase + p;
    let steps = 0;
    for (let l = links.first[p]!; l >= 0 && steps < maxWalk && k < count; l = links.next[l]!) {
      steps++;
      link[k] = l;
      const side = links.side[l]!;
      const nref = links.ref[l]!;
      const nslot = tileOfRef(nref);
      const npoly = polyOfRef(nref);
      const target = side < 4 ? navMesh.tileInSlot(nslot) : null;
      if (
        target &&
        npoly < target.polyCount &&
        getPortalPoints(navMesh, fromRef, nref, left, right)
      ) {
        fast[k] = 1;
        slot[k] = nslot;
        poly[k] = npoly;
        ref[k] = nref;
        state[k] = CROSS_STATE[side]!;
        flags[k] = target.polyFlags[npoly]!;
        mid[k * 3] = (left[0]! + right[0]!) * 0.5;
        mid[k * 3 + 1] = (left[1]! + right[1]!) * 0.5;
        mid[k * 3 + 2] = (left[2]! + right[2]!) * 0.5;
      }
      k++;
    }
  }
  first[n] = k;
  return {
    tile,
    links,
    version: links.version,
    tileBase,
    polyCount: n,
    polyAreas: tile.polyAreas,
    first,
    link,
    fast,
    slot,
    poly,
    ref,
    state,
    flags,
    mid,
    stateVersion,
  };
}
