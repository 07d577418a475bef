// Types of generator-config.js (the config mapping shared by the benches and the tests).
import type { ResolvedConfig } from "../src/config.js";

/** recast-navigation's generator config (RecastDemo's units). */
export interface RecastGeneratorConfig {
  cs: number;
  ch: number;
  walkableSlopeAngle: number;
  walkableHeight: number;
  walkableClimb: number;
  walkableRadius: number;
  maxEdgeLen: number;
  maxSimplificationError: number;
  minRegionArea: number;
  mergeRegionArea: number;
  maxVertsPerPoly: number;
  detailSampleDist: number;
  detailSampleMaxError: number;
}

export function recastGeneratorConfig(cfg: ResolvedConfig): RecastGeneratorConfig;

/** navcat/blocks generateSoloNavMesh options. */
export function navcatGeneratorOptions(cfg: ResolvedConfig): Record<string, number>;
