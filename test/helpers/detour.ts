/**
 * Detour navmeshes built with @recast-navigation (Recast + Detour compiled to WebAssembly), for
 * tests that compare meshway's runtime against Detour's. Stable API:
 *
 *   await initRecast();                                   // from test/helpers/recast.ts
 *   const d = buildDetourNavMesh(mesh, cfg);              // solo (one tile)
 *   const t = buildDetourNavMesh(mesh, cfg, { tileSize: 32 });   // tiled
 *   d.bytes          // exportNavMesh(d.navMesh): what importDetourNavMesh reads
 *   d.navMesh        // the Detour NavMesh (query it with recast-navigation's NavMeshQuery)
 *   d.polyMeshes     // Recast's poly mesh of every built tile, in meshway's layout
 *   readDetourTiles(d.navMesh)   // Detour's tiles as plain typed arrays, via the official getters
 *   d.free();
 *
 * The generators take meshway's resolved config the way RecastDemo does: agent sizes and edge
 * length in voxels, region sizes as the SIDE in cells (the generator squares them), detail sample
 * distance / max error in cells (the generator multiplies by cs / ch).
 */

import type * as DetourApi from "@recast-navigation/core/dist/detour.js";
import type * as NavMeshApi from "@recast-navigation/core/dist/nav-mesh.js";
import type * as ExportApi from "@recast-navigation/core/dist/serdes/export.js";
import * as generatorsModule from "@recast-navigation/generators";
import { recastGeneratorConfig } from "../../bench/generator-config.js";
import type { ResolvedConfig } from "../../src/config.js";
import type { PolyMesh } from "../../src/generate/types.js";
import type { TriangleMesh } from "../../src/input.js";
import { type RecastPolyMesh, recast, toMeshwayPolyMesh } from "./recast.js";

/** The parts of @recast-navigation/core used here, typed from the per-file declarations. */
const core = recast as unknown as typeof recast &
  typeof NavMeshApi &
  typeof ExportApi &
  typeof DetourApi;

export type DetourNavMesh = NavMeshApi.NavMesh;

/** An off-mesh connection as the generators take it. */
export interface DetourOffMeshConnectionParams {
  startPosition: { x: number; y: number; z: number };
  endPosition: { x: number; y: number; z: number };
  radius: number;
  bidirectional: boolean;
  area?: number;
  flags?: number;
  userId?: number;
}

// @recast-navigation/generators' index.d.ts is invisible to tsc under NodeNext (extension-less
// re-exports), so describe the two generator functions used here.
interface GeneratorIntermediates {
  buildContext?: { raw: unknown };
  polyMesh?: RecastPolyMesh;
  tileIntermediates?: { polyMesh?: RecastPolyMesh }[];
}
type GeneratorResult =
  | { success: true; navMesh: DetourNavMesh; intermediates: GeneratorIntermediates }
  | { success: false; error: string; intermediates: GeneratorIntermediates };
interface GeneratorsApi {
  generateSoloNavMesh(
    positions: ArrayLike<number>,
    indices: ArrayLike<number>,
    config: Record<string, unknown>,
    keepIntermediates: boolean,
  ): GeneratorResult;
  generateTiledNavMesh(
    positions: ArrayLike<number>,
    indices: ArrayLike<number>,
    config: Record<string, unknown>,
    keepIntermediates: boolean,
  ): GeneratorResult;
}
const generators = generatorsModule as unknown as GeneratorsApi;

export interface DetourBuildOptions {
  /** Build a tiled navmesh (generateTiledNavMesh) with tiles this many cells wide. */
  tileSize?: number;
  offMeshConnections?: DetourOffMeshConnectionParams[];
}

export interface DetourBuild {
  navMesh: DetourNavMesh;
  /** `exportNavMesh(navMesh)`: recast-navigation's set header followed by the Detour tiles. */
  bytes: Uint8Array;
  /** Recast's poly mesh of every tile that produced polygons, copied to meshway's layout. */
  polyMeshes: PolyMesh[];
  /** Destroys the Detour navmesh. Safe to call twice. */
  free(): void;
}

/** The generator config equivalent to meshway's resolved config (shared with the benches). */
export function generatorConfig(cfg: ResolvedConfig): Record<string, unknown> {
  return { ...recastGeneratorConfig(cfg) };
}

/**
 * Builds a Detour navmesh of `mesh` with Recast's pipeline (solo, or tiled when
 * `options.tileSize` is set) and exports it. Needs `await initRecast()` first.
 */
export function buildDetourNavMesh(
  mesh: TriangleMesh,
  cfg: ResolvedConfig,
  options: DetourBuildOptions = {},
): DetourBuild {
  const config: Record<string, unknown> = generatorConfig(cfg);
  if (options.offMeshConnections) config.offMeshConnections = options.offMeshConnections;
  const tiled = options.tileSize !== undefined;
  if (tiled) config.tileSize = options.tileSize;
  const result = tiled
    ? generators.generateTiledNavMesh(mesh.positions, mesh.indices, config, true)
    : generators.generateSoloNavMesh(mesh.positions, mesh.indices, config, true);
  const rcPolyMeshes: RecastPolyMesh[] = [];
  const im = result.intermediates;
  if (im.polyMesh) rcPolyMeshes.push(im.polyMesh);
  for (const t of im.tileIntermediates ?? []) if (t.polyMesh) rcPolyMeshes.push(t.polyMesh);
  const polyMeshes = rcPolyMeshes.map(toMeshwayPolyMesh).filter((p) => p.polyCount > 0);
  releaseIntermediates(im);
  if (!result.success) throw new Error(`Detour build failed: ${result.error}`);
  const navMesh = result.navMesh;
  const bytes = core.exportNavMesh(navMesh);
  let freed = false;
  return {
    navMesh,
    bytes,
    polyMeshes,
    free() {
      if (freed) return;
      freed = true;
      navMesh.destroy();
    },
  };
}

function releaseIntermediates(im: GeneratorIntermediates): void {
  const r = im as Record<string, unknown>;
  const tiles = (im.tileIntermediates ?? []) as Record<string, unknown>[];
  for (const rec of [r, ...tiles]) {
    if (rec.heightfield) recast.freeHeightfield(rec.heightfield as never);
    if (rec.compactHeightfield) recast.freeCompactHeightfield(rec.compactHeightfield as never);
    if (rec.contourSet) recast.freeContourSet(rec.contourSet as never);
    if (rec.polyMesh) recast.freePolyMesh(rec.polyMesh as never);
    if (rec.polyMeshDetail) recast.freePolyMeshDetail(rec.polyMeshDetail as never);
  }
  if (im.buildContext) recast.Raw.destroy(im.buildContext.raw as never);
}

/** One Detour tile read through @recast-navigation's getters (independent of any byte parsing). */
export interface DetourTileData {
  x: number;
  y: number;
  layer: number;
  bmin: [number, number, number];
  bmax: [number, number, number];
  /** All tile vertices (ground polygons first, then two per off-mesh connection). */
  verts: Float32Array;
  polyCount: number;
  /** Per polygon, 6 slots each. */
  polyVerts: Uint16Array;
  polyNeis: Uint16Array;
  polyVertCount: Uint8Array;
  polyFlags: Uint16Array;
  polyArea: Uint8Array;
  /** 0 = ground, 1 = off-mesh connection. */
  polyType: Uint8Array;
  /** Per ground polygon: vertBase, triBase, vertCount (extra vertices only), triCount. */
  detailMeshes: Uint32Array;
  /** Detour's detail vertices: only those that are not polygon vertices. */
  detailVerts: Float32Array;
  detailTris: Uint8Array;
  offMeshBase: number;
  offMeshConCount: number;
  /** Per connection: start xyz, end xyz, radius, flags (1 = bidirectional), poly, userId. */
  offMeshCons: Float64Array;
  bvQuantFactor: number;
  walkableHeight: number;
  walkableRadius: number;
  walkableClimb: number;
}

const DT_VERTS_PER_POLYGON = 6;

/** Reads every live tile of a Detour navmesh, in tile-index order. */
export function readDetourTiles(navMesh: DetourNavMesh): DetourTileData[] {
  const out: DetourTileData[] = [];
  for (let i = 0; i < navMesh.getMaxTiles(); i++) {
    const tile = navMesh.getTile(i);
    const h = tile.header();
    if (!h || tile.dataSize() === 0) continue;
    const polyCount = h.polyCount();
    const vertCount = h.vertCount();
    const verts = new Float32Array(vertCount * 3);
    for (let k = 0; k < vertCount * 3; k++) verts[k] = tile.verts(k);
    const d: DetourTileData = {
      x: h.x(),
      y: h.y(),
      layer: h.layer(),
      bmin: [h.bmin(0), h.bmin(1), h.bmin(2)],
      bmax: [h.bmax(0), h.bmax(1), h.bmax(2)],
      verts,
      polyCount,
      polyVerts: new Uint16Array(polyCount * DT_VERTS_PER_POLYGON),
      polyNeis: new Uint16Array(polyCount * DT_VERTS_PER_POLYGON),
      polyVertCount: new Uint8Array(polyCount),
      polyFlags: new Uint16Array(polyCount),
      polyArea: new Uint8Array(polyCount),
      polyType: new Uint8Array(polyCount),
      detailMeshes: new Uint32Array(h.detailMeshCount() * 4),
      detailVerts: new Float32Array(h.detailVertCount() * 3),
      detailTris: new Uint8Array(h.detailTriCount() * 4),
      offMeshBase: h.offMeshBase(),
      offMeshConCount: h.offMeshConCount(),
      offMeshCons: new Float64Array(h.offMeshConCount() * 10),
      bvQuantFactor: h.bvQuantFactor(),
      walkableHeight: h.walkableHeight(),
      walkableRadius: h.walkableRadius(),
      walkableClimb: h.walkableClimb(),
    };
    for (let p = 0; p < polyCount; p++) {
      const poly = tile.polys(p);
      d.polyVertCount[p] = poly.vertCount();
      d.polyFlags[p] = poly.flags();
      d.polyArea[p] = poly.areaAndType() & 0x3f;
      d.polyType[p] = poly.getType();
      for (let j = 0; j < DT_VERTS_PER_POLYGON; j++) {
        d.polyVerts[p * DT_VERTS_PER_POLYGON + j] = poly.verts(j);
        d.polyNeis[p * DT_VERTS_PER_POLYGON + j] = poly.neis(j);
      }
    }
    for (let m = 0; m < h.detailMeshCount(); m++) {
      const pd = tile.detailMeshes(m);
      d.detailMeshes.set([pd.vertBase(), pd.triBase(), pd.vertCount(), pd.triCount()], m * 4);
    }
    for (let k = 0; k < d.detailVerts.length; k++) d.detailVerts[k] = tile.detailVerts(k);
    for (let k = 0; k < d.detailTris.length; k++) d.detailTris[k] = tile.detailTris(k);
    for (let c = 0; c < h.offMeshConCount(); c++) {
      const con = tile.offMeshCons(c);
      const o = c * 10;
      for (let k = 0; k < 6; k++) d.offMeshCons[o + k] = con.pos(k);
      d.offMeshCons[o + 6] = con.rad();
      d.offMeshCons[o + 7] = con.flags();
      d.offMeshCons[o + 8] = con.poly();
      d.offMeshCons[o + 9] = con.userId();
    }
    out.push(d);
  }
  return out;
}

/** Sum of a Recast poly mesh's polygon areas projected on XZ, world units. */
export function polyMeshAreaXZ(pmesh: PolyMesh): number {
  const nvp = pmesh.maxVertsPerPoly;
  const cs = pmesh.cellSize;
  let total = 0;
  for (let p = 0; p < pmesh.polyCount; p++) {
    const base = p * 2 * nvp;
    let n = 0;
    while (n < nvp && pmesh.polys[base + n] !== 0xffffffff) n++;
    let twice = 0;
    for (let i = 0; i < n; i++) {
      const a = pmesh.polys[base + i]! * 3;
      const b = pmesh.polys[base + ((i + 1) % n)]! * 3;
      twice += pmesh.verts[a]! * pmesh.verts[b + 2]! - pmesh.verts[b]! * pmesh.verts[a + 2]!;
    }
    total += (Math.abs(twice) / 2) * cs * cs;
  }
  return total;
}
