import type { BuildConfigInput } from "meshway";

/** Build stages the worker can draw (from a single-tile build's intermediates). */
export const BUILD_STAGES = {
  heightfield: "Heightfield (solid)",
  heightfieldWalkable: "Heightfield (walkable)",
  compactAreas: "Compact heightfield (areas)",
  distance: "Distance field",
  regions: "Regions",
  rawContours: "Raw contours",
  contours: "Simplified contours",
  connections: "Region connections",
  polyMesh: "Polygon mesh",
  detail: "Detail mesh",
} as const;

/** Stages drawn on the page from the live navmesh (they follow obstacles). */
export const NAVMESH_STAGES = {
  none: "Navmesh only",
  bvTree: "BV tree",
  portals: "Portals",
  tileBorders: "Tile borders",
} as const;

export type BuildStage = keyof typeof BUILD_STAGES;
export type NavMeshStage = keyof typeof NAVMESH_STAGES;
export type Stage = BuildStage | NavMeshStage;

export function isBuildStage(s: string): s is BuildStage {
  return Object.hasOwn(BUILD_STAGES, s);
}

/** A meshway/debug primitive set as it crosses the worker boundary (arrays transferred). */
export interface WirePrimitive {
  kind: "triangles" | "lines" | "points";
  positions: Float32Array;
  colours: Float32Array;
  size: number;
}

export type WorkerRequest =
  | {
      type: "build";
      id: number;
      source: string;
      positions: Float32Array;
      indices: Uint32Array;
      config: BuildConfigInput;
    }
  | { type: "stage"; id: number; stage: BuildStage };

export interface BuildSummary {
  polygons: number;
  vertices: number;
  tiles: number;
  ms: number;
  warnings: string[];
}

export type WorkerReply =
  | { type: "progress"; id: number; fraction: number; label: string }
  /** `tileCache` bytes when config.tileSize > 0 (TileCache.serialize), else `.navmesh` bytes. */
  | { type: "built"; id: number; tiled: boolean; bytes: Uint8Array; summary: BuildSummary }
  | { type: "stage"; id: number; stage: BuildStage; primitives: WirePrimitive[] }
  | { type: "error"; id: number; message: string };
