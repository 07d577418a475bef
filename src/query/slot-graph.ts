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
 * Everything the A* loop reads about one tile slot, in one object so that switching slots
 * (frequent on small tiles) costs one lookup: the ref of its polygon 0 (tileBase), the tile's
 * flags, areas and same-tile adjacency ({@link tileAdjacency}), and its links.
 *
 * The links (LinkPool lists) are flattened in compressed-row
 * form: the links of polygon p are entries k = first[p] .. first[p + 1] - 1, in list order
 * (the order a walk over the LinkPool visits them). An entry with fast[k] = 1 is a portal into
 * a neighbouring tile, with everything the search needs precomputed: the target's slot, poly,
 * ref, node state and flags, and the
 * portal midpoint mid[3k .. 3k + 2], computed by getPortalPoints itself and halved exactly as
 * the search would, so results are bit for bit those of walking the links. Other entries
 * (off-mesh connection ends, portals getPortalPoints refuses) carry only link[k], for the
 * general per-link code.
 *
 * Valid while the slot holds the same tile and LinkPool at the same version (every link added
 * or removed bumps it), which {@link slotGraphCurrent} checks (the salt only changes with the LinkPool).
 */
export interface SlotGraph {
  readonly tile: NavMeshTile;
  readonly links: LinkPool;
  readonly version: number;
  /** Ref of polygon 0: refs of the tile's polygons are tileBase + poly. */
  readonly tileBase: number;
  readonly polyCount: number;
  readonly polyFlags: Uint16Array;
  readonly polyAreas: Uint8Array;
  readonly adjFirst: Int32Array;
  readonly adjPoly: Int32Array;
  readonly adjMid: Float64Array;
  readonly first: Int32Array;
  readonly link: Int32Array;
  readonly fast: Uint8Array;
  readonly slot: Int32Array;
  readonly poly: Int32Array;
  readonly ref: Float64Array;
  readonly state: Uint8Array;
  readonly mid: Float64Array;
  /** The target polygon's flags (tiles are immutable, so a copy taken here stays exact). */
  readonly flags: Uint16Array;
  /** Number of entries (0: no polygon of the tile has a link). */
  readonly count: number;
}

/** True when `cached` still describes the links of a slot holding `tile` and `links`. */
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
  const n = Math.min(tile.polyCount, links.first.length);
  let count = 0;
  // Bounded walks: a list is never longer than the links ever allocated.
  const maxWalk = links.next.length;
  for (let p = 0; p < n; p++) {
    let steps = 0;
    for (let l = links.first[p]!; l >= 0 && steps < maxWalk; l = links.next[l]!) {
      count++;
      steps++;
    }
  }
  const first = new Int32Array(tile.polyCount + 1);
  const link = new Int32Array(count);
  const fast = new Uint8Array(count);
  const slot = new Int32Array(count);
  const poly = new Int32Array(count);
  const ref = new Float64Array(count);
  const state = new Uint8Array(count);
  const mid = new Float64Array(count * 3);
  const flags = new Uint16Array(count);
  const left = new Float64Array(3);
  const right = new Float64Array(3);
  let k = 0;
  for (let p = 0; p < tile.polyCount; p++) {
    first[p] = k;
    if (p >= n) continue;
    const fromRef = encodePolyRef(salt, slotIndex, p);
    let steps = 0;
    for (let l = links.first[p]!; l >= 0 && steps < maxWalk && k < count; l = links.next[l]!) {
      steps++;
      link[k] = l;
      const side = links.side[l]!;
      const nref = links.ref[l]!;
      const nslot = tileOfRef(nref);
      const npoly = polyOfRef(nref);
      const target = side < 4 ? navMesh.slots[nslot]?.tile : null;
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
  first[tile.polyCount] = k;
  const adj = tileAdjacency(tile);
  return {
    tile,
    links,
    version: links.version,
    tileBase: encodePolyRef(salt, slotIndex, 0),
    polyCount: tile.polyCount,
    polyFlags: tile.polyFlags,
    polyAreas: tile.polyAreas,
    adjFirst: adj.first,
    adjPoly: adj.poly,
    adjMid: adj.mid,
    first,
    link,
    fast,
    slot,
    poly,
    ref,
    state,
    mid,
    flags,
    count: k,
  };
}
