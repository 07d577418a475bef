import { type BuildConfig, type ResolvedConfig, toBuildConfig } from "../config.js";
import { MeshwayError } from "../errors.js";
import { NavMesh, type NavMeshParams, type OffMeshConnection } from "../navmesh/nav-mesh.js";
import type { NavMeshTile } from "../navmesh/tile.js";
import { deserializeNavMesh, serializeNavMesh } from "./navmesh-file.js";

/** One piece of a world: a navmesh, the config it was built with (or null) and its name. */
export interface NavMeshPart {
  navMesh: NavMesh;
  config: Partial<BuildConfig> | ResolvedConfig | null;
  /** Name used in error messages (e.g. the file name); default "navmesh N". */
  source?: string;
}

const PARAM_KEYS = [
  "tileWidth",
  "tileDepth",
  "cellSize",
  "cellHeight",
  "maxVertsPerPoly",
  "agentHeight",
  "agentRadius",
  "agentMaxClimb",
] as const;

/** The first parameter in which `a` and `b` differ, as "name a vs b", or null. */
function paramClash(a: NavMeshParams, b: NavMeshParams): string | null {
  for (let k = 0; k < 3; k++) {
    if (!Object.is(a.origin[k], b.origin[k])) {
      return `grid origin ${"xyz"[k]} ${a.origin[k]} vs ${b.origin[k]} (built from different geometry?)`;
    }
  }
  for (const key of PARAM_KEYS) {
    if (!Object.is(a[key], b[key])) return `${key} ${a[key]} vs ${b[key]}`;
  }
  return null;
}

/** The first build option in which `a` and `b` differ, as "name a vs b", or null. */
function configClash(a: BuildConfig | null, b: BuildConfig | null): string | null {
  if (a === null || b === null) {
    return a === b
      ? null
      : `build config ${a ? "recorded" : "not recorded"} vs ${b ? "recorded" : "not recorded"}`;
  }
  for (const key of Object.keys(a) as (keyof BuildConfig)[]) {
    const va = JSON.stringify(a[key]);
    const vb = JSON.stringify(b[key]);
    if (va !== vb) return `config option "${key}" ${va} vs ${vb}`;
  }
  return null;
}

/**
 * Joins navmeshes built apart from one geometry and config (`buildTiledNavMesh` with
 * `tiles` ranges, `meshway build --tiles`) into one: the tiles of every part, added in (tz, tx)
 * order as the one-machine tiled build adds them, so `serializeNavMesh` of the result is
 * byte-identical to the whole build's file. Off-mesh connections are carried over in part
 * order. The parts must have equal parameters and configs and disjoint tile coordinates;
 * otherwise MeshwayError("INVALID_INPUT") names the two parts and the clash. The parts' tiles
 * are shared with the result (not copied): don't modify them afterwards.
 */
export function mergeNavMeshes(parts: readonly NavMeshPart[]): {
  navMesh: NavMesh;
  config: BuildConfig | null;
} {
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new MeshwayError("INVALID_ARGUMENT", "mergeNavMeshes needs at least one navmesh");
  }
  const name = (i: number) => parts[i]!.source ?? `navmesh ${i}`;
  const configs = parts.map((p, i) => {
    if (!(p?.navMesh instanceof NavMesh)) {
      throw new MeshwayError("INVALID_ARGUMENT", `mergeNavMeshes: ${name(i)} is not a NavMesh`);
    }
    return p.config == null ? null : toBuildConfig(p.config);
  });
  const first = parts[0]!.navMesh.params;
  for (let i = 1; i < parts.length; i++) {
    const clash =
      paramClash(first, parts[i]!.navMesh.params) ?? configClash(configs[0]!, configs[i]!);
    if (clash !== null) {
      throw new MeshwayError(
        "INVALID_INPUT",
        `${name(0)} and ${name(i)} cannot be merged: ${clash}; build every part with the same geometry, config and --tile-size`,
      );
    }
  }
  // Every tile with the part it came from; a coordinate may belong to one part only.
  const owner = new Map<string, number>();
  const tiles: { tile: NavMeshTile; part: number; order: number }[] = [];
  parts.forEach((p, i) => {
    for (const tile of p.navMesh.tiles) {
      const key = `${tile.tileX},${tile.tileZ}`;
      const had = owner.get(key);
      if (had !== undefined && had !== i) {
        throw new MeshwayError(
          "INVALID_INPUT",
          `${name(had)} and ${name(i)} cannot be merged: both hold tile (${tile.tileX}, ${tile.tileZ}); give each part a disjoint --tiles range`,
        );
      }
      owner.set(key, i);
      tiles.push({ tile, part: i, order: tiles.length });
    }
  });
  // The whole build's order: (tz, tx), layers of one coordinate in their part's order.
  tiles.sort(
    (a, b) => a.tile.tileZ - b.tile.tileZ || a.tile.tileX - b.tile.tileX || a.order - b.order,
  );
  const navMesh = new NavMesh({
    ...first,
    origin: [first.origin[0], first.origin[1], first.origin[2]],
  });
  for (const { tile } of tiles) navMesh.addTile(tile);
  for (const p of parts) {
    for (const ref of p.navMesh.offMeshConnectionRefs()) {
      const { start, end, radius, bidirectional, area, flags, cost, userId } =
        p.navMesh.offMeshConnection(ref)!;
      const con: OffMeshConnection = { start, end, radius, bidirectional, area, flags };
      if (cost !== undefined) con.cost = cost;
      if (userId !== undefined) con.userId = userId;
      navMesh.addOffMeshConnection(con);
    }
  }
  return { navMesh, config: configs[0]! };
}

/**
 * mergeNavMeshes over `.navmesh` file images: reads each (errors name `sources[i]`), merges
 * and writes the merged file image.
 */
export function mergeNavMeshFiles(
  files: readonly Uint8Array[],
  sources: readonly string[] = [],
): Uint8Array {
  const parts = files.map((bytes, i) => {
    const source = sources[i] ?? `navmesh ${i}`;
    const { navMesh, config } = deserializeNavMesh(bytes, source);
    return { navMesh, config, source };
  });
  const { navMesh, config } = mergeNavMeshes(parts);
  return serializeNavMesh(navMesh, config);
}
