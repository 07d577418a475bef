import { MeshwayError } from "../errors.js";
import { QueryFilter } from "./filter.js";
import type { NavMesh } from "./nav-mesh.js";
import {
  classifyRef,
  encodePolyRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  tileOfRef,
} from "./poly-ref.js";
import { markTileStateChanged } from "./poly-state.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "./tile.js";

/** What {@link floodFillNavMesh} found. */
export interface FloodFillResult {
  /**
   * Per tile slot (index = the slot of a ref, tileOfRef): 1 per polygon reached, else 0;
   * slot 0 holds the off-mesh connections (by connection index). Empty for empty slots.
   */
  reachable: Uint8Array[];
  /** Ground polygons reached. */
  polyCount: number;
  /** Off-mesh connections reached (crossed or entered). */
  offMeshCount: number;
}

/** True when `ref` (a ground polygon or off-mesh connection) was reached. */
export function isReachable(result: FloodFillResult, ref: PolyRef): boolean {
  return result.reachable[tileOfRef(ref)]?.[polyOfRef(ref)] === 1;
}

/** The filter a flood fill uses unless given one; made on first use, not on import. */
let defaultFilter: QueryFilter | null = null;
function defaultQueryFilter(): QueryFilter {
  if (defaultFilter === null) defaultFilter = new QueryFilter();
  return defaultFilter;
}

function passes(navMesh: NavMesh, filter: QueryFilter, ref: PolyRef, flags: number): boolean {
  if ((flags & filter.includeFlags) === 0 || (flags & filter.excludeFlags) !== 0) return false;
  const pass = filter.passFilter;
  if (!pass) return true;
  const slot = tileOfRef(ref);
  return pass(ref, slot === OFF_MESH_SLOT ? null : navMesh.slots[slot]!.tile, polyOfRef(ref));
}

/**
 * Every polygon reachable from `seedRefs` over polygons (and off-mesh connections) that pass
 * `filter`: across shared edges, tile portals and off-mesh connections in the directions they
 * may be taken (a one-way link only from its start) — recast-navigation-js's flood fill of
 * floodFillPruneNavMesh, navcat's floodFillNavMesh. Seeds the filter rejects, or stale
 * seeds, reach nothing; a malformed seed throws MeshwayError("INVALID_ARGUMENT").
 * Depth-first with a typed-array stack, O(polygons + links).
 */
export function floodFillNavMesh(
  navMesh: NavMesh,
  seedRefs: ArrayLike<PolyRef>,
  filter: QueryFilter = defaultQueryFilter(),
): FloodFillResult {
  const slots = navMesh.slots;
  const reachable: Uint8Array[] = [];
  let total = navMesh.offMesh.length;
  for (let s = 0; s < slots.length; s++) {
    const n = s === OFF_MESH_SLOT ? navMesh.offMesh.length : (slots[s]!.tile?.polyCount ?? 0);
    reachable.push(new Uint8Array(n));
    if (s !== OFF_MESH_SLOT) total += n;
  }
  // Each polygon is pushed at most once (marked when pushed).
  const stack = new Float64Array(Math.max(1, total));
  let top = 0;
  const visit = (ref: PolyRef): void => {
    const s = tileOfRef(ref);
    const p = polyOfRef(ref);
    const seen = reachable[s];
    if (seen === undefined || p >= seen.length || seen[p] === 1) return;
    let flags: number;
    if (s === OFF_MESH_SLOT) {
      const con = navMesh.offMesh[p];
      if (!con) return;
      flags = con.flags;
    } else {
      const tile = slots[s]!.tile;
      if (tile === null || encodePolyRef(slots[s]!.salt, s, p) !== ref) return;
      flags = tile.polyFlags[p]!;
    }
    if (!passes(navMesh, filter, ref, flags)) return;
    seen[p] = 1;
    stack[top++] = ref;
  };
  for (let i = 0; i < seedRefs.length; i++) {
    const ref = seedRefs[i]!;
    const c = classifyRef(navMesh, ref);
    if (c === "malformed") {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `floodFillNavMesh: seed ${i} (${String(ref)}) is not a polygon reference of this navmesh`,
      );
    }
    if (c === "live") visit(ref);
  }
  let polyCount = 0;
  let offMeshCount = 0;
  while (top > 0) {
    const ref = stack[--top]!;
    const s = tileOfRef(ref);
    const p = polyOfRef(ref);
    const slot = slots[s]!;
    if (s === OFF_MESH_SLOT) {
      offMeshCount++;
    } else {
      polyCount++;
      const tile = slot.tile!;
      const nvp = tile.maxVertsPerPoly;
      const base = ref - p;
      for (let e = 0; e < tile.polyVertCount[p]!; e++) {
        const nb = tile.polyNeighbours[p * nvp + e]!;
        if (nb !== EDGE_WALL && (nb & EDGE_TILE_BORDER) === 0) visit(base + nb - 1);
      }
    }
    // Tile portals, and for ground polygons the connections that may be taken from here;
    // for a connection, its landings (a one-way link is only entered at its start).
    const links = slot.links;
    if (p >= links.first.length) continue;
    for (let l = links.first[p]!; l >= 0; l = links.next[l]!) visit(links.ref[l]!);
  }
  return { reachable, polyCount, offMeshCount };
}

/**
 * Sets flags 0 (no filter passes them) on every ground polygon and off-mesh connection not
 * reachable from `seeds` under `filter` (recast-navigation-js's floodFillPruneNavMesh):
 * islands on roofs and inside walls stop attracting findNearestPoly and random points.
 * Every query object sees it on its next call. Returns how many polygons and connections
 * were pruned (those already at flags 0 are not counted).
 */
export function pruneUnreachable(
  navMesh: NavMesh,
  seeds: ArrayLike<PolyRef>,
  filter: QueryFilter = defaultQueryFilter(),
): number {
  const { reachable } = floodFillNavMesh(navMesh, seeds, filter);
  let pruned = 0;
  const slots = navMesh.slots;
  for (let s = 1; s < slots.length; s++) {
    const tile = slots[s]!.tile;
    if (!tile) continue;
    const seen = reachable[s]!;
    let changed = false;
    for (let p = 0; p < tile.polyCount; p++) {
      if (seen[p] === 1 || tile.polyFlags[p] === 0) continue;
      tile.polyFlags[p] = 0;
      changed = true;
      pruned++;
    }
    if (changed) markTileStateChanged(navMesh, tile);
  }
  const cons = reachable[OFF_MESH_SLOT]!;
  for (let c = 0; c < navMesh.offMesh.length; c++) {
    const con = navMesh.offMesh[c];
    if (!con || cons[c] === 1 || con.flags === 0) continue;
    navMesh.setPolyFlags(encodePolyRef(slots[OFF_MESH_SLOT]!.salt, OFF_MESH_SLOT, c), 0);
    pruned++;
  }
  return pruned;
}
