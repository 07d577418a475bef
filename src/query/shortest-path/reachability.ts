import { type NavMesh, OFF_MESH_SLOT } from "../../navmesh/nav-mesh.js";
import { offMeshLanding } from "../../navmesh/off-mesh.js";
import type { PolyRef } from "../../navmesh/poly-ref.js";
import { EDGE_TILE_BORDER, EDGE_WALL, type NavMeshTile } from "../../navmesh/tile.js";

/**
 * Connected components of a navmesh's polygons for a filter that passes every polygon with
 * non-zero flags: polygons joined by shared edges, tile portals and off-mesh connections
 * (taken both ways, so "same component" does not promise a path, but "different components"
 * proves there is none). Lets the shortest-path search answer an unreachable end without
 * exhausting the start's component. Cached per navmesh and recomputed when its tiles,
 * off-mesh connections or run-time flags (navMesh.stateVersion) change.
 */
class Components {
  /** Tile per slot and off-mesh connection list when computed (to detect changes). */
  tiles: (NavMeshTile | null)[] = [];
  salts: number[] = [];
  connections: unknown[] = [];
  stateVersion = -1;
  /** Component label per slot and polygon; -1 for polygons with flags 0. */
  labels: Int32Array[] = [];
  /** Refs of each component's polygons: members[memberStart[label] .. memberEnd[label]). */
  memberStart = new Int32Array(0);
  memberEnd = new Int32Array(0);
  members = new Float64Array(0);
}

const cache = new WeakMap<NavMesh, Components>();

function stale(nm: NavMesh, c: Components): boolean {
  const slots = nm.slots;
  if (c.stateVersion !== nm.stateVersion) return true;
  if (slots.length !== c.tiles.length || nm.offMesh.length !== c.connections.length) return true;
  for (let s = 0; s < slots.length; s++) {
    if (slots[s]!.tile !== c.tiles[s] || slots[s]!.salt !== c.salts[s]) return true;
  }
  for (let i = 0; i < nm.offMesh.length; i++) if (nm.offMesh[i] !== c.connections[i]) return true;
  return false;
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

function build(nm: NavMesh): Components {
  const c = new Components();
  c.stateVersion = nm.stateVersion;
  const slots = nm.slots;
  const base = new Int32Array(slots.length + 1);
  for (let s = 0; s < slots.length; s++) {
    c.tiles.push(slots[s]!.tile);
    c.salts.push(slots[s]!.salt);
    base[s + 1] = base[s]! + (slots[s]!.tile?.polyCount ?? 0);
  }
  c.connections = nm.offMesh.slice();
  const total = base[slots.length]!;
  const parent = new Int32Array(total);
  for (let i = 0; i < total; i++) parent[i] = i;
  const union = (a: number, b: number) => {
    const ra = find(parent, a);
    const rb = find(parent, b);
    if (ra !== rb) parent[ra] = rb;
  };
  const POLY_SPACE = 2 ** 20;
  const indexOf = (ref: PolyRef): number => {
    const hi = Math.floor(ref / POLY_SPACE);
    const salt = Math.floor(hi / POLY_SPACE);
    const slot = hi - salt * POLY_SPACE;
    const s = slots[slot];
    if (slot === OFF_MESH_SLOT || s === undefined || s.tile === null || s.salt !== salt) return -1;
    const poly = ref - hi * POLY_SPACE;
    if (poly >= s.tile.polyCount || s.tile.polyFlags[poly] === 0) return -1;
    return base[slot]! + poly;
  };
  for (let s = 0; s < slots.length; s++) {
    const tile = slots[s]!.tile;
    if (tile === null) continue;
    const nvp = tile.maxVertsPerPoly;
    const links = slots[s]!.links;
    for (let p = 0; p < tile.polyCount; p++) {
      if (tile.polyFlags[p] === 0) continue;
      for (let e = 0; e < tile.polyVertCount[p]!; e++) {
        const nb = tile.polyNeighbours[p * nvp + e]!;
        if (nb === EDGE_WALL || nb >= EDGE_TILE_BORDER) continue;
        if (tile.polyFlags[nb - 1] !== 0) union(base[s]! + p, base[s]! + nb - 1);
      }
      if (p >= links.first.length) continue;
      for (let l = links.first[p]!; l >= 0; l = links.next[l]!) {
        const other = indexOf(links.ref[l]!);
        if (other >= 0) union(base[s]! + p, other);
      }
    }
  }
  for (let k = 0; k < nm.offMesh.length; k++) {
    const con = nm.offMesh[k];
    if (!con || con.flags === 0) continue;
    const a = indexOf(offMeshLanding(nm, k, 0));
    const b = indexOf(offMeshLanding(nm, k, 1));
    if (a >= 0 && b >= 0) union(a, b);
  }
  for (let s = 0; s < slots.length; s++) {
    const tile = slots[s]!.tile;
    const n = tile?.polyCount ?? 0;
    const labels = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      labels[p] = tile!.polyFlags[p] === 0 ? -1 : find(parent, base[s]! + p);
    }
    c.labels.push(labels);
  }
  // Labels are union-find roots, i.e. indices 0..total-1: bucket the polygons by label.
  const count = new Int32Array(total + 1);
  for (const labels of c.labels) for (const l of labels) if (l >= 0) count[l + 1]!++;
  for (let i = 0; i < total; i++) count[i + 1] = count[i + 1]! + count[i]!;
  c.memberStart = count.slice(0, total);
  c.memberEnd = count.slice(0, total);
  c.members = new Float64Array(count[total]!);
  for (let s = 0; s < slots.length; s++) {
    const labels = c.labels[s]!;
    for (let p = 0; p < labels.length; p++) {
      const l = labels[p]!;
      if (l >= 0) c.members[c.memberEnd[l]!++] = encodeRef(slots[s]!.salt, s, p);
    }
  }
  return c;
}

function encodeRef(salt: number, slot: number, poly: number): PolyRef {
  return (salt * 2 ** 20 + slot) * 2 ** 20 + poly;
}

/** Number of polygons in the component of `label`. */
export function componentSize(nm: NavMesh, label: number): number {
  const c = components(nm);
  return label >= 0 && label < c.memberStart.length
    ? c.memberEnd[label]! - c.memberStart[label]!
    : 0;
}

/** Refs of the polygons of component `label` (a view; valid until the navmesh changes). */
export function componentMembers(nm: NavMesh, label: number): Float64Array {
  const c = components(nm);
  return c.members.subarray(c.memberStart[label]!, c.memberEnd[label]!);
}

/** The navmesh's components, recomputed when stale. */
function components(nm: NavMesh): Components {
  let c = cache.get(nm);
  if (c === undefined || stale(nm, c)) {
    c = build(nm);
    cache.set(nm, c);
  }
  return c;
}

const POLY_SPACE = 2 ** 20;

function labelIn(c: Components, ref: PolyRef): number {
  const hi = Math.floor(ref / POLY_SPACE);
  const slot = hi - Math.floor(hi / POLY_SPACE) * POLY_SPACE;
  return c.labels[slot]?.[ref - hi * POLY_SPACE] ?? -1;
}

/**
 * Component label of ground polygon `ref` (-1 for flags 0 or an unknown ref); equal labels
 * mean "maybe connected", different ones "not connected" (see mayConnect).
 */
export function componentLabel(nm: NavMesh, ref: PolyRef): number {
  return labelIn(components(nm), ref);
}

/**
 * False when no path can join ground polygons a and b under a filter passing every polygon
 * and connection with non-zero flags (true means "maybe").
 */
export function mayConnect(nm: NavMesh, a: PolyRef, b: PolyRef): boolean {
  const c = components(nm);
  const la = labelIn(c, a);
  return la >= 0 && la === labelIn(c, b);
}
