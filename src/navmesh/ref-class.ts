import { MeshwayError } from "../errors.js";
import type { NavMesh } from "./nav-mesh.js";
import {
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  REF_LIMIT,
  saltOfRef,
  tileOfRef,
} from "./poly-ref.js";

/**
 * What a polygon reference is to `navMesh` (see DESIGN.md "Errors and statuses"):
 * - "live": it names a ground polygon or off-mesh connection present now;
 * - "stale": it was valid once but its tile has been removed or replaced (its salt is not
 *   the slot's current salt, or the slot is empty now) or its off-mesh connection was
 *   removed — a run-time condition: queries report it as status "invalidRef";
 * - "malformed": it could never have been valid (not a positive integer below 2^52, salt 0,
 *   a slot index beyond the navmesh's slots, a polygon index beyond a live tile's polygon
 *   count with the current salt, an off-mesh index never allocated) — a programmer error:
 *   queries throw MeshwayError("INVALID_ARGUMENT").
 */
export type RefClass = "live" | "stale" | "malformed";

/** Classifies `ref` for `navMesh`; the live case costs what isLiveRef costs. */
export function classifyRef(navMesh: NavMesh, ref: PolyRef): RefClass {
  if (!(ref > 0 && ref < REF_LIMIT) || ref !== Math.floor(ref)) return "malformed";
  const salt = saltOfRef(ref);
  const slotIndex = tileOfRef(ref);
  const poly = polyOfRef(ref);
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || salt === 0) return "malformed";
  if (slotIndex === OFF_MESH_SLOT) {
    if (poly >= navMesh.offMesh.length) return "malformed";
    return slot.salt === salt && navMesh.offMesh[poly] != null ? "live" : "stale";
  }
  const tile = slot.tile;
  if (slot.salt !== salt || tile === null) return "stale";
  return poly < tile.polyCount ? "live" : "malformed";
}

/**
 * True when `ref` names a live ground polygon or off-mesh connection (classifyRef(…) ===
 * "live" without telling stale from malformed; the query hot paths call it per call).
 */
export function isLiveRef(navMesh: NavMesh, ref: PolyRef): boolean {
  if (!(ref > 0) || ref !== Math.floor(ref)) return false;
  const slotIndex = tileOfRef(ref);
  const slot = navMesh.slots[slotIndex];
  if (slot === undefined || slot.salt !== saltOfRef(ref)) return false;
  const poly = polyOfRef(ref);
  if (slotIndex === OFF_MESH_SLOT) return navMesh.offMesh[poly] != null;
  return slot.tile !== null && poly < slot.tile.polyCount;
}

/**
 * Argument check of the queries: true when `ref` is live, false when stale (the query then
 * returns "invalidRef"); throws MeshwayError("INVALID_ARGUMENT") naming `name` when malformed.
 */
export function checkRefArgument(navMesh: NavMesh, ref: PolyRef, name: string): boolean {
  const c = classifyRef(navMesh, ref);
  if (c === "live") return true;
  if (c === "stale") return false;
  throw new MeshwayError(
    "INVALID_ARGUMENT",
    `${name} ${String(ref)} is not a polygon reference of this navmesh (0, not an integer, or its slot, polygon or off-mesh index was never valid)`,
  );
}
