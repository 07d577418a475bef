import type { ResolvedConfig } from "../config.js";
import type { Vec3 } from "../math/vec3.js";
import type { NavMeshParams } from "../navmesh/nav-mesh.js";

/**
 * The navmesh parameters a build with `cfg` records: tiles of `tileWidth × tileDepth` world
 * units from `origin` (copied), with the config's cell sizes, polygon size and agent.
 */
export function navMeshParams(
  cfg: ResolvedConfig,
  origin: Readonly<Vec3>,
  tileWidth: number,
  tileDepth: number,
): NavMeshParams {
  return {
    origin: [origin[0], origin[1], origin[2]],
    tileWidth,
    tileDepth,
    cellSize: cfg.cellSize,
    cellHeight: cfg.cellHeight,
    maxVertsPerPoly: cfg.vertsPerPoly,
    agentHeight: cfg.agentHeight,
    agentRadius: cfg.agentRadius,
    agentMaxClimb: cfg.agentMaxClimb,
  };
}
