import { MeshwayError } from "../errors.js";
import type { Vec3 } from "../math/vec3.js";
import { MAX_AREAS } from "./areas.js";
import type { QueryFilter } from "./filter.js";
import { LinkPool } from "./links.js";
import { linkOffMeshConnection, offMeshLanding, unlinkOffMeshConnection } from "./off-mesh.js";
import {
  encodePolyRef,
  isLiveRef,
  MAX_POLYS_PER_TILE,
  MAX_TILES,
  nextSalt,
  OFF_MESH_SLOT,
  type PolyRef,
  polyOfRef,
  saltOfRef,
  tileOfRef,
} from "./poly-ref.js";
import * as polyState from "./poly-state.js";
import { queryPolygonsInTile } from "./spatial.js";
import { type NavMeshTile, polygonAreaXZ } from "./tile.js";
import {
  connectLayerSeams,
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

/** Largest |tile coordinate| the grid key holds (26 bits with the sign). */
export const MAX_TILE_COORD = 2 ** 25 - 1;

/**
 * Tiles (layers) one grid cell may hold, as Detour's MAX_NEIS: each is linked with every tile
 * of the four neighbouring cells, so the links grow with the product of their counts.
 */
export const MAX_TILES_PER_CELL = 32;

/** Numeric tile-grid key (no string building on query paths); |x|, |z| < 2^25. */
function gridKey(x: number, z: number): number {
  return (x + 0x2000000) * 0x4000000 + (z + 0x2000000);
}

/** One tile slot: a ref's slot index addresses it (see poly-ref.ts). */
export interface TileSlot {
  /** The tile in the slot, null when empty (slot 0 never holds one: off-mesh connections). */
  tile: NavMeshTile | null;
  /** Current salt: refs into the slot carry it; bumped when the slot is emptied. */
  salt: number;
  /** Links of the slot's polygons (tile portals, off-mesh landings). */
  links: LinkPool;
}

/**
 * A tile without polygons never gets a link (links start at a polygon), so every such tile
 * shares one empty pool (made on first use, not on import).
 */
let NO_LINKS: LinkPool | null = null;
/** tilesAt's answer for an empty cell (no array per miss). */
const NO_SLOTS: readonly number[] = Object.freeze([]);

function linkPoolFor(tile: NavMeshTile): LinkPool {
  if (tile.polyCount > 0) return new LinkPool(tile.polyCount);
  if (NO_LINKS === null) NO_LINKS = new LinkPool(0);
  return NO_LINKS;
}

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
  /** Occupied grid cells, sorted z-major (queryPolygons over boxes wider than the tiles). */
  private sortedCellCache: Float64Array | null = null;
  /** Off-mesh connections by index within slot 0 (null when removed). */
  /** @internal */ readonly offMesh: (OffMeshConnection | null)[] = [];
  /** @internal Snapped end points of the off-mesh connections: 6 per connection (start xyz, end xyz). */
  offMeshPoints = new Float64Array(0);
  /** @internal Bumped by every run-time flag or area change (poly-state.ts). */
  stateCounter = 0;

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
    for (let p = 0; p < tile.polyCount; p++) {
      if (!(tile.polyAreas[p]! < MAX_AREAS)) {
        throw new MeshwayError(
          "INVALID_ARGUMENT",
          `tile polygon ${p} has area ${tile.polyAreas[p]}, areas are 0..${MAX_AREAS - 1} (QueryFilter prices 64)`,
        );
      }
    }
    const { tileX, tileZ } = tile;
    if (
      !Number.isInteger(tileX) ||
      !Number.isInteger(tileZ) ||
      Math.abs(tileX) > MAX_TILE_COORD ||
      Math.abs(tileZ) > MAX_TILE_COORD
    ) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile coordinates (${tileX}, ${tileZ}) must be integers within ±${MAX_TILE_COORD}`,
      );
    }
    const key = gridKey(tileX, tileZ);
    if ((this.grid.get(key)?.length ?? 0) >= MAX_TILES_PER_CELL) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `tile (${tileX}, ${tileZ}) would be layer ${MAX_TILES_PER_CELL + 1} there: at most ${MAX_TILES_PER_CELL} tiles share one tile coordinate`,
      );
    }
    let index = this.freeSlots.pop();
    if (index === undefined) {
      index = this.slots.length;
      if (index >= MAX_TILES) {
        throw new MeshwayError("INVALID_ARGUMENT", `a navmesh holds at most ${MAX_TILES} tiles`);
      }
      this.slots.push({ tile, salt: 1, links: linkPoolFor(tile) });
    } else {
      const slot = this.slots[index]!;
      slot.tile = tile;
      slot.links = linkPoolFor(tile);
    }
    // A literal of one: `[]` then push reserves 17 slots, 130 bytes per tile for nothing.
    const list = this.grid.get(key);
    if (list) list.push(index);
    else this.grid.set(key, [index]);
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
    // Layers of one cell (a tile cache's storeys) meet at seams inside the tile: portal edges
    // that are the same segment, reversed, in both (Detour's addTile "connect with layers in
    // current tile"; tile-border edges of two layers are never reversed copies).
    for (const other of this.tilesAt(tile.tileX, tile.tileZ)) {
      if (other === index) continue;
      connectLayerSeams(this, index, other);
      connectLayerSeams(this, other, index);
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
    // Drop other layers' and neighbours' portals into this tile and the off-mesh links landing on it.
    for (const other of list) disconnectTileLinks(this, other, index);
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
    return this.grid.get(gridKey(x, z)) ?? NO_SLOTS;
  }

  /** The tile in `slot`, or null. */
  tileInSlot(slot: number): NavMeshTile | null {
    const s = this.slots[slot];
    return s === undefined ? null : s.tile;
  }

  /** Reference of polygon `poly` of the tile in `slot`. */
  polyRef(slot: number, poly: number): PolyRef {
    return encodePolyRef(this.slots[slot]!.salt, slot, poly);
  }

  /** True when `ref` names a live ground polygon or off-mesh connection. */
  isValidPolyRef(ref: PolyRef): boolean {
    return isLiveRef(this, ref);
  }

  // Read-only access for the queries (they never write slots or connections).

  /**
   * The tile slots by index (a ref's tileOfRef), read-only: for query loops that visit many
   * refs and hoist the table once. Entries are replaced as tiles come and go; do not keep one.
   */
  get slotTable(): readonly Readonly<TileSlot>[] {
    return this.slots;
  }

  /** Number of tile slots, the off-mesh slot included: slot indices run 0..slotCount-1. */
  get slotCount(): number {
    return this.slots.length;
  }

  /** Current salt of `slot` (refs into it carry it), 0 for a slot index never used. */
  slotSalt(slot: number): number {
    return this.slots[slot]?.salt ?? 0;
  }

  /**
   * Links of the polygons in `slot` (tile portals, off-mesh landings; for the off-mesh slot
   * the connections' two ends). Read-only for callers; `slot` must be below slotCount.
   */
  slotLinks(slot: number): LinkPool {
    return this.slots[slot]!.links;
  }

  /** Off-mesh connection indices handed out so far (removed ones included). */
  get offMeshCount(): number {
    return this.offMesh.length;
  }

  /** Off-mesh connection `index` as added (frozen), or null when removed or never added. */
  offMeshAt(index: number): OffMeshConnection | null {
    return this.offMesh[index] ?? null;
  }

  /**
   * Snapped end points of the off-mesh connections: 6 numbers per connection index (start
   * xyz, end xyz). Read-only for callers; replaced when it grows, so do not keep it.
   */
  get offMeshEndPoints(): Float64Array {
    return this.offMeshPoints;
  }

  /**
   * How many run-time flag or area changes the mesh has seen: caches over the whole mesh
   * (query objects' slot graphs, reachability) compare it; caches of one tile compare
   * tileStateVersion(tile).
   */
  get stateVersion(): number {
    return this.stateCounter;
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
    if (!(x0 <= x1 && z0 <= z1)) return 0;
    // A box spanning more grid cells than there are occupied ones walks the occupied cells
    // (in the same z-major order) instead: two tiles at ±(2^25 − 1) would be 2^52 cells.
    const sorted = (x1 - x0 + 1) * (z1 - z0 + 1) > this.grid.size;
    let n = 0;
    if (sorted) {
      const cells = this.sortedCells();
      for (let i = 0; i < cells.length && n < outRefs.length; i++) {
        const zk = Math.floor(cells[i]! / 0x4000000);
        const tz = zk - 0x2000000;
        const tx = cells[i]! - zk * 0x4000000 - 0x2000000;
        if (tz < z0 || tz > z1 || tx < x0 || tx > x1) continue;
        n = this.queryCell(gridKey(tx, tz), bmin, bmax, filter, outRefs, n);
      }
      return n;
    }
    for (let tz = z0; tz <= z1; tz++) {
      for (let tx = x0; tx <= x1; tx++) {
        n = this.queryCell(gridKey(tx, tz), bmin, bmax, filter, outRefs, n);
        if (n >= outRefs.length) return n;
      }
    }
    return n;
  }

  /**
   * Slots of the tiles filed in the grid cells the XZ box [x0, x1] × [z0, z1] touches, widened
   * by one cell each way (tile bounds may reach a little past their cell), in slot order.
   * Walks the occupied cells when the box covers more cells than are occupied.
   */
  tileSlotsNear(x0: number, z0: number, x1: number, z1: number, out: number[]): number[] {
    out.length = 0;
    const gx0 = Math.max(this.tileXAt(x0) - 1, this.gridMinX);
    const gx1 = Math.min(this.tileXAt(x1) + 1, this.gridMaxX);
    const gz0 = Math.max(this.tileZAt(z0) - 1, this.gridMinZ);
    const gz1 = Math.min(this.tileZAt(z1) + 1, this.gridMaxZ);
    if (!(gx0 <= gx1 && gz0 <= gz1)) return out;
    const add = (key: number) => {
      const list = this.grid.get(key);
      if (list) for (const slot of list) out.push(slot);
    };
    if ((gx1 - gx0 + 1) * (gz1 - gz0 + 1) > this.grid.size) {
      for (const key of this.grid.keys()) {
        const xk = Math.floor(key / 0x4000000) - 0x2000000;
        const zk = key - (xk + 0x2000000) * 0x4000000 - 0x2000000;
        if (xk >= gx0 && xk <= gx1 && zk >= gz0 && zk <= gz1) add(key);
      }
    } else {
      for (let tz = gz0; tz <= gz1; tz++) for (let tx = gx0; tx <= gx1; tx++) add(gridKey(tx, tz));
    }
    return out.sort((a, b) => a - b);
  }

  /** Occupied grid cells as z-major keys ((z + 2^25) · 2^26 + x + 2^25), sorted; cached. */
  private sortedCells(): Float64Array {
    if (this.sortedCellCache === null || this.sortedCellCache.length !== this.grid.size) {
      const cells = new Float64Array(this.grid.size);
      let i = 0;
      for (const key of this.grid.keys()) {
        const xk = Math.floor(key / 0x4000000);
        cells[i++] = (key - xk * 0x4000000) * 0x4000000 + xk;
      }
      this.sortedCellCache = cells.sort();
    }
    return this.sortedCellCache;
  }

  /** queryPolygons over the tiles of one grid cell; returns the new count. */
  private queryCell(
    key: number,
    bmin: ArrayLike<number>,
    bmax: ArrayLike<number>,
    filter: QueryFilter | null,
    outRefs: Float64Array,
    n: number,
  ): number {
    const max = outRefs.length;
    // Grid lists are created once per key and only edited in place, so the last lookup
    // stays valid (most queries touch the same tile column as the previous one).
    let list: number[] | undefined;
    if (key === this.lastGridKey) {
      list = this.lastGridList;
    } else {
      list = this.grid.get(key);
      if (!list) return n;
      this.lastGridKey = key;
      this.lastGridList = list;
    }
    for (let li = 0; li < list.length; li++) {
      const index = list[li]!;
      const slot = this.slots[index]!;
      const tile = slot.tile!;
      if (this.polyScratch.length < tile.polyCount) {
        this.polyScratch = new Int32Array(Math.max(tile.polyCount, this.polyScratch.length * 2));
      }
      const scratch = this.polyScratch;
      const found = queryPolygonsInTile(tile, bmin, bmax, scratch, tile.polyCount);
      // Refs of this tile's polygons are base + poly.
      const base = encodePolyRef(slot.salt, index, 0);
      const flags = tile.polyFlags;
      if (filter === null) {
        for (let i = 0; i < found && n < max; i++) outRefs[n++] = base + scratch[i]!;
      } else {
        // Hoisted: this loop runs for every candidate of every nearest-polygon query.
        const include = filter.includeFlags;
        const exclude = filter.excludeFlags;
        const pass = filter.passFilter;
        for (let i = 0; i < found && n < max; i++) {
          const p = scratch[i]!;
          const f = flags[p]!;
          if ((f & include) === 0 || (f & exclude) !== 0) continue;
          if (pass !== undefined && pass(base + p, tile, p) !== true) continue;
          outRefs[n++] = base + p;
        }
      }
      if (n >= max) return n;
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
