import type { Partition, ResolvedConfig } from "../config.js";
import type { BuildContext } from "./context.js";
import { buildDistanceField } from "./distance-field.js";
import { buildRegionsLayers } from "./regions-layers.js";
import { buildRegionsMonotone } from "./regions-monotone.js";
import { buildRegionsWatershed } from "./regions-watershed.js";
import type { CompactHeightfield, DistanceField, Regions } from "./types.js";

/**
 * One region partition method, for a solo build or a tile (`borderSize` voxels of border).
 * `distanceField` is the watershed's input when `keepDistanceField` (null otherwise and for
 * the other partitions, so the caller holds no reference to it through the later stages).
 */
export type PartitionRegions = (
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  borderSize: number,
  keepDistanceField: boolean,
  ctx?: BuildContext,
) => { regions: Regions; distanceField: DistanceField | null };

/** The partition methods a build may use, by the name `cfg.partition` gives. */
export type PartitionTable = Readonly<Partial<Record<Partition, PartitionRegions>>>;

// One function per method, so a bundle that only names one carries only that one
// (buildNavMeshCore; issue 17).

/** rcBuildDistanceField + rcBuildRegions: watershed over the distance to the border. */
export const partitionWatershed: PartitionRegions = (chf, cfg, borderSize, keep, ctx) => {
  const distanceField = buildDistanceField(chf, ctx?.scratch);
  const regions = buildRegionsWatershed(
    chf,
    distanceField,
    borderSize,
    cfg.minRegionAreaCells,
    cfg.mergeRegionAreaCells,
    ctx,
  );
  return { regions, distanceField: keep ? distanceField : null };
};

/** rcBuildRegionsMonotone. */
export const partitionMonotone: PartitionRegions = (chf, cfg, borderSize, _keep, ctx) => ({
  regions: buildRegionsMonotone(
    chf,
    borderSize,
    cfg.minRegionAreaCells,
    cfg.mergeRegionAreaCells,
    ctx,
  ),
  distanceField: null,
});

/** rcBuildLayerRegions. */
export const partitionLayers: PartitionRegions = (chf, cfg, borderSize, _keep, ctx) => ({
  regions: buildRegionsLayers(chf, borderSize, cfg.minRegionAreaCells, ctx),
  distanceField: null,
});

/** Every partition method. */
export const ALL_PARTITIONS: PartitionTable = {
  watershed: partitionWatershed,
  monotone: partitionMonotone,
  layers: partitionLayers,
};

/** The region stage with the partition `cfg.partition` names (any of the three). */
export const partitionRegions: PartitionRegions = (chf, cfg, borderSize, keep, ctx) =>
  ALL_PARTITIONS[cfg.partition]!(chf, cfg, borderSize, keep, ctx);
