import type { Vec3 } from "../build/types.js";
import { MeshwayError } from "../errors.js";
import { LinkPool } from "./links.js";
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
import { type NavMeshTile, polygonAreaXZ } from "./tile.js";

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

interface TileSlot {
  tile: NavMeshTile | null;
  salt: number;
  links: LinkPool;
}

/** Slot 0 holds no ground tile: its "polygons" are the off-mesh connections. */
export const OFF_MESH_SLOT = 0;

/**
 * The runtime navigation mesh: tiles of convex polygons in slots addressed by polygon
 * references, plus cross-tile and off-mesh links. Tiles are immutable data
 * ({@link NavMeshTile}); everything that changes when tiles come and go lives here.
 */
export class NavMesh {
  readonly params: Readonly<NavMeshParams>;
  /** Union of the bounds of the tiles added so far. */
  readonly bmin: Vec3 = [Infinity, Infinity, Infinity];
  readonly bmax: Vec3 = [-Infinity, -Infinity, -Infinity];
  /** @internal */ readonly slots: TileSlot[] = [];
  private readonly freeSlots: number[] = [];
  private readonly grid = new Map<string, number[]>();
  /** Off-mesh connections by index within slot 0 (null when removed). */
  /** @internal */ readonly offMesh: (OffMeshConnection | null)[] = [];

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
    const key = `${tile.tileX},${tile.tileZ}`;
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
    return encodePolyRef(this.slots[index]!.salt, index, 0);
  }

  /** Removes the tile `tileRef` refers to; refs into it become invalid. Returns the tile. */
  removeTile(tileRef: PolyRef): NavMeshTile {
    const index = tileOfRef(tileRef);
    const slot = this.slots[index];
    if (index === OFF_MESH_SLOT || !slot?.tile || slot.salt !== saltOfRef(tileRef)) {
      throw new MeshwayError("INVALID_ARGUMENT", `tile reference ${tileRef} is not a live tile`);
    }
    const tile = slot.tile;
    const list = this.grid.get(`${tile.tileX},${tile.tileZ}`)!;
    list.splice(list.indexOf(index), 1);
    slot.tile = null;
    slot.salt = nextSalt(slot.salt);
    slot.links = new LinkPool(0);
    this.freeSlots.push(index);
    return tile;
  }

  /** Slots of the tiles at tile coordinates (x, z) (several when layered). */
  tilesAt(x: number, z: number): readonly number[] {
    return this.grid.get(`${x},${z}`) ?? [];
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
