import { MeshwayError } from "./errors.js";

/** How walkable spans are grouped into regions before contouring. */
export type Partition = "watershed" | "monotone" | "layers";

/**
 * Build settings as users think of them: world units (metres, if your world is in metres)
 * unless the name or doc says otherwise. Voxel values are derived from these in exactly one
 * place, {@link resolveConfig}; stages only ever see the resolved, unit-suffixed values.
 */
export interface BuildConfig {
  /** Voxel width and depth on XZ. [world units, > 0] */
  cellSize: number;
  /** Voxel height on Y. [world units, > 0] */
  cellHeight: number;
  /** Clearance the agent needs above the floor. [world units, > 0] */
  agentHeight: number;
  /** Agent radius; walls are pushed back by this much. [world units, >= 0] */
  agentRadius: number;
  /** Largest step the agent climbs. [world units, >= 0] */
  agentMaxClimb: number;
  /** Steepest walkable slope. [degrees, 0..90] */
  agentMaxSlope: number;
  /** Regions smaller than regionMinSize² cells are dropped. [cells per side, >= 0] */
  regionMinSize: number;
  /** Regions smaller than regionMergeSize² cells are merged into neighbours when possible. [cells per side, >= 0] */
  regionMergeSize: number;
  /** Longest contour edge along a wall; 0 means unlimited. [world units, >= 0] */
  edgeMaxLen: number;
  /** Largest distance a simplified contour may stray from the raw one. [cell widths, >= 0] */
  edgeMaxError: number;
  /** Most vertices per polygon. [3..12] */
  vertsPerPoly: number;
  /** Detail mesh sampling distance; below 0.9 no interior samples are taken. [cell widths, >= 0] */
  detailSampleDist: number;
  /** Largest height error the detail mesh may keep. [cell heights, >= 0] */
  detailSampleMaxError: number;
  /** Region partitioning method. */
  partition: Partition;
  /**
   * Most a heightfield (the solo grid, or one tile) may allocate: its columns (refused before
   * allocating) plus its spans (refused, naming the triangle, when they run out), as Recast
   * allocates. The grid's height costs nothing. [columns + spans, > 0]
   */
  maxVoxels: number;
  /**
   * Tile side for a tiled build (buildTiledNavMesh); 0 builds one tile covering everything.
   * Recast's samples use 32..128. [cells, integer, 0..4096]
   */
  tileSize: number;
}

/**
 * What the build functions take: any subset of {@link BuildConfig}; the rest are
 * {@link DEFAULT_CONFIG}'s. `const options: BuildConfigInput = { agentRadius: 0.4 }`.
 */
export type BuildConfigInput = Partial<BuildConfig>;

/** The derived values every stage works with. Built only by {@link resolveConfig}. */
export interface ResolvedConfig extends Readonly<BuildConfig> {
  readonly walkableHeightVoxels: number;
  readonly walkableClimbVoxels: number;
  readonly walkableRadiusVoxels: number;
  readonly walkableSlopeDegrees: number;
  readonly minRegionAreaCells: number;
  readonly mergeRegionAreaCells: number;
  readonly edgeMaxLenVoxels: number;
  readonly edgeMaxErrorVoxels: number;
  readonly detailSampleDistWorld: number;
  readonly detailSampleMaxErrorWorld: number;
  /**
   * Cells each tile's heightfield reaches past its edges so neighbouring tiles agree at the
   * seam: walkableRadiusVoxels + 3 when tiled (Recast's sample), 0 for a solo build. [cells]
   */
  readonly borderSizeVoxels: number;
  /** Tile side in world units: tileSize * cellSize (0 for a solo build). [world units] */
  readonly tileWorldSize: number;
}

/** RecastDemo's defaults. */
export const DEFAULT_CONFIG: Readonly<BuildConfig> = Object.freeze({
  cellSize: 0.3,
  cellHeight: 0.2,
  agentHeight: 2.0,
  agentRadius: 0.6,
  agentMaxClimb: 0.9,
  agentMaxSlope: 45,
  regionMinSize: 8,
  regionMergeSize: 20,
  edgeMaxLen: 12,
  edgeMaxError: 1.3,
  vertsPerPoly: 6,
  detailSampleDist: 6,
  detailSampleMaxError: 1,
  partition: "watershed",
  // ~2 GiB of span pool at ~12 bytes per span if every column held a span per layer; whole,
  // since it counts voxels (and `meshway info` prints it).
  maxVoxels: Math.floor(2 ** 31 / 12),
  tileSize: 0,
});

interface Range {
  min: number;
  max: number;
  minExclusive?: boolean;
  integer?: boolean;
}

const RANGES: Record<Exclude<keyof BuildConfig, "partition">, Range> = {
  cellSize: { min: 0, max: 1e6, minExclusive: true },
  cellHeight: { min: 0, max: 1e6, minExclusive: true },
  agentHeight: { min: 0, max: 1e6, minExclusive: true },
  agentRadius: { min: 0, max: 1e6 },
  agentMaxClimb: { min: 0, max: 1e6 },
  agentMaxSlope: { min: 0, max: 90 },
  regionMinSize: { min: 0, max: 1e4 },
  regionMergeSize: { min: 0, max: 1e4 },
  edgeMaxLen: { min: 0, max: 1e9 },
  edgeMaxError: { min: 0, max: 1e4 },
  vertsPerPoly: { min: 3, max: 12, integer: true },
  detailSampleDist: { min: 0, max: 1e6 },
  detailSampleMaxError: { min: 0, max: 1e6 },
  maxVoxels: { min: 0, max: Number.MAX_SAFE_INTEGER, minExclusive: true },
  tileSize: { min: 0, max: 4096, integer: true },
};

const PARTITIONS: readonly Partition[] = ["watershed", "monotone", "layers"];

function describeRange(r: Range): string {
  const lo = r.minExclusive ? `> ${r.min}` : `>= ${r.min}`;
  return `${r.integer ? "an integer " : "a number "}${lo} and <= ${r.max}`;
}

/**
 * Merge user settings over the defaults, check every value and derive the voxel values.
 * Throws `MeshwayError("INVALID_CONFIG")` naming the option, its value and the allowed range.
 */
export function resolveConfig(config: Partial<BuildConfig> = {}): ResolvedConfig {
  if (config === null || typeof config !== "object") {
    throw new MeshwayError("INVALID_CONFIG", `config must be an object, got ${String(config)}`);
  }
  for (const key of Object.keys(config)) {
    // Own keys only: `in` would accept inherited names like "toString" or "__proto__".
    if (!Object.hasOwn(DEFAULT_CONFIG, key)) {
      throw new MeshwayError(
        "INVALID_CONFIG",
        `unknown config option "${key}" (known: ${Object.keys(DEFAULT_CONFIG).join(", ")})`,
      );
    }
  }
  const c: BuildConfig = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined) (c as unknown as Record<string, unknown>)[key] = value;
  }
  for (const [key, range] of Object.entries(RANGES) as [keyof typeof RANGES, Range][]) {
    const v = c[key];
    const ok =
      typeof v === "number" &&
      Number.isFinite(v) &&
      (range.minExclusive ? v > range.min : v >= range.min) &&
      v <= range.max &&
      (!range.integer || Number.isInteger(v));
    if (!ok) {
      throw new MeshwayError(
        "INVALID_CONFIG",
        `config option "${key}" = ${typeof v === "number" ? String(v) : JSON.stringify(v)} is out of range: expected ${describeRange(range)}`,
      );
    }
  }
  if (!PARTITIONS.includes(c.partition)) {
    throw new MeshwayError(
      "INVALID_CONFIG",
      `config option "partition" = ${JSON.stringify(c.partition)} is not one of ${PARTITIONS.join(", ")}`,
    );
  }
  // Rounding follows RecastDemo: clearance and radius round up (never too permissive),
  // climb rounds down (never climbs more than asked).
  const walkableRadiusVoxels = Math.ceil(c.agentRadius / c.cellSize - 1e-9);
  return Object.freeze({
    ...c,
    walkableHeightVoxels: Math.max(1, Math.ceil(c.agentHeight / c.cellHeight - 1e-9)),
    walkableClimbVoxels: Math.floor(c.agentMaxClimb / c.cellHeight + 1e-9),
    walkableRadiusVoxels,
    walkableSlopeDegrees: c.agentMaxSlope,
    minRegionAreaCells: Math.round(c.regionMinSize * c.regionMinSize),
    mergeRegionAreaCells: Math.round(c.regionMergeSize * c.regionMergeSize),
    edgeMaxLenVoxels: Math.floor(c.edgeMaxLen / c.cellSize + 1e-9),
    edgeMaxErrorVoxels: c.edgeMaxError,
    detailSampleDistWorld: c.detailSampleDist < 0.9 ? 0 : c.cellSize * c.detailSampleDist,
    detailSampleMaxErrorWorld: c.cellHeight * c.detailSampleMaxError,
    borderSizeVoxels: c.tileSize > 0 ? walkableRadiusVoxels + 3 : 0,
    tileWorldSize: c.tileSize * c.cellSize,
  });
}

/**
 * The user-level options of a config as plain data, in DEFAULT_CONFIG's order: checked and
 * completed with the defaults (as resolveConfig does), derived values dropped. Accepts a
 * ResolvedConfig too (its derived fields are ignored). What a `.navmesh` file stores.
 */
export function toBuildConfig(config: Partial<BuildConfig> | ResolvedConfig = {}): BuildConfig {
  if (config === null || typeof config !== "object") {
    throw new MeshwayError("INVALID_CONFIG", `config must be an object, got ${String(config)}`);
  }
  const user: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_CONFIG)) {
    const v = (config as Record<string, unknown>)[key];
    if (v !== undefined) user[key] = v;
  }
  const resolved = resolveConfig(user as Partial<BuildConfig>);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_CONFIG)) out[key] = resolved[key as keyof BuildConfig];
  return out as unknown as BuildConfig;
}
