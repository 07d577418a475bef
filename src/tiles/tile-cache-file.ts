import { type BuildConfig, type ResolvedConfig, resolveConfig, toBuildConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { crc32 } from "../format/crc32.js";
import type { AreaVolume } from "../generate/areas.js";
import type { CompactHeightfield } from "../generate/types.js";
import type { Vec3 } from "../math/vec3.js";
import { NavMesh, type NavMeshParams, type OffMeshConnection } from "../navmesh/nav-mesh.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import {
  type CachedLayer,
  cachedLayersOf,
  layerPartition,
  sharedTileAreas,
} from "./cached-layer.js";
import {
  type CachedTileShape,
  decodeCachedTile,
  encodeCachedTile,
  obstacleFreeErosion,
  readCachedTileHeader,
} from "./cached-tile-codec.js";
import { WALKABLE_GHOST } from "./layer-grid.js";
import { lzCompress, lzDecompress } from "./lz-codec.js";
import { type NavTileContext, NavTileReader, NavTileWriter } from "./nav-tile-codec.js";
import { type ObstacleShape, validateAreaVolume, validateObstacleShape } from "./obstacles.js";
import { RangeDecoder, RangeEncoder } from "./range-coder.js";
import { type TileGrid, tileBounds } from "./tile-grid.js";

/*
 * The tile cache file (`.tilecache`), format version 3, little-endian:
 *
 *    0  "MWTC", u32 version, u32 payload length (low, high), u32 payload CRC32, u32 flags (0),
 *       u32 reserved (0), u32 header CRC32 (over bytes 0..27)
 *   32  payload: blocks of { u32 stored length, u32 tag, u32 decoded length (0: stored as
 *       is), u32 reserved (0), bytes, zero padding to a multiple of 8 }:
 *         'META' JSON, raw: build config, tile grid, id counters, obstacles and area volumes
 *                with their ids, the navmesh's parameters, off-mesh connections and tile
 *                count, and per cached tile its index, state bits and per heightfield layer
 *                (tile-layers.ts) its navmesh tile (slot order) and state bits
 *         per cached tile, in tile order, one 'CTIL' that decodes on its own: u32 length of
 *                a range-coded stream of the layers' navmesh tiles, each followed by its kept
 *                obstacle-free restore tile when the layer has one (nav-tile-codec.ts), then
 *                the heightfield block (cached-tile-codec.ts: compact heightfield, layer
 *                partition, the areas the layer tiles were built from); then, only for tiles
 *                whose layers were not all built from one set of areas, per layer 'AREA', and
 *                per layer with a restore tile 'RSTA' (its areas); those two LZ-compressed
 *                (lz-codec.ts) when that is smaller.
 *
 * Not stored, as they are recomputed exactly: span links and column starts (linkNeighbours,
 * a running sum), the obstacle-free erosion, the layers' areas (their view of the tile's
 * areas), layer grids (from the stored partition), navmesh tiles' BV trees and most of their
 * detail and neighbour data. Loading reads the navmesh tiles and records and checks every
 * header; a tile's heightfield is decoded when the cache first needs it (a rebuild or save of
 * the tile): its decoder is total (any stream gives some well-formed heightfield), so the
 * deferral cannot turn a bad file into a late error, and the checksum catches damage.
 *
 * Versions 1 (one navmesh tile per tile, no layers) and 2 (LZ-compressed heightfields with
 * borders and a whole .navmesh) are refused with a message saying so.
 *
 * Loading rebuilds nothing that was saved: the navmesh tiles and areas come back as stored,
 * so later requests give exactly what they would have given on the saved cache.
 */

const MAGIC = [0x4d, 0x57, 0x54, 0x43]; // "MWTC"
export const TILE_CACHE_FORMAT_VERSION = 3;
const HEADER_SIZE = 32;
const TAG = {
  meta: 0x4154454d,
  tile: 0x4c495443,
  area: 0x41455241,
  rsta: 0x41545352,
};

const BIT_AREAS = 1;
/** Tile record: the tile areas are in its heightfield block (else per layer 'AREA'). */
const BIT_TILE_AREAS = 2;
const BIT_RESTORE = 4;
const BIT_OBSTACLE_FREE = 8;
const BIT_OBSTACLE_FREE_KNOWN = 16;
const BIT_DIRTY = 32;
/** Bits of a tile record, and of a layer record. */
const TILE_BITS = BIT_TILE_AREAS | BIT_DIRTY;
const LAYER_BITS = BIT_AREAS | BIT_RESTORE | BIT_OBSTACLE_FREE | BIT_OBSTACLE_FREE_KNOWN;

/** One heightfield layer of a cached tile as the file holds it. */
export interface TileCacheFileLayer {
  /** Index of its tile among the navmesh's live tiles (slot order). */
  liveIndex: number;
  areas: Uint8Array | null;
  /** Its areas are its layer's view of the tile's areas (layerAreas), made on demand. */
  fromTileAreas?: boolean;
  obstacleFree?: boolean;
  restore?: { areas: Uint8Array; tile: NavMeshTile } | undefined;
}

/** A cached tile as a reader gives it back: decoded when first asked for. */
export interface LoadedTileCacheTile {
  chf: CompactHeightfield;
  /** The obstacle-free erosion (decoding computes it). */
  eroded: Uint8Array;
  grids: CachedLayer[];
  /** The span areas its layers were built from, when stored so (see fromTileAreas). */
  tileAreas: Uint8Array | null;
}

/** One cached tile as the file holds it. */
export interface TileCacheFileTile {
  /** The heightfield (the writer's input; a reader gives `load` instead). */
  chf?: CompactHeightfield;
  eroded?: Uint8Array;
  dirty: boolean;
  layers: TileCacheFileLayer[];
  /** The layer grids the heightfield was split into (the writer's input). */
  grids?: CachedLayer[];
  /** A reader's heightfield, decoded on the first call (then kept). */
  load?: () => LoadedTileCacheTile;
}

/** Everything a TileCache is, as plain data (TileCache.exportState / fromState). */
export interface TileCacheState {
  navMesh: NavMesh;
  grid: TileGrid;
  config: ResolvedConfig;
  /** Per tile index (tx + tz * tilesX), null for tiles with no floor. */
  tiles: (TileCacheFileTile | null)[];
  obstacles: [number, ObstacleShape][];
  volumes: [number, AreaVolume][];
  nextObstacleId: number;
  nextVolumeId: number;
}

const BLOCK_HEADER = 16;
/** Counts a navmesh stream may claim per coded byte (each item costs a few decisions). */
const NAV_ITEMS_PER_BYTE = 256;
/** Largest decoded size a block may claim per stored byte (the codec's best ratio is ~255). */
const MAX_EXPANSION = 260;

interface Block {
  tag: number;
  bytes: Uint8Array;
  /** Never LZ-compressed (the metadata, read first; the range-coded tiles). */
  raw?: boolean;
}

/** What every tile heightfield of the cache is, and tile t's bounds as the build makes them. */
function tileShape(config: ResolvedConfig, grid: TileGrid): (t: number) => CachedTileShape {
  const side = config.tileSize + 2 * config.borderSizeVoxels;
  return (t) => {
    const tx = t % grid.tilesX;
    const tz = (t - tx) / grid.tilesX;
    const { bmin, bmax } = tileBounds(grid, config, tx, tz);
    // The compaction stage lets open space reach one agent height above the solid top.
    bmax[1] += config.walkableHeightVoxels * config.cellHeight;
    return {
      width: side,
      depth: side,
      borderSize: config.borderSizeVoxels,
      cellSize: config.cellSize,
      cellHeight: config.cellHeight,
      walkableHeightVoxels: config.walkableHeightVoxels,
      walkableClimbVoxels: config.walkableClimbVoxels,
      walkableRadiusVoxels: config.walkableRadiusVoxels,
      bounds: { bmin, bmax },
    };
  };
}

const plain = <T extends object>(v: T): T =>
  JSON.parse(
    JSON.stringify(v, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as Uint8Array) : x)),
  );

/** Serializes a tile cache's state (see the layout above). Deterministic. */
export function encodeTileCache(state: TileCacheState): Uint8Array {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new MeshwayError(
      "INVALID_ARGUMENT",
      "TileCache.serialize: big-endian hosts are not supported",
    );
  }
  const blocks: Block[] = [];
  const tiles: (number | number[][])[][] = [];
  const tileBlocks: Block[] = [];
  const shape = tileShape(state.config, state.grid);
  state.tiles.forEach((c, t) => {
    if (!c) return;
    const grids = c.grids;
    const chf = c.chf;
    if (!chf || !grids || grids.length !== c.layers.length) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `TileCache.serialize: tile ${t} has no heightfield and layer grids to save`,
      );
    }
    const sh = shape(t);
    if (
      chf.width !== sh.width ||
      chf.depth !== sh.depth ||
      chf.borderSize !== sh.borderSize ||
      chf.cellSize !== sh.cellSize ||
      chf.cellHeight !== sh.cellHeight ||
      chf.walkableHeightVoxels !== sh.walkableHeightVoxels ||
      chf.walkableClimbVoxels !== sh.walkableClimbVoxels
    ) {
      throw new MeshwayError(
        "INVALID_ARGUMENT",
        `TileCache.serialize: tile ${t} heightfield does not match the config`,
      );
    }
    let bits = c.dirty ? BIT_DIRTY : 0;
    const tileAreas = sharedTileAreas(chf, grids);
    if (tileAreas) bits |= BIT_TILE_AREAS;
    const eroded = c.eroded ?? obstacleFreeErosion(chf, state.config.walkableRadiusVoxels);
    const layerOf = layerPartition(chf, grids);
    const heightfield = encodeCachedTile(
      { chf, layerOf, layerCount: grids.length, areas: tileAreas },
      eroded,
      sh.bounds,
    );
    // The layers' navmesh tiles (and kept restore tiles) in a stream of their own, read on
    // load; the heightfield after it, decoded when the cache first needs the tile.
    const nav = navContext(state.config, state.grid, t, chf.bmin, chf.bmax);
    const rc = new RangeEncoder();
    const writer = new NavTileWriter(rc);
    c.layers.forEach((l, k) => {
      const liveTile = state.navMesh.tiles[l.liveIndex];
      if (!liveTile) {
        throw new MeshwayError(
          "INVALID_ARGUMENT",
          `TileCache.serialize: tile ${t} layer ${k} names navmesh tile ${l.liveIndex}, which is not live`,
        );
      }
      writer.write(liveTile, nav);
      if (l.restore) writer.write(l.restore.tile, nav);
    });
    const navStream = rc.finish();
    const bytes = new Uint8Array(4 + navStream.length + heightfield.length);
    new DataView(bytes.buffer).setUint32(0, navStream.length, true);
    bytes.set(navStream, 4);
    bytes.set(heightfield, 4 + navStream.length);
    tileBlocks.push({ tag: TAG.tile, bytes, raw: true });
    const layers: number[][] = [];
    for (const l of c.layers) {
      let lb = 0;
      if (l.areas) {
        lb |= BIT_AREAS;
        if (!tileAreas) tileBlocks.push({ tag: TAG.area, bytes: l.areas });
      }
      if (l.restore) {
        lb |= BIT_RESTORE;
        tileBlocks.push({ tag: TAG.rsta, bytes: l.restore.areas });
      }
      if (l.obstacleFree !== undefined) lb |= BIT_OBSTACLE_FREE_KNOWN;
      if (l.obstacleFree) lb |= BIT_OBSTACLE_FREE;
      layers.push([l.liveIndex, lb]);
    }
    tiles.push([t, bits, layers]);
  });
  const meta = {
    config: toBuildConfig(state.config),
    grid: state.grid,
    nextObstacleId: state.nextObstacleId,
    nextVolumeId: state.nextVolumeId,
    obstacles: state.obstacles.map(([id, s]) => [id, plain(s)]),
    volumes: state.volumes.map(([id, v]) => [id, plain(v)]),
    navMesh: {
      params: state.navMesh.params,
      offMesh: state.navMesh
        .offMeshConnectionRefs()
        .map((ref) => offMeshRecord(state.navMesh.offMeshConnection(ref)!)),
      tiles: state.navMesh.tiles.length,
    },
    tiles,
  };
  // Raw, read first (and edited as is by the fuzz targets).
  blocks.push({ tag: TAG.meta, bytes: new TextEncoder().encode(JSON.stringify(meta)), raw: true });
  blocks.push(...tileBlocks);
  const stored = blocks.map((b) => {
    if (b.raw) return { ...b, decoded: 0 };
    const z = lzCompress(b.bytes);
    return z.length < b.bytes.length
      ? { ...b, bytes: z, decoded: b.bytes.length }
      : { ...b, decoded: 0 };
  });
  let length = HEADER_SIZE;
  for (const b of stored) length += BLOCK_HEADER + Math.ceil(b.bytes.length / 8) * 8;
  const out = new Uint8Array(length);
  const dv = new DataView(out.buffer);
  out.set(MAGIC, 0);
  dv.setUint32(4, TILE_CACHE_FORMAT_VERSION, true);
  const payload = length - HEADER_SIZE;
  dv.setUint32(8, payload % 2 ** 32, true);
  dv.setUint32(12, Math.floor(payload / 2 ** 32), true);
  let at = HEADER_SIZE;
  for (const b of stored) {
    dv.setUint32(at, b.bytes.length, true);
    dv.setUint32(at + 4, b.tag, true);
    dv.setUint32(at + 8, b.decoded, true);
    out.set(b.bytes, at + BLOCK_HEADER);
    at += BLOCK_HEADER + Math.ceil(b.bytes.length / 8) * 8;
  }
  dv.setUint32(16, crc32(out, HEADER_SIZE, length), true);
  dv.setUint32(28, crc32(out, 0, 28), true);
  return out;
}

/** What the navmesh tile codec may assume of a layer tile of cached tile t. */
function navContext(
  config: ResolvedConfig,
  grid: TileGrid,
  t: number,
  bmin: Vec3,
  bmax: Vec3,
): NavTileContext {
  const tx = t % grid.tilesX;
  const tz = (t - tx) / grid.tilesX;
  const tw = grid.tileWorld;
  const pad = config.borderSizeVoxels * config.cellSize;
  return {
    tileX: tx,
    tileZ: tz,
    maxVertsPerPoly: config.vertsPerPoly,
    cellSize: config.cellSize,
    cellHeight: config.cellHeight,
    // A layer tile's bounds are its heightfield's less the border (as the contour stage sets
    // them); a stand-in empty tile's are the tile square's (tile-cache.ts emptyTile).
    candidates: [
      {
        bmin: [bmin[0] + pad, bmin[1], bmin[2] + pad],
        bmax: [bmax[0] - pad, bmax[1], bmax[2] - pad],
      },
      {
        bmin: [grid.bmin[0] + tx * tw, bmin[1], grid.bmin[2] + tz * tw],
        bmax: [grid.bmin[0] + (tx + 1) * tw, bmax[1], grid.bmin[2] + (tz + 1) * tw],
      },
    ],
  };
}

/** An off-mesh connection as the navmesh keeps it, without its run-time fields. */
function offMeshRecord(c: OffMeshConnection): OffMeshConnection {
  const out: OffMeshConnection = {
    start: [c.start[0], c.start[1], c.start[2]],
    end: [c.end[0], c.end[1], c.end[2]],
    radius: c.radius,
    bidirectional: c.bidirectional,
    area: c.area,
    flags: c.flags,
  };
  if (c.cost !== undefined) out.cost = c.cost;
  if (c.userId !== undefined) out.userId = c.userId;
  return out;
}

class Reader {
  at = HEADER_SIZE;
  constructor(
    readonly bytes: Uint8Array,
    readonly dv: DataView,
    readonly source: string,
  ) {}
  fail(at: number, what: string): never {
    throw new MeshwayError("INVALID_INPUT", `${this.source}: ${what} at byte ${at}`);
  }
  /**
   * The next block, which must carry `tag`, decoded (decompressed, unpacked) when stored so;
   * always a fresh array (the loaded cache owns its memory).
   */
  block(tag: number, what: string): { at: number; bytes: Uint8Array } {
    const at = this.at;
    if (at + BLOCK_HEADER > this.bytes.length) this.fail(at, `truncated: ${what} is missing`);
    const len = this.dv.getUint32(at, true);
    const got = this.dv.getUint32(at + 4, true);
    const decoded = this.dv.getUint32(at + 8, true);
    if (got !== tag) this.fail(at + 4, `expected the ${what} block`);
    if (this.dv.getUint32(at + 12, true) !== 0)
      this.fail(at + 12, `${what}: reserved field is not 0`);
    const end = at + BLOCK_HEADER + Math.ceil(len / 8) * 8;
    if (end > this.bytes.length)
      this.fail(at, `${what} (${len} bytes) runs past the end of the file`);
    this.at = end;
    const start = at + BLOCK_HEADER;
    const bytes = this.bytes.subarray(start, start + len);
    if (decoded === 0) return { at: start, bytes: bytes.slice() }; // owned, aligned
    if (decoded > MAX_EXPANSION * len + 64) {
      this.fail(at + 8, `${what}: decoded size ${decoded} is impossible for ${len} stored bytes`);
    }
    return { at: start, bytes: lzDecompress(bytes, decoded, `${this.source}: ${what}`, start) };
  }
}

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Stored navmesh parameters, checked (positive sizes, the config's corner count), or null. */
function checkParams(v: unknown, nvp: number): NavMeshParams | null {
  if (!isRecord(v) || !isVec3(v.origin) || v.maxVertsPerPoly !== nvp) return null;
  const positive = ["tileWidth", "tileDepth", "cellSize", "cellHeight"] as const;
  const nonNegative = ["agentHeight", "agentRadius", "agentMaxClimb"] as const;
  for (const k of positive) if (!isFiniteNumber(v[k]) || !(v[k] > 0)) return null;
  for (const k of nonNegative) if (!isFiniteNumber(v[k]) || !(v[k] >= 0)) return null;
  return {
    origin: [v.origin[0], v.origin[1], v.origin[2]],
    tileWidth: v.tileWidth as number,
    tileDepth: v.tileDepth as number,
    cellSize: v.cellSize as number,
    cellHeight: v.cellHeight as number,
    maxVertsPerPoly: nvp,
    agentHeight: v.agentHeight as number,
    agentRadius: v.agentRadius as number,
    agentMaxClimb: v.agentMaxClimb as number,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isCount = (v: unknown, max = 2 ** 31): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max;

function isVec3(v: unknown): v is Vec3 {
  return (
    Array.isArray(v) &&
    v.length === 3 &&
    v.every((x) => typeof x === "number" && Number.isFinite(x))
  );
}

/**
 * Reads a file written by {@link encodeTileCache}. Every count, index, id and size is checked
 * against the rest of the file before use; errors are MeshwayError("INVALID_INPUT") naming
 * `source` and the byte offset (checksums included: "corrupted: … checksum").
 */
export function decodeTileCache(bytes: Uint8Array, source = "tile cache"): TileCacheState {
  if (!(bytes instanceof Uint8Array)) {
    throw new MeshwayError("INVALID_ARGUMENT", "TileCache.deserialize expects a Uint8Array");
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r: Reader = new Reader(bytes, dv, source);
  if (bytes.length < HEADER_SIZE)
    r.fail(bytes.length, `truncated: the header needs ${HEADER_SIZE} bytes`);
  for (let i = 0; i < 4; i++) {
    if (bytes[i] !== MAGIC[i]) r.fail(0, "not a meshway tile cache file (magic 'MWTC')");
  }
  const version = dv.getUint32(4, true);
  if (version === 1 || version === 2) {
    const what =
      version === 1
        ? "one tile per column, before heightfield layers"
        : "LZ-compressed heightfields, before the range-coded tiles";
    r.fail(
      4,
      `format version ${version} (${what}); this reader knows version ${TILE_CACHE_FORMAT_VERSION}: build the cache again and save it`,
    );
  }
  if (version !== TILE_CACHE_FORMAT_VERSION) {
    r.fail(4, `format version ${version}, this reader knows ${TILE_CACHE_FORMAT_VERSION}`);
  }
  if (crc32(bytes, 0, 28) !== dv.getUint32(28, true))
    r.fail(28, "corrupted: header checksum mismatch");
  const payload = dv.getUint32(8, true) + dv.getUint32(12, true) * 2 ** 32;
  if (payload !== bytes.length - HEADER_SIZE) {
    r.fail(8, `payload length ${payload}, the file holds ${bytes.length - HEADER_SIZE}`);
  }
  if (dv.getUint32(20, true) !== 0 || dv.getUint32(24, true) !== 0) r.fail(20, "unknown flags");
  if (crc32(bytes, HEADER_SIZE, bytes.length) !== dv.getUint32(16, true)) {
    r.fail(16, "corrupted: payload checksum mismatch");
  }

  const metaBlock = r.block(TAG.meta, "metadata");
  let meta: unknown;
  try {
    meta = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(metaBlock.bytes));
  } catch {
    r.fail(metaBlock.at, "metadata is not valid JSON");
  }
  const m = metaBlock.at;
  if (!isRecord(meta)) r.fail(m, "metadata is not an object");
  let config: ResolvedConfig;
  try {
    config = resolveConfig(meta.config as BuildConfig);
  } catch (e) {
    r.fail(m, `stored config: ${(e as Error).message}`);
  }
  const grid = meta.grid;
  if (
    !isRecord(grid) ||
    !isVec3(grid.bmin) ||
    !isVec3(grid.bmax) ||
    grid.tileSize !== config.tileSize ||
    !isCount(grid.tilesX, 1 << 22) ||
    !isCount(grid.tilesZ, 1 << 22) ||
    grid.tilesX * grid.tilesZ > 1 << 22 ||
    typeof grid.tileWorld !== "number" ||
    Math.abs(grid.tileWorld - config.tileSize * config.cellSize) >
      1e-9 * Math.max(1, grid.tileWorld)
  ) {
    r.fail(m, "stored tile grid does not match the config");
  }
  const tileGrid = grid as unknown as TileGrid;
  const n = tileGrid.tilesX * tileGrid.tilesZ;
  const { nextObstacleId, nextVolumeId } = meta;
  if (
    !isCount(nextObstacleId, Number.MAX_SAFE_INTEGER) ||
    !isCount(nextVolumeId, Number.MAX_SAFE_INTEGER) ||
    nextObstacleId < 1 ||
    nextVolumeId < 1
  ) {
    r.fail(m, "stored id counters are not positive integers");
  }
  const entries = <T>(
    list: unknown,
    what: string,
    next: number,
    check: (v: T, where: string) => T,
  ): [number, T][] => {
    if (!Array.isArray(list)) r.fail(m, `stored ${what}s are not a list`);
    const out: [number, T][] = [];
    let last = 0;
    for (const item of list) {
      if (
        !Array.isArray(item) ||
        item.length !== 2 ||
        !isCount(item[0], Number.MAX_SAFE_INTEGER) ||
        item[0] <= last ||
        item[0] >= next
      ) {
        r.fail(m, `stored ${what} ids must ascend below the next id ${next}`);
      }
      last = item[0];
      try {
        out.push([item[0], check(item[1] as T, `stored ${what} ${item[0]}`)]);
      } catch (e) {
        r.fail(m, (e as Error).message);
      }
    }
    return out;
  };
  const obstacles = entries<ObstacleShape>(
    meta.obstacles,
    "obstacle",
    nextObstacleId,
    validateObstacleShape,
  );
  const volumes = entries<AreaVolume>(
    meta.volumes,
    "area volume",
    nextVolumeId,
    validateAreaVolume,
  );

  const nm = meta.navMesh;
  if (!isRecord(nm) || !isCount(nm.tiles, 1 << 26) || !Array.isArray(nm.offMesh)) {
    r.fail(m, "stored navmesh record is not {params, offMesh, tiles}");
  }
  const params = checkParams(nm.params, config.vertsPerPoly);
  if (!params) r.fail(m, "stored navmesh parameters are not finite or do not match the config");
  const offMesh: OffMeshConnection[] = [];
  for (const c of nm.offMesh as unknown[]) {
    if (!isRecord(c)) r.fail(m, "a stored off-mesh connection is not an object");
    offMesh.push(c as unknown as OffMeshConnection);
  }
  const live: (NavMeshTile | undefined)[] = new Array(nm.tiles);
  if (!Array.isArray(meta.tiles)) r.fail(m, "stored tiles are not a list");
  const tiles: (TileCacheFileTile | null)[] = new Array(n).fill(null);
  const usedLive = new Set<number>();
  const shape = tileShape(config, tileGrid);
  let lastT = -1;
  for (const rec of meta.tiles as unknown[]) {
    if (
      !Array.isArray(rec) ||
      rec.length !== 3 ||
      !isCount(rec[0]) ||
      !isCount(rec[1], TILE_BITS) ||
      !Array.isArray(rec[2])
    ) {
      r.fail(m, "a stored tile record is not [tile, bits, layers]");
    }
    const [t, bits, layerRecs] = rec as [number, number, unknown[]];
    if (t <= lastT || t >= n)
      r.fail(m, `stored tile ${t} is out of order or outside the ${n}-tile grid`);
    lastT = t;
    const recs = layerRecs.map((lr, k) => {
      if (!Array.isArray(lr) || lr.length !== 2 || !isCount(lr[0]) || !isCount(lr[1], LAYER_BITS)) {
        r.fail(m, `stored tile ${t} layer ${k} is not [navmesh tile, bits]`);
      }
      const [liveIndex, lb] = lr as [number, number];
      if (liveIndex >= live.length || usedLive.has(liveIndex)) {
        r.fail(
          m,
          `stored tile ${t} layer ${k} names navmesh tile ${liveIndex}, used already or not below ${live.length}`,
        );
      }
      usedLive.add(liveIndex);
      return { liveIndex, lb };
    });
    const tb = r.block(TAG.tile, `tile ${t}`);
    const navLength =
      tb.bytes.length >= 4
        ? new DataView(tb.bytes.buffer, tb.bytes.byteOffset, 4).getUint32(0, true)
        : -1;
    if (navLength < 0 || 4 + navLength > tb.bytes.length) {
      r.fail(tb.at, `tile ${t}: navmesh stream length runs past its block`);
    }
    const navBytes = tb.bytes.subarray(4, 4 + navLength);
    const hfBytes = tb.bytes.subarray(4 + navLength);
    const hfAt = tb.at + 4 + navLength;
    const sh = shape(t);
    const header = readCachedTileHeader(hfBytes, sh, (at, what) =>
      r.fail(hfAt + at, `tile ${t} heightfield: ${what}`),
    );
    if (recs.length !== header.layerCount) {
      r.fail(m, `stored tile ${t} has ${recs.length} layers, its heightfield ${header.layerCount}`);
    }
    if (((bits & BIT_TILE_AREAS) !== 0) !== header.hasAreas) {
      r.fail(
        hfAt,
        `tile ${t} heightfield: tile areas ${header.hasAreas ? "stored" : "missing"}, its record says otherwise`,
      );
    }
    // The layers' navmesh tiles, each with its kept restore tile, now (queries need them).
    const reader = new NavTileReader(
      new RangeDecoder(navBytes),
      NAV_ITEMS_PER_BYTE * (navLength + 8),
    );
    const nav = navContext(config, tileGrid, t, header.bmin, header.bmax);
    const restoreTiles: NavMeshTile[] = [];
    recs.forEach(({ liveIndex, lb }, k) => {
      const fail = (_at: number, what: string) =>
        r.fail(tb.at + 4, `tile ${t} layer ${k} navmesh tile: ${what}`);
      live[liveIndex] = reader.read(nav, fail);
      if (lb & BIT_RESTORE) restoreTiles[k] = reader.read(nav, fail);
    });
    if (reader.overran()) r.fail(tb.at + 4 + navLength, `tile ${t}: navmesh stream is cut short`);
    // The heightfield when the cache first needs it (decoding it cannot fail; see
    // decodeCachedTile), unless a check below needs its layer grids now.
    let loaded: LoadedTileCacheTile | undefined;
    const load = (): LoadedTileCacheTile => {
      if (!loaded) {
        const d = decodeCachedTile(hfBytes, header, sh);
        loaded = {
          chf: d.chf,
          eroded: d.eroded,
          grids: cachedLayersOf(d.chf, d),
          tileAreas: d.areas,
        };
      }
      return loaded;
    };
    // Layer areas hold, on ghost spans (another layer's), 0 or WALKABLE_GHOST.
    const spans = (tag: number, what: string, count: number, ghost?: Uint8Array): Uint8Array => {
      const b = r.block(tag, `tile ${t} ${what}`);
      if (b.bytes.length !== count) {
        r.fail(b.at, `tile ${t} ${what} has ${b.bytes.length} entries, expected ${count}`);
      }
      for (let i = 0; i < b.bytes.length; i++) {
        const a = b.bytes[i]!;
        if (ghost?.[i] === 1) {
          if (a !== 0 && a !== WALKABLE_GHOST) {
            r.fail(
              b.at + i,
              `tile ${t} ${what}: ghost span entry ${a} is not 0 or ${WALKABLE_GHOST}`,
            );
          }
        } else if (a > 63) r.fail(b.at + i, `tile ${t} ${what}: area ${a} is not 0..63`);
      }
      return b.bytes;
    };
    const entry: TileCacheFileTile = { dirty: (bits & BIT_DIRTY) !== 0, layers: [], load };
    recs.forEach(({ liveIndex, lb }, k) => {
      const layer: TileCacheFileLayer = { liveIndex, areas: null };
      const grid = () => load().grids[k]!.grid;
      if (lb & BIT_AREAS) {
        if (header.hasAreas) layer.fromTileAreas = true;
        else layer.areas = spans(TAG.area, `layer ${k} areas`, grid().source.length, grid().ghost);
      }
      if (lb & BIT_RESTORE) {
        const areas = spans(
          TAG.rsta,
          `layer ${k} restore areas`,
          grid().source.length,
          grid().ghost,
        );
        layer.restore = { areas, tile: restoreTiles[k]! };
      }
      if (lb & BIT_OBSTACLE_FREE_KNOWN) layer.obstacleFree = (lb & BIT_OBSTACLE_FREE) !== 0;
      entry.layers.push(layer);
    });
    tiles[t] = entry;
  }
  if (usedLive.size !== live.length) {
    r.fail(m, `the navmesh has ${live.length} tiles, the cache names ${usedLive.size}`);
  }
  if (r.at !== bytes.length)
    r.fail(r.at, `${bytes.length - r.at} unexpected bytes after the last block`);
  // As deserializeNavMesh puts a navmesh together: tiles in slot order, then the connections.
  const navMesh = new NavMesh(params);
  live.forEach((tile, i) => {
    try {
      navMesh.addTile(tile!);
    } catch (e) {
      if (e instanceof MeshwayError) r.fail(m, `navmesh tile ${i}: ${e.message}`);
      throw e;
    }
  });
  offMesh.forEach((c, i) => {
    try {
      navMesh.addOffMeshConnection(c);
    } catch (e) {
      if (e instanceof MeshwayError) r.fail(m, `stored off-mesh connection ${i}: ${e.message}`);
      throw e;
    }
  });
  return {
    navMesh,
    grid: tileGrid,
    config,
    tiles,
    obstacles,
    volumes,
    nextObstacleId,
    nextVolumeId,
  };
}
