// Types of tile-arrays.js (the tile arrays covered by golden hashes and byte-identity checks).
import type { NavMesh } from "../../src/navmesh/nav-mesh.js";
import type { NavMeshTile } from "../../src/navmesh/tile.js";

/** Names of the hashed tile arrays, in hashing order. */
export declare const TILE_ARRAY_NAMES: readonly (keyof NavMeshTile)[];

export function tileArrayBytes(navMesh: Pick<NavMesh, "tiles">): Uint8Array[];
