import { loadNavMesh } from "../load.js";
import { parseCommandArgs, UsageError } from "../options.js";
import type { Io } from "../terminal.js";

export const INFO_HELP = `usage: meshway info <file.navmesh> [--json]

Describes a navmesh file: polygons, vertices, tiles, area, bounds, format version and the
build configuration it was made with.

examples:
  meshway info level.navmesh
  meshway info level.navmesh --json`;

export function infoCommand(args: string[], io: Io): number {
  const { positionals, flag } = parseCommandArgs(args, { json: { type: "boolean" } });
  if (flag("help")) {
    io.out(`${INFO_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError("info needs exactly one .navmesh file");
  const { navMesh, config, format, version } = loadNavMesh(positionals[0]!);
  let polygons = 0;
  let vertices = 0;
  // The tiles' coordinate rectangle: what `build --tiles x0:x1,z0:z1` takes.
  const coords = { x: [Infinity, -Infinity], z: [Infinity, -Infinity] };
  for (const t of navMesh.tiles) {
    polygons += t.polyCount;
    vertices += t.vertexCount;
    coords.x = [Math.min(coords.x[0]!, t.tileX), Math.max(coords.x[1]!, t.tileX)];
    coords.z = [Math.min(coords.z[0]!, t.tileZ), Math.max(coords.z[1]!, t.tileZ)];
  }
  const tileCoords = navMesh.tiles.length > 0 ? coords : null;
  const info = {
    polygons,
    vertices,
    tiles: navMesh.tiles.length,
    tileCoords,
    area: navMesh.area(),
    bounds: { min: [...navMesh.bmin], max: [...navMesh.bmax] },
    version,
    format,
    offMeshConnections: navMesh.offMeshConnectionRefs().length,
    config,
  };
  if (flag("json")) {
    io.out(`${JSON.stringify(info)}\n`);
    return 0;
  }
  const f = (v: number[]) => v.map((c) => c.toFixed(2)).join(", ");
  const lines = [
    `  format            ${format} version ${version}`,
    `  tiles             ${info.tiles}${tileCoords ? ` (x ${tileCoords.x.join(":")}, z ${tileCoords.z.join(":")})` : ""}`,
    `  polygons          ${polygons} (${vertices} vertices)`,
    `  area (XZ)         ${info.area.toFixed(2)}`,
    `  bounds            [${f(info.bounds.min)}] .. [${f(info.bounds.max)}]`,
    `  off-mesh links    ${info.offMeshConnections}`,
    `  build config      ${config ? JSON.stringify(config) : "(not recorded)"}`,
  ];
  io.out(`${positionals[0]}\n${lines.join("\n")}\n`);
  return 0;
}
