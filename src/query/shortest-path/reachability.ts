import { labelConnectedComponents } from "../../navmesh/components.js";
import type { NavMesh } from "../../navmesh/nav-mesh.js";
import { encodePolyRef, type PolyRef, polyOfRef, tileOfRef } from "../../navmesh/poly-ref.js";
import type { NavMeshTile } from "../../navmesh/tile.js";

/**
 * Connected components of a navmesh's polygons for a filter that passes every polygon with
 * non-zero flags: polygons joined by shared edges, tile portals and off-mesh connections
 * (taken both ways, so "same component" does not promise a path, but "different components"
 * proves there is none); the labelling is navmesh/components.ts's. Lets the shortest-path
 * search answer an unreachable end without exhausting the start's component. Cached per
 * navmesh and recomputed when its tiles, off-mesh connections or run-time flags
 * (navMesh.stateVersion) change.
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
  if (c.stateVersion !== nm.stateVersion) return true;
  const slotCount = nm.slotCount;
  if (slotCount !== c.tiles.length || nm.offMeshCount !== c.connections.length) return true;
  for (let s = 0; s < slotCount; s++) {
    if (nm.tileInSlot(s) !== c.tiles[s] || nm.slotSalt(s) !== c.salts[s]) return true;
  }
  for (let i = 0; i < nm.offMeshCount; i++) if (nm.offMeshAt(i) !== c.connections[i]) return true;
  return false;
}

function build(nm: NavMesh): Components {
  const c = new Components();
  c.stateVersion = nm.stateVersion;
  const slotCount = nm.slotCount;
  for (let s = 0; s < slotCount; s++) {
    c.tiles.push(nm.tileInSlot(s));
    c.salts.push(nm.slotSalt(s));
  }
  for (let i = 0; i < nm.offMeshCount; i++) c.connections.push(nm.offMeshAt(i));
  c.labels = labelConnectedComponents(nm, true).labels;
  let total = 0;
  for (const labels of c.labels) total += labels.length;
  // Labels are union-find roots, i.e. indices 0..total-1: bucket the polygons by label.
  const count = new Int32Array(total + 1);
  for (const labels of c.labels) for (const l of labels) if (l >= 0) count[l + 1]!++;
  for (let i = 0; i < total; i++) count[i + 1] = count[i + 1]! + count[i]!;
  c.memberStart = count.slice(0, total);
  c.memberEnd = count.slice(0, total);
  c.members = new Float64Array(count[total]!);
  for (let s = 0; s < slotCount; s++) {
    const labels = c.labels[s]!;
    const salt = nm.slotSalt(s);
    for (let p = 0; p < labels.length; p++) {
      const l = labels[p]!;
      if (l >= 0) c.members[c.memberEnd[l]!++] = encodePolyRef(salt, s, p);
    }
  }
  return c;
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

function labelIn(c: Components, ref: PolyRef): number {
  return c.labels[tileOfRef(ref)]?.[polyOfRef(ref)] ?? -1;
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
