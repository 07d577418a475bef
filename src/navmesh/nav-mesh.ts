import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import type { QueryFilter } from "./filter.js";
import { LinkPool } from "./links.js";
import { linkOffMeshConnection, offMeshLanding, unlinkOffMeshConnection } from "./off-mesh.js";
import {
  encodePolyRef,
  MAX_POLYS_PER_TILE,
  MAX_TILES,
  nextSalt,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileOfRef,
} from "./poly-ref.js";
import * as polyState from "./poly-state.js";
import { queryPolygonsInTile } from "./spatial.js";
import { type NavMeshTile, polygonAreaXZ } from "./tile.js";
import {
  connectTilePortals,
  disconnectTileLinks,
  oppositeSide,
  SIDE_DX,
  SIDE_DZ,
} from "./tile-links.js";
import { type PolyVolume, setFlagsInVolume } from "./volume.js";

/** Parameters shared by every tile of a navmesh. */
export interface NavMeshParams {
  /** World position of tile (0, 0)'s minimum corner. */
  origin: Vec3;
  /** Tile size on X and Z, world units (a solo build's single tile covers its bounds). */
  tileWidth: number;
  tileDepth: number;
  cellSize: number;
  cellHeight: number;
  maxVertsPerPoly: number;
  /** Agent the mesh was built for, world units. */
  agentHeight: number;
  agentRadius: number;
  agentMaxClimb: number;
}

/** An off-mesh connection: a jump, ladder or teleport between two points on the mesh. */
export interface OffMeshConnection {
  start: Vec3;
  end: Vec3;
  /** Endpoints snap to the mesh within this radius. */
  radius: number;
  bidirectional: boolean;
  area: number;
  flags: number;
  /** Traversal cost; when omitted, the connection's length times its area's cost. */
  cost?: number;
  userId?: number;
}

/** What {@link NavMesh.offMeshConnection} reports: the connection plus where it landed. */
export interface OffMeshConnectionInfo extends Readonly<OffMeshConnection> {
  ref: PolyRef;
  /** End points snapped to the ground polygons they link to (the given points when unlinked). */
  snappedStart: Vec3;
  snappedEnd: Vec3;
  /** Ground polygons the ends link to, 0 when an end found no polygon within `radius`. */
  startPoly: PolyRef;
  endPoly: PolyRef;
}

/** Numeric tile-grid key (no string building on query paths); |x|, |z| < 2^25. */
function gridKey(x: number, z: number): number {
  return (x + 0x2000000) * 0x4000000 + (z + 0x2000000);
}

interface TileSlot {
  tile: NavMeshTile | null;
  salt: number;
  links: LinkPool;
}

/** Slot 0 holds no ground tile: its "polygons" are the off-mesh connections. */
export const OFF_MESH_SLOT = 0;

/**
 * The runtime navigation mesh: tiles of convex polygons in slots addressed by polygon
 * references, plus cross-tile and off-mesh links. Tiles ({@link NavMeshTile}) are immutable
 * data but for polygon flags and areas, changed only through setPolyFlags / setPolyArea & co
 * (poly-state.ts, which versions them); everything that changes when tiles come and go lives here.
 */
export class NavMesh {
  readonly params: Readonly<NavMeshParams>;
  /** Union of the bounds of the tiles added so far. */
  readonly bmin: Vec3 = [Infinity, Infinity, Infinity];
  readonly bmax: Vec3 = [-Infinity, -Infinity, -Infinity];
  /** @internal */ readonly slots: TileSlot[] = [];
  private readonly freeSlots: number[] = [];
  private readonly grid = new Map<number, number[]>();
  /** Range of tile coordinates ever added (bounds the grid walk of queryPolygons). */
  private gridMinX = Infinity;
  private gridMinZ = Infinity;
  private gridMaxX = -Infinity;
  private gridMaxZ = -Infinity;
  /** Scratch for per-tile polygon indices in queryPolygons, grown on demand. */
  private polyScratch = new Int32Array(64);
  /** Last grid lookup of queryPolygons (lists are never replaced, so it cannot go stale). */
  private lastGridKey = -1;
  private lastGridList: number[] = [];
  /** Off-mesh connections by index within slot 0 (null when removed). */
  /** @internal */ readonly offMesh: (OffMeshConnection | null)[] = [];
  /** @internal Snapped end points of the off-mesh connections: 6 per connection (start xyz, end xyz). */
  offMeshPoints = new Float64Array(0);
  /**
   * Bumped by every run-time flag or area change (poly-state.ts): caches over the whole mesh
   * compare it; caches of one tile compare tileStateVersion(tile). @internal
   */
  stateVersion = 0;

  constructor(params: NavMeshParams) {
    this.params = Object.freeze({ ...params, origin: [...params.origin] as Vec3 });
    this.slots.push({ tile: null, salt: 1, links: new LinkPool(0) });
  }

  get cellSize(): number {
    return this.params.cellSize;
  }
  get cellHeight(): number {
    return this.params.cellHeight;
  }
  get maxVertsPerPoly(): number {
    return this.params.maxVertsPerPoly;
  }
  get agentHeight(): number {
    return this.params.agentHeight;
  }
  get agentRadius(): number {
    return this.params.agentRadius;
  }
  get agentMaxClimb(): number {
    return this.params.agentMaxClimb;
  }

  /** Live ground tiles in slot order. */
  get tiles(): NavMeshTile[] {
    const out: NavMeshTile[] = [];
    for (const s of this.slots) if (s.tile) out.push(s.tile);
    return out;
  }

  /** Adds a tile and returns the reference of its polygon 0 (tile refs = polygon-0 refs). */
  addTile(tile: NavMeshTile): PolyRef {
    if (tile.maxVertsPerPoly !== this.params.maxVertsPerPoly) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile has maxVertsPerPoly ${tile.maxVertsPerPoly}, the navmesh ${this.params.maxVertsPerPoly}`,
      );
    }
    if (tile.polyCount > MAX_POLYS_PER_TILE) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile has ${tile.polyCount} polygons, more than the ${MAX_POLYS_PER_TILE} a tile may hold`,
      );
    }
    const key = gridKey(tile.tileX, tile.tileZ);
    let index = this.freeSlots.pop();
    if (index === undefined) {
      index = this.slots.length;
      if (index >= MAX_TILES) {
        throw new MeshwayError("INVALID_ARGUMENT", `a navmesh holds at most ${MAX_TILES} tiles`);
      }
      this.slots.push({ tile, salt: 1, links: new LinkPool(tile.polyCount) });
    } else {
      const slot = this.slots[index]!;
      slot.tile = tile;
      slot.links = new LinkPool(tile.polyCount);
    }
    let list = this.grid.get(key);
    if (!list) this.grid.set(key, (list = []));
    list.push(index);
    for (let k = 0; k < 3; k++) {
      this.bmin[k] = Math.min(this.bmin[k]!, tile.bmin[k]!);
      this.bmax[k] = Math.max(this.bmax[k]!, tile.bmax[k]!);
    }
    this.gridMinX = Math.min(this.gridMinX, tile.tileX);
    this.gridMinZ = Math.min(this.gridMinZ, tile.tileZ);
    this.gridMaxX = Math.max(this.gridMaxX, tile.tileX);
    this.gridMaxZ = Math.max(this.gridMaxZ, tile.tileZ);
    // Portals both ways with the four side neighbours (every layer there).
    for (let side = 0; side < 4; side++) {
      for (const other of this.tilesAt(tile.tileX + SIDE_DX[side]!, tile.tileZ + SIDE_DZ[side]!)) {
        connectTilePortals(this, index, other, side);
        connectTilePortals(this, other, index, oppositeSide(side));
      }
    }
    this.relinkOffMeshNear(tile);
    return encodePolyRef(this.slots[index]!.salt, index, 0);
  }

  /** Re-lands the off-mesh connections with an end that may reach into `tile`'s bounds. */
  private relinkOffMeshNear(tile: NavMeshTile): void {
    for (let c = 0; c < this.offMesh.length; c++) {
      const con = this.offMesh[c];
      if (!con) continue;
      const r = con.radius;
      const near = (p: Vec3) =>
        p[0] + r >= tile.bmin[0] &&
        p[0] - r <= tile.bmax[0] &&
        p[2] + r >= tile.bmin[2] &&
        p[2] - r <= tile.bmax[2];
      if (near(con.start) || near(con.end)) linkOffMeshConnection(this, c);
    }
  }

  /** Removes the tile `tileRef` refers to; refs into it become invalid. Returns the tile. */
  removeTile(tileRef: PolyRef): NavMeshTile {
    const index = tileOfRef(tileRef);
    const slot = this.slots[index];
    if (index === OFF_MESH_SLOT || !slot?.tile || slot.salt !== saltOfRef(tileRef)) {
      throw new MeshwayError("INVALID_ARGUMENT", `tile reference ${tileRef} is not a live tile`);
    }
    const tile = slot.tile;
    const list = this.grid.get(gridKey(tile.tileX, tile.tileZ))!;
    list.splice(list.indexOf(index), 1);
    // Drop neighbours' portals into this tile and the off-mesh links landing on it.
    for (let side = 0; side < 4; side++) {
      for (const other of this.tilesAt(tile.tileX + SIDE_DX[side]!, tile.tileZ + SIDE_DZ[side]!)) {
        disconnectTileLinks(this, other, index);
      }
    }
    const hit: number[] = [];
    for (let c = 0; c < this.offMesh.length; c++) {
      if (!this.offMesh[c]) continue;
      const s = tileOfRef(offMeshLanding(this, c, 0));
      const e = tileOfRef(offMeshLanding(this, c, 1));
      if (s === index || e === index) {
        unlinkOffMeshConnection(this, c);
        hit.push(c);
      }
    }
    slot.tile = null;
    slot.salt = nextSalt(slot.salt);
    slot.links = new LinkPool(0);
    this.freeSlots.push(index);
    // Connections that lost an end may land on another tile now.
    for (const c of hit) linkOffMeshConnection(this, c);
    return tile;
  }

  /**
   * Swaps the tile `tileRef` refers to for `tile` (a rebuilt tile, normally at the same tile
   * coordinates) and returns the new tile's ref. The slot is reused with a new salt, so every
   * ref into the old tile stops validating; portals and off-mesh links are re-established.
   */
  replaceTile(tileRef: PolyRef, tile: NavMeshTile): PolyRef {
    if (tile.maxVertsPerPoly !== this.params.maxVertsPerPoly) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile has maxVertsPerPoly ${tile.maxVertsPerPoly}, the navmesh ${this.params.maxVertsPerPoly}`,
      );
    }
    if (tile.polyCount > MAX_POLYS_PER_TILE) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile has ${tile.polyCount} polygons, more than the ${MAX_POLYS_PER_TILE} a tile may hold`,
      );
    }
    this.removeTile(tileRef);
    return this.addTile(tile);
  }

  /** Ref of the tile at tile coordinates (x, z) (`layer`-th when layered), or 0 when none. */
  tileRefAt(x: number, z: number, layer = 0): PolyRef {
    const slot = this.tilesAt(x, z)[layer];
    return slot === undefined ? 0 : encodePolyRef(this.slots[slot]!.salt, slot, 0);
  }

  /** Slots of the tiles at tile coordinates (x, z) (several when layered). */
  tilesAt(x: number, z: number): readonly number[] {
    return this.grid.get(gridKey(x, z)) ?? [];
  }

  /** The tile in `slot`, or null. */
  tileInSlot(slot: number): NavMeshTile | null {
    return this.slots[slot]?.tile ?? null;
  }

  /** Reference of polygon `poly` of the tile in `slot`. */
  polyRef(slot: number, poly: number): PolyRef {
    return encodePolyRef(this.slots[slot]!.salt, slot, poly);
  }

  /** True when `ref` names a live ground polygon or off-mesh connection. */
  isValidPolyRef(ref: PolyRef): boolean {
    if (!Number.isInteger(ref) || ref <= 0) return false;
    const index = tileOfRef(ref);
    const slot = this.slots[index];
    if (!slot || slot.salt !== saltOfRef(ref)) return false;
    const poly = polyOfRef(ref);
    if (index === OFF_MESH_SLOT) return this.offMesh[poly] != null;
    return slot.tile !== null && poly < slot.tile.polyCount;
  }

  /** Tile-grid column containing world x (tile (0, 0) starts at params.origin). */
  tileXAt(x: number): number {
    return Math.floor((x - this.params.origin[0]) / this.params.tileWidth);
  }

  /** Tile-grid row containing world z. */
  tileZAt(z: number): number {
    return Math.floor((z - this.params.origin[2]) / this.params.tileDepth);
  }

  /**
   * Ground polygons whose bounds overlap the box [bmin, bmax] and that pass `filter` (its
   * masks and passFilter; all when null), over every tile the box touches in the tile grid;
   * off-mesh connections are never returned. Writes refs to outRefs (at most its length, tiles in grid order, polygons
   * in BV-tree order) and returns the count (Detour's queryPolygons).
   */
  queryPolygons(
    bmin: ArrayLike<number>,
    bmax: ArrayLike<number>,
    filter: QueryFilter | null,
    outRefs: Float64Array,
  ): number {
    const x0 = Math.max(this.tileXAt(bmin[0]!), this.gridMinX);
    const x1 = Math.min(this.tileXAt(bmax[0]!), this.gridMaxX);
    const z0 = Math.max(this.tileZAt(bmin[2]!), this.gridMinZ);
    const z1 = Math.min(this.tileZAt(bmax[2]!), this.gridMaxZ);
    const max = outRefs.length;
    const filtered = !!filter;
    const include = filter ? filter.includeFlags : 0;
    const exclude = filter ? filter.excludeFlags : 0;
    const pass = filter?.passFilter;
    let n = 0;
    for (let tz = z0; tz <= z1; tz++) {
      for (let tx = x0; tx <= x1; tx++) {
        // Grid lists are created once per key and only edited in place, so the last lookup
        // stays valid (most queries touch the same tile column as the previous one).
        const key = gridKey(tx, tz);
        let list: number[] | undefined;
        if (key === this.lastGridKey) {
          list = this.lastGridList;
        } else {
          list = this.grid.get(key);
          if (!list) continue;
          this.lastGridKey = key;
          this.lastGridList = list;
        }
        for (let li = 0; li < list.length; li++) {
          const index = list[li]!;
          const slot = this.slots[index]!;
          const tile = slot.tile!;
          if (this.polyScratch.length < tile.polyCount) {
            this.polyScratch = new Int32Array(
              Math.max(tile.polyCount, this.polyScratch.length * 2),
            );
          }
          const scratch = this.polyScratch;
          const found = queryPolygonsInTile(tile, bmin, bmax, scratch, tile.polyCount);
          // Refs of this tile's polygons are base + poly.
          const base = encodePolyRef(slot.salt, index, 0);
          const flags = tile.polyFlags;
          for (let i = 0; i < found && n < max; i++) {
            const p = scratch[i]!;
            if (filtered) {
              const f = flags[p]!;
              if ((f & include) === 0 || (f & exclude) !== 0) continue;
              if (pass && pass(base + p, tile, p) !== true) continue;
            }
            outRefs[n++] = base + p;
          }
          if (n >= max) return n;
        }
      }
    }
    return n;
  }

  /**
   * Adds an off-mesh connection and returns its reference. Each end links to the nearest
   * ground polygon (any tile) within `radius`; links are re-established as tiles come and go.
   */
  addOffMeshConnection(conn: OffMeshConnection): PolyRef {
    const finite = (p: readonly number[]) => p.length === 3 && p.every(Number.isFinite);
    if (!finite(conn.start) || !finite(conn.end)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        "off-mesh connection end points must be finite xyz",
      );
    }
    if (!(conn.radius >= 0) || !Number.isFinite(conn.radius)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `off-mesh connection radius ${conn.radius} must be >= 0`,
      );
    }
    if (!Number.isInteger(conn.area) || conn.area < 0 || conn.area > 63) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `off-mesh connection area ${conn.area} must be 0..63`,
      );
    }
    if (!Number.isInteger(conn.flags) || conn.flags < 0 || conn.flags > 0xffff) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `off-mesh connection flags ${conn.flags} must be 0..0xffff`,
      );
    }
    if (conn.cost !== undefined && !(conn.cost >= 0)) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `off-mesh connection cost ${conn.cost} must be >= 0`,
      );
    }
    // Indices are never reused, so a removed connection's ref stays invalid.
    const index = this.offMesh.length;
    if (index >= MAX_POLYS_PER_TILE) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `at most ${MAX_POLYS_PER_TILE} off-mesh connections`,
      );
    }
    const copy: OffMeshConnection = Object.freeze({
      ...conn,
      start: [...conn.start] as Vec3,
      end: [...conn.end] as Vec3,
    });
    this.offMesh.push(copy);
    if (this.offMeshPoints.length < (index + 1) * 6) {
      const grown = new Float64Array(Math.max(6 * 8, this.offMeshPoints.length * 2));
      grown.set(this.offMeshPoints);
      this.offMeshPoints = grown;
    }
    this.slots[OFF_MESH_SLOT]!.links.ensurePolys(index + 1);
    linkOffMeshConnection(this, index);
    return encodePolyRef(this.slots[OFF_MESH_SLOT]!.salt, OFF_MESH_SLOT, index);
  }

  /** Removes an off-mesh connection; its ref becomes invalid. */
  removeOffMeshConnection(ref: PolyRef): void {
    if (tileOfRef(ref) !== OFF_MESH_SLOT || !this.isValidPolyRef(ref)) {
      throw new MeshwayError("INVALID_ARGUMENT", `${ref} is not a live off-mesh connection`);
    }
    const index = polyOfRef(ref);
    unlinkOffMeshConnection(this, index);
    this.offMesh[index] = null;
  }

  /** The off-mesh connection `ref` names with its snapped ends, or null when not live. */
  offMeshConnection(ref: PolyRef): OffMeshConnectionInfo | null {
    if (tileOfRef(ref) !== OFF_MESH_SLOT || !this.isValidPolyRef(ref)) return null;
    const index = polyOfRef(ref);
    const con = this.offMesh[index]!;
    const p = this.offMeshPoints;
    const o = index * 6;
    return {
      ...con,
      ref,
      snappedStart: [p[o]!, p[o + 1]!, p[o + 2]!],
      snappedEnd: [p[o + 3]!, p[o + 4]!, p[o + 5]!],
      startPoly: offMeshLanding(this, index, 0),
      endPoly: offMeshLanding(this, index, 1),
    };
  }

  /** Refs of the live off-mesh connections, in the order they were added. */
  offMeshConnectionRefs(): PolyRef[] {
    const out: PolyRef[] = [];
    const salt = this.slots[OFF_MESH_SLOT]!.salt;
    for (let c = 0; c < this.offMesh.length; c++) {
      if (this.offMesh[c]) out.push(encodePolyRef(salt, OFF_MESH_SLOT, c));
    }
    return out;
  }

  /**
   * Sets the flags of a ground polygon or off-mesh connection (a door: clear its walk flag
   * or set a "closed" flag the filter excludes). Every query object sees it on its next call.
   */
  setPolyFlags(ref: PolyRef, flags: number): void {
    polyState.setPolyFlags(this, ref, flags);
  }

  /** Flags of a ground polygon or off-mesh connection; throws for a ref that is not live. */
  getPolyFlags(ref: PolyRef): number {
    return polyState.getPolyFlags(this, ref);
  }

  /** Sets the area id (0..63) of a ground polygon or off-mesh connection. */
  setPolyArea(ref: PolyRef, area: number): void {
    polyState.setPolyArea(this, ref, area);
  }

  /** Area id of a ground polygon or off-mesh connection; throws for a ref that is not live. */
  getPolyArea(ref: PolyRef): number {
    return polyState.getPolyArea(this, ref);
  }

  /**
   * flags = (flags | setFlags) & ~clearFlags for every ground polygon whose centroid lies in
   * `volume` (the tile cache's obstacle shapes); returns how many polygons changed.
   */
  setFlagsInVolume(volume: PolyVolume, setFlags: number, clearFlags: number): number {
    return setFlagsInVolume(this, volume, setFlags, clearFlags);
  }

  /** Enables or disables an off-mesh connection (disabled: no filter passes it). */
  setOffMeshConnectionEnabled(ref: PolyRef, enabled: boolean): void {
    polyState.setOffMeshConnectionEnabled(this, ref, enabled);
  }

  /** False while the off-mesh connection is disabled. */
  isOffMeshConnectionEnabled(ref: PolyRef): boolean {
    return polyState.isOffMeshConnectionEnabled(this, ref);
  }

  /** Flags and areas of a tile as bytes (a save game); see restoreTileState. */
  storeTileState(tileRef: PolyRef): Uint8Array {
    return polyState.storeTileState(this, tileRef);
  }

  /** Restores storeTileState bytes; throws unless they came from this very tile. */
  restoreTileState(tileRef: PolyRef, bytes: Uint8Array): void {
    polyState.restoreTileState(this, tileRef, bytes);
  }

  /** Sum of ground polygon areas projected on XZ. */
  area(): number {
    let area = 0;
    for (const tile of this.tiles) {
      for (let p = 0; p < tile.polyCount; p++) area += Math.abs(polygonAreaXZ(tile, p));
    }
    return area;
  }
}

/** Sum of polygon areas projected on XZ, over all tiles. */
export function navMeshArea(navMesh: NavMesh): number {
  return navMesh.area();
}

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

// Ref fields by floor arithmetic (bit operators are 32-bit; `%` on doubles is slow).
const REF_POLY_SPACE = 2 ** 20;
const REF_LIMIT = 2 ** 52;

/** Classifies `ref` for `navMesh`; the live case costs what isValidPolyRef costs. */
export function classifyRef(navMesh: NavMesh, ref: PolyRef): RefClass {
  if (!(ref > 0 && ref < REF_LIMIT) || ref !== Math.floor(ref)) return "malformed";
  const hi = Math.floor(ref / REF_POLY_SPACE);
  const salt = Math.floor(hi / REF_POLY_SPACE);
  const slotIndex = hi - salt * REF_POLY_SPACE;
  const poly = ref - hi * REF_POLY_SPACE;
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
