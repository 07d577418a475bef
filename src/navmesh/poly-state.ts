import { MeshwayError } from "../errors.js";
import type { NavMesh, OffMeshConnection } from "./nav-mesh.js";
import {
  encodePolyRef,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileOfRef,
} from "./poly-ref.js";
import type { NavMeshTile } from "./tile.js";

/**
 * Run-time polygon state (Detour's setPolyFlags / setPolyArea / store- and restoreTileState):
 * flags and area ids of ground polygons and off-mesh connections, changed in place. Tiles are
 * otherwise immutable, so every cache derived from a tile's flags or areas keys on the
 * tile's state version ({@link tileStateVersion}, bumped here on every change) and every
 * cache over the whole mesh on `navMesh.stateVersion`: a query object that searched a tile
 * before a door closed sees the door closed on its next call.
 */

/** State version of each tile object: 0 until its flags or areas are first changed. */
const tileVersions = new WeakMap<NavMeshTile, number>();

/** How many times `tile`'s flags or areas were changed through the NavMesh API. */
export function tileStateVersion(tile: NavMeshTile): number {
  return tileVersions.get(tile) ?? 0;
}

/**
 * Records that `tile`'s flags or areas changed (done by every setter here; call it after
 * writing tile.polyFlags / polyAreas directly so existing queries see the writes).
 */
export function markTileStateChanged(navMesh: NavMesh, tile: NavMeshTile): void {
  bumpTileStateVersion(tile);
  navMesh.stateCounter++;
}

/** The tile half of markTileStateChanged, for a tile in no navmesh (a build re-flagging it). */
export function bumpTileStateVersion(tile: NavMeshTile): void {
  tileVersions.set(tile, tileStateVersion(tile) + 1);
}

/** Flags of a disabled off-mesh connection, to restore on enable (per navmesh, by index). */
const disabledFlags = new WeakMap<NavMesh, Map<number, number>>();

function fail(what: string): never {
  throw new MeshwayError("INVALID_ARGUMENT", what);
}

function checkFlags(flags: number, what: string): void {
  if (!Number.isInteger(flags) || flags < 0 || flags > 0xffff) {
    fail(`${what}: flags ${flags} must be an integer 0..0xffff`);
  }
}

function checkArea(area: number, what: string): void {
  if (!Number.isInteger(area) || area < 0 || area > 63) {
    fail(`${what}: area ${area} must be an integer 0..63`);
  }
}

/** The live ground tile `ref` points into (with the ref's salt), or throws naming `what`. */
function groundTile(navMesh: NavMesh, ref: PolyRef, what: string): NavMeshTile {
  if (!navMesh.isValidPolyRef(ref)) fail(`${what}: ${String(ref)} is not a live polygon reference`);
  return navMesh.slots[tileOfRef(ref)]!.tile!;
}

/** Replaces off-mesh connection `index` with a frozen copy changed by `patch`. */
function patchOffMesh(navMesh: NavMesh, index: number, patch: Partial<OffMeshConnection>): void {
  const con = navMesh.offMesh[index]!;
  // A new object: caches over the mesh compare connection objects to see changes.
  navMesh.offMesh[index] = Object.freeze({ ...con, ...patch });
  navMesh.stateCounter++;
}

/** Sets the flags of a ground polygon or off-mesh connection (Detour's setPolyFlags). */
export function setPolyFlags(navMesh: NavMesh, ref: PolyRef, flags: number): void {
  checkFlags(flags, "setPolyFlags");
  if (tileOfRef(ref) === OFF_MESH_SLOT && navMesh.isValidPolyRef(ref)) {
    const index = polyOfRef(ref);
    const stash = disabledFlags.get(navMesh);
    if (stash?.has(index)) stash.set(index, flags);
    else patchOffMesh(navMesh, index, { flags });
    return;
  }
  const tile = groundTile(navMesh, ref, "setPolyFlags");
  const poly = polyOfRef(ref);
  if (tile.polyFlags[poly] === flags) return;
  tile.polyFlags[poly] = flags;
  markTileStateChanged(navMesh, tile);
}

/** Flags of a ground polygon or off-mesh connection (a disabled connection's own flags). */
export function getPolyFlags(navMesh: NavMesh, ref: PolyRef): number {
  if (tileOfRef(ref) === OFF_MESH_SLOT && navMesh.isValidPolyRef(ref)) {
    const index = polyOfRef(ref);
    return disabledFlags.get(navMesh)?.get(index) ?? navMesh.offMesh[index]!.flags;
  }
  const tile = groundTile(navMesh, ref, "getPolyFlags");
  return tile.polyFlags[polyOfRef(ref)]!;
}

/** Sets the area id (0..63) of a ground polygon or off-mesh connection. */
export function setPolyArea(navMesh: NavMesh, ref: PolyRef, area: number): void {
  checkArea(area, "setPolyArea");
  if (tileOfRef(ref) === OFF_MESH_SLOT && navMesh.isValidPolyRef(ref)) {
    patchOffMesh(navMesh, polyOfRef(ref), { area });
    return;
  }
  const tile = groundTile(navMesh, ref, "setPolyArea");
  const poly = polyOfRef(ref);
  if (tile.polyAreas[poly] === area) return;
  tile.polyAreas[poly] = area;
  markTileStateChanged(navMesh, tile);
}

/** Area id of a ground polygon or off-mesh connection. */
export function getPolyArea(navMesh: NavMesh, ref: PolyRef): number {
  if (tileOfRef(ref) === OFF_MESH_SLOT && navMesh.isValidPolyRef(ref)) {
    return navMesh.offMesh[polyOfRef(ref)]!.area;
  }
  return groundTile(navMesh, ref, "getPolyArea").polyAreas[polyOfRef(ref)]!;
}

function offMeshIndex(navMesh: NavMesh, ref: PolyRef, what: string): number {
  if (tileOfRef(ref) !== OFF_MESH_SLOT || !navMesh.isValidPolyRef(ref)) {
    fail(`${what}: ${String(ref)} is not a live off-mesh connection`);
  }
  return polyOfRef(ref);
}

/**
 * Enables or disables an off-mesh connection. A disabled one keeps its links but reports
 * flags 0 to every query (so no filter passes it); its own flags come back on enable.
 */
export function setOffMeshConnectionEnabled(
  navMesh: NavMesh,
  ref: PolyRef,
  enabled: boolean,
): void {
  const index = offMeshIndex(navMesh, ref, "setOffMeshConnectionEnabled");
  let stash = disabledFlags.get(navMesh);
  if (!stash) disabledFlags.set(navMesh, (stash = new Map()));
  const stashed = stash.get(index);
  if (enabled) {
    if (stashed === undefined) return;
    stash.delete(index);
    patchOffMesh(navMesh, index, { flags: stashed });
  } else if (stashed === undefined) {
    stash.set(index, navMesh.offMesh[index]!.flags);
    patchOffMesh(navMesh, index, { flags: 0 });
  }
}

/** False while an off-mesh connection is disabled. */
export function isOffMeshConnectionEnabled(navMesh: NavMesh, ref: PolyRef): boolean {
  const index = offMeshIndex(navMesh, ref, "isOffMeshConnectionEnabled");
  return !disabledFlags.get(navMesh)?.has(index);
}

// ---- save games ------------------------------------------------------------------------

const STATE_MAGIC = 0x5354574d; // "MWTS" little-endian
const STATE_VERSION = 1;
const STATE_HEADER = 24;

/** FNV-1a over the tile's geometry (vertices and polygon vertex lists): what state is for. */
function tileChecksum(tile: NavMeshTile): number {
  let h = 0x811c9dc5;
  const mix = (bytes: Uint8Array) => {
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  };
  const view = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  mix(view(tile.vertices));
  mix(view(tile.polyVerts.subarray(0, tile.polyCount * tile.maxVertsPerPoly)));
  mix(view(tile.polyVertCount.subarray(0, tile.polyCount)));
  return h >>> 0;
}

function liveTile(navMesh: NavMesh, tileRef: PolyRef, what: string): NavMeshTile {
  const slot = navMesh.slots[tileOfRef(tileRef)];
  if (
    !Number.isInteger(tileRef) ||
    tileRef <= 0 ||
    tileOfRef(tileRef) === OFF_MESH_SLOT ||
    !slot?.tile ||
    slot.salt !== saltOfRef(tileRef)
  ) {
    fail(`${what}: ${String(tileRef)} is not a live tile reference`);
  }
  return slot.tile;
}

/**
 * The flags and areas of the tile `tileRef` names, as bytes for a save game (Detour's
 * storeTileState): header (magic "MWTS", version, tile ref, polygon count, geometry
 * checksum), then polyCount u16 flags and polyCount u8 areas, little-endian.
 */
export function storeTileState(navMesh: NavMesh, tileRef: PolyRef): Uint8Array {
  const tile = liveTile(navMesh, tileRef, "storeTileState");
  const n = tile.polyCount;
  const bytes = new Uint8Array(STATE_HEADER + n * 3);
  const dv = new DataView(bytes.buffer);
  dv.setUint32(0, STATE_MAGIC, true);
  dv.setUint32(4, STATE_VERSION, true);
  dv.setFloat64(8, encodePolyRef(saltOfRef(tileRef), tileOfRef(tileRef), 0), true);
  dv.setUint32(16, n, true);
  dv.setUint32(20, tileChecksum(tile), true);
  for (let p = 0; p < n; p++) dv.setUint16(STATE_HEADER + p * 2, tile.polyFlags[p]!, true);
  bytes.set(tile.polyAreas.subarray(0, n), STATE_HEADER + n * 2);
  return bytes;
}

/**
 * Writes state from {@link storeTileState} back into the tile `tileRef` names. Throws
 * MeshwayError("INVALID_ARGUMENT") unless the bytes came from this tile: same magic and
 * version, same tile ref (salt and slot), polygon count and geometry checksum.
 */
export function restoreTileState(navMesh: NavMesh, tileRef: PolyRef, bytes: Uint8Array): void {
  const tile = liveTile(navMesh, tileRef, "restoreTileState");
  const what = "restoreTileState";
  if (!(bytes instanceof Uint8Array) || bytes.length < STATE_HEADER) {
    fail(`${what}: expected the bytes of storeTileState (${STATE_HEADER}+ bytes)`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== STATE_MAGIC) fail(`${what}: not tile state (bad magic)`);
  const version = dv.getUint32(4, true);
  if (version !== STATE_VERSION) fail(`${what}: tile state version ${version}, expected 1`);
  const storedRef = dv.getFloat64(8, true);
  const ref0 = encodePolyRef(saltOfRef(tileRef), tileOfRef(tileRef), 0);
  if (storedRef !== ref0) {
    fail(`${what}: state is of tile ${storedRef}, not ${ref0} (salt or slot differ)`);
  }
  const n = dv.getUint32(16, true);
  if (n !== tile.polyCount) fail(`${what}: state has ${n} polygons, the tile ${tile.polyCount}`);
  if (bytes.length !== STATE_HEADER + n * 3) {
    fail(`${what}: state is ${bytes.length} bytes, expected ${STATE_HEADER + n * 3}`);
  }
  if (dv.getUint32(20, true) !== tileChecksum(tile)) {
    fail(`${what}: state was stored from a tile with other geometry (checksum differs)`);
  }
  for (let p = 0; p < n; p++) {
    const area = bytes[STATE_HEADER + n * 2 + p]!;
    if (area > 63) fail(`${what}: polygon ${p} has area ${area}, must be 0..63`);
  }
  for (let p = 0; p < n; p++) tile.polyFlags[p] = dv.getUint16(STATE_HEADER + p * 2, true);
  tile.polyAreas.set(bytes.subarray(STATE_HEADER + n * 2, STATE_HEADER + n * 3));
  markTileStateChanged(navMesh, tile);
}
