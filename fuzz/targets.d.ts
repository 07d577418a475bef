// Types of targets.js (the fuzz targets shared by test/property/fuzz-*.test.ts and scripts/fuzz.mjs).
import type fc from "fast-check";

/** A case broke the contract: another exception type, an invalid result, an unknown code. */
export declare class FuzzViolation extends Error {}

export interface FuzzTarget {
  name: string;
  description: string;
  arbitrary: fc.Arbitrary<unknown>;
  /** Runs one case; resolves to an outcome label, rejects with a FuzzViolation. */
  check(value: unknown): Promise<string>;
}

export declare const objTarget: FuzzTarget;
export declare const gltfTarget: FuzzTarget;
export declare const navmeshTarget: FuzzTarget;
export declare const detourTarget: FuzzTarget;
export declare const tileCacheTarget: FuzzTarget;
export declare const tileCacheLayersTarget: FuzzTarget;
export declare const tileCacheTilesTarget: FuzzTarget;
export declare const buildTarget: FuzzTarget;
export declare const queryTarget: FuzzTarget;
export declare const targets: readonly FuzzTarget[];
