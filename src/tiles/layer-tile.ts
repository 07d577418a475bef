import type { ResolvedConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { BuildContext } from "../generate/context.js";
import { buildContours } from "../generate/contours.js";
import { buildPolyMeshDetail } from "../generate/detail.js";
import { createNavMeshTile } from "../generate/nav-mesh-tile.js";
import { partitionRegions } from "../generate/partition.js";
import { buildPolyMesh } from "../generate/polymesh.js";
import {
  AREA_BORDER,
  BORDER_REGION,
  BORDER_VERTEX,
  CONTOUR_REG_MASK,
  type Contour,
  type ContourSet,
  MESH_NULL_INDEX,
  PORTAL_FLAG,
  type PolyMesh,
} from "../generate/types.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import type { LayerGrid } from "./layer-grid.js";

/*
 * A layer's navmesh tile: the solo pipeline's mesh stage (regions → contours → polygons →
 * detail, the agent radius already eroded into `areas`) on the layer grid, with layer portals.
 * Where the layer's spans link to a ghost (a span of another layer of the tile), the outline
 * must meet the other layer's outline edge for edge, so the two link at run time. As in
 * Detour's tile-cache contours (dtBuildTileCacheContours, Mononen), the portal stretches keep
 * every corner of the cell staircase: the ghosts get one region id of their own, so each
 * portal run starts and ends at a mandatory vertex, and the run between is put back from the
 * raw outline. Polygon edges lying on such a run are then marked as portals facing the ghost's
 * direction (PORTAL_FLAG | dir, what a tile-border edge carries), which NavMesh.addTile links
 * with the matching edge of the other layer tile at the same tile coordinates.
 */

/** Navmesh tile of layer `grid` at (tx, tz) from its span `areas` (ghosts 0); null when empty. */
export function buildLayerTile(
  grid: LayerGrid,
  areas: Uint8Array,
  cfg: ResolvedConfig,
  tx: number,
  tz: number,
  ctx: BuildContext = new BuildContext(),
): NavMeshTile | null {
  let walkable = false;
  for (let i = 0; i < areas.length; i++) {
    if (areas[i] !== 0) {
      walkable = true;
      break;
    }
  }
  if (!walkable) return null;
  const chf = { ...grid.chf, areas };
  const { regions } = partitionRegions(chf, cfg, chf.borderSize, false, ctx);
  const ghostRegion = regions.regionCount + 1;
  if (ghostRegion >= BORDER_REGION) {
    throw new MeshwayError("GRID_TOO_LARGE", `tile (${tx}, ${tz}): too many regions in a layer`);
  }
  const spanRegion = regions.spanRegion;
  for (let s = 0; s < spanRegion.length; s++) if (grid.ghost[s] === 1) spanRegion[s] = ghostRegion;
  const cset = buildContours(
    chf,
    regions,
    cfg.edgeMaxErrorVoxels,
    cfg.edgeMaxLenVoxels,
    undefined,
    ctx,
  );
  keepPortalStairs(cset, ghostRegion);
  if (cset.contours.length === 0) return null;
  const polyMesh = buildPolyMesh(cset, cfg.vertsPerPoly, ctx);
  if (polyMesh.polyCount === 0) return null;
  markLayerPortals(polyMesh, grid);
  const detail = buildPolyMeshDetail(
    polyMesh,
    chf,
    regions,
    cfg.detailSampleDistWorld,
    cfg.detailSampleMaxErrorWorld,
    ctx,
  );
  return createNavMeshTile(polyMesh, detail, tx, tz);
}

/**
 * Drops the ghosts' own contours and, in every other contour, replaces each simplified edge
 * facing the ghosts by the raw outline's corners between its ends.
 */
function keepPortalStairs(cset: ContourSet, ghostRegion: number): void {
  const kept = cset.contours.filter((c) => c.region !== ghostRegion);
  cset.contours = kept;
  // Outlines and their merged holes (empty verts, raw kept) per region.
  const byRegion = new Map<number, Contour[]>();
  for (const c of kept) {
    const list = byRegion.get(c.region);
    if (list) list.push(c);
    else byRegion.set(c.region, [c]);
  }
  for (const c of kept) {
    const v = c.verts;
    const m = v.length >> 2;
    if (m < 3) continue;
    let hasPortal = false;
    for (let i = 0; i < m; i++) {
      if ((v[i * 4 + 3]! & CONTOUR_REG_MASK) === ghostRegion) {
        hasPortal = true;
        break;
      }
    }
    if (!hasPortal) continue;
    const out: number[] = [];
    const same = byRegion.get(c.region)!;
    for (let i = 0; i < m; i++) {
      const o = i * 4;
      out.push(v[o]!, v[o + 1]!, v[o + 2]!, v[o + 3]!);
      if ((v[o + 3]! & CONTOUR_REG_MASK) !== ghostRegion) continue;
      const j = (i + 1) % m;
      appendRawRun(same, v[o]!, v[o + 2]!, v[j * 4]!, v[j * 4 + 2]!, ghostRegion, out);
    }
    c.verts = Int32Array.from(out);
  }
}

/**
 * Appends the raw corners strictly between (ax, az) and (bx, bz) along the run of raw edges
 * facing the ghosts that starts at (ax, az), as simplified vertices (the 4th component: the
 * next raw edge's neighbour and area-border bit, and this corner's border-vertex bit).
 */
function appendRawRun(
  contours: Contour[],
  ax: number,
  az: number,
  bx: number,
  bz: number,
  ghostRegion: number,
  out: number[],
): void {
  for (const c of contours) {
    const r = c.rawVerts;
    const n = r.length >> 2;
    for (let k = 0; k < n; k++) {
      if (r[k * 4] !== ax || r[k * 4 + 2] !== az) continue;
      const k1 = (k + 1) % n;
      // Raw vertex k1's 4th component describes the edge k → k1.
      if ((r[k1 * 4 + 3]! & CONTOUR_REG_MASK) !== ghostRegion) continue;
      for (let step = 1; step < n; step++) {
        const j = (k + step) % n;
        if (r[j * 4] === bx && r[j * 4 + 2] === bz) return;
        const jn = (j + 1) % n;
        out.push(
          r[j * 4]!,
          r[j * 4 + 1]!,
          r[j * 4 + 2]!,
          (r[jn * 4 + 3]! & (CONTOUR_REG_MASK | AREA_BORDER)) | (r[j * 4 + 3]! & BORDER_VERTEX),
        );
      }
      return;
    }
  }
}

/**
 * Marks unlinked polygon edges that lie along the layer's links to ghosts (every cell edge of
 * the segment, on the side of the polygon's layer) as portals in that direction.
 */
function markLayerPortals(pm: PolyMesh, grid: LayerGrid): void {
  const nvp = pm.maxVertsPerPoly;
  const b = pm.borderSize;
  const w = grid.chf.width;
  const dirs = grid.portalDirs;
  const verts = pm.verts;
  const polys = pm.polys;
  // Does every cell edge of the run carry portal bit `d` on column (x, z) (grid coords)?
  const along = (x0: number, z0: number, dx: number, dz: number, len: number, d: number) => {
    for (let k = 0; k < len; k++) {
      const x = x0 + dx * k + b;
      const z = z0 + dz * k + b;
      if (x < 0 || z < 0 || x >= w || z >= grid.chf.depth) return false;
      if ((dirs[x + z * w]! & (1 << d)) === 0) return false;
    }
    return true;
  };
  for (let p = 0; p < pm.polyCount; p++) {
    const base = p * nvp * 2;
    let count = 0;
    while (count < nvp && polys[base + count] !== MESH_NULL_INDEX) count++;
    for (let e = 0; e < count; e++) {
      if (polys[base + nvp + e] !== MESH_NULL_INDEX) continue;
      const va = polys[base + e]! * 3;
      const vb = polys[base + (e + 1 === count ? 0 : e + 1)]! * 3;
      const x0 = verts[va]!;
      const z0 = verts[va + 2]!;
      const x1 = verts[vb]!;
      const z1 = verts[vb + 2]!;
      let dir = -1;
      if (x0 === x1 && z0 !== z1) {
        const lo = Math.min(z0, z1);
        const len = Math.abs(z1 - z0);
        if (along(x0 - 1, lo, 0, 1, len, 2)) dir = 2;
        else if (along(x0, lo, 0, 1, len, 0)) dir = 0;
      } else if (z0 === z1 && x0 !== x1) {
        const lo = Math.min(x0, x1);
        const len = Math.abs(x1 - x0);
        if (along(lo, z0 - 1, 1, 0, len, 1)) dir = 1;
        else if (along(lo, z0, 1, 0, len, 3)) dir = 3;
      }
      if (dir >= 0) polys[base + nvp + e] = (PORTAL_FLAG | dir) >>> 0;
    }
  }
}
