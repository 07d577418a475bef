import type { ResolvedConfig } from "../config.js";
import type { BuildContext } from "./context.js";
import { buildDistanceField } from "./distance-field.js";
import { buildRegionsLayers } from "./regions-layers.js";
import { buildRegionsMonotone } from "./regions-monotone.js";
import { buildRegionsWatershed } from "./regions-watershed.js";
import type { CompactHeightfield, DistanceField, Regions } from "./types.js";

/**
 * The region stage with the partition `cfg.partition` names, for a solo build or a tile
 * (`borderSize` voxels of border). `distanceField` is the watershed's input when
 * `keepDistanceField` (null otherwise and for the other partitions, so the caller holds no
 * reference to it through the later stages).
 */
export function partitionRegions(
  chf: CompactHeightfield,
  cfg: ResolvedConfig,
  borderSize: number,
  keepDistanceField: boolean,
  ctx?: BuildContext,
): { regions: Regions; distanceField: DistanceField | null } {
  if (cfg.partition === "monotone") {
    const regions = buildRegionsMonotone(
      chf,
      borderSize,
      cfg.minRegionAreaCells,
      cfg.mergeRegionAreaCells,
      ctx,
    );
    return { regions, distanceField: null };
  }
  if (cfg.partition === "layers") {
    const regions = buildRegionsLayers(chf, borderSize, cfg.minRegionAreaCells, ctx);
    return { regions, distanceField: null };
  }
  const distanceField = buildDistanceField(chf, ctx?.scratch);
  const regions = buildRegionsWatershed(
    chf,
    distanceField,
    borderSize,
    cfg.minRegionAreaCells,
    cfg.mergeRegionAreaCells,
    ctx,
  );
  return { regions, distanceField: keepDistanceField ? distanceField : null };
}
