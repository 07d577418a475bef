import type { NavMesh } from "./nav-mesh.js";
import { offMeshLanding } from "./off-mesh.js";
import { isLiveRef, OFF_MESH_SLOT, type PolyRef, polyOfRef, tileOfRef } from "./poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL } from "./tile.js";

/**
 * Connected components of a navmesh's ground polygons: polygons joined by shared edges,
 * tile portals (links across tile borders, all layers) and off-mesh connections, each taken
 * both ways. Union-find over one index per polygon (slot base + polygon).
 */
export interface ComponentLabels {
  /** Per tile slot: each polygon's label (its union-find root), -1 when left out. */
  labels: Int32Array[];
  /** Number of components. */
  count: number;
}

function find(parent: Int32Array, i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r]!;
  while (parent[i] !== r) {
    const n = parent[i]!;
    parent[i] = r;
    i = n;
  }
  return r;
}

/**
 * Labels the components. With `enabledOnly`, polygons and off-mesh connections with flags 0
 * are left out (label -1; they join nothing): what a filter passing every non-zero flag can
 * walk. Labels are indices below the navmesh's total polygon count, equal within a component.
 */
export function labelConnectedComponents(navMesh: NavMesh, enabledOnly: boolean): ComponentLabels {
  const slotCount = navMesh.slotCount;
  const base = new Int32Array(slotCount + 1);
  for (let s = 0; s < slotCount; s++) {
    base[s + 1] = base[s]! + (navMesh.tileInSlot(s)?.polyCount ?? 0);
  }
  const total = base[slotCount]!;
  const parent = new Int32Array(total);
  for (let i = 0; i < total; i++) parent[i] = i;
  const union = (a: number, b: number) => {
    const ra = find(parent, a);
    const rb = find(parent, b);
    if (ra !== rb) parent[ra] = rb;
  };
  /** Union-find index of a live, included ground polygon ref; -1 otherwise. */
  const indexOf = (ref: PolyRef): number => {
    const slot = tileOfRef(ref);
    if (slot === OFF_MESH_SLOT || !isLiveRef(navMesh, ref)) return -1;
    const poly = polyOfRef(ref);
    if (enabledOnly && navMesh.tileInSlot(slot)!.polyFlags[poly] === 0) return -1;
    return base[slot]! + poly;
  };
  for (let s = 0; s < slotCount; s++) {
    const tile = navMesh.tileInSlot(s);
    if (tile === null) continue;
    const nvp = tile.maxVertsPerPoly;
    const links = navMesh.slotLinks(s);
    for (let p = 0; p < tile.polyCount; p++) {
      if (enabledOnly && tile.polyFlags[p] === 0) continue;
      for (let e = 0; e < tile.polyVertCount[p]!; e++) {
        const nb = tile.polyNeighbours[p * nvp + e]!;
        if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) continue;
        if (!enabledOnly || tile.polyFlags[nb - 1] !== 0) union(base[s]! + p, base[s]! + nb - 1);
      }
      // Tile portals; links to off-mesh connections give -1 here and are joined below.
      if (p >= links.first.length) continue;
      for (let l = links.first[p]!; l >= 0; l = links.next[l]!) {
        const other = indexOf(links.ref[l]!);
        if (other >= 0) union(base[s]! + p, other);
      }
    }
  }
  for (let k = 0; k < navMesh.offMeshCount; k++) {
    const con = navMesh.offMeshAt(k);
    if (!con || (enabledOnly && con.flags === 0)) continue;
    const a = indexOf(offMeshLanding(navMesh, k, 0));
    const b = indexOf(offMeshLanding(navMesh, k, 1));
    if (a >= 0 && b >= 0) union(a, b);
  }
  const labels: Int32Array[] = [];
  let count = 0;
  for (let s = 0; s < slotCount; s++) {
    const tile = navMesh.tileInSlot(s);
    const n = tile?.polyCount ?? 0;
    const l = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const i = base[s]! + p;
      if (enabledOnly && tile!.polyFlags[p] === 0) {
        l[p] = -1;
        continue;
      }
      const root = find(parent, i);
      if (root === i) count++;
      l[p] = root;
    }
    labels.push(l);
  }
  return { labels, count };
}

/**
 * Number of connected components of the navmesh's ground polygons, following shared edges,
 * tile portals and off-mesh connections (whatever their flags): 1 when every polygon can be
 * reached from every other one, ignoring direction and filters.
 */
export function countConnectedComponents(navMesh: NavMesh): number {
  return labelConnectedComponents(navMesh, false).count;
}
